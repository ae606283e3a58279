"""Protocol v2 (?v=2): after the snapshot a socket gets "changes" messages (the new events
and only what changed in the state); applying them gives exactly the state a fresh
client reads. A client that missed one resyncs; an unknown version is refused; the
events messages of v1 clients are as before."""
from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
import websockets

from app.games.records import apply_delta, state_delta
from app.realtime import protocol

from .helpers import ROOT, new_match, play_random, ws_recv, ws_until

# the game page's own code (static/game-state.js) applies the recorded messages
PAGE_SCRIPT = """
const { GameState } = await import(process.argv[2]);
const { readFileSync } = await import("node:fs");
const [snapshot, ...messages] = JSON.parse(readFileSync(process.argv[3], "utf8"));
const g = new GameState({});
g.applySnapshot(snapshot);
const behind = new GameState({});
behind.applySnapshot(snapshot);
behind.seq -= 1;
const refused = behind.applyChanges(messages[0]) === null;
for (const m of messages) if (g.applyChanges(m) === null) throw new Error("base " + m.base + " at " + g.seq);
process.stdout.write(JSON.stringify({ seq: g.seq, status: g.status, toAct: g.toAct, state: g.state, refused }));
"""


def _by_id(state: dict) -> str:
    """A state compared as the page reads it: units by id, whatever their order."""
    return json.dumps({**state, "units": sorted(state["units"], key=lambda u: u["id"])}, sort_keys=True)


async def test_a_v2_client_after_many_changes_has_the_fresh_state(server, tmp_path):
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
        kinds, v2_bytes, recorded = set(), 0, [snap]
        while seq < last:
            raw = await v2.recv()
            m = json.loads(raw)
            recorded.append(m)
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
    if shutil.which("node") is None:
        pytest.skip("needs node to run static/game-state.js")
    page = _on_the_page(recorded, tmp_path)
    assert page["seq"] == fresh["seq"] and page["toAct"] == fresh["to_act"] and page["status"] == fresh["status"]
    assert _by_id(page["state"]) == _by_id(fresh["state"])
    assert page["refused"]  # a page one seq behind the first base does not apply it


def _on_the_page(messages: list[dict], folder: Path) -> dict:
    """The page's state after the snapshot and the "changes" messages."""
    script, data = folder / "page.mjs", folder / "messages.json"
    script.write_text(PAGE_SCRIPT)
    data.write_text(json.dumps([m for m in messages if m["type"] in ("snapshot", "changes")]))
    run = subprocess.run(["node", str(script), (ROOT / "static" / "game-state.js").as_uri(), str(data)],
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(run.stdout)


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


def test_the_state_a_change_carries_stays_what_its_json_says(tmp_path):
    """A change hands the channel the engine's state as a dict (the v2 delta is worked
    out from it, not from parsing state_json): it is the state of its JSON, and moves
    after it, taken back ones too, never change it."""
    from app.accounts.auth import Accounts
    from app.core.errors import ApiError
    from app.games.service import GameService
    from app.store.db import Database
    from app.store.migrate import upgrade

    from .helpers import TEST_GAME_SEED

    url = f"sqlite:///{tmp_path / 'changes.db'}"
    upgrade(url)
    svc = GameService(Database(url), game_seed=TEST_GAME_SEED)
    svc.wants = lambda gid: (True, True)
    changes: list = []
    svc.on_change = changes.append
    acc = Accounts(svc.db, "k", 30)
    users = {"union": acc.register("alice", "password1", None), "confederate": acc.register("bob", "password1", None)}
    gid = svc.create_game(users["union"], "1861", [], "union", "live", False)["id"]
    svc.join(users["confederate"], gid)
    rng, undone = random.Random(7), 0
    for i in range(150):
        ch = changes[-1]
        if ch.status != "active":
            break
        user = users[ch.to_act]
        if i % 10 == 9:  # take the last decision back when the rules let it be
            try:
                svc.undo(user, gid)
                undone += 1
                continue
            except ApiError:
                pass
        svc.act(user, gid, rng.choice(ch.legal[ch.to_act]), ch.last_seq)
    assert len(changes) > 100 and undone
    for ch in changes:
        assert ch.state is not None and ch.state_json is not None
        assert json.loads(json.dumps(ch.state)) == json.loads(ch.state_json)
    for prev, cur in itertools.pairwise(changes):
        assert _by_id(apply_delta(json.loads(prev.state_json), state_delta(prev.state, cur.state))) == \
            _by_id(json.loads(cur.state_json))
