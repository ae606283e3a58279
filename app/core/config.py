"""Settings, read from the environment (pydantic-settings).

Only the entry points (python -m app, create_app() without arguments, the migrations'
env) read the environment; everything else is handed the Settings it needs."""
from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SQLITE_URL = "sqlite:///./house_divided.sqlite3"
DEV_SECRET_KEY = "insecure-development-key-change-me"
# keys printed in this repository: never good enough outside development
PUBLIC_SECRET_KEYS = (DEV_SECRET_KEY, "change-me-to-a-long-random-string")
#: The shortest SECRET_KEY accepted outside development (openssl rand -hex 32 gives 64).
MIN_SECRET_KEY_BYTES = 32


def normalize_database_url(url: str) -> str:
    """Accept URLs as people write them and pick the driver this app ships with.

    ``postgres://`` and ``postgresql://`` become ``postgresql+psycopg://`` (psycopg 3);
    ``sqlite:///relative.db`` and ``sqlite:////absolute.db`` are kept as they are.
    """
    url = url.strip()
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith("sqlite:") and not url.startswith("sqlite:///"):
        raise ValueError("SQLite URLs look like sqlite:///relative/path.db or sqlite:////absolute/path.db")
    return url


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = Field(DEFAULT_SQLITE_URL, description="sqlite:///path or postgresql://user@host/db")
    secret_key: str = Field(DEV_SECRET_KEY,
                            description="signs CSRF tokens; set a long random value in production")
    public_url: str = Field("http://localhost:8000", description="the address players use (links, cookie security)")
    cookie_secure: bool | None = Field(None, description="Secure flag on cookies; default: true when "
                                                         "PUBLIC_URL is https")
    session_days: int = Field(30, description="lifetime of a login session")
    password_hash_slots: int = Field(2, ge=1, le=64, description="password hashes (argon2, 19 MiB each) one "
                                                                 "process computes at once; logins beyond wait")
    password_hash_wait_seconds: float = Field(2.0, ge=0, le=60, description="how long a login waits for a free "
                                                                             "hashing slot before it is answered "
                                                                             "503 with Retry-After")
    game_cache_size: int = Field(500, description="games whose replayed state each process keeps in memory")
    fanout: str = Field("auto", description="auto | memory | postgres: how events reach sockets of other processes")
    ws_queue_limit: int = Field(1000, description="messages queued for a slow socket before it is dropped")
    db_pool_size: int = Field(10, ge=1, description="database connections per process, and the worker threads "
                                                     "that run the game commands and reads of sockets")
    ws_impl: str = Field("websockets-sansio", description="uvicorn websocket implementation: "
                                                         "websockets-sansio | websockets | wsproto")
    ws_per_message_deflate: bool = Field(False, description="compress websocket messages (costs CPU per socket)")
    # longer than the idle time after which common HTTP client libraries drop a pooled
    # connection themselves (httpx 5 s, aiohttp 15 s): at uvicorn's 5 s a bot's request
    # could go out on a connection the server was closing at that moment, and fail
    keep_alive_seconds: int = Field(20, ge=1, le=3600, description="how long an idle HTTP connection is kept open")
    log_level: str = Field("info")
    # play by turn (docs/notifications.md): mail, webhooks, deadlines
    smtp_host: str = Field("", description="SMTP server for notices; empty: no email is sent (it waits in the outbox)")
    smtp_port: int = Field(25)
    smtp_user: str = Field("", description="SMTP login (empty: no AUTH)")
    smtp_password: str = Field("")
    smtp_tls: str = Field("none", description="none | starttls | ssl")
    mail_from: str = Field("A House Divided <noreply@localhost>", description="From: of notices")
    mail_worker: bool = Field(True, description="send the outbox from the app process; set false when "
                                               "'python -m app mail-worker' runs separately")
    mail_poll_seconds: float = Field(5.0, description="how often the outbox worker and timers look for work")
    mail_retry_seconds: float = Field(30.0, description="first retry delay after a failed delivery (doubles)")
    mail_max_attempts: int = Field(20, description="deliveries tried before a message is marked failed")
    mail_delay_seconds: float = Field(0.0, description="hold 'your turn' notices this long (dropped if answered)")
    reminder_hours: float = Field(24.0, description="remind a player this long before their time is up")
    orders_grace_minutes: float = Field(30.0, description="standing battle orders answer after this silence")
    vacation_days_per_year: int = Field(30, description="vacation days a player may declare per calendar year")
    clock_file: str | None = Field(None, description="tests: a file holding a clock offset in seconds")
    game_seed: str | None = Field(None, description="tests: the dice seed of every new game (repeatable random "
                                                    "play); never set it on a real server")
    # abuse resistance (app.guard): README's settings list explains each
    ahd_dev: bool = Field(False, description="development machine: the built-in SECRET_KEY is accepted")
    rate_limits: str = Field("", description="name=events/seconds,... over the defaults of "
                                             "app.guard.ratelimit.DEFAULT_LIMITS")
    rate_limit_store: str = Field("database", pattern="^(database|process)$",
                                  description="database: the rate limits count in the site's database and hold "
                                              "for all its processes together; process: each process counts "
                                              "alone")
    ws_sockets_per_address: int = Field(64, ge=1, description="websockets one address may hold open at once "
                                                               "without logging in (per process)")
    ws_sockets_per_account: int = Field(32, ge=1, description="websockets one account may hold open at once "
                                                               "(per process)")
    webhook_allow_hosts: str = Field("", description="comma-separated host names webhooks may reach although "
                                                     "they resolve to private or local addresses")
    max_body_bytes: int = Field(1 << 20, description="largest HTTP request body accepted (413 beyond)")
    ws_max_message_bytes: int = Field(64 * 1024, description="largest websocket message answered (an error "
                                                             "message beyond; over 1 MiB the socket closes)")
    integrity_check_seconds: float = Field(3600.0, description="how often the hash chains of all games are "
                                                               "checked (0: never)")
    computer_delay_seconds: float = Field(0.6, description="how long the computer player waits before each "
                                                           "decision, so that people can follow it (tests: 0)")
    computer_sweep_seconds: float = Field(5.0, description="how often each process looks for games waiting for "
                                                           "the computer (after a restart, or moved elsewhere)")
    computer_threads: int = Field(2, ge=1, description="worker threads the computer players of a process may take "
                                                       "at once to read games and make their moves (the thinking "
                                                       "runs in worker processes)")
    computer_processes: int = Field(2, description="worker processes in which the computer players of a server "
                                                   "process think (each game always in the same one; started on "
                                                   "first use)")
    computer_nice: int = Field(10, description="how much lower the CPU priority of the computer's worker "
                                               "processes is than the server's (os.nice; 0: the same)")
    computer_games_per_worker: int = Field(32, description="games whose copy and computer players each worker "
                                                           "process keeps between decisions (least recently "
                                                           "used first out)")
    computer_ladder_file: str = Field("", description="the ladder whose Elo ratings the lobby shows beside the "
                                                      "computer's levels (empty: the engine's own, "
                                                      "rules_engine/ai/data/ladder.json)")
    live_abandon_minutes: float = Field(5.0, description="live games: after this long without a decision from "
                                                         "the player to act, the opponent may hand that seat "
                                                         "to the computer")
    bot_stream_poll_seconds: float = Field(0.2, description="how often the bot API's streams look for changes")
    gc_freeze_at_start: bool = Field(True, description="after start-up, move every object made so far out of "
                                                       "the garbage collector's sight (shorter pauses)")

    @property
    def webhook_allowed_hosts(self) -> tuple[str, ...]:
        return tuple(h.strip().lower() for h in self.webhook_allow_hosts.split(",") if h.strip())

    def secret_key_problem(self) -> str | None:
        """Why the server must not start with this SECRET_KEY, or None. The built-in key
        and the docker-compose placeholder are public: anyone could forge CSRF tokens."""
        if self.ahd_dev:
            return None
        advice = "e.g. SECRET_KEY=$(openssl rand -hex 32), or set AHD_DEV=1 on a development machine"
        if self.secret_key in PUBLIC_SECRET_KEYS:
            return f"SECRET_KEY is not set (or is a published placeholder): set it to a long random value, {advice}"
        if len(self.secret_key.encode()) < MIN_SECRET_KEY_BYTES:
            # "" or "x" would let anyone who guesses it forge CSRF tokens and sign-in links
            return (f"SECRET_KEY is too short ({len(self.secret_key.encode())} bytes): it needs at least "
                    f"{MIN_SECRET_KEY_BYTES} random bytes, {advice}")
        return None

    @property
    def sqlalchemy_url(self) -> str:
        return normalize_database_url(self.database_url)

    @property
    def is_postgres(self) -> bool:
        return self.sqlalchemy_url.startswith("postgresql")

    @property
    def secure_cookies(self) -> bool:
        if self.cookie_secure is not None:
            return self.cookie_secure
        return urlsplit(self.public_url).scheme == "https"

    @property
    def fanout_backend(self) -> str:
        if self.fanout != "auto":
            return self.fanout
        return "postgres" if self.is_postgres else "memory"
