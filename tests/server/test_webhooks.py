"""Webhooks through the same outbox: retries, the last error shown in the settings, the
JSON key and mention prefix (a tiny HTTP receiver on loopback)."""
from __future__ import annotations

import time

import pytest

from .helpers import Player, ServerProc
from .mailkit import Clock, Receiver, SmtpServer, by_turn_match, server_env




def test_webhook_gets_notices_with_retries_and_shows_the_last_error(srv):
    rcv = Receiver(fail=2)
    try:
        a, b = Player(srv.base), Player(srv.base)
        r = a.http.put("/api/me/webhook", json={"url": rcv.url, "json_key": "text", "prefix": "<@42>"})
        assert r.status_code == 200, r.text
        assert a.http.put("/api/me/webhook", json={"url": "ftp://x"}).status_code == 422
        gid = by_turn_match(srv.base, a, b)  # the game waits for a
        end = time.monotonic() + 10
        while time.monotonic() < end and not a.http.get("/api/me/notifications").json()["webhook"]["last_error"]:
            time.sleep(0.05)
        hook = a.http.get("/api/me/notifications").json()["webhook"]
        assert "HTTP 500" in hook["last_error"]
        [got] = rcv.wait(1)
        assert list(got) == ["text", "delivery", "event"]
        assert got["text"].startswith("<@42> Game ") and f"/games/{gid}" in got["text"]
        time.sleep(0.5)
        assert len(rcv.got) == 1 and rcv.calls == 3  # two failures, one delivery, never twice
        assert a.http.get("/api/me/notifications").json()["webhook"]["last_ok_at"]
        # the test button
        assert a.http.post("/api/me/webhook/test").status_code == 200
        rcv.wait(2)
        assert "Test notice" in rcv.got[1]["text"]
        assert "Webhook" in a.http.get("/settings").text
    finally:
        rcv.close()
