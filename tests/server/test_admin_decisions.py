"""Administrators' decisions players can trust: each decision reaches each player once
(one mail, not also a "your turn" or "game over"), a rewind restarts the clock of the
side to act and applies a forced choice exactly as play does, an annulled game cannot
be annulled again nor given a result, an aborted one cannot be adjudicated."""
from __future__ import annotations

import random
import time

from .helpers import Player
from .mailkit import body, by_turn_match, make_admin, step, verified_player

H = 3600


def _admin(srv) -> Player:
    p = Player(srv.base)
    make_admin(srv.url, p.user_id)
    return p


def _mails_settle(smtp, addrs: list[str], counts: dict[str, int], more: int) -> dict[str, list]:
    """Wait for `more` new mails to each address, then a while longer: no further one may come."""
    got = {a: smtp.box.wait(a, counts[a] + more) for a in addrs}
    time.sleep(1.0)
    for a in addrs:
        assert len(smtp.box.to(a)) == counts[a] + more, [m["Subject"] for m in smtp.box.to(a)[counts[a]:]]
    return {a: got[a][counts[a]:] for a in addrs}


def _counts(smtp, addrs: list[str]) -> dict[str, int]:
    return {a: len(smtp.box.to(a)) for a in addrs}


def _events(p, gid) -> list[dict]:
    return p.http.get(f"/api/games/{gid}/events").json()["events"]


def test_a_rewind_restarts_the_clock_and_applies_the_forced_choice(srv, smtp, clock):
    admin = _admin(srv)
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=1)
    smtp.box.wait(a.email, 1)  # "your turn"
    rng = random.Random(3)
    # the Union ends its movement and promotes nobody: the roll for recruits is forced
    while not any(e["type"] == "auto" for e in _events(a, gid)):
        step(a, gid, rng)
    evs = _events(a, gid)
    auto = next(e for e in evs if e["type"] == "auto")
    assert auto["data"]["reason"] == "forced" and auto["data"]["action"]["type"] == "roll_recruits"
    before = a.game(gid)
    assert before["to_act"] == "union"
    clock.advance(6 * H)
    assert _clock_left(b, gid) < 18.1 * H
    addrs = [a.email, b.email]
    counts = _counts(smtp, addrs)

    back_to = auto["seq"] - 1  # the game rested there, waiting for the forced roll
    r = admin.http.post(f"/api/admin/games/{gid}/rewind", json={"seq": back_to, "reason": "a clerical error"})
    assert r.status_code == 200, r.text
    rew = r.json()["seq"]
    after = _events(a, gid)
    new = [e for e in after if e["seq"] > before["seq"]]
    assert new[0]["type"] == "rewind"
    assert new[1]["type"] == "auto" and new[1]["data"]["reason"] == "forced"
    assert new[1]["data"]["action"] == auto["data"]["action"]
    g = a.game(gid)
    assert g["to_act"] == "union" and g["seq"] == rew
    assert "roll_recruits" not in {x["type"] for x in a.legal(gid)["actions"]}
    # the same die number gives the same roll: the state is the one before the rewind
    assert g["state"] == before["state"]
    # the Union's clock starts again: a full day from the rewind
    assert _clock_left(b, gid) > 23.9 * H
    got = _mails_settle(smtp, addrs, counts, 1)
    for m in got.values():
        assert "rewound" in body(m[0]) and "a clerical error" in body(m[0])


def _clock_left(p, gid) -> float:
    return p.http.get(f"/api/games/{gid}/clock").json()["seconds_left"]


def test_one_mail_per_player_per_decision_and_no_second_annulment(srv, smtp, clock):
    admin = _admin(srv)
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=3)
    addrs = [a.email, b.email]
    smtp.box.wait(a.email, 1)  # "your turn"
    assert b.http.post("/api/language", json={"language": "de"}).status_code == 200
    counts = _counts(smtp, addrs)
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": "union", "reason": "agreed by both"})
    assert r.status_code == 200, r.text
    got = _mails_settle(smtp, addrs, counts, 1)
    for m in got.values():
        assert "agreed by both" in body(m[0])
    assert "adjudicated" in body(got[a.email][0]) and "decided the game's result" in got[a.email][0]["Subject"]
    assert "Ergebnis" in got[b.email][0]["Subject"]   # the subject in the reader's language too
    counts = _counts(smtp, addrs)
    r = admin.http.post(f"/api/admin/games/{gid}/annul", json={"reason": "played by one person"})
    assert r.status_code == 200, r.text
    _mails_settle(smtp, addrs, counts, 1)
    g = a.game(gid)
    assert g["result"]["annulled"] is True
    seq = g["seq"]
    # nothing more to decide: a second annulment and a result for the annulled game are refused
    r = admin.http.post(f"/api/admin/games/{gid}/annul", json={"reason": "once more"})
    assert r.status_code == 409 and r.json()["code"] == "already_annulled"
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": "confederate", "reason": "after all"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    g = a.game(gid)
    assert g["seq"] == seq and g["result"]["annulled"] is True
    # an annulled game has no result: the lists do not call it a draw
    listed = a.http.get(f"/players/{a.username}").text
    assert "Annulled" in listed and "Draw" not in listed
    audit = admin.http.get(f"/api/admin/audit?game_id={gid}").json()["actions"]
    assert [x["action"] for x in audit] == ["annul", "adjudicate"]
    time.sleep(0.5)
    assert _counts(smtp, addrs) == {x: counts[x] + 1 for x in addrs}


def test_an_administrators_copy_of_a_dispute_says_whose_time_runs(srv, smtp, clock):
    admin = verified_player(srv.base, smtp)
    make_admin(srv.url, admin.user_id)
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=3)
    smtp.box.wait(a.email, 1)  # "your turn" to the Union (a)
    addrs = [admin.email, a.email]
    counts = _counts(smtp, addrs)
    r = b.http.post(f"/api/games/{gid}/disputes", json={"seq": 1, "text": "the setup looks wrong"})
    assert r.status_code == 201, r.text
    got = _mails_settle(smtp, addrs, counts, 1)
    mail, players = body(got[admin.email][0]), body(got[a.email][0])
    assert "dispute was opened" in got[admin.email][0]["Subject"] and "the setup looks wrong" in mail
    assert "The Union player's time runs out" in mail and "Your opponent" not in mail and "You play" not in mail
    assert "Your time runs out" in players   # the player's copy speaks to the player


def test_an_aborted_game_cannot_be_adjudicated(srv, smtp, clock):
    admin = _admin(srv)
    a, b = Player(srv.base), Player(srv.base)
    gid = by_turn_match(srv.base, a, b)
    assert a.http.post(f"/api/games/{gid}/abort").status_code == 200
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": "union", "reason": "why not"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    assert a.game(gid)["status"] == "aborted"
