"""Draw offers (offer, decline, accept, lapse) and rematches of finished games: who may,
when, what is recorded, and what every page and watcher sees."""
from __future__ import annotations

import json

import httpx
import websockets

from rules_engine.verify import verify_export

from .helpers import Player, events, new_match, ws_recv, ws_until


def _post(p: Player, gid: str, what: str) -> httpx.Response:
    return p.http.post(f"/api/games/{gid}/{what}")


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["detail"], r.text


async def test_draw_offer_declined_then_accepted_and_shown_as_a_draw(server):
    a, b, gid = new_match(server.base)
    stranger = Player(server.base)
    base = f"{server.base}/api/games/{gid}"
    for what in ("offer-draw", "accept-draw", "decline-draw"):
        assert httpx.post(f"{base}/{what}").status_code == 401
        _refused(_post(stranger, gid, what), 403, "not_a_player")
    _refused(_post(b, gid, "accept-draw"), 409, "no_draw_offer")
    _refused(_post(b, "nosuchgame", "offer-draw"), 404, "not_found")

    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}") as watcher:
        assert (await ws_recv(watcher))["type"] == "snapshot"
        # an offer needs no turn: the Confederate offers while the Union is to act
        r = _post(b, gid, "offer-draw")
        assert r.status_code == 200, r.text
        assert r.json()["draw_offer"]["side"] == "confederate"
        m = await ws_until(watcher, lambda m: m["type"] == "events")
        assert [(e["type"], e["data"]) for e in m["events"]] == [
            ("offer_draw", {"side": "confederate", "username": b.username})]
        seq_before = a.game(gid)["seq"]
        _refused(_post(b, gid, "offer-draw"), 409, "draw_already_offered")
        _refused(_post(a, gid, "offer-draw"), 409, "draw_offered_to_you")
        _refused(_post(b, gid, "accept-draw"), 409, "own_draw_offer")
        _refused(_post(b, gid, "decline-draw"), 409, "own_draw_offer")
        assert a.game(gid)["seq"] == seq_before  # refusals change nothing
        assert a.game(gid)["draw_offer"] == {"side": "confederate", "username": b.username, "seq": seq_before}

        assert _post(a, gid, "decline-draw").status_code == 200
        m = await ws_until(watcher, lambda m: m["type"] == "events")
        assert m["events"][0]["type"] == "decline_draw" and m["events"][0]["data"]["side"] == "union"
        assert a.game(gid)["draw_offer"] is None and a.game(gid)["status"] == "active"
        _refused(_post(a, gid, "decline-draw"), 409, "no_draw_offer")

        # offered again (by the other side this time) and accepted: the game is drawn
        assert _post(a, gid, "offer-draw").status_code == 200
        r = _post(b, gid, "accept-draw")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished"
        m = await ws_until(watcher, lambda m: m["type"] == "events" and m["status"] == "finished")
        assert m["result"] == {"winner": None, "reason": "agreement"}
        assert m["events"][-1]["type"] == "accept_draw"

    g = a.game(gid)
    assert g["result"] == {"winner": None, "reason": "agreement"} and g["to_act"] is None
    assert g["draw_offer"] is None
    for what, code in (("offer-draw", "game_over"), ("accept-draw", "game_over"), ("decline-draw", "game_over")):
        _refused(_post(a, gid, what), 409, code)
    assert [e["type"] for e in events(server.base, gid) if e["type"].endswith("_draw")] == [
        "offer_draw", "decline_draw", "offer_draw", "accept_draw"]
    # the export and the lobby say it is a draw
    exp = httpx.get(f"{base}/export").json()
    assert exp["result"] == {"winner": None, "reason": "agreement"} and exp["status"] == "finished"
    assert verify_export(exp) == []
    lobby = httpx.get(server.base + "/").text
    row = lobby[lobby.index(f'data-game="{gid}"'):]
    row = row[:row.index("</li>")]
    assert "Draw" in row and "by agreement" in row and "won" not in row
    # the player who offered is told; the one who accepted is not
    a_notes = a.http.get("/api/me/notices").json()["notices"]
    assert any(n["kind"] == "game_over" and "a draw, by agreement" in n["text"] for n in a_notes)
    assert any(n["kind"] == "draw_offer" and a.username in n["text"]
               for n in b.http.get("/api/me/notices").json()["notices"])
    assert not any(n["kind"] == "game_over" for n in b.http.get("/api/me/notices").json()["notices"])


