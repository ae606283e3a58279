"""Protocol v2 (?v=2): after the snapshot a socket gets "changes" messages (the new events
and only what changed in the state); applying them gives exactly the state a fresh
client reads. A client that missed one resyncs; an unknown version is refused; the
events messages of v1 clients are as before."""
from __future__ import annotations

import json
import random

import websockets

from app.games.records import apply_delta, state_delta
from app.realtime import protocol

from .helpers import new_match, play_random, ws_recv, ws_until


def _by_id(state: dict) -> str:
    """A state compared as the page reads it: units by id, whatever their order."""
    return json.dumps({**state, "units": sorted(state["units"], key=lambda u: u["id"])}, sort_keys=True)


async def test_a_v2_client_after_many_changes_has_the_fresh_state(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(f"{url}?v=2", max_queue=None) as v2, \
            websockets.connect(url, max_queue=None) as v1:
        snap = await ws_recv(v2)
        assert snap["type"] == "snapshot"
        await ws_recv(v1)
        state, seq = snap["state"], snap["seq"]
        made = play_random(server.base, seats, gid, random.Random(11), 40)
        assert made == 40
        last = a.game(gid)["seq"]
        kinds, v2_bytes = set(), 0
        while seq < last:
            raw = await v2.recv()
            m = json.loads(raw)
            if m["type"] not in ("changes", "events"):
                continue
            protocol.SERVER_MESSAGES.validate_json(raw)
            kinds.add(m["type"])
            if m["type"] == "changes":
                assert m["base"] == seq and [e["seq"] for e in m["events"]][0] == seq + 1
                state = apply_delta(state, m["delta"])
                v2_bytes += len(raw)
            else:
                state = m["state"]
            seq = m["seq"]
        assert kinds == {"changes"}
        v1_bytes = 0
        while True:  # the v1 socket got the same changes as "events" with the whole state
            m = await ws_until(v1, lambda m: m["type"] == "events")
            v1_bytes += len(json.dumps(m, separators=(",", ":")))
            assert "state" in m
            if m["seq"] == last:
                break
        fresh = a.game(gid)
        assert fresh["seq"] == seq
        assert _by_id(state) == _by_id(fresh["state"])
        assert v2_bytes * 3 < v1_bytes  # the deltas are a fraction of the whole states


async def test_a_v2_client_that_missed_a_change_resyncs(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?v=2", max_queue=None) as ws:
        snap = await ws_recv(ws)
        play_random(server.base, seats, gid, random.Random(4), 3)
        first = await ws_until(ws, lambda m: m["type"] == "changes")
        assert first["base"] == snap["seq"]
        # as if this client were still at the snapshot's seq: the next base does not match,
        # so it asks for what it missed and gets it with the whole state
        await ws.send(json.dumps({"type": "sync", "after": snap["seq"]}))
        m = await ws_until(ws, lambda m: m["type"] == "events")
        assert m["events"][0]["seq"] == snap["seq"] + 1
        assert _by_id(m["state"]) == _by_id(a.game(gid)["state"])


async def test_an_unknown_protocol_version_is_refused(server):
    _, _, gid = new_match(server.base)
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?v=3") as ws:
        m = await ws_recv(ws)
        assert m["type"] == "error" and m["status"] == 422 and "v must be one of 1, 2" in m["detail"]


def test_a_delta_names_units_added_changed_and_gone():
    prev = {"turn": 1, "phase": "march", "units": [{"id": "a", "at": "x"}, {"id": "b", "at": "y"}]}
    cur = {"turn": 1, "phase": "fight", "units": [{"id": "b", "at": "z"}, {"id": "c", "at": "x"}]}
    d = state_delta(prev, cur)
    assert d == {"phase": "fight", "units": [{"id": "b", "at": "z"}, {"id": "c", "at": "x"}], "units_gone": ["a"]}
    assert _by_id(apply_delta(prev, d)) == _by_id(cur)
    assert state_delta(cur, cur) == {}
