"""What by-turn mails say and when they go: the opponent, the reader's side, the
scenario, the game turn and the deadline in the reader's time zone; the digest at the
reader's hour, each game once; no mail to a player who has the game open; no mail for a
decision the standing orders answer, and the next mail says what they did. Real server
processes (SQLite and Postgres), a real SMTP server on loopback, the movable clock."""
from __future__ import annotations

import asyncio
import random
import re
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import websockets

from .mailkit import Receiver, body, by_turn_match, seats, step, verified_player
from .test_mail import html_body


def _server_now(clock) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=clock.offset)


def _local(iso: str, zone: str) -> str:
    t = datetime.fromisoformat(iso).astimezone(ZoneInfo(zone))
    return f"{t.day} {t.strftime('%b')} {t.year}, {t.hour:02d}:{t.minute:02d}"


def _play_until_waiting_for(sts: dict, gid: str, side: str, rng) -> dict:
    for _ in range(400):
        g = sts["union"].game(gid)
        if g["status"] != "active" or g["to_act"] == side:
            return g
        step(sts[g["to_act"]], gid, rng)
    raise AssertionError("the game never waited for " + side)


def test_a_turn_mail_names_the_game_and_gives_the_deadline_in_the_readers_zone(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    r = a.http.put("/api/me/notifications", json={"time_zone": "America/New_York"})
    assert r.status_code == 200 and r.json()["time_zone"] == "America/New_York"
    gid = by_turn_match(srv.base, a, b, days=3)
    [m] = smtp.box.wait(a.email, 1)
    deadline = a.http.get(f"/api/games/{gid}/clock").json()["deadline"]
    text, page = body(m), html_body(m)
    assert f"You play the Union against {b.username} (Confederate)." in text
    assert "Scenario: 1861 Campaign Game, game turn: Turn 1 (" in text
    when = _local(deadline, "America/New_York")
    assert re.search(rf"Your time runs out \w{{3}} {when} E[SD]T \(America/New_York\)\.", text), (when, text)
    assert f"<td>{b.username} (Confederate)</td>" in page and "1861 Campaign Game" in page and when in page
    # the hand-over to b: b reads UTC (the default), and what a did since b's last move
    _play_until_waiting_for(seats(a, b), gid, "confederate", random.Random(3))
    [mb] = smtp.box.wait(b.email, 1)
    tb = body(mb)
    assert f"You play the Confederate against {a.username} (Union)." in tb
    deadline_b = b.http.get(f"/api/games/{gid}/clock").json()["deadline"]
    assert f"{_local(deadline_b, 'UTC')} UTC (UTC)." in tb
    assert tb.index("Your time runs out") < tb.index("Since your last move:") < tb.index("\n- ")


def test_no_time_limit_and_nothing_once_the_game_is_over(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b)
    [m] = smtp.box.wait(a.email, 1)
    assert "No time limit." in body(m) and "No time limit." in html_body(m)
    assert a.http.post(f"/api/games/{gid}/resign").status_code == 200
    [over] = smtp.box.wait(b.email, 1)
    text = body(over)
    assert "resigned" in over["Subject"].lower() and f"against {a.username} (Union)" in text
    assert "No time limit" not in text and "runs out" not in text


def test_time_zone_and_digest_hour_are_checked(srv, smtp):
    a = verified_player(srv.base, smtp)
    for bad in ("Mars/Olympus", "../../etc/passwd", "", "Europe/"):
        r = a.http.put("/api/me/notifications", json={"time_zone": bad, "mail_mode": "never"})
        assert r.status_code == 422 and r.json()["code"] == "invalid_time_zone", (bad, r.text)
    for bad in (24, -1):
        r = a.http.put("/api/me/notifications", json={"digest_hour": bad, "mail_mode": "never"})
        assert r.status_code == 422 and "0 to 23" in r.json()["detail"]
    got = a.http.get("/api/me/notifications").json()
    assert (got["time_zone"], got["digest_hour"], got["mail_mode"]) == ("UTC", 8, "turn")  # nothing changed
    r = a.http.put("/api/me/notifications", json={"time_zone": "Asia/Tokyo", "digest_hour": 21})
    assert (r.json()["time_zone"], r.json()["digest_hour"]) == ("Asia/Tokyo", 21)


def test_the_digest_comes_at_the_readers_hour_and_lists_each_game_once(srv, smtp, clock):
    a = verified_player(srv.base, smtp)
    b = verified_player(srv.base, smtp)
    mine = by_turn_match(srv.base, a, b, days=7)          # waits for a (Union)
    r = b.http.post("/api/games", json={"scenario": "1862", "side": "union", "mode": "async", "options": []})
    theirs = r.json()["id"]
    assert a.join(theirs).status_code == 200             # a is the Confederate; it waits for b
    smtp.box.wait(a.email, 1)
    tokyo = _server_now(clock).astimezone(ZoneInfo("Asia/Tokyo"))
    hour = (tokyo.hour + 3) % 24
    r = a.http.put("/api/me/notifications", json={"mail_mode": "digest", "time_zone": "Asia/Tokyo",
                                                  "digest_hour": hour})
    assert r.status_code == 200
    assert b.http.post(f"/api/games/{theirs}/resign").status_code == 200  # news in a game not waiting for a
    start = len(smtp.box.to(a.email))
    due = tokyo.replace(minute=0, second=0, microsecond=0) + timedelta(hours=3)
    clock.advance((due - tokyo).total_seconds() - 600)    # ten minutes before a's hour: nothing
    time.sleep(0.8)
    assert len(smtp.box.to(a.email)) == start
    clock.advance(660)
    m = smtp.box.wait(a.email, start + 1)[-1]
    text = body(m)
    assert "1 game waiting for you" in m["Subject"]
    assert text.count(f"- Game {mine}:") == 1 and text.count(f"- Game {theirs}:") == 1
    assert text.index(mine) < text.index(theirs)         # the game waiting for a comes first
    assert f"You play the Union against {b.username} (Confederate)." in text
    assert f"You play the Confederate against {b.username} (Union)." in text
    assert "Scenario: 1862" in text and "(Asia/Tokyo)" in text and "resigned" in text
    time.sleep(0.6)
    assert len(smtp.box.to(a.email)) == start + 1        # once a day


def _union_with_a_webhook_waits(srv, smtp, hook, days: int, seed: int):
    """A by-turn game whose Union player (a, with a webhook) has had the first mail and
    call and has moved: the game waits for the Confederate."""
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    assert a.http.put("/api/me/webhook", json={"url": hook.url}).status_code == 200
    gid = by_turn_match(srv.base, a, b, days=days)
    smtp.box.wait(a.email, 1)
    hook.wait(1)
    rng = random.Random(seed)
    sts = seats(a, b)
    _play_until_waiting_for(sts, gid, "confederate", rng)
    return a, gid, sts, rng


def test_a_by_turn_player_with_the_game_open_gets_no_mail_or_webhook(srv, smtp, clock):
    hook = Receiver()
    try:
        a, gid, sts, rng = _union_with_a_webhook_waits(srv, smtp, hook, days=1, seed=8)

        async def watch():
            async with websockets.connect(f"{srv.ws_base}/ws/games/{gid}?token={a.token}") as ws:
                await asyncio.sleep(0.5)  # subscribed: a is present
                await asyncio.to_thread(_play_until_waiting_for, sts, gid, "union", rng)
                clock.advance(21 * 3600)   # a's reminder comes due while a looks at the game
                for _ in range(100):
                    kinds = [n["kind"] for n in a.http.get("/api/me/notices").json()["notices"]]
                    if "reminder" in kinds:
                        break
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.8)
                await ws.close()
            return kinds
        kinds = asyncio.run(watch())
        assert kinds[:2] == ["reminder", "turn"]          # the notices are there, on the site
        assert len(smtp.box.to(a.email)) == 1 and len(hook.got) == 1  # but no mail, no webhook call
        # a has gone: the next hand-over to a is mailed and called again
        step(a, gid, rng)
        _play_until_waiting_for(sts, gid, "confederate", rng)
        _play_until_waiting_for(sts, gid, "union", rng)
        smtp.box.wait(a.email, 2)
        hook.wait(2)
    finally:
        hook.close()


