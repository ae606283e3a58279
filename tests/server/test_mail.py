"""Email notices through the transactional outbox, against a real SMTP server on
loopback (aiosmtpd) and real server processes, on SQLite and Postgres."""
from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from app.core.clock import Clock as ServerClock
from app.notices.mailbody import render_mail
from app.notices.outbox import Notices

from .conftest import need_postgres
from .helpers import ROOT, Player, ServerProc
from .mailkit import (Clock, SmtpServer, body, by_turn_match, link, make_admin, seats, server_env, step,
                      verified_player)








def _play_handovers(base, a, b, gid, smtp, n_handovers, rng, check_mail=True):
    """Play until n hand-overs happened; after each, the player now waited for has
    exactly one new mail, with a working link; the other player got none."""
    sts = seats(a, b)
    counts = {p.email: len(smtp.box.to(p.email)) for p in (a, b)}
    handovers = 0
    to_act = a.game(gid)["to_act"]
    for _ in range(400):
        g = a.game(gid)
        if g["status"] != "active" or handovers >= n_handovers:
            break
        out = step(sts[g["to_act"]], gid, rng)
        if out["status"] == "active" and out["to_act"] != to_act:
            handovers += 1
            waiting = sts[out["to_act"]]
            other = sts[to_act]
            if check_mail:
                got = smtp.box.wait(waiting.email, counts[waiting.email] + 1)
                counts[waiting.email] += 1
                m = got[-1]
                assert gid in m["Subject"], m["Subject"]
                url = link(m, r"http://127\.0\.0\.1:\d+/games/\w+")
                assert url.endswith(f"/games/{gid}")
                assert httpx.get(url).status_code == 200
                assert "Since your last move" in body(m)
                assert m["List-Unsubscribe"] and "/unsubscribe?t=" in body(m)
                assert f'href="{url}"' in html_body(m) and "Since your last move" in html_body(m)
                assert len(smtp.box.to(other.email)) == counts[other.email]
        to_act = out["to_act"] if out["status"] == "active" else None
    return handovers


def test_every_handover_mails_once_with_a_working_link(srv, smtp):
    rng = random.Random(5)
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=3)
    # the game starts waiting for the Union: one mail to a, none to b
    [m] = smtp.box.wait(a.email, 1)
    assert "Your turn" in m["Subject"] and f"/games/{gid}" in body(m)
    n = _play_handovers(srv.base, a, b, gid, smtp, 6, rng)
    assert n >= 4
    time.sleep(0.6)  # several worker rounds: nothing more arrives
    ids = [m["Message-ID"] for m in smtp.box.to(a.email) + smtp.box.to(b.email)]
    assert len(ids) == len(set(ids))
    # the in-site side: notices and the badge
    w = b.http.get("/api/me/waiting").json()
    assert w["unread"] >= 1
    g = a.game(gid)
    waiting_for = seats(a, b)[g["to_act"]]
    assert [x["id"] for x in waiting_for.http.get("/api/me/waiting").json()["games"]] == [gid]
    assert "Waiting" in waiting_for.http.get("/notifications").text


def html_body(msg) -> str:
    part = msg.get_body(preferencelist=("html",))
    assert part is not None, "the mail has no HTML part"
    return part.get_content()


def test_the_html_part_says_what_players_typed_as_text():
    notices = Notices("http://example.org", "secret", ServerClock())
    text = "Game g1: your opponent resigned. You win.\n\nSince your last move:\n- <b>x</b> (Union) resigns."
    plain, html = notices.mail_bodies(text, 7, "g1")
    assert "- <b>x</b> (Union) resigns." in plain and "Open the game: http://example.org/games/g1" in plain
    assert "<li>&lt;b&gt;x&lt;/b&gt; (Union) resigns.</li>" in html and "<b>x</b>" not in html
    assert 'href="http://example.org/games/g1"' in html and notices.unsubscribe_url(7) in html
    plain, html = render_mail("digest", username="<b>x</b>", waiting=[], waiting_count=0, notes=["<i>y</i>"],
                              **notices.mail_context(7))
    assert plain.startswith("Hello <b>x</b>,") and "- <i>y</i>" in plain
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "&lt;i&gt;y&lt;/i&gt;" in html and "<b>x</b>" not in html


def test_resignation_mails_the_opponent(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b)
    smtp.box.wait(a.email, 1)
    r = a.http.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200
    [m] = smtp.box.wait(b.email, 1)
    assert "resigned" in m["Subject"].lower() and "You win" in body(m)
    assert "You win" in html_body(m)
    time.sleep(0.4)
    assert len(smtp.box.to(a.email)) == 1  # only the "your turn" at the start


def test_unverified_address_gets_nothing_but_the_confirmation(srv, smtp):
    a = verified_player(srv.base, smtp)
    b = Player(srv.base)
    b.email = f"{b.username}@example.org"
    b.http.put("/api/me/notifications", json={"email": b.email})
    smtp.box.wait(b.email, 1)  # the confirmation mail
    gid = by_turn_match(srv.base, b, a)
    rng = random.Random(2)
    for _ in range(60):  # until it has waited for b at least once more
        g = a.game(gid)
        step(seats(b, a)[g["to_act"]], gid, rng)
    time.sleep(0.5)
    assert len(smtp.box.to(b.email)) == 1
    assert b.http.get("/api/me/notices").json()["notices"]  # in-site notices still come


