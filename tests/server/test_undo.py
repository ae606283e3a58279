"""Taking back decisions: own decisions only, never across a die roll or a change of who acts."""
from __future__ import annotations

import json
import random

import rules_engine
import websockets

from .helpers import effective_engine_events, events, new_match, ws_until


def _has_roll(resp: dict) -> bool:
    return any(e["data"].get("type") == "roll" for e in resp["events"])


def _replayed_state(base, g, gid):
    return rules_engine.replay(g["header"], effective_engine_events(events(base, gid))).state()


def test_undo_own_decision_restores_the_state(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    g0 = a.game(gid)
    side = g0["to_act"]
    me, opp = seats[side], seats["confederate" if side == "union" else "union"]
    rng = random.Random(7)
    # find a decision without a die roll that keeps the same side to act
    for _ in range(200):
        before = me.game(gid)
        if before["to_act"] != side:
            me, opp = opp, me
            side = before["to_act"]
            continue
        acts = me.legal(gid)["actions"]
        r = me.act(gid, rng.choice(acts))
        assert r.status_code == 200
        res = r.json()
        if not _has_roll(res) and res["to_act"] == side and res["status"] == "active":
            break
    else:
        raise AssertionError("no undoable decision found")
    after = me.game(gid)
    assert after["can_undo"] is True
    # the opponent cannot take it back
    r = opp.http.post(f"/api/games/{gid}/undo")
    assert r.status_code in (403, 409) and r.json()["detail"]
    # I can: the state is exactly as before the decision; the undo is an event
    r = me.http.post(f"/api/games/{gid}/undo", json={"expected_seq": after["seq"]})
    assert r.status_code == 200, r.text
    undo_ev = r.json()["events"][0]
    assert undo_ev["type"] == "undo" and undo_ev["data"]["to_seq"] == before["seq"] + 1
    g = me.game(gid)
    assert g["state"] == before["state"] and g["to_act"] == before["to_act"]
    assert g["seq"] == after["seq"] + 1  # nothing deleted: the log only grew
    assert [e["seq"] for e in events(server.base, gid)] == list(range(1, g["seq"] + 1))
    assert g["state"] == _replayed_state(server.base, g, gid)
    assert me.legal(gid)["actions"] == [x for x in me.legal(gid)["actions"]]


def test_no_undo_across_a_die_roll_or_a_change_of_turn(server):
    # the server deals every game's dice from the test seed: this play meets both cases
    saw_roll = saw_handover = False
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    rng = random.Random(11)
    for _ in range(600):
        g = a.game(gid)
        if g["status"] != "active" or (saw_roll and saw_handover):
            break
        side = g["to_act"]
        me = seats[side]
        r = me.act(gid, rng.choice(me.legal(gid)["actions"]))
        assert r.status_code == 200
        res = r.json()
        if res["status"] != "active":
            break
        if _has_roll(res) and not saw_roll:
            saw_roll = True
            r = me.http.post(f"/api/games/{gid}/undo")
            assert r.status_code == 409 and r.json()["code"] == "undo_refused", r.text
            assert "die roll" in r.json()["detail"]
        elif res["to_act"] != side and not saw_handover:
            saw_handover = True
            seq = me.game(gid)["seq"]
            r = me.http.post(f"/api/games/{gid}/undo")
            assert r.status_code == 409, r.text
            assert me.game(gid)["seq"] == seq
    assert saw_roll and saw_handover


async def test_undo_over_websocket_and_replay_after_many_undos(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    rng = random.Random(3)
    undos = 0
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={a.token}", max_queue=None) as wa, \
            websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={b.token}", max_queue=None) as wb:
        socks = {"union": wa, "confederate": wb}
        for ws in socks.values():
            await ws_until(ws, lambda m: m["type"] == "snapshot")
        for _ in range(120):
            g = a.game(gid)
            if g["status"] != "active":
                break
            side = g["to_act"]
            me = seats[side]
            g = me.game(gid)
            if g["can_undo"] and rng.random() < 0.5:
                await socks[side].send(json.dumps({"type": "undo", "action_id": f"u{undos}"}))
                m = await ws_until(socks[side], lambda m: m["type"] in ("ack", "error"))
                assert m["type"] == "ack", m
                undos += 1
                continue
            r = me.act(gid, rng.choice(me.legal(gid)["actions"]))
            assert r.status_code == 200
    assert undos >= 3
    g = a.game(gid)
    assert g["state"] == _replayed_state(server.base, g, gid)