def test_a_player_who_leaves_without_answering_is_mailed_once_away(srv, smtp, clock):
    """The turn comes while the player has the game open: no mail while they look at it;
    once they close it without answering, the mail (and the webhook call) goes out."""
    hook = Receiver()
    try:
        a, gid, sts, rng = _union_with_a_webhook_waits(srv, smtp, hook, days=3, seed=9)

        async def look_then_leave():
            async with websockets.connect(f"{srv.ws_base}/ws/games/{gid}?token={a.token}") as ws:
                await asyncio.sleep(0.5)  # subscribed: a is present
                await asyncio.to_thread(_play_until_waiting_for, sts, gid, "union", rng)
                clock.advance(90)          # held mail is looked at again: a still has the game open
                await asyncio.sleep(0.8)
                await ws.close()
        asyncio.run(look_then_leave())
        assert len(smtp.box.to(a.email)) == 1 and len(hook.got) == 1   # nothing while a looked
        clock.advance(90)                  # a has been away: the turn mail and the call go out
        [_, turn] = smtp.box.wait(a.email, 2)
        hook.wait(2)
        assert gid in turn["Subject"]
        time.sleep(0.5)
        assert len(smtp.box.to(a.email)) == 2 and len(hook.got) == 2   # once each
    finally:
        hook.close()


