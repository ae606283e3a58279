"""Websocket details: reconnecting with the last seq seen, watcher counts, state on demand."""
from __future__ import annotations

import json
import random

import websockets

from .helpers import events, new_match, play_random, ws_recv, ws_until


async def test_reconnect_gets_only_what_it_missed(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(url) as ws:
        snap = await ws_recv(ws)
        last = snap["seq"]
    play_random(server.base, seats, gid, random.Random(5), 6)
    missed = [e for e in events(server.base, gid) if e["seq"] > last]
    assert missed
    # ?after=N: only the events after N, then live
    async with websockets.connect(f"{url}?after={last}&state=0", max_queue=None) as ws:
        m = await ws_recv(ws)
        assert m["type"] == "events" and m["events"] == missed and "state" not in m
        now = m["seq"]
        play_random(server.base, seats, gid, random.Random(6), 2)
        m = await ws_until(ws, lambda m: m["type"] == "events")
        assert m["events"][0]["seq"] == now + 1
    # or the same with a first message
    async with websockets.connect(url, max_queue=None) as ws:
        snap = await ws_recv(ws)
        assert snap["type"] == "snapshot"
        await ws.send(json.dumps({"type": "sync", "after": last}))
        m = await ws_until(ws, lambda m: m["type"] == "events")
        assert [e["seq"] for e in m["events"]] == list(range(last + 1, snap["seq"] + 1))
        assert m["state"] == snap["state"]
    # nothing missed: an empty catch-up, then live
    g = a.game(gid)
    async with websockets.connect(f"{url}?after={g['seq']}") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "events" and m["events"] == [] and m["seq"] == g["seq"]
    async with websockets.connect(f"{url}?after=abc") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "error" and m["status"] == 422


async def test_watcher_count_reaches_everyone(server):
    a, b, gid = new_match(server.base)
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(url) as w1:
        s1 = await ws_recv(w1)
        assert s1["watchers"] >= 1
        async with websockets.connect(url) as w2, websockets.connect(f"{url}?token={a.token}") as w3:
            await ws_recv(w2)
            await ws_recv(w3)
            m = await ws_until(w1, lambda m: m["type"] == "watchers" and m["count"] == 3)
            assert m["online"] == ["union"]
            assert a.game(gid)["watchers"] == 3
        m = await ws_until(w1, lambda m: m["type"] == "watchers" and m["count"] == 1)
        assert m["online"] == []