def test_an_offer_lapses_when_the_offering_side_plays_on(server):
    a, b, gid = new_match(server.base)
    to_act = a.game(gid)["to_act"]
    mover, other = (a, b) if to_act == "union" else (b, a)
    assert _post(mover, gid, "offer-draw").status_code == 200
    assert other.game(gid)["draw_offer"]["side"] == to_act
    action = mover.legal(gid)["actions"][0]
    assert mover.act(gid, action).status_code == 200
    assert other.game(gid)["draw_offer"] is None
    _refused(_post(other, gid, "accept-draw"), 409, "no_draw_offer")
    assert other.game(gid)["status"] == "active"
    # the opponent's decisions do not withdraw an offer: only the offering side's do
    assert _post(other, gid, "offer-draw").status_code == 200
    if mover.game(gid)["to_act"] == to_act:
        assert mover.act(gid, mover.legal(gid)["actions"][0]).status_code == 200
    assert mover.game(gid)["draw_offer"]["side"] == ("confederate" if to_act == "union" else "union")


def test_no_draw_before_the_game_starts(server):
    a = Player(server.base)
    gid = a.create(side="union")["id"]
    _refused(_post(a, gid, "offer-draw"), 409, "game_not_started")


async def test_rematch_swaps_sides_keeps_scenario_and_options_and_invites_the_opponent(server):
    a, b = Player(server.base), Player(server.base)
    gid = a.create(side="union", scenario="1862", options=["4.8", "7.5"], private=True)["id"]
    assert b.join(gid, invite=a.game(gid)["invite_code"]).status_code == 200
    stranger = Player(server.base)
    _refused(_post(a, gid, "rematch"), 409, "game_not_finished")
    assert httpx.post(f"{server.base}/api/games/{gid}/rematch").status_code == 401
    assert _post(b, gid, "resign").status_code == 200
    _refused(_post(stranger, gid, "rematch"), 403, "not_a_player")
    _refused(stranger.http.post("/api/games/nosuchgame/rematch"), 404, "not_found")

    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={b.token}") as old_page:
        assert (await ws_recv(old_page))["type"] == "snapshot"
        r = _post(a, gid, "rematch")
        assert r.status_code == 200, r.text
        new = r.json()
        m = await ws_until(old_page, lambda m: m["type"] == "events")
        assert m["events"][0]["type"] == "rematch"
        assert m["events"][0]["data"] == {"game_id": new["id"], "by": a.username, "side": "confederate"}
    assert new["existing"] is False and new["id"] != gid
    assert new["scenario"] == "1862" and new["options"] == ["4.8", "7.5"] and new["private"] is True
    assert new["seats"]["confederate"]["username"] == a.username and new["seats"]["union"] is None
    create = events(server.base, new["id"])[0]
    assert create["type"] == "create" and create["data"]["rematch_of"] == gid
    assert a.game(gid)["rematch"]["game_id"] == new["id"]
    # the finished game, with its rematch event, still verifies from its export
    assert verify_export(httpx.get(f"{server.base}/api/games/{gid}/export").json()) == []
    # the opponent is told, and joins the private rematch without its invitation link,
    # on the side the other player left
    notes = b.http.get("/api/me/notices").json()["notices"]
    assert any(n["kind"] == "rematch" and n["game_id"] == new["id"] for n in notes)
    # asked again, by either player: the same game
    again = _post(b, gid, "rematch").json()
    assert again["id"] == new["id"] and again["existing"] is True
    _refused(stranger.join(new["id"]), 403, "rematch_reserved")
    r = b.join(new["id"])
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active" and r.json()["seats"]["union"]["username"] == b.username


def test_no_rematch_of_an_aborted_game(server):
    a = Player(server.base)
    gid = a.create(side="union")["id"]
    assert _post(a, gid, "abort").status_code == 200
    r = _post(a, gid, "rematch")
    _refused(r, 409, "game_not_finished")
    assert "aborted" in r.json()["detail"]
    assert json.dumps(events(server.base, gid)).count('"rematch"') == 0


def test_a_rematch_recorded_but_not_stored_is_stored_when_asked_again(db_url):
    """The rematch event and the new game are two writes: if the process stops between
    them, asking again stores the game under the id the finished game already links to."""
    from app.accounts.auth import Accounts
    from app.games.service import GameService
    from app.store.db import Database
    from app.store.migrate import upgrade

    upgrade(db_url)
    db = Database(db_url)
    try:
        svc = GameService(db)
        acc = Accounts(db, "k", 30)
        a, b = acc.register("alice", "password1", None), acc.register("bob", "password1", None)
        gid = svc.create_game(a, "1861", [], "union", "async", False)["id"]
        svc.join(b, gid)
        svc.resign(b, gid)
        real_insert = svc.insert_game

        def stopped(*args, **kwargs):
            raise RuntimeError("the process stopped here")
        svc.insert_game = stopped  # type: ignore[method-assign]
        try:
            svc.rematch(a, gid)
        except RuntimeError:
            pass
        svc.insert_game = real_insert  # type: ignore[method-assign]
        linked = svc.rematch_of_id(gid)
        assert linked is not None and svc.seats_of(linked) is None

        again = svc.rematch(b, gid)
        assert again["id"] == linked and svc.seats_of(linked) is not None
        assert svc.rematch(a, gid)["id"] == linked
        assert svc.get_game(linked, b)["scenario"] == "1861"
    finally:
        db.dispose()