def test_no_mail_for_a_decision_the_standing_orders_answer_and_the_next_mail_says_what_they_did(srv, smtp, clock):
    from .test_orders import _to_defender_battle
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b)
    orders = {"stand": True, "targets": "spread", "retreat_after_round": 2, "never_reinforce": True,
              "promotion": "first"}
    assert b.http.put(f"/api/games/{gid}/orders", json={"orders": orders}).status_code == 200
    _to_defender_battle(a, b, gid, random.Random(100))
    time.sleep(0.8)  # several worker rounds
    [last] = b.http.get("/api/me/notices").json()["notices"][:1]
    assert last["game_id"] == gid and last["kind"] in ("battle", "choice")  # the notice is on the site
    decisions = [m for m in smtp.box.to(b.email) if "battle decision" in m["Subject"] or "Retreat" in m["Subject"]]
    assert decisions == []                                                 # but no mail asks b to decide
    seen = len(smtp.box.to(b.email))
    sts, rng = seats(a, b), random.Random(2)
    for _ in range(200):  # the orders answer after the grace time; a plays on until b is mailed again
        if len(smtp.box.to(b.email)) > seen:
            break
        g = a.game(gid)
        assert g["status"] == "active"
        if g["to_act"] == "confederate":
            clock.advance(31 * 60)
            time.sleep(0.4)
        else:
            step(sts["union"], gid, rng)
    nxt = smtp.box.wait(b.email, seen + 1)[seen]
    assert "Standing orders (Confederate: " in body(nxt), body(nxt)


def test_the_digest_hour_and_dates_follow_the_readers_zone_across_daylight_saving():
    from app.notices.readertime import digest_due, local_when
    utc = UTC
    # New York, 8:00: 12:00 UTC in summer, 13:00 UTC in winter (the clocks went back on 2 Nov 2025)
    last = datetime(2025, 11, 1, 12, 30, tzinfo=utc)
    assert not digest_due(last, 8, "America/New_York", datetime(2025, 11, 2, 12, 30, tzinfo=utc))
    assert digest_due(last, 8, "America/New_York", datetime(2025, 11, 2, 13, 0, tzinfo=utc))
    assert digest_due(None, 8, "America/New_York", datetime(2025, 11, 2, 0, 0, tzinfo=utc))
    # Tokyo has no daylight saving: 21:00 there is 12:00 UTC every day
    sent = datetime(2026, 7, 1, 12, 0, tzinfo=utc)
    assert not digest_due(sent, 21, "Asia/Tokyo", datetime(2026, 7, 2, 11, 59, tzinfo=utc))
    assert digest_due(sent, 21, "Asia/Tokyo", datetime(2026, 7, 2, 12, 0, tzinfo=utc))
    moment = datetime(2026, 12, 3, 8, 5, tzinfo=utc)
    assert local_when(moment, "Europe/Paris") == "Thu 3 Dec 2026, 09:05 CET (Europe/Paris)"
    assert local_when(moment, "America/Los_Angeles") == "Thu 3 Dec 2026, 00:05 PST (America/Los_Angeles)"
    assert local_when(moment, "Not/AZone") == "Thu 3 Dec 2026, 08:05 UTC (UTC)"


def test_the_admin_outbox_shows_each_mails_game_and_seq(srv, smtp):
    from .mailkit import make_admin
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    admin = verified_player(srv.base, smtp)
    make_admin(srv.url, admin.user_id)
    gid = by_turn_match(srv.base, a, b)
    smtp.box.wait(a.email, 1)
    seq = a.game(gid)["seq"]
    rows = admin.http.get("/api/admin/outbox", params={"status": "sent"}).json()["messages"]
    [row] = [r for r in rows if r["recipient"] == a.email and r["game_id"] == gid]
    assert 0 < row["game_seq"] <= seq
    page = admin.http.get("/admin/outbox").text
    assert f'<a href="/games/{gid}">{gid}</a> ({row["game_seq"]})' in page
