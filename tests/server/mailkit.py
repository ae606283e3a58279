"""Test kit for the play-by-turn tests: a real SMTP server on loopback
(aiosmtpd) that can be stopped and started again on the same port, a shared movable
clock (CLOCK_FILE), verified players, a local webhook receiver and a by-turn game
driven to the points the tests need."""
from __future__ import annotations

import email
import email.policy
import json
import re
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import psycopg
import sqlite3

from app.core.clock import write_offset

from .helpers import Player, free_port


class Mailbox:
    """Messages received by the SMTP server, parsed."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(msg)
        return "250 OK"

    def to(self, addr: str) -> list:
        with self.lock:
            return [m for m in self.messages if addr.lower() in str(m["To"]).lower()]

    def wait(self, addr: str, n: int, timeout: float = 10.0) -> list:
        """Wait until `addr` has at least n messages; return them all."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.to(addr)
            if len(got) >= n:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{addr}: expected {n} mails, got {len(self.to(addr))}: "
                             f"{[m['Subject'] for m in self.to(addr)]}")


class SmtpServer:
    def __init__(self):
        self.port = free_port()
        self.box = Mailbox()
        self.ctl = None

    def start(self):
        from aiosmtpd.controller import Controller
        for _ in range(50):
            try:
                self.ctl = Controller(self.box, hostname="127.0.0.1", port=self.port)
                self.ctl.start()
                return self
            except Exception:  # the port is still being released
                time.sleep(0.1)
        raise RuntimeError("SMTP server did not start")

    def stop(self):
        if self.ctl is not None:
            self.ctl.stop()
            self.ctl = None


def body(msg) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else msg.get_content()


def link(msg, pattern: str) -> str:
    m = re.search(pattern, body(msg))
    assert m, body(msg)
    return m.group(0)


class Clock:
    def __init__(self, path: Path):
        self.path = str(path)
        self.offset = 0.0
        write_offset(self.path, 0)

    def advance(self, seconds: float):
        self.offset += seconds
        write_offset(self.path, self.offset)

    def clear_of_new_year(self, days: int = 7) -> None:
        """Move the clock past New Year (UTC) if it comes within `days`: the vacation
        allowance is counted per calendar year, and the tests sharing this clock have
        moved it on by weeks by the time a vacation test runs (in December it would
        straddle the year, and count a day of the vacation in each)."""
        now = datetime.now(UTC) + timedelta(seconds=self.offset)
        new_year = datetime(now.year + 1, 1, 1, tzinfo=UTC)
        if new_year - now < timedelta(days=days):
            self.advance((new_year - now).total_seconds() + 3600)


def server_env(smtp: SmtpServer, clock: Clock, **extra) -> dict:
    env = dict(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hd@test.example", mail_poll_seconds=0.1,
               mail_retry_seconds=0.2, clock_file=clock.path, orders_grace_minutes=30, reminder_hours=24,
               webhook_allow_hosts="127.0.0.1")  # the test receivers listen on loopback
    env.update(extra)
    return env


def verified_player(base: str, smtp: SmtpServer, mode: str = "turn") -> Player:
    p = Player(base)
    p.email = f"{p.username}@example.org"
    r = p.http.put("/api/me/notifications", json={"email": p.email, "mail_mode": mode})
    assert r.status_code == 200, r.text
    assert r.json()["email_verified"] is False
    [m] = smtp.box.wait(p.email, 1)
    assert "Confirm" in m["Subject"]
    url = link(m, r"http://\S+/verify-email\?t=\S+")
    r = httpx.get(url)
    assert r.status_code == 200 and "confirmed" in r.text, r.text
    assert p.http.get("/api/me/notifications").json()["email_verified"] is True
    smtp.box.messages.remove(m)
    return p


def make_admin(db_url: str, user_id: int) -> None:
    if db_url.startswith("sqlite"):
        c = sqlite3.connect(db_url.split("sqlite:///", 1)[1])
        c.execute("UPDATE users SET is_admin = 1 WHERE id = ?", (user_id,))
        c.commit()
        c.close()
    else:
        with psycopg.connect(db_url, autocommit=True) as c:
            c.execute("UPDATE users SET is_admin = true WHERE id = %s", (user_id,))


