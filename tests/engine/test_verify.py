"""The game record verifier: seed commitment, every die, every action re-decided."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import rules_engine
from rules_engine.verify import state_sha256, verify_record


def finished_record(seed="verify me"):
    g = rules_engine.new_game("1861", seed=seed)
    rng = random.Random(7)
    while g.result is None:
        g.apply(rng.choice(g.legal_actions()))
    return {"header": g.header, "events": g.events, "seed": seed, "state_sha256": state_sha256(g)}


def test_a_fair_record_verifies(tmp_path):
    record = finished_record()
    assert verify_record(record) == []
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("OK:"), out.stdout


def test_a_changed_die_is_caught():
    record = finished_record()
    roll = next(e for e in record["events"] if e["type"] == "roll" and e["purpose"] == "fire")
    roll["value"] = roll["value"] % 6 + 1
    problems = verify_record(record)
    assert any("the seed gives" in p for p in problems)


def test_a_wrong_seed_is_caught():
    record = finished_record()
    record["seed"] = "another seed"
    assert any("commitment" in p for p in verify_record(record))


def test_an_illegal_or_extra_action_is_caught():
    record = finished_record()
    events = record["events"]
    first_move = next(i for i, e in enumerate(events)
                      if e["type"] == "action" and e["action"]["type"] == "move")
    forged = copy.deepcopy(events[first_move])
    forged["action"]["path"] = ["richmond"]            # nowhere near
    record["events"] = events[:first_move] + [forged] + events[first_move + 1:]
    assert any("illegal" in p or "differs" in p for p in verify_record(record))


def test_a_removed_event_is_caught():
    record = finished_record()
    del record["events"][len(record["events"]) // 2]
    assert verify_record(record)
