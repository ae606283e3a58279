"""Pushed, not polled: chat messages reach the game sockets that may read them, and the
"waiting" badge reaches the user socket /ws/me when a game changes whose turn it is, on
one process and (Postgres) across processes. No HTTP request is made by the receivers."""
from __future__ import annotations

import asyncio
import json
import random

import websockets

from .helpers import Player, new_match, play_random, ws_recv, ws_until


def post_chat(p: Player, gid: str, channel: str, body: str) -> dict:
    r = p.http.post(f"/api/games/{gid}/chat", json={"channel": channel, "body": body})
    assert r.status_code == 201, r.text
    return r.json()


async def chat_seen(ws) -> list[str]:
    """The chat bodies this socket received until a ping's answer (everything sent before)."""
    await ws.send(json.dumps({"type": "ping"}))
    seen = []
    while True:
        m = await ws_recv(ws)
        if m["type"] == "pong":
            return seen
        if m["type"] == "chat":
            seen.append(m["message"]["body"])


def play_until_turn_passes(base: str, seats: dict, gid: str, rng: random.Random) -> str:
    """Random decisions until the side to act changes; the new side to act."""
    first = seats["union"].game(gid)["to_act"]
    for _ in range(200):
        play_random(base, seats, gid, rng, 1)
        now = seats["union"].game(gid)["to_act"]
        if now != first:
            return now
    raise AssertionError("the turn never passed")


async def test_chat_reaches_only_the_sockets_that_may_read_it(server):
    a, b, gid = new_match(server.base)
    fan = Player(server.base)
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(f"{url}?token={a.token}&state=0") as wa, \
            websockets.connect(f"{url}?token={b.token}&state=0") as wb, \
            websockets.connect(f"{url}?token={fan.token}&state=0") as wfan, \
            websockets.connect(f"{url}?state=0") as wanon:
        for ws in (wa, wb, wfan, wanon):
            assert (await ws_recv(ws))["type"] == "snapshot"
        sent = post_chat(a, gid, "players", "Your move, general.")
        m = await ws_until(wb, lambda m: m["type"] == "chat")
        assert m["game_id"] == gid and m["message"] == sent
        post_chat(fan, gid, "spectators", "Bold move!")
        assert await chat_seen(wfan) == ["Bold move!"]
        # during play the spectators' chat is for logged-in watchers: a player could
        # otherwise read it from a logged-out window
        assert await chat_seen(wanon) == []
        # the players' chat never reaches spectators; the spectators' never reaches players
        assert await chat_seen(wb) == []
        assert await chat_seen(wa) == ["Your move, general."]


async def test_the_waiting_badge_is_pushed_when_the_turn_passes(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    rng = random.Random(3)
    async with websockets.connect(f"{server.ws_base}/ws/me?token={b.token}") as me_b, \
            websockets.connect(f"{server.ws_base}/ws/me?token={a.token}") as me_a:
        to_act = a.game(gid)["to_act"]
        first_b, first_a = await ws_recv(me_b), await ws_recv(me_a)
        assert first_b == {"type": "waiting", "count": int(to_act == "confederate"), "unread": first_b["unread"]}
        assert first_a["count"] == int(to_act == "union")
        for _ in range(2):
            to_act = await asyncio.to_thread(play_until_turn_passes, server.base, seats, gid, rng)
            for ws, side in ((me_b, "confederate"), (me_a, "union")):
                want = int(to_act == side)
                await ws_until(ws, lambda m, want=want: m["type"] == "waiting" and m["count"] == want)


async def test_the_user_socket_answers_ping_and_refuses_anything_else(server):
    p = Player(server.base)
    async with websockets.connect(f"{server.ws_base}/ws/me?token={p.token}") as ws:
        assert (await ws_recv(ws))["type"] == "waiting"
        await ws.send('{"type": "ping", "ref": 7}')
        assert await ws_recv(ws) == {"type": "pong", "ref": 7}
        await ws.send('{"type": "action"}')
        m = await ws_recv(ws)
        assert (m["type"], m["status"], m["detail"]) == ("error", 422, "the user socket only answers ping")
        await ws.send("{")
        assert (await ws_recv(ws))["status"] == 400


async def test_the_user_socket_needs_a_login(server):
    async with websockets.connect(f"{server.ws_base}/ws/me") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "error" and m["status"] == 401 and "log in" in m["detail"]
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4401


async def test_chat_and_badge_cross_processes(pg_url, make_server):
    s1, s2 = make_server(pg_url), make_server(pg_url)
    a, b, gid = new_match(s1.base)
    seats = {"union": a, "confederate": b}
    async with websockets.connect(f"{s2.ws_base}/ws/games/{gid}?token={b.token}&state=0") as wb, \
            websockets.connect(f"{s2.ws_base}/ws/me?token={b.token}") as me_b:
        await ws_recv(wb)
        await ws_recv(me_b)
        sent = post_chat(a, gid, "players", "Across the wire")
        m = await ws_until(wb, lambda m: m["type"] == "chat", timeout=10)
        assert m["message"] == sent
        to_act = await asyncio.to_thread(play_until_turn_passes, s1.base, seats, gid, random.Random(4))
        await ws_until(me_b, lambda m: m["type"] == "waiting" and m["count"] == int(to_act == "confederate"),
                       timeout=10)


async def test_compressed_websockets_still_carry_every_message(db_url, make_server):
    """WS_PER_MESSAGE_DEFLATE=true: permessage-deflate is negotiated, and the snapshot, the
    events and the chat (each socket writing its own compressed copy) arrive as before."""
    srv = make_server(db_url, ws_per_message_deflate="true")
    a, b, gid = new_match(srv.base)
    async with websockets.connect(f"{srv.ws_base}/ws/games/{gid}?token={b.token}", compression="deflate") as wb:
        assert [e.name for e in wb.protocol.extensions] == ["permessage-deflate"]
        snap = await ws_recv(wb)
        assert snap["type"] == "snapshot"
        sent = post_chat(a, gid, "players", "Squeezed")
        assert (await ws_until(wb, lambda m: m["type"] == "chat"))["message"] == sent
        mover = {"union": a, "confederate": b}[snap["to_act"]]
        r = mover.act(gid, mover.legal(gid)["actions"][0])
        m = await ws_until(wb, lambda m: m["type"] == "events")
        assert m["events"] == r.json()["events"] and m["state"]
