"""The replay viewer's data: at every seq of a long random game (with undos) the replayed
state equals the state the live server had at that seq; who may replay what."""
from __future__ import annotations

import json
import random
import time

import httpx
import pytest

from app.accounts.auth import Accounts
from app.store.db import Database
from app.games.service import GameService
from app.store.migrate import upgrade
from app.admin.replay import build_bundle
from app.store.events import stored_events

from .helpers import TEST_GAME_SEED, Player, new_match, play_random
from .replay_helpers import make_admin, resign


def materialize(frames: list[dict]) -> list[dict]:
    """What static/replay.js does: the first frame in full, then the changes."""
    out, cur = [], None
    for f in frames:
        if "full" in f:
            cur = json.loads(json.dumps(f["full"]))
        else:
            units = {u["id"]: u for u in cur["units"]}
            cur = {**cur, **{k: v for k, v in f.items() if k != "units"}}
            for u in f.get("units", []):
                units[u["id"]] = u
            cur["units"] = [units[k] for k in sorted(units)]
        out.append(cur)
    return out


@pytest.mark.parametrize("seed", [11])
def test_replay_at_every_seq_equals_the_live_state(db_url, seed):
    upgrade(db_url)
    db = Database(db_url)
    try:
        # fixed dice: the same long game every time
        svc = GameService(db, game_seed=TEST_GAME_SEED)
        acc = Accounts(db, "k", 30)
        a, b = acc.register("alice", "password1", None), acc.register("bob", "password1", None)
        users = {"union": a, "confederate": b}
        rng = random.Random(seed)
        gid = svc.create_game(a, "1861", [], "union", "async", False)["id"]
        svc.join(b, gid)
        live: dict[int, str] = {}
        undos = 0
        for _ in range(3000):
            g = svc.get_game(gid, None)
            live[g["seq"]] = json.dumps(g["state"], sort_keys=True)
            if g["status"] != "active":
                break
            u = users[g["to_act"]]
            if rng.random() < 0.08 and svc.get_game(gid, u).get("can_undo"):
                svc.undo(u, gid)
                undos += 1
            else:
                svc.act(u, gid, rng.choice(svc.legal(gid, u)["actions"]))
        g = svc.get_game(gid, None)
        assert undos > 5
        with db.read() as s:
            evs = stored_events(s, gid)
        bundle = build_bundle(gid, g["header"], evs)
        states = materialize(bundle["frames"])
        frame_of = {e["seq"]: e["frame"] for e in bundle["events"]}
        assert [e["seq"] for e in bundle["events"]] == list(range(1, g["seq"] + 1))
        assert len(live) > 300
        for seq, want in live.items():
            assert json.dumps(states[frame_of[seq]], sort_keys=True) == want, f"seq {seq}"
        assert any(e["status"] == "undone" for e in bundle["events"])
        # stepping figure: the server builds the bundle once per seq; the browser steps by lookup
        t0 = time.perf_counter()
        build_bundle(gid, g["header"], evs)
        print(f"\nreplay bundle of {g['seq']} events ({len(states)} states): {(time.perf_counter() - t0) * 1000:.0f} ms")
    finally:
        db.dispose()


def test_who_may_replay(server):
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(2), 15)
    url = f"/api/games/{gid}/replay"
    # watchers look back through a game in play too (its events are public), without the seed
    for watcher in (httpx.Client(base_url=server.base), Player(server.base).http):
        r = watcher.get(url)
        assert r.status_code == 200 and r.json()["game"]["seed"] is None and r.json()["game"]["status"] == "active"
    assert httpx.get(f"{server.base}/games/{gid}/replay").status_code == 200
    r = a.http.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    body = r.json()
    assert body["game"]["seed"] is None and body["chain_ok"]
    assert body["game"]["seed_commitment"] == a.game(gid)["header"]["seed_commitment"]
    rolls = [e for e in body["events"] if e["type"] == "roll"]
    assert rolls and all("roll_index" in e for e in rolls)
    admin = make_admin(server)
    assert admin.http.get(url).status_code == 200
    resign(a, gid)
    body = httpx.get(server.base + url).json()                             # over: everyone, seed revealed
    assert body["game"]["seed"] and body["game"]["status"] == "finished"
    page = httpx.get(f"{server.base}/games/{gid}/replay")
    assert page.status_code == 200 and "/static/replay." in page.text
    assert httpx.get(f"{server.base}/api/games/nosuchgame/replay").status_code == 404


def test_dice_statistics(server):
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(4), 80)
    if a.game(gid)["status"] == "active":
        resign(b, gid)
    st = httpx.get(f"{server.base}/api/games/{gid}/dice").json()["dice"]
    assert st["all"]["rolls"] == st["union"]["rolls"] + st["confederate"]["rolls"] > 0
    assert sum(st["all"]["faces"]) == st["all"]["rolls"]
    assert st["all"]["chi_square"] is not None
    if st["all"]["shots"]:
        assert 0 <= st["all"]["hits"] <= st["all"]["shots"]
    mine = httpx.get(f"{server.base}/api/users/{a.username}/dice").json()
    assert mine["games"] == 1 and mine["dice"]["rolls"] == st["union"]["rolls"]
    assert httpx.get(f"{server.base}/api/users/nobody-here/dice").status_code == 404
