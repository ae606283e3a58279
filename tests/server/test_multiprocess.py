"""Two app processes on one Postgres database (Postgres only: LISTEN/NOTIFY fan-out)."""
from __future__ import annotations

import asyncio
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import rules_engine
import websockets

from .helpers import effective_engine_events, events, new_match, play_random, ws_recv, ws_until


async def test_watcher_on_one_process_sees_moves_made_on_the_other(pg_url, make_server):
    s1 = make_server(pg_url)
    s2 = make_server(pg_url)
    assert httpx.get(s1.base + "/api/health").json()["process"] != httpx.get(s2.base + "/api/health").json()["process"]
    a, b, gid = new_match(s1.base)
    seats = {"union": a, "confederate": b}
    got = []
    async with websockets.connect(f"{s2.ws_base}/ws/games/{gid}", max_queue=None) as spec, \
            websockets.connect(f"{s2.ws_base}/ws/games/{gid}?token={b.token}", max_queue=None) as bsock, \
            websockets.connect(f"{s1.ws_base}/ws/games/{gid}", max_queue=None) as spec1:
        snap = await ws_recv(spec)
        await ws_recv(bsock)
        await ws_recv(spec1)
        # the watcher count covers both processes
        await ws_until(spec, lambda m: m["type"] == "watchers" and m["count"] == 3, timeout=10)
        # moves made through process 1 ...
        await asyncio.to_thread(play_random, s1.base, seats, gid, random.Random(9), 25)
        final = a.game(gid)
        # ... reach the spectator on process 2, every event once and in order
        while not got or got[-1]["seq"] < final["seq"]:
            m = await ws_until(spec, lambda m: m["type"] == "events", timeout=10)
            got.append(m)
        seqs = [e["seq"] for m in got for e in m["events"]]
        assert seqs == list(range(snap["seq"] + 1, final["seq"] + 1))
        assert got[-1]["state"] == final["state"]
        assert [e for m in got for e in m["events"]] == events(s1.base, gid, snap["seq"])
        # the player connected to process 2 gets legal actions computed there
        if final["to_act"] == "confederate":
            m = await ws_until(bsock, lambda m: m["type"] == "legal" and m["seq"] == final["seq"], timeout=10)
            assert m["actions"] == b.legal(gid)["actions"]

    # and the other way round: a move made on process 2 reaches a watcher on process 1
    c, d, gid2 = new_match(s2.base)
    async with websockets.connect(f"{s1.ws_base}/ws/games/{gid2}", max_queue=None) as w1:
        snap = await ws_recv(w1)
        mover = {"union": c, "confederate": d}[snap["to_act"]]
        r = mover.act(gid2, mover.legal(gid2)["actions"][0])
        assert r.status_code == 200
        m = await ws_until(w1, lambda m: m["type"] == "events", timeout=10)
        assert m["events"] == r.json()["events"]


def test_concurrent_duplicates_across_processes(pg_url, make_server):
    s1 = make_server(pg_url)
    s2 = make_server(pg_url)
    a, b, gid = new_match(s1.base)
    seats = {"union": a, "confederate": b}
    rng = random.Random(77)
    for round_ in range(15):
        g = a.game(gid)
        if g["status"] != "active":
            break
        mover = seats[g["to_act"]]
        lg = mover.legal(gid)
        action = rng.choice(lg["actions"])
        clients = [httpx.Client(base_url=(s1.base, s2.base)[i % 2], headers={"Authorization": f"Bearer {mover.token}"})
                   for i in range(6)]
        try:
            with ThreadPoolExecutor(6) as ex:
                if round_ % 2:
                    res = list(ex.map(lambda i: clients[i].post(
                        f"/api/games/{gid}/actions", json={"action": action, "action_id": f"r{round_}"}), range(6)))
                    assert all(r.status_code == 200 for r in res), [r.text for r in res]
                    assert len({r.json()["seq"] for r in res}) == 1
                else:
                    res = list(ex.map(lambda i: clients[i].post(
                        f"/api/games/{gid}/actions",
                        json={"action": action, "expected_seq": lg["seq"], "action_id": f"r{round_}-{i}"}), range(6)))
                    codes = sorted(r.status_code for r in res)
                    assert codes == [200] + [409] * 5, [r.text for r in res]
        finally:
            for c in clients:
                c.close()
    evs = events(s1.base, gid)
    assert [e["seq"] for e in evs] == list(range(1, len(evs) + 1))
    g1, g2 = a.game(gid), httpx.get(f"{s2.base}/api/games/{gid}").json()
    assert g1["state"] == g2["state"]
    assert rules_engine.replay(g1["header"], effective_engine_events(evs)).state() == g1["state"]


def _announced(listener, seconds: float) -> list[str]:
    """The announcements of moves ('hd_events') a listening test connection got."""
    return [n.payload for n in listener.notifies(timeout=seconds, stop_after=None) if n.channel == "hd_events"]


def _move(base: str, seats: dict, gid: str) -> int:
    """One legal move by the player to act; the game's seq after it."""
    to_act = seats["union"].game(gid)["to_act"]
    mover = seats[to_act]
    r = mover.act(gid, mover.legal(gid)["actions"][0])
    assert r.status_code == 200, r.text
    return r.json()["seq"]


def test_a_process_alone_announces_nothing_until_another_joins(pg_url, make_server):
    import psycopg

    s1 = make_server(pg_url)
    a, b, gid = new_match(s1.base)
    seats = {"union": a, "confederate": b}
    with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as listener:
        listener.execute("LISTEN hd_events")
        _move(s1.base, seats, gid)
        assert _announced(listener, 1.0) == []  # nobody else serves the database
        s2 = make_server(pg_url)  # ready once it has asked who is there
        watch_url = f"{s2.ws_base}/ws/games/{gid}"

        async def watch() -> dict:
            async with websockets.connect(watch_url, max_queue=None) as spec:
                await ws_recv(spec)
                seq = await asyncio.to_thread(_move, s1.base, seats, gid)
                # announced, so it arrives well before the 2-4 s sweep would find it
                m = await ws_until(spec, lambda m: m["type"] == "events", timeout=1.5)
                return {"seq": seq, "got": m["seq"]}

        seen = asyncio.run(watch())
        assert seen["got"] == seen["seq"]
        assert [p.split(":")[1] for p in _announced(listener, 0.5)] == [str(seen["seq"])]
        s2.stop()  # its goodbye: s1 is alone again
        time.sleep(0.5)
        _move(s1.base, seats, gid)
        assert _announced(listener, 1.0) == []
