"""Who may do what: anonymous, the player to act, the other player, a spectator."""
from __future__ import annotations

import json

import httpx
import websockets

from .helpers import Player, new_match, ws_recv, ws_until


async def test_who_may_do_what(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    g = a.game(gid)
    to_act = g["to_act"]
    mover, other = seats[to_act], seats["confederate" if to_act == "union" else "union"]
    spectator = Player(server.base)
    base = f"{server.base}/api/games/{gid}"

    # everyone, even anonymous, may look
    for client in (httpx, mover.http, other.http, spectator.http):
        url = base if client is httpx else f"/api/games/{gid}"
        r = client.get(url)
        assert r.status_code == 200 and r.json()["state"] == g["state"]
        r = client.get(url + "/events")
        assert r.status_code == 200
    # only the side to act has legal actions
    assert mover.legal(gid)["actions"]
    assert other.legal(gid)["actions"] == []
    assert spectator.legal(gid)["actions"] == []
    assert httpx.get(base + "/legal").json()["actions"] == []
    action = mover.legal(gid)["actions"][0]

    # anonymous can do nothing
    for path in ("/actions", "/undo", "/resign", "/join", "/abort"):
        r = httpx.post(base + path, json={"action": action})
        assert r.status_code == 401, (path, r.text)
    assert httpx.post(f"{server.base}/api/games", json={}).status_code == 401
    # a logged-in spectator has no seat
    assert spectator.act(gid, action).status_code == 403
    assert spectator.http.post(f"/api/games/{gid}/undo").status_code == 403
    assert spectator.http.post(f"/api/games/{gid}/resign").status_code == 403
    # the other player may not act for the side to act
    r = other.act(gid, action)
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"

    # over websockets: spectators (anonymous or not) receive everything and can do nothing
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}") as anon, \
            websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={spectator.token}") as spec, \
            websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={other.token}") as oth, \
            websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={mover.token}") as mov:
        # every message the anonymous watcher gets, also those passed over while waiting for
        # another: the watcher count may come before or after the answers below
        anon_heard: list[dict] = []

        def is_events(m):
            return m["type"] == "events"

        def heard(pred):
            def check(m):
                anon_heard.append(m)
                return pred(m)
            return check

        snaps = [await ws_recv(ws) for ws in (anon, spec, oth, mov)]
        assert all(s["type"] == "snapshot" and s["seq"] == g["seq"] for s in snaps)
        assert snaps[0]["legal"] == [] and snaps[1]["legal"] == [] and snaps[2]["legal"] == []
        assert snaps[3]["legal"] and snaps[3]["your_sides"] == [to_act]
        msg = json.dumps({"type": "action", "action": action})
        await anon.send(msg)
        e = await ws_until(anon, heard(lambda m: m["type"] == "error"))
        assert e["status"] == 401
        await spec.send(msg)
        e = await ws_until(spec, lambda m: m["type"] == "error")
        assert e["status"] == 403 and e["code"] == "not_a_player"
        await oth.send(msg)
        e = await ws_until(oth, lambda m: m["type"] == "error")
        assert e["status"] == 409 and e["code"] == "not_your_turn"
        await anon.send(json.dumps({"type": "resign"}))
        assert (await ws_until(anon, heard(lambda m: m["type"] == "error")))["status"] == 401
        # the player to act may; everyone sees it
        await mov.send(json.dumps({"type": "action", "action": action, "action_id": "p1"}))
        ack = await ws_until(mov, lambda m: m["type"] == "ack")
        assert ack["action_id"] == "p1" and ack["seq"] > g["seq"]
        for ws in (anon, spec, oth):
            m = await ws_until(ws, heard(is_events) if ws is anon else is_events)
            assert m["seq"] == ack["seq"] and m["events"][0]["seq"] == g["seq"] + 1
        # the watcher count is shown to everyone
        def four_watchers(m):
            return m["type"] == "watchers" and m["count"] == 4
        w = next((m for m in anon_heard if four_watchers(m)), None) or await ws_until(anon, four_watchers)
        assert set(w["online"]) == {"union", "confederate"}
        # malformed messages get an error, not a dropped socket
        await anon.send("{nope")
        e = await ws_until(anon, heard(lambda m: m["type"] == "error"))
        assert e["status"] == 400
        await anon.send(json.dumps({"type": "ping"}))
        assert (await ws_until(anon, heard(lambda m: m["type"] in ("pong", "error"))))["type"] == "pong"
    assert httpx.get(base).json()["seq"] == ack["seq"]


async def test_websocket_cookie_auth_checks_origin(server):
    a, b, gid = new_match(server.base)
    with httpx.Client(base_url=server.base) as browser:
        r = browser.post("/api/auth/login", json={"username": a.username, "password": a.password})
        cookie = f"hd_session={r.json()['token']}"
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie, "Origin": server.base}) as ws:
        snap = await ws_recv(ws)
        assert snap["your_sides"] == ["union"]
    # a page on another site cannot use the player's cookie to act
    async with websockets.connect(url, additional_headers={"Cookie": cookie, "Origin": "https://evil.example"}) as ws:
        snap = await ws_recv(ws)
        assert snap["your_sides"] == []
    async with websockets.connect(url + "?token=bogus") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "error" and m["status"] == 401
    async with websockets.connect(f"{server.ws_base}/ws/games/nosuchgame") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "error" and m["status"] == 404
