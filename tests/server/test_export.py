"""Export of a game as one JSON file, checked by `python -m rules_engine verify`: a single
tampered roll or event is found, with the seq it is at."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import httpx

from .helpers import ROOT, Player, new_match, play_random
from .replay_helpers import resign


def _verify(tmp_path, rec, name="game.json") -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(path)], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)


def _finished_export(server, decisions=70, seed=3):
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(seed), decisions)
    if a.game(gid)["status"] == "active":
        resign(b, gid)
    r = httpx.get(f"{server.base}/api/games/{gid}/export", timeout=30)
    assert r.status_code == 200, r.text
    return a, b, gid, r.json()


def test_finished_game_exports_and_verifies_and_tampering_is_found(server, tmp_path):
    a, b, gid, rec = _finished_export(server)
    assert rec["format"] == "ahd-game-export/1" and rec["game_id"] == gid
    assert rec["seed"] and rec["header"]["seed_commitment"]
    assert rec["events"][-1]["hash"] == rec["chain_head"]
    ok = _verify(tmp_path, rec)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("OK:") and "every die matches the revealed seed" in ok.stdout

    # one die changed (and its hash recomputed would still break the next prev_hash)
    bad = copy.deepcopy(rec)
    roll = [e for e in bad["events"] if e["type"] == "roll"][3]
    roll["data"]["value"] = roll["data"]["value"] % 6 + 1
    out = _verify(tmp_path, bad, "roll.json")
    assert out.returncode == 1
    assert f"seq {roll['seq']}: die" in out.stdout and "but the seed gives" in out.stdout
    assert f"seq {roll['seq']}: the event was edited" in out.stdout

    # a decision changed, hashes stripped: the chain breaks at the next event
    bad = copy.deepcopy(rec)
    for e in bad["events"]:
        e.pop("hash")
    act = [e for e in bad["events"] if e["type"] == "action"][5]
    act["data"]["side"] = "confederate" if act["data"]["side"] == "union" else "union"
    out = _verify(tmp_path, bad, "action.json")
    assert out.returncode == 1 and f"seq {act['seq'] + 1}: its prev_hash does not match the hash of seq {act['seq']}" \
        in out.stdout, out.stdout

    # an event removed, and two swapped
    bad = copy.deepcopy(rec)
    gone = bad["events"].pop(40)["seq"]
    out = _verify(tmp_path, bad, "removed.json")
    assert out.returncode == 1 and f"events {gone}..{gone} are missing" in out.stdout
    bad = copy.deepcopy(rec)
    bad["events"][30], bad["events"][31] = bad["events"][31], bad["events"][30]
    out = _verify(tmp_path, bad, "swapped.json")
    assert out.returncode == 1 and "reordered" in out.stdout

    # a wrong seed
    bad = copy.deepcopy(rec)
    bad["seed"] = "0" * 64
    out = _verify(tmp_path, bad, "seed.json")
    assert out.returncode == 1 and "does not match the commitment" in out.stdout


def test_active_game_export_hides_the_seed(server):
    """A game in play is exported for anyone (its events are public), never with its seed."""
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(1), 10)
    for reader in (httpx.Client(base_url=server.base), Player(server.base).http):
        r = reader.get(f"/api/games/{gid}/export")
        assert r.status_code == 200 and r.json()["seed"] is None and r.json()["status"] == "active"
    r = a.http.get(f"/api/games/{gid}/export")
    assert r.status_code == 200 and r.json()["seed"] is None
    assert r.json()["header"]["seed_commitment"] == a.game(gid)["header"]["seed_commitment"]


def test_viewer_opens_an_exported_file_without_an_account(server):
    a, b, gid, rec = _finished_export(server, decisions=60, seed=5)
    r = httpx.post(f"{server.base}/api/replay/file", content=json.dumps(rec), timeout=60)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["verified"] and not out["problems"]
    assert len(out["events"]) == len(rec["events"]) and out["frames"][0]["full"]["units"]
    bad = copy.deepcopy(rec)
    roll = [e for e in bad["events"] if e["type"] == "roll"][0]
    roll["data"]["value"] = roll["data"]["value"] % 6 + 1
    out = httpx.post(f"{server.base}/api/replay/file", content=json.dumps(bad), timeout=60).json()
    assert not out["verified"] and any(f"seq {roll['seq']}" in p for p in out["problems"])
    assert httpx.post(f"{server.base}/api/replay/file", content=b"{}").status_code == 422
    page = httpx.get(f"{server.base}/replay")
    assert page.status_code == 200 and "/static/replay." in page.text
