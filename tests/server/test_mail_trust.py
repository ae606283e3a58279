"""Mail players can trust: the confirmation at registration, threads per game, muted
games, unsubscribing that mail scanners cannot trigger, and signed webhooks. Against a
real SMTP server (aiosmtpd) and real server processes."""
from __future__ import annotations

import hashlib
import hmac
import html
import re
import time
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import httpx

from .helpers import Player, uname
from .mailkit import Receiver, body, by_turn_match, link, verified_player


def test_registering_with_an_address_mails_the_confirmation_at_once(srv, smtp):
    name = uname()
    address = f"{name}@example.org"
    r = httpx.post(srv.base + "/api/auth/register", json={"username": name, "password": "password123",
                                                           "email": address})
    assert r.status_code == 201, r.text
    [m] = smtp.box.wait(address, 1)
    assert "Confirm" in m["Subject"] and f"for the account {name}" in body(m)
    r = httpx.get(link(m, r"http://\S+/verify-email\?t=\S+"))
    assert r.status_code == 200 and "confirmed" in r.text
    me = httpx.get(srv.base + "/api/me/notifications",
                   headers={"Authorization": f"Bearer {login_token(srv, name)}"}).json()
    assert me["email_verified"] is True


def login_token(srv, name: str) -> str:
    r = httpx.post(srv.base + "/api/auth/login", json={"username": name, "password": "password123"})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def test_registering_without_an_address_sends_nothing(srv, smtp):
    before = len(smtp.box.messages)
    p_name = uname()
    r = httpx.post(srv.base + "/api/auth/register", json={"username": p_name, "password": "password123"})
    assert r.status_code == 201
    time.sleep(0.4)
    assert len(smtp.box.messages) == before


def test_mails_of_one_game_share_a_thread_root(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b)
    [turn] = smtp.box.wait(a.email, 1)
    assert a.http.post(f"/api/games/{gid}/resign").status_code == 200
    [resigned] = smtp.box.wait(b.email, 1)
    root = f"<game-{gid}@test.example>"  # MAIL_FROM is hd@test.example
    for m in (turn, resigned):
        assert m["In-Reply-To"] == root and m["References"] == root
        assert m["Message-ID"].startswith("<outbox-") and m["Message-ID"] != root
    assert turn["Message-ID"] != resigned["Message-ID"]
    other = by_turn_match(srv.base, b, a)
    [_, other_turn] = smtp.box.wait(b.email, 2)
    assert other in other_turn["Subject"] and other_turn["References"] == f"<game-{other}@test.example>"


def test_mail_about_no_game_starts_no_thread(srv, smtp):
    p = Player(srv.base)
    p.email = f"{p.username}@example.org"
    assert p.http.put("/api/me/notifications", json={"email": p.email}).status_code == 200
    [m] = smtp.box.wait(p.email, 1)
    assert m["Message-ID"] and m["In-Reply-To"] is None and m["References"] is None


def test_a_muted_game_sends_no_mail_or_webhook_but_keeps_its_notices(srv, smtp):
    rcv = Receiver()
    try:
        a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
        assert a.http.put("/api/me/webhook", json={"url": rcv.url, "json_key": "text"}).status_code == 200
        muted = by_turn_match(srv.base, a, b)
        smtp.box.wait(a.email, 1)
        rcv.wait(1)
        r = a.http.put(f"/api/games/{muted}/mute")
        assert r.status_code == 200 and r.json() == {"game_id": muted, "muted": True}
        assert a.http.put(f"/api/games/{muted}/mute").status_code == 200  # again: no change
        assert Player(srv.base).http.put(f"/api/games/{muted}/mute").json()["code"] == "not_a_player"
        assert a.http.put("/api/games/nosuchgame/mute").status_code == 404
        assert b.http.post(f"/api/games/{muted}/resign").status_code == 200
        loud = by_turn_match(srv.base, a, b)
        assert b.http.post(f"/api/games/{loud}/resign").status_code == 200
        mails = smtp.box.wait(a.email, 3)  # the muted game's start, the other's start and end
        rcv.wait(3)
        time.sleep(0.5)  # a few worker rounds: nothing about the muted game arrives
        assert len(smtp.box.to(a.email)) == 3
        assert [muted in m["Subject"] for m in mails] == [True, False, False]
        assert [muted in x["text"] for x in rcv.got] == [True, False, False]
        kinds = {(n["game_id"], n["kind"]) for n in a.http.get("/api/me/notices").json()["notices"]}
        assert (muted, "resigned") in kinds and (loud, "resigned") in kinds
        page = a.http.get("/notifications").text
        assert "Muted games" in page and f'data-mute="{muted}" data-muted="1"' in page
        assert a.http.get("/api/me/muted-games").json()["games"][0]["game_id"] == muted
        assert a.http.delete(f"/api/games/{muted}/mute").json()["muted"] is False
        assert a.http.get("/api/me/muted-games").json()["games"] == []
    finally:
        rcv.close()


def _unsubscribe_link(srv, smtp):
    """A verified player, and the unsubscribe link of their first "your turn" mail."""
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    by_turn_match(srv.base, a, b)
    [m] = smtp.box.wait(a.email, 1)
    url = link(m, r"http://\S+/unsubscribe\?t=\S+")
    assert m["List-Unsubscribe"].strip() == f"<{url}>" and m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    return a, url


def _mode(p) -> str:
    return p.http.get("/api/me/notifications").json()["mail_mode"]