async def test_a_rematch_is_offered_to_the_opponent_only_who_accepts_or_declines_it(server):
    a, b, gid = new_match(server.base)
    stranger = Player(server.base)
    assert _post(a, gid, "resign").status_code == 200
    _refused(_post(b, gid, "accept-rematch"), 409, "no_rematch")
    new = _post(a, gid, "rematch").json()
    # the lobby lists it for the opponent (with Accept / Decline), not among the open games
    assert [o["id"] for o in b.http.get("/api/me/rematches").json()["rematches"]] == [new["id"]]
    assert b.http.get("/api/me/rematches").json()["rematches"][0]["by"] == a.username
    assert a.http.get("/api/me/rematches").json()["rematches"] == []
    assert new["id"] not in [g["id"] for g in stranger.http.get("/api/games?view=open").json()["games"]]
    # nobody else takes the seat, nor answers for the opponent; refusals change nothing
    seq = b.game(new["id"])["seq"]
    _refused(stranger.join(new["id"]), 403, "rematch_reserved")
    _refused(_post(stranger, gid, "accept-rematch"), 403, "not_a_player")
    _refused(_post(stranger, gid, "decline-rematch"), 403, "not_a_player")
    _refused(_post(a, gid, "accept-rematch"), 409, "own_rematch")
    _refused(_post(a, gid, "decline-rematch"), 409, "own_rematch")
    assert b.game(new["id"])["seq"] == seq and b.game(new["id"])["status"] == "open"
    # asked twice (by either player): still one game
    assert _post(a, gid, "rematch").json()["id"] == new["id"]
    assert _post(b, gid, "rematch").json()["id"] == new["id"]
    async with websockets.connect(f"{server.ws_base}/ws/games/{new['id']}?token={a.token}") as asker:
        assert (await ws_recv(asker))["type"] == "snapshot"
        r = _post(b, gid, "accept-rematch")
        assert r.status_code == 200, r.text
        assert r.json()["id"] == new["id"] and r.json()["status"] == "active"
        m = await ws_until(asker, lambda m: m["type"] in ("events", "changes") and m.get("status") == "active")
        assert [e["type"] for e in m["events"]][:1] == ["join"]
    g = a.game(new["id"])
    assert g["seats"]["union"]["username"] == b.username and g["seats"]["confederate"]["username"] == a.username
    assert a.game(gid)["rematch"]["status"] == "active"
    _refused(_post(b, gid, "decline-rematch"), 409, "rematch_started")


async def test_a_declined_rematch_closes_for_both(server):
    a, b, gid = new_match(server.base)
    assert _post(b, gid, "resign").status_code == 200
    new = _post(b, gid, "rematch").json()
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={b.token}") as old_page, \
            websockets.connect(f"{server.ws_base}/ws/games/{new['id']}?token={b.token}") as new_page:
        assert (await ws_recv(old_page))["type"] == "snapshot"
        assert (await ws_recv(new_page))["type"] == "snapshot"
        r = _post(a, gid, "decline-rematch")
        assert r.status_code == 200, r.text
        assert r.json()["rematch"]["status"] == "aborted" and r.json()["rematch"]["declined_by"] == a.username
        m = await ws_until(old_page, lambda m: m["type"] in ("events", "changes") and m["events"])
        assert m["events"][0]["type"] == "decline_rematch" and m["events"][0]["data"]["by"] == a.username
        m = await ws_until(new_page, lambda m: m["type"] in ("events", "changes") and m.get("status") == "aborted")
    assert b.game(new["id"])["status"] == "aborted"
    assert b.game(gid)["rematch"]["declined_by"] == a.username
    _refused(a.join(new["id"]), 409, "game_not_open")
    _refused(_post(a, gid, "accept-rematch"), 409, "rematch_declined")
    _refused(_post(b, gid, "rematch"), 409, "rematch_declined")
    assert a.http.get("/api/me/rematches").json()["rematches"] == []
    # both games still verify from their exports
    for game_id in (gid, new["id"]):
        assert verify_export(httpx.get(f"{server.base}/api/games/{game_id}/export").json()) == []
