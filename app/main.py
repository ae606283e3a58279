"""The ASGI application: create_app(settings) builds it (uvicorn calls
app.main:create_app as a factory; tests may pass their own Settings).

Every service is built here from the settings and kept on app.state; nothing else reads
the environment.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError as SqlDataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from rules_engine import native

from . import __version__
from .accounts import security
from .accounts.auth import Accounts
from .admin import disputes, integrity, replay
from .computer.analysis import Analyses
from .computer.players import ComputerPlayers
from .computer.pool import ThinkingPool
from .core import errors
from .core.clock import Clock
from .core.config import Settings
from .core.errors import ApiError
from .games.service import GameService
from .guard.http import BodyLimit, SecurityHeaders, ServerErrors, security_headers
from .guard.logs import install as redact_secrets_in_logs
from .guard.ratelimit import RateLimited, RateLimiter, parse_limits
from .guard.shared import TableCounts
from .guard.sockets import OpenSockets
from .http import (
    api,
    apidocs,
    bots,
    chat,
    computer,
    language,
    limits,
    me,
    mutes,
    notices,
    pages,
    passwords,
    playbyturn,
    players,
    refusals,
    unsubscribe,
)
from .http.assets import StaticAssets
from .i18n import N_
from .notices import waiting
from .notices.mailer import Worker
from .notices.outbox import Notices
from .notices.pipeline import Notifier
from .playbyturn import orders
from .playbyturn.deadlines import Deadlines
from .playbyturn.timers import timer_jobs
from .ratings import ledger as ratings_ledger
from .realtime import socket, users
from .realtime.hub import Hub
from .store.db import Database


@dataclass
class Services:
    """Everything a request handler or a background task may need."""
    settings: Settings
    db: Database
    clock: Clock
    notices: Notices
    games: GameService
    hub: Hub
    accounts: Accounts
    deadlines: Deadlines
    outbox_worker: Worker
    integrity: integrity.PeriodicCheck
    limiter: RateLimiter
    open_sockets: OpenSockets
    socket_words: Callable[..., str]   # a refusal in a socket reader's language (app.realtime.gate)
    computer: ComputerPlayers
    analyses: Analyses


def _in_order(*hooks: Callable[..., None]) -> Callable[..., None]:
    def run(*args: Any) -> None:
        for hook in hooks:
            hook(*args)
    return run


def make_accounts(db: Database, settings: Settings) -> Accounts:
    hashing = security.PasswordHashing(settings.password_hash_slots, settings.password_hash_wait_seconds)
    return Accounts(db, settings.secret_key, settings.session_days, hashing)


def make_limiter(db: Database, settings: Settings) -> RateLimiter:
    """The rate limits, counted in the database for all its processes (or each alone)."""
    shared = TableCounts(db) if settings.rate_limit_store == "database" else None
    return RateLimiter(parse_limits(settings.rate_limits), shared=shared)


def build_services(settings: Settings) -> Services:
    db = Database(settings.sqlalchemy_url, pool_size=settings.db_pool_size)
    clock = Clock(settings.clock_file)
    notices_ = Notices.from_settings(settings, clock)
    games = GameService(db, cache_size=settings.game_cache_size, public_url=settings.public_url,
                        game_seed=settings.game_seed)
    hub = Hub(games, settings.fanout_backend, dsn=settings.sqlalchemy_url, queue_limit=settings.ws_queue_limit)
    deadlines = Deadlines(clock, notices_, settings.vacation_days_per_year, settings.reminder_hours)
    # in each append transaction: notices, and the clocks of by-turn games
    computer_players = ComputerPlayers(games, settings.computer_delay_seconds, settings.computer_sweep_seconds,
                                       settings.computer_threads,
                                       ThinkingPool(settings.computer_processes, settings.computer_nice,
                                                    settings.computer_games_per_worker))
    notices_.clocks = deadlines  # deadlines in mails
    notices_.online = hub.side_online  # players with the game open get no mail
    notifier = Notifier(notices_, games, hub.side_online, deadline_hook=deadlines.on_append,
                        orders_answer=orders.will_answer, unnotified=computer_players.is_computer)
    games.on_append = _in_order(notifier.on_append, ratings_ledger.on_append)  # ratings: when rated games end
    games.automate = orders.automate  # forced moves in by-turn games
    hub.users.badge = functools.partial(waiting.badge, db)  # pushed to the user sockets
    worker = Worker(db, settings, clock, notices_, deadlines, send=settings.mail_worker,
                    timers=timer_jobs(db, clock, deadlines, games, float(settings.orders_grace_minutes) * 60))
    return Services(settings, db, clock, notices_, games, hub, make_accounts(db, settings),
                    deadlines, worker, integrity.PeriodicCheck(db, settings.integrity_check_seconds),
                    make_limiter(db, settings),
                    OpenSockets(settings.ws_sockets_per_address, settings.ws_sockets_per_account),
                    refusals.said_on_socket,
                    computer_players, Analyses(computer_players))


def freeze_startup_objects() -> None:
    """The modules, routes, templates, map and words made at start-up live as long as the
    process (about 110,000 objects). A full collection would walk them all each time
    (60-150 ms with the event loop stopped: the slowest moves); frozen, it walks only
    what was made since."""
    gc.collect()
    gc.freeze()


def _lifespan(services: Services) -> Any:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        # which rules engine this process runs: the compiled build is a setup step that
        # a deployment can miss (README, "The compiled engine")
        logging.getLogger(__name__).info("rules engine: %s", native.status())
        await services.hub.start()
        services.integrity.start()
        services.outbox_worker.start()
        await services.computer.start()
        if services.settings.gc_freeze_at_start:
            freeze_startup_objects()
        try:
            yield
        finally:
            await services.computer.stop()
            await services.outbox_worker.stop()
            await services.integrity.stop()
            await services.hub.stop()
            services.db.dispose()
    return lifespan


def _body_not_declared_json(request: Request, errors: Sequence[Any]) -> bool:
    """A body came without a JSON Content-Type (none, or a form's), so it was never
    read as JSON and the whole body fails validation: say what to send instead."""
    sent = request.headers.get("content-length", "0") not in ("", "0") or "transfer-encoding" in request.headers
    declared = request.headers.get("content-type", "").split(";")[0].strip().lower()
    json_type = declared == "application/json" or declared.endswith("+json")
    return sent and not json_type and any(tuple(e.get("loc", ())) == ("body",) for e in errors)


def _install_error_handlers(app: FastAPI) -> None:
    """Every refusal answers {"detail", "code"} with a 4xx status."""
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse(status_code=exc.status, content={"detail": refusals.said(request, exc), "code": exc.code})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            malformed = ApiError(400, N_("malformed JSON in the request body"), "malformed_json")
            return JSONResponse(status_code=400, content={"detail": refusals.said(request, malformed),
                                                          "code": malformed.code})
        if _body_not_declared_json(request, errors):
            wrong_type = ApiError(415, N_("send the body as JSON, with the header Content-Type: application/json"),
                                  "unsupported_media_type")
            return JSONResponse(status_code=415, content={"detail": refusals.said(request, wrong_type),
                                                          "code": wrong_type.code})
        parts = []
        for e in errors:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return JSONResponse(status_code=422, content={
            "detail": "; ".join(parts) or "invalid request", "code": "invalid_request",
            "errors": [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")} for e in errors]})

    @app.exception_handler(OverflowError)
    @app.exception_handler(SqlDataError)
    async def out_of_range(request: Request, exc: Exception):
        refusal = errors.out_of_range()
        return JSONResponse(status_code=refusal.status,
                            content={"detail": refusals.said(request, refusal), "code": refusal.code})

    app.add_exception_handler(RateLimited, limits.too_many_requests)
    app.add_exception_handler(security.HashingBusy, limits.busy_hashing)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse(status_code=exc.status_code, content={"detail": exc.detail, "code": "http_error"},
                            headers=getattr(exc, "headers", None))


def _install_routes(app: FastAPI) -> None:
    for router in (api.router, socket.router, users.router, pages.router, chat.router, me.api, me.pages, playbyturn.api,
                   playbyturn.pages, replay.router, disputes.router, notices.router, integrity.router,
                   notices.pages, apidocs.router, computer.router, players.api, players.pages, bots.router, mutes.api,
                   language.api, passwords.api, passwords.pages,
                   unsubscribe.pages):
        app.include_router(router)
    app.add_middleware(socket.GameSocketMiddleware)
    app.add_middleware(GZipMiddleware, minimum_size=512)  # HTML, JSON, JS, CSS, SVG; never websockets
    settings = app.state.settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, larger={"/api/replay/file": replay.MAX_FILE})
    app.add_middleware(ServerErrors)
    # the outermost: on every answer, a 413 and a 500 too
    app.add_middleware(SecurityHeaders, headers=security_headers(settings.public_url))
    app.mount("/static", StaticAssets(pages.assets()), name="static")

    @app.get("/", include_in_schema=False)
    def root():
        return {"name": "A House Divided", "api": "/docs", "openapi": "/openapi.json"}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if problem := settings.secret_key_problem():
        raise SystemExit(problem)
    if settings.ahd_dev:
        logging.getLogger(__name__).warning(
            "AHD_DEV=1: DEVELOPMENT MODE. Any SECRET_KEY is accepted, the published one too: "
            "never run a public site like this")
    redact_secrets_in_logs()
    services = build_services(settings)
    app = FastAPI(title="A House Divided: game server", version=__version__, lifespan=_lifespan(services),
                  description="Play-by-web server for the board wargame *A House Divided*. See docs/api.md.",
                  docs_url=None, redoc_url=None)  # /docs: app.http.apidocs, no third-party scripts
    for name, value in vars(services).items():
        setattr(app.state, name, value)
    _install_error_handlers(app)
    _install_routes(app)
    return app
