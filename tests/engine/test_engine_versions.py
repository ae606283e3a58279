"""Games stored before a change of the map or the rules keep replaying, verifying
and continuing exactly as they were played.

The records under records/ were made by engine version 1 itself (the reconstructed
107-box map), before the printed board replaced it; they must never be regenerated."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules_engine
from rules_engine.verify import state_sha256, verify_record

RECORDS = Path(__file__).parent / "records"
OLD_RECORDS = sorted(RECORDS.glob("v1-*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_an_old_game_replays_to_the_state_it_was_stored_in(path):
    record = _load(path)
    g = rules_engine.replay(record["header"], record["events"], seed=record["seed"])
    assert g.engine_version == 1 and len(g.map.boxes) == 107
    assert state_sha256(g) == record["state_sha256"]


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_an_old_game_verifies_die_by_die(path):
    assert verify_record(_load(path)) == []


def test_an_old_game_continues_on_the_old_map():
    record = _load(RECORDS / "v1-1862-running.json")
    g = rules_engine.replay(record["header"], record["events"], seed=record["seed"])
    # the 1862 Union veteran of this game stands in Franklin, Tennessee, a box only
    # the old map has, and Kentucky still has Columbus
    assert {"franklin", "columbus_ky"} <= set(g.map.boxes)
    rng = random.Random(3)
    for _ in range(150):
        if g.result is not None:
            break
        g.apply(rng.choice(g.legal_actions()))
    again = rules_engine.replay(g.header, g.events)
    assert again.state_json() == g.state_json()
    assert verify_record({"header": g.header, "events": g.events, "seed": record["seed"]}) == []


def test_new_games_are_made_on_the_printed_board():
    g = rules_engine.new_game("1862", seed="new")
    assert g.header["engine"] == rules_engine.ENGINE_VERSION == 5     # the printed board, changes recorded, R51, 5.6, A5.0
    assert len(g.map.boxes) == 129
    assert [u["type"] for u in g.units_in("franklin_wv")] == ["VI"]


def test_an_old_version_game_can_still_be_made_and_replayed():
    g = rules_engine.new_game("1861", seed="old", engine=1)
    assert g.header["engine"] == 1 and "trenton" in g.map.boxes
    again = rules_engine.replay(json.loads(json.dumps(g.header)), g.events)
    assert again.engine_version == 1 and again.state_json() == g.state_json()


def test_an_unknown_engine_version_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="engine version 99"):
        rules_engine.replay({"engine": 99, "scenario": "1861", "options": []}, [])
    with pytest.raises(ValueError, match="1861-first-printing"):
        rules_engine.new_game("1861-first-printing", seed="x", engine=1)
