"""Headers of every answer, secrets kept out of the log, no start on a published
SECRET_KEY, and a mail server that fails on QUIT gets each mail once."""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from .helpers import ROOT, Player, ServerProc, new_match
from .mailkit import Mailbox, SmtpServer


def test_every_kind_of_answer_carries_the_security_headers(server):
    a, b, gid = new_match(server.base)
    answers = [httpx.get(server.base + path) for path in
               ("/", "/login", "/docs", "/openapi.json", "/api/health", "/static/site.css", "/static/api.js",
                f"/games/{gid}", "/games/nosuchgame", "/api/games/nosuchgame", "/no/such/page")]
    answers.append(httpx.post(server.base + "/api/auth/login", json={"username": "x"}))
    answers.append(httpx.post(server.base + "/api/auth/register", content=b"x" * (2 << 20)))
    assert {r.status_code for r in answers} >= {200, 404, 413, 422}
    for r in answers:
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, (r.url, csp)
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_the_api_docs_page_loads_nothing_from_elsewhere(server):
    page = httpx.get(server.base + "/docs").text
    assert "cdn" not in page.lower() and "<script>" not in page
    # the page's own script, under its content-hashed name
    assert re.search(r'<script type="module" src="/static/api-docs\.[0-9a-f]{10}\.js">', page)
    assert httpx.get(server.base + "/static/api-docs.js").status_code == 200


def test_tokens_never_reach_the_access_log(tmp_path):
    srv = ServerProc(f"sqlite:///{tmp_path / 'log.sqlite3'}", log_dir=tmp_path, log_level="info").start()
    try:
        a, b, gid = new_match(srv.base)
        httpx.get(f"{srv.base}/unsubscribe", params={"t": "UNSUBSECRET123"})
        httpx.get(f"{srv.base}/verify-email", params={"t": "VERIFYSECRET456"})
        httpx.get(f"{srv.base}/games/{gid}", params={"invite": "INVITESECRET789"})

        async def socket_with_token():
            async with websockets.connect(f"{srv.ws_base}/ws/games/{gid}?token={a.token}&state=0") as ws:
                await ws.recv()
        asyncio.run(socket_with_token())
        time.sleep(0.5)
    finally:
        srv.stop()
    log = srv.log_path.read_text()
    assert "GET /unsubscribe?t=[redacted]" in log and "/verify-email?t=[redacted]" in log, log[-2000:]
    for secret in ("UNSUBSECRET123", "VERIFYSECRET456", "INVITESECRET789", a.token):
        assert secret not in log


def _serve(env_extra: dict, tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "AHD_DEV")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'k.sqlite3'}", PYTHONPATH=str(ROOT), **env_extra)
    return subprocess.run([sys.executable, "-m", "app", "serve", "--port", "1"], cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("key", [None, "insecure-development-key-change-me", "change-me-to-a-long-random-string",
                                 "", "x", "a" * 31])
def test_the_server_refuses_to_start_on_a_published_secret_key(tmp_path, key):
    got = _serve({} if key is None else {"SECRET_KEY": key}, tmp_path)
    assert got.returncode == 2, got.stderr
    assert "SECRET_KEY" in got.stderr and "AHD_DEV=1" in got.stderr
    assert not (tmp_path / "k.sqlite3").exists()         # refused before touching the database


def test_a_development_machine_may_use_the_built_in_key(tmp_path):
    srv = ServerProc(f"sqlite:///{tmp_path / 'dev.sqlite3'}", log_dir=tmp_path,
                     secret_key="insecure-development-key-change-me", ahd_dev="1").start()
    try:
        assert httpx.get(srv.base + "/api/health").json()["ok"] is True
    finally:
        srv.stop()


class QuitFails(Mailbox):
    """Accepts every message, then fails on QUIT: answers 421, or drops the connection."""

    def __init__(self, how: str):
        super().__init__()
        self.how = how

    async def handle_QUIT(self, server, session, envelope):
        if self.how == "drop":
            server.transport.abort()
        return "421 closing: something broke"


@pytest.mark.parametrize("how", ["421", "drop"])
def test_a_mail_server_failing_on_quit_gets_each_mail_once(tmp_path, how):
    smtp = SmtpServer()
    smtp.box = QuitFails(how)
    smtp.start()
    srv = ServerProc(f"sqlite:///{tmp_path / 'm.sqlite3'}", log_dir=tmp_path, smtp_host="127.0.0.1",
                     smtp_port=smtp.port, mail_from="hd@test.example", mail_poll_seconds=0.1,
                     mail_retry_seconds=0.1).start()
    try:
        p = Player(srv.base)
        address = f"{p.username}@example.org"
        assert p.http.put("/api/me/notifications", json={"email": address}).status_code == 200
        smtp.box.wait(address, 1)
        time.sleep(3)              # thirty polls and retry periods: any resend would have happened
        assert len(smtp.box.to(address)) == 1
    finally:
        srv.stop()
        smtp.stop()