def test_opening_the_unsubscribe_link_only_asks_and_its_button_unsubscribes(srv, smtp):
    a, url = _unsubscribe_link(srv, smtp)
    for _ in range(2):  # a mail scanner, then the player: nothing changes
        page = httpx.get(url)
        assert page.status_code == 200 and f"for the account <strong>{a.username}</strong>" in page.text
    assert _mode(a) == "turn"
    form = re.search(r'<form method="post" action="([^"]+)">', page.text)
    assert form, page.text
    done = httpx.post(srv.base + html.unescape(form.group(1)))
    assert done.status_code == 200 and "no more mail" in done.text
    assert _mode(a) == "never"
    assert httpx.post(url + "x").status_code == 400 and httpx.get(url + "x").status_code == 400


def test_one_click_post_unsubscribes_directly(srv, smtp):
    a, url = _unsubscribe_link(srv, smtp)
    r = httpx.post(url, content=b"List-Unsubscribe=One-Click",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200
    assert _mode(a) == "never"


def test_the_login_link_of_the_unsubscribe_page_comes_back_with_the_token(srv, smtp):
    a, url = _unsubscribe_link(srv, smtp)
    page = httpx.get(url).text
    login = html.unescape(re.search(r'<a href="(/login\?next=[^"]+)" id="unsubscribe-login"', page).group(1))
    next_ = parse_qs(urlsplit(login).query)["next"][0]
    assert next_ == url.removeprefix(srv.base)
    login_page = httpx.get(srv.base + login)
    assert login_page.status_code == 200 and f'data-next="{html.escape(next_)}"' in login_page.text
    assert httpx.get(srv.base + next_).status_code == 200 and _mode(a) == "turn"


def _verify(secret: str, headers: dict, raw: bytes, now: float, tolerance: float = 300) -> bool:
    """What docs/notifications.md tells receivers to do."""
    ts = headers["X-HD-Timestamp"]
    expected = hmac.new(secret.encode(), ts.encode() + b"." + raw, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-HD-Signature"]) and abs(now - int(ts)) <= tolerance


def test_webhook_calls_are_signed_and_carry_a_structured_event(srv, smtp, clock):
    def now() -> float:  # the servers' clock: the tests move it
        return time.time() + clock.offset

    rcv = Receiver()
    try:
        a, b = Player(srv.base), Player(srv.base)
        r = a.http.put("/api/me/webhook", json={"url": rcv.url, "json_key": "text", "prefix": "<@7>"})
        assert r.status_code == 200, r.text
        secret = r.json()["webhook"]["secret"]
        assert len(secret) == 64
        # shown once: neither the settings nor a change of the webhook show it again
        assert "secret" not in a.http.get("/api/me/notifications").json()["webhook"]
        again = a.http.put("/api/me/webhook", json={"url": rcv.url, "json_key": "text", "prefix": "<@7>"})
        assert "secret" not in again.json()["webhook"]
        assert a.http.put("/api/me/webhook", json={"url": rcv.url, "json_key": "event"}).status_code == 422
        gid = by_turn_match(srv.base, a, b, days=3)  # the game waits for a (Union), 3 days per move
        [got] = rcv.wait(1)
        headers, raw = rcv.raw[0]
        assert _verify(secret, headers, raw, now())
        assert not _verify(secret, headers, raw.replace(b"<@7>", b"<@8>"), now())  # a tampered body
        assert not _verify("0" * 64, headers, raw, now())
        assert headers["X-HD-Delivery"] == got["delivery"] and len(got["delivery"]) == 32
        assert got["text"].startswith("<@7> Game ") and got["text"].endswith(f"/games/{gid}")
        event = got["event"]
        assert {k: event[k] for k in ("game", "kind", "side")} == {"game": gid, "kind": "turn", "side": "union"}
        assert event["link"] == f"{srv.base}/games/{gid}"
        shown = datetime.fromisoformat(a.http.get(f"/api/games/{gid}/clock").json()["deadline"])
        assert abs(datetime.fromisoformat(event["deadline"]) - shown) < timedelta(seconds=1)
        # a new secret: the next call is signed with it, not the old one
        rotated = a.http.post("/api/me/webhook/secret")
        assert rotated.status_code == 200
        new = rotated.json()["webhook"]["secret"]
        assert new != secret
        assert a.http.post("/api/me/webhook/test").status_code == 200
        rcv.wait(2)
        headers, raw = rcv.raw[1]
        assert _verify(new, headers, raw, now()) and not _verify(secret, headers, raw, now())
        assert rcv.got[1]["event"]["kind"] == "test" and headers["X-HD-Delivery"] != rcv.raw[0][0]["X-HD-Delivery"]
        assert b.http.post("/api/me/webhook/secret").status_code == 409
    finally:
        rcv.close()


def test_a_removed_webhook_gets_no_calls_already_queued(srv, smtp):
    rcv = Receiver(fail=1)  # the first call fails: it is retried later
    try:
        a, b = Player(srv.base), Player(srv.base)
        assert a.http.put("/api/me/webhook", json={"url": rcv.url}).status_code == 200
        by_turn_match(srv.base, a, b)
        end = time.monotonic() + 10
        while rcv.calls < 1 and time.monotonic() < end:
            time.sleep(0.05)
        assert a.http.delete("/api/me/webhook").status_code == 200
        time.sleep(1.0)  # the retry would have come by now (MAIL_RETRY_SECONDS is 0.2)
        assert rcv.calls == 1 and rcv.got == []
    finally:
        rcv.close()