QUICK = ("end_movement", "end_recruitment", "no_promotion", "open_fire", "stand", "end_march")


def quick_action(actions: list[dict], rng) -> dict:
    """A decision that hands the game over soon (ends phases), else a random one."""
    for t in QUICK:
        for a in actions:
            if a["type"] == t:
                return a
    return rng.choice(actions)


def seats(a: Player, b: Player) -> dict:
    return {"union": a, "confederate": b}


def by_turn_match(base: str, a: Player, b: Player, days: int | None = None) -> str:
    body_ = {"scenario": "1861", "side": "union", "mode": "async", "private": False, "options": []}
    if days:
        body_["days_per_move"] = days
    r = a.http.post("/api/games", json=body_)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    r = b.join(gid)
    assert r.status_code == 200, r.text
    return gid



def first_move(p: Player, gid: str) -> None:
    """The player to act makes a decision that keeps the turn (activating a box): the game
    has its first move, so a claim on time wins it (before the first move it aborts it)."""
    lg = p.legal(gid)
    act = next(x for x in lg["actions"] if x["type"] == "activate")
    r = p.act(gid, act, expected_seq=lg["seq"])
    assert r.status_code == 200 and r.json()["to_act"] == "union", r.text


def until(fn, timeout: float = 10.0):
    """fn()'s first true value, asked every 50 ms for up to `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("condition not met")

def step(p: Player, gid: str, rng, quick=True) -> dict:
    lg = p.legal(gid)
    acts = lg["actions"]
    assert acts, lg
    a = quick_action(acts, rng) if quick else rng.choice(acts)
    r = p.act(gid, a, expected_seq=lg["seq"])
    assert r.status_code == 200, r.text
    return r.json()


class Receiver:
    """A tiny webhook receiver on loopback: answers `fail` times with 500, then 204.
    `got` has the JSON bodies, `raw` the (headers, exact body bytes) of each delivery."""

    def __init__(self, fail: int = 0):
        self.fail = fail
        self.got: list[dict] = []
        self.raw: list[tuple[dict, bytes]] = []
        self.calls = 0
        outer = self

        class H(BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(n)
                outer.calls += 1
                if outer.fail > 0:
                    outer.fail -= 1
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(b"down for maintenance")
                    return
                outer.raw.append((dict(self.headers.items()), data))
                outer.got.append(json.loads(data))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *a):
                pass

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.srv.server_address[1]}/hook"
        self.t = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.t.start()

    def wait(self, n: int, timeout: float = 10.0) -> list[dict]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(self.got) >= n:
                return self.got
            time.sleep(0.05)
        raise AssertionError(f"webhook: expected {n} calls, got {self.got}")

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


# --------------------------------------------------------------------------- shared fixtures
# One SMTP server, one clock and one app server per backend for all the play-by-turn
# test modules (server start-up dominates their time). Each test uses its own players.

import pytest  # noqa: E402


@pytest.fixture(scope="session", name="smtp")
def smtp_fixture():
    s = SmtpServer().start()
    yield s
    s.stop()


@pytest.fixture(scope="session", name="clock")
def clock_fixture(tmp_path_factory):
    return Clock(tmp_path_factory.mktemp("clock") / "offset")


@pytest.fixture(scope="session")
def play_by_turn_servers(smtp, clock, tmp_path_factory, pg_databases):
    from .conftest import SharedServers
    from .helpers import TEST_GAME_SEED
    servers = SharedServers(tmp_path_factory, pg_databases, "pbt", **server_env(smtp, clock), game_seed=TEST_GAME_SEED)
    yield servers
    servers.stop_all()


@pytest.fixture(scope="session", name="srv", params=["sqlite", "postgres"])
def srv_fixture(request, play_by_turn_servers):
    return play_by_turn_servers.get(request.param)
