"""Time limits of by-turn games with a movable clock: reminder, time up, claim (result
decided on time), extension, vacation. Never sleeps for days: CLOCK_FILE."""
from __future__ import annotations

import random
import time

import pytest

from .conftest import need_postgres
from .helpers import ServerProc
from .mailkit import Clock, SmtpServer, body, by_turn_match, first_move, server_env, until, verified_player

H = 3600












def test_reminder_time_up_and_claim_on_time(srv, smtp, clock):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=1)
    smtp.box.wait(a.email, 1)  # "your turn" to the Union (a)
    first_move(a, gid)
    c = b.http.get(f"/api/games/{gid}/clock").json()
    assert c["days_per_move"] == 1 and c["side"] == "union" and 23 * H < c["seconds_left"] <= 24 * H
    assert c["can_claim"] is False and c["can_extend"] is True
    r = b.http.post(f"/api/games/{gid}/claim")
    assert r.status_code == 409 and r.json()["code"] == "not_expired"
    assert a.http.post(f"/api/games/{gid}/claim").status_code == 409  # not your opponent's clock

    clock.advance(20 * H)  # 4 h left: the reminder
    m = smtp.box.wait(a.email, 2)[-1]
    assert "Reminder" in m["Subject"] and "hours left" in body(m)
    time.sleep(0.4)
    assert len(smtp.box.to(a.email)) == 2  # one reminder only

    clock.advance(5 * H)  # time is up
    up = smtp.box.wait(a.email, 3)[-1]
    assert "time is up" in up["Subject"].lower()
    t = smtp.box.wait(b.email, 1)[-1]
    assert "claim the win" in body(t)
    assert b.http.get(f"/api/games/{gid}/clock").json()["can_claim"] is True

    r = b.http.post(f"/api/games/{gid}/claim")
    assert r.status_code == 200, r.text
    res = r.json()["result"]
    assert res["winner"] == "confederate" and res["on_time"] is True and "on time" in res["reason"]
    g = a.game(gid)
    assert g["status"] == "finished" and g["result"]["on_time"] is True
    lost = smtp.box.wait(a.email, 4)[-1]
    assert "lost on time" in body(lost)
    assert "runs out" not in body(lost) and "day per move" not in body(lost)   # the game is over: no deadline
    ev = a.http.get(f"/api/games/{gid}/events").json()["events"]
    assert ev[-1]["type"] == "timeout" and "claims the win on time" in ev[-1]["data"]["text"]


def test_extend_gives_more_time(srv, smtp, clock):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=1)
    clock.advance(25 * H)
    smtp.box.wait(b.email, 1)  # "the Union's time is up"
    r = b.http.post(f"/api/games/{gid}/extend", json={"days": 2})
    assert r.status_code == 200, r.text
    c = r.json()["clock"]
    assert c["expired"] is False and 46 * H < c["seconds_left"] <= 48 * H
    assert b.http.post(f"/api/games/{gid}/claim").status_code == 409
    m = until(lambda: [x for x in smtp.box.to(a.email) if "More time" in x["Subject"]])
    assert "2 more days" in body(m[-1])
    ev = a.http.get(f"/api/games/{gid}/events").json()["events"]
    assert ev[-1]["type"] == "time_extended"
    # the late player moves: the clock now runs for the other side
    rng = random.Random(1)
    from .mailkit import step
    for _ in range(200):
        g = a.game(gid)
        if g["to_act"] != "union":
            break
        step(a, gid, rng)
    c = a.http.get(f"/api/games/{gid}/clock").json()
    assert c["side"] == "confederate" and c["seconds_left"] > 23 * H


def test_vacation_pauses_the_clock(srv, smtp, clock):
    clock.clear_of_new_year()
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    v = a.http.post("/api/me/vacation", json={"days": 3})
    assert v.status_code == 200 and v.json()["on_vacation"] is True
    assert a.http.post("/api/me/vacation", json={"days": 1}).status_code == 409  # already on vacation
    gid = by_turn_match(srv.base, a, b, days=1)
    first_move(a, gid)
    c = b.http.get(f"/api/games/{gid}/clock").json()
    assert c["paused"] is True and c["on_vacation_until"]
    clock.advance(2 * 24 * H)
    time.sleep(0.5)
    c = b.http.get(f"/api/games/{gid}/clock").json()
    assert c["expired"] is False and c["seconds_left"] > 23 * H
    assert b.http.post(f"/api/games/{gid}/claim").status_code == 409
    # back early: the clock runs again, unused days stay in the allowance
    info = a.http.delete("/api/me/vacation").json()
    assert info["on_vacation"] is False and 27.9 < info["days_left"] < 28.1
    clock.advance(25 * H)
    until(lambda: b.http.get(f"/api/games/{gid}/clock").json()["can_claim"])
    assert b.http.post(f"/api/games/{gid}/claim").status_code == 200
    # the yearly allowance
    r = a.http.post("/api/me/vacation", json={"days": 29})
    assert r.status_code == 409 and r.json()["code"] == "no_vacation_left"
