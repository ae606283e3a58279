"""By-turn clocks players can trust: a deadline that has passed stays where it was (even
if the late player then goes on vacation), "more time" given to a late player counts
from the moment it is given and is refused exactly when the clock says it cannot be
given, a claim before the first move aborts the game, vacations are whole days ending at
midnight, and the opponent hears when one starts. The clock is moved, never slept on."""
from __future__ import annotations

from datetime import datetime

import httpx

from .helpers import Player
from .mailkit import body, by_turn_match, first_move, until, verified_player

H = 3600


def _clock(p, gid) -> dict:
    r = p.http.get(f"/api/games/{gid}/clock")
    assert r.status_code == 200, r.text
    return r.json()






def test_a_passed_deadline_stays_and_the_opponent_hears_of_a_vacation(srv, smtp, clock):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=1)
    first_move(a, gid)
    before = _clock(b, gid)
    deadline = datetime.fromisoformat(before["deadline"])
    clock.advance(25 * H)
    late = _clock(b, gid)
    assert late["expired"] is True and late["can_claim"] is True
    assert late["deadline"] == before["deadline"]
    clock.advance(3 * H)
    assert _clock(b, gid)["deadline"] == before["deadline"]
    # the late player goes on vacation after the deadline: it does not move, the claim stands
    r = a.http.post("/api/me/vacation", json={"days": 2})
    assert r.status_code == 200, r.text
    after = _clock(b, gid)
    assert after["deadline"] == before["deadline"] and after["expired"] is True and after["can_claim"] is True
    assert datetime.fromisoformat(after["deadline"]) == deadline
    # the opponent is told, in the site and by mail
    mail = until(lambda: [m for m in smtp.box.to(b.email) if "vacation" in m["Subject"].lower()])
    assert a.username in body(mail[-1]) and "until" in body(mail[-1])
    notes = b.http.get("/api/me/notices").json()["notices"]
    assert any(n["kind"] == "vacation" and n["game_id"] == gid for n in notes)
    assert not [m for m in smtp.box.to(a.email) if "vacation" in m["Subject"].lower()]
    assert b.http.post(f"/api/games/{gid}/claim").json()["result"]["winner"] == "confederate"


def test_more_time_counts_from_now_when_late_and_is_refused_when_the_clock_says_so(srv, smtp, clock):
    a, b = Player(srv.base), Player(srv.base)
    gid = by_turn_match(srv.base, a, b, days=1)
    first_move(a, gid)
    # the player to act cannot give themselves time; a stranger cannot either
    assert _clock(a, gid)["can_extend"] is False
    r = a.http.post(f"/api/games/{gid}/extend", json={"days": 3})
    assert r.status_code == 409 and r.json()["code"] == "cannot_extend"
    stranger = Player(srv.base)
    assert _clock(stranger, gid)["can_extend"] is False
    assert stranger.http.post(f"/api/games/{gid}/extend", json={"days": 1}).status_code == 403
    assert _clock(a, gid)["seconds_left"] > 23 * H  # nothing changed
    # in time: the days are added to what is left
    assert _clock(b, gid)["can_extend"] is True
    r = b.http.post(f"/api/games/{gid}/extend", json={"days": 1})
    assert r.status_code == 200, r.text
    assert 47 * H < r.json()["clock"]["seconds_left"] <= 48 * H
    # late by a day: two days from now, not from the old deadline
    clock.advance(72 * H)
    c = _clock(b, gid)
    assert c["expired"] is True and c["can_extend"] is True
    r = b.http.post(f"/api/games/{gid}/extend", json={"days": 2})
    assert r.status_code == 200, r.text
    c = r.json()["clock"]
    assert c["expired"] is False and 48 * H - 120 < c["seconds_left"] <= 48 * H
    assert b.http.post(f"/api/games/{gid}/claim").status_code == 409
    ev = b.http.get(f"/api/games/{gid}/events").json()["events"][-1]
    assert ev["type"] == "time_extended" and ev["data"]["from_now"] is True
    # a finished game has no clock to extend, and says so
    assert a.http.post(f"/api/games/{gid}/resign").status_code == 200
    assert _clock(b, gid)["can_extend"] is False
    r = b.http.post(f"/api/games/{gid}/extend", json={"days": 1})
    assert r.status_code == 409 and r.json()["code"] == "cannot_extend"


def test_a_claim_before_the_first_move_aborts_the_game(srv, smtp, clock):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    r = a.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "async", "rated": True,
                                        "days_per_move": 1})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert b.join(gid).status_code == 200
    smtp.box.wait(a.email, 1)  # "your turn"
    clock.advance(25 * H)
    assert until(lambda: _clock(b, gid)["can_claim"])
    r = b.http.post(f"/api/games/{gid}/claim")
    assert r.status_code == 200, r.text
    res = r.json()
    assert res["status"] == "aborted" and res["result"]["aborted"] is True and res["result"]["winner"] is None
    g = a.game(gid)
    assert g["status"] == "aborted" and g["result"]["aborted"] is True
    # nobody is rated for a game nobody played
    for p in (a, b):
        assert httpx.get(f"{srv.base}/api/players/{p.username}").json()["rating"] is None
    aborted = until(lambda: [m for m in smtp.box.to(a.email) if "aborted" in m["Subject"].lower()])
    assert gid in body(aborted[-1])
    assert not [m for m in smtp.box.to(a.email) if "lost on time" in body(m)]


def test_vacations_are_whole_days_ending_at_midnight(srv, smtp, clock):
    clock.clear_of_new_year()
    a = Player(srv.base)
    for bad in (1.5, "2", 0, True):
        r = a.http.post("/api/me/vacation", json={"days": bad})
        assert r.status_code == 422, (bad, r.text)
    assert a.http.get("/api/me/vacation").json()["on_vacation"] is False
    r = a.http.post("/api/me/vacation", json={"days": 2})
    assert r.status_code == 200, r.text
    v = r.json()
    ends = datetime.fromisoformat(v["until"])
    assert (ends.hour, ends.minute, ends.second) == (0, 0, 0) and v["time_zone"] == "UTC"
    assert v["days_used"] == 2 and v["days_left"] == v["days_per_year"] - 2
    # back before the first midnight: still one whole day of the allowance
    b = Player(srv.base)
    assert b.http.post("/api/me/vacation", json={"days": 3}).status_code == 200
    info = b.http.delete("/api/me/vacation").json()
    assert info["on_vacation"] is False and info["days_used"] == 1
