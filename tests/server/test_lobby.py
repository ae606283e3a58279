"""Lobby: create, list, join, private games, abort, resign."""
from __future__ import annotations

import httpx
import pytest

from .helpers import Player, events, new_match


def test_create_list_join_start(server):
    a, b = Player(server.base), Player(server.base)
    created = a.create(side="confederate", scenario="1862", mode="async")
    gid = created["id"]
    assert created["status"] == "open" and created["seats"]["confederate"]["username"] == a.username
    assert created["seats"]["union"] is None and created["mode"] == "async"
    assert gid in [g["id"] for g in httpx.get(server.base + "/api/games?view=open").json()["games"]]
    assert gid in [g["id"] for g in a.http.get("/api/games?view=mine").json()["games"]]
    # a seat that is taken cannot be joined
    r = b.join(gid, side="confederate")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = b.join(gid)
    assert r.status_code == 200
    g = r.json()
    assert g["status"] == "active" and g["seats"]["union"]["username"] == b.username
    assert g["to_act"] in ("union", "confederate")
    # the game starts when both seats are taken; it leaves the open list for the live list
    assert gid not in [x["id"] for x in httpx.get(server.base + "/api/games?view=open").json()["games"]]
    assert gid in [x["id"] for x in httpx.get(server.base + "/api/games?view=live").json()["games"]]
    types = [e["type"] for e in events(server.base, gid)]
    assert types[0] == "create" and types.count("join") == 2 and types[-1] == "start"
    # a third player cannot join a full game
    c = Player(server.base)
    r = c.join(gid)
    assert r.status_code == 409
    # my games: the ones waiting for me come first
    lobby = b.http.get("/api/lobby").json()
    assert set(lobby) == {"open", "mine", "live"}
    mine = lobby["mine"]
    assert mine[0]["id"] == gid or not any(x["your_turn"] for x in mine[1:])


def test_random_side_and_unknown_scenario(server):
    a = Player(server.base)
    g = a.create(side="random")
    assert [s for s, v in g["seats"].items() if v] in (["union"], ["confederate"])
    r = a.http.post("/api/games", json={"scenario": "1999", "side": "union"})
    assert r.status_code == 422 and "1999" in r.json()["detail"]
    r = a.http.post("/api/games", json={"scenario": "1861", "side": "union", "options": ["no-such-option"]})
    assert r.status_code == 422
    r = a.http.post("/api/games", json={"scenario": "1861", "side": "purple"})
    assert r.status_code == 422
    meta = httpx.get(server.base + "/api/meta").json()
    assert "1861" in meta["scenarios"]


def test_private_game_needs_the_invitation(server):
    a, b = Player(server.base), Player(server.base)
    g = a.create(private=True)
    gid = g["id"]
    assert g["invite_code"] and gid in g["invite_url"]
    assert gid not in [x["id"] for x in httpx.get(server.base + "/api/games?view=open").json()["games"]]
    r = b.join(gid)
    assert r.status_code == 403 and r.json()["code"] == "invite_required"
    r = b.join(gid, invite="wrong")
    assert r.status_code == 403
    # the invitation code is not shown to others
    assert "invite_code" not in b.game(gid)
    r = b.join(gid, invite=g["invite_code"])
    assert r.status_code == 200 and r.json()["status"] == "active"


def test_abort_before_the_first_move_only(server):
    a, b = Player(server.base), Player(server.base)
    gid = a.create()["id"]
    assert b.http.post(f"/api/games/{gid}/abort").status_code == 403  # not seated
    r = a.http.post(f"/api/games/{gid}/abort")
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    assert b.join(gid).status_code == 409

    a, b, gid = new_match(server.base)
    g = a.game(gid)
    mover = a if g["to_act"] == "union" else b
    lg = mover.legal(gid)
    assert mover.act(gid, lg["actions"][0]).status_code == 200
    r = a.http.post(f"/api/games/{gid}/abort")
    assert r.status_code == 409 and r.json()["code"] == "already_started"


def test_resign(server):
    a, b, gid = new_match(server.base)
    r = b.http.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200
    assert r.json()["result"] == {"winner": "union", "reason": "resignation"}
    g = a.game(gid)
    assert g["status"] == "finished" and g["to_act"] is None
    assert events(server.base, gid)[-1]["type"] == "resign"
    # nothing more can be done
    assert b.http.post(f"/api/games/{gid}/resign").status_code == 409
    r = a.act(gid, {"type": "anything"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    assert gid in [x["id"] for x in httpx.get(server.base + "/api/games?view=finished").json()["games"]]