def test_unsubscribe_link_stops_mail(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b)
    [m] = smtp.box.wait(a.email, 1)
    url = link(m, r"http://\S+/unsubscribe\?t=\S+")
    assert url in m["List-Unsubscribe"] and m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    r = httpx.post(url, data={"List-Unsubscribe": "One-Click"})  # RFC 8058, as mail programs send it
    assert r.status_code == 200 and "no more mail" in r.text
    assert a.http.get("/api/me/notifications").json()["mail_mode"] == "never"
    assert httpx.get(url + "x").status_code == 400  # a forged token
    rng = random.Random(9)
    _play_handovers(srv.base, a, b, gid, smtp, 3, rng, check_mail=False)
    time.sleep(0.5)
    assert len(smtp.box.to(a.email)) == 1
    assert len(smtp.box.to(b.email)) >= 1


def test_daily_digest(srv, smtp, clock):
    a = verified_player(srv.base, smtp, mode="digest")
    b = verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=7)
    gid2 = by_turn_match(srv.base, a, b)
    time.sleep(0.6)
    assert smtp.box.to(a.email) == []  # digest users get no per-turn mail
    clock.advance(25 * 3600)
    [m] = smtp.box.wait(a.email, 1)
    text = body(m)
    assert "2 games waiting" in m["Subject"]
    assert f"/games/{gid}" in text and f"/games/{gid2}" in text
    # sorted by time left: the game with a clock first
    assert text.index(gid) < text.index(gid2)
    time.sleep(0.5)
    assert len(smtp.box.to(a.email)) == 1  # once a day
    clock.advance(25 * 3600)
    smtp.box.wait(a.email, 2)


def test_mail_server_down_nothing_lost_no_duplicates(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    admin = Player(srv.base)
    make_admin(srv.url, admin.user_id)
    smtp.stop()
    try:
        gid = by_turn_match(srv.base, a, b)
        rng = random.Random(11)
        n = _play_handovers(srv.base, a, b, gid, smtp, 4, rng, check_mail=False)
        assert n == 4
        time.sleep(1.0)  # the worker tries, fails, backs off
        ob = admin.http.get("/api/admin/outbox", params={"status": "pending,sending"}).json()
        mine = [x for x in ob["messages"] if x["recipient"] in (a.email, b.email)]
        assert len(mine) == 5  # the start + 4 hand-overs
        assert any(x["attempts"] >= 1 and x["last_error"] for x in mine)
        page = admin.http.get("/admin/outbox")
        assert page.status_code == 200 and "Pending and failed" in page.text
        assert a.http.get("/api/admin/outbox").status_code == 403
    finally:
        smtp.start()
    got = smtp.box.wait(a.email, 3, timeout=20) + smtp.box.wait(b.email, 2, timeout=20)
    time.sleep(1.0)
    allm = smtp.box.to(a.email) + smtp.box.to(b.email)
    assert len(allm) == 5, [m["Subject"] for m in allm]
    assert len({m["X-HD-Outbox-Id"] for m in allm}) == 5
    ob = admin.http.get("/api/admin/outbox", params={"status": "sent"}).json()
    assert {a.email, b.email} <= {x["recipient"] for x in ob["messages"]}


def test_live_game_does_not_mail_a_connected_player(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    r = a.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live"})
    gid = r.json()["id"]

    async def go():
        async with websockets.connect(f"{srv.ws_base}/ws/games/{gid}?token={a.token}") as ws:
            await asyncio.sleep(0.5)  # subscribed: a is present
            assert b.join(gid).status_code == 200  # the game starts waiting for a, who is connected
            await asyncio.sleep(0.8)
    asyncio.run(go())
    assert smtp.box.to(a.email) == []
    # a has gone: the next hand-over to a is mailed
    rng = random.Random(4)
    for _ in range(300):
        g = a.game(gid)
        if g["to_act"] == "confederate":
            break
        step(a, gid, rng)
    for _ in range(300):
        g = a.game(gid)
        if g["to_act"] == "union" or g["status"] != "active":
            break
        step(b, gid, rng)
    smtp.box.wait(a.email, 1)


def test_mail_worker_as_its_own_process(smtp, clock, tmp_path):
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    s = ServerProc(url, log_dir=tmp_path, **server_env(smtp, clock, mail_worker="false")).start()
    worker = None
    try:
        p = Player(s.base)
        p.email = f"{p.username}@example.org"
        p.http.put("/api/me/notifications", json={"email": p.email})
        time.sleep(0.8)
        assert smtp.box.to(p.email) == []  # the app does not send
        env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="test-secret-key-of-at-least-32-bytes", PUBLIC_URL=s.base,
                   **{k.upper(): str(v) for k, v in server_env(smtp, clock).items()})
        worker = subprocess.Popen([sys.executable, "-m", "app", "mail-worker"], cwd=str(ROOT), env=env,
                                  stdout=open(tmp_path / "worker.log", "wb"), stderr=subprocess.STDOUT)
        smtp.box.wait(p.email, 1, timeout=20)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(10)
        s.stop()
