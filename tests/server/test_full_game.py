"""Two players play a whole random game over websockets while a spectator watches."""
from __future__ import annotations

import asyncio
import json
import random
import uuid

import httpx
import websockets

from .helpers import effective_engine_events, events, new_match, ws_recv


async def _bot(url: str, side: str, rng: random.Random, stats: dict) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        snap = await ws_recv(ws)
        assert snap["type"] == "snapshot"
        assert side in snap["your_sides"]
        seq = snap["seq"]
        pending = snap["legal"] if snap["to_act"] == side else []
        while True:
            if pending:
                action = rng.choice(pending)
                pending = []
                await ws.send(json.dumps({"type": "action", "action": action, "expected_seq": seq,
                                          "action_id": uuid.uuid4().hex}))
                stats[side] += 1
            m = await ws_recv(ws, 30)
            if m["type"] == "events":
                seq = m["seq"]
                if m["status"] != "active":
                    return
            elif m["type"] == "legal":
                assert m["side"] == side
                if m["seq"] == seq and m["actions"]:
                    assert m["to_act"] == side
                    pending = m["actions"]
            elif m["type"] == "error":
                raise AssertionError(f"{side}: {m}")


async def _spectator(url: str, got: list, ready: asyncio.Event, stop: asyncio.Event, snap_box: list) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        snap = await ws_recv(ws)
        assert snap["type"] == "snapshot" and snap["your_sides"] == [] and snap["legal"] == []
        snap_box.append(snap)
        ready.set()
        while True:
            m = await ws_recv(ws, 60)
            if m["type"] == "events":
                got.append(m)
                if m["status"] != "active":
                    return
            assert m["type"] in ("events", "watchers"), m


async def test_full_random_game_over_websockets(server):
    a, b, gid = new_match(server.base)
    seed = 20261129 if server.backend == "sqlite" else 1865
    got: list = []
    snap_box: list = []
    ready, stop = asyncio.Event(), asyncio.Event()
    spec = asyncio.create_task(_spectator(f"{server.ws_base}/ws/games/{gid}", got, ready, stop, snap_box))
    await asyncio.wait_for(ready.wait(), 10)
    stats = {"union": 0, "confederate": 0}
    bots = [asyncio.create_task(_bot(f"{server.ws_base}/ws/games/{gid}?token={p.token}", side,
                                     random.Random(seed + i), stats))
            for i, (side, p) in enumerate((("union", a), ("confederate", b)))]
    await asyncio.wait_for(asyncio.gather(*bots), 240)
    await asyncio.wait_for(spec, 30)

    # the game reached its result
    g = a.game(gid)
    assert g["status"] == "finished" and g["result"]["winner"] in ("union", "confederate")
    assert g["engine_result"] == g["result"]
    print("decisions", stats, "events", g["seq"], g["result"])
    assert stats["union"] > 10 and stats["confederate"] > 10

    # the spectator received every event exactly once and in order
    snap = snap_box[0]
    seqs = [e["seq"] for m in got for e in m["events"]]
    assert seqs == list(range(snap["seq"] + 1, g["seq"] + 1))
    stored = events(server.base, gid)
    assert [e for m in got for e in m["events"]] == [e for e in stored if e["seq"] > snap["seq"]]
    # every message carried the state after it; the last equals the final state
    assert got[-1]["state"] == g["state"]
    assert got[-1]["seq"] == g["seq"]

    # the stored log replays to the final state
    import rules_engine
    replayed = rules_engine.replay(g["header"], effective_engine_events(stored))
    assert replayed.state() == g["state"]
    assert replayed.result == g["result"]
