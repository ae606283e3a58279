"""Simultaneous submissions apply once (action ids, expected seq, several sockets)."""
from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import httpx
import websockets

from .helpers import events, new_match, ws_recv, ws_until


def _burst(fn, n):
    with ThreadPoolExecutor(n) as ex:
        return list(ex.map(lambda i: fn(i), range(n)))


def test_duplicate_action_id_applies_once(server):
    a, b, gid = new_match(server.base)
    mover = {"union": a, "confederate": b}[a.game(gid)["to_act"]]
    seq0 = mover.game(gid)["seq"]
    action = mover.legal(gid)["actions"][0]
    clients = [httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {mover.token}"})
               for _ in range(8)]
    try:
        res = _burst(lambda i: clients[i].post(f"/api/games/{gid}/actions",
                                               json={"action": action, "action_id": "same-id"}), 8)
    finally:
        for c in clients:
            c.close()
    assert all(r.status_code == 200 for r in res), [r.text for r in res]
    bodies = [r.json() for r in res]
    assert len({b["seq"] for b in bodies}) == 1
    assert len({json.dumps(b["events"]) for b in bodies}) == 1
    assert sum(1 for b in bodies if not b.get("duplicate")) == 1
    evs = events(server.base, gid, seq0)
    assert [e["seq"] for e in evs] == [e["seq"] for e in bodies[0]["events"]]
    # a later retry still answers the first result
    r = mover.act(gid, action, action_id="same-id")
    assert r.status_code == 200 and r.json()["events"] == bodies[0]["events"] and r.json()["duplicate"]
    # another player cannot reuse my action id
    other = b if mover is a else a
    r = other.act(gid, action, action_id="same-id")
    assert r.status_code == 409


def test_same_expected_seq_applies_once(server):
    a, b, gid = new_match(server.base)
    mover = {"union": a, "confederate": b}[a.game(gid)["to_act"]]
    lg = mover.legal(gid)
    clients = [httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {mover.token}"})
               for _ in range(8)]
    try:
        res = _burst(lambda i: clients[i].post(f"/api/games/{gid}/actions",
                                               json={"action": lg["actions"][0], "expected_seq": lg["seq"],
                                                     "action_id": f"id-{i}"}), 8)
    finally:
        for c in clients:
            c.close()
    codes = sorted(r.status_code for r in res)
    assert codes == [200] + [409] * 7, [r.text for r in res]
    assert all(r.json()["code"] == "stale" for r in res if r.status_code == 409)
    winner = next(r.json() for r in res if r.status_code == 200)
    assert events(server.base, gid, lg["seq"]) == winner["events"]


async def test_duplicate_over_two_sockets(server):
    a, b, gid = new_match(server.base)
    mover = {"union": a, "confederate": b}[a.game(gid)["to_act"]]
    seq0 = mover.game(gid)["seq"]
    action = mover.legal(gid)["actions"][0]
    url = f"{server.ws_base}/ws/games/{gid}?token={mover.token}"
    async with websockets.connect(url) as w1, websockets.connect(url) as w2:
        await ws_until(w1, lambda m: m["type"] == "snapshot")
        await ws_until(w2, lambda m: m["type"] == "snapshot")
        msg = json.dumps({"type": "action", "action": action, "action_id": "twice"})
        await asyncio.gather(w1.send(msg), w2.send(msg))
        acks = []
        for w in (w1, w2):
            seen_events, ack = [], None
            while ack is None or not seen_events:
                m = await ws_recv(w)
                if m["type"] == "ack":
                    ack = m
                elif m["type"] == "events":
                    seen_events.extend(e["seq"] for e in m["events"])
            await w.send(json.dumps({"type": "ping"}))
            while (m := await ws_recv(w))["type"] != "pong":
                if m["type"] == "events":
                    seen_events.extend(e["seq"] for e in m["events"])
            # each socket saw the events exactly once
            assert seen_events == list(range(seq0 + 1, ack["seq"] + 1))
            acks.append(ack)
        assert acks[0]["seq"] == acks[1]["seq"]
        assert sum(1 for x in acks if x.get("duplicate")) == 1
    evs = events(server.base, gid, seq0)
    assert evs and evs[-1]["seq"] == acks[0]["seq"]
