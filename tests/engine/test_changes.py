"""The fold of recorded changes (engine version 3 on): every action event carries what
the action changed, and folding those records, as they come back from JSON, gives byte
for byte the position play reached, after every action of random games of every
scenario and option set; a folded game plays on exactly like the played one; replay
asks no rule; and ``verify`` still decides every action again, so a record whose
changes lie is caught."""
from __future__ import annotations

import json
import random

import pytest

import rules_engine
from rules_engine.changes import CHANGES_RECORDED_SINCE
from rules_engine.game import Game
from rules_engine.map import scenario_ids
from rules_engine.record import Stepper
from rules_engine.verify import verify_record

from .test_fold import check_indexes, option_sets, position

ENGINE = rules_engine.ENGINE_VERSION
CASES = [(scenario, options) for scenario in scenario_ids(ENGINE)
         for options in option_sets(scenario, ENGINE)]
MAX_ACTIONS = 300             # of each random game: enough for battles, turns, recruits
RESUME_POINTS = 3             # places in each game where a folded copy plays on


def as_stored(events):
    """The events as the database gives them back: JSON."""
    return json.loads(json.dumps(events))


def random_game(scenario, options, seed):
    g = rules_engine.new_game(scenario, options=options, seed=seed)
    rng = random.Random(seed)
    while g.result is None and sum(e["type"] == "action" for e in g.events) < MAX_ACTIONS:
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_new_games_record_their_changes():
    assert ENGINE >= CHANGES_RECORDED_SINCE
    g = rules_engine.new_game("1861", seed="record")
    box = next(a["box"] for a in g.legal_actions() if a["type"] == "activate")
    (event,) = g.apply({"type": "activate", "box": box})
    assert event["changes"]["state"]["active"] == box
    assert event["changes"]["state"]["march_units"] == g.march_units
    move = next(a for a in g.legal_actions() if a["type"] == "move")
    (event,) = [e for e in g.apply(move) if e["type"] == "action"]
    assert event["changes"]["units"][move["unit"]]["loc"] == move["path"][-1]


@pytest.mark.parametrize("scenario, options", CASES, ids=[f"{s}-{len(o)}opts" for s, o in CASES])
def test_folding_each_action_reaches_the_position_play_reached(scenario, options):
    seed = f"changes-{scenario}-{len(options)}"
    g = rules_engine.new_game(scenario, options=options, seed=seed)
    folded = rules_engine.replay(g.header, [])
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if g.result is not None:
            break
        produced = g.apply(rng.choice(g.legal_actions()))
        assert as_stored(produced) == produced, "a record of changes is not plain JSON"
        for event in as_stored(produced):
            if event["type"] == "action":
                folded.fold_action(event)
        assert folded.state_json() == g.state_json()
        assert folded.to_act == g.to_act
        assert folded.legal_actions() == g.legal_actions()
    check_indexes(folded)
    replayed = rules_engine.replay(g.header, as_stored(g.events))
    assert position(replayed) == position(g)
    check_indexes(replayed)


@pytest.mark.parametrize("scenario, options", CASES, ids=[f"{s}-{len(o)}opts" for s, o in CASES])
def test_a_folded_game_plays_on_exactly_like_the_played_one(scenario, options):
    """Folded from its stored events at a few points (undo floors and all), a game
    given its seed makes the same events, changes records included, to the end."""
    seed = f"resume-{scenario}-{len(options)}"
    g = random_game(scenario, options, seed)
    actions = [i for i, e in enumerate(g.events) if e["type"] == "action"]
    for k in range(1, RESUME_POINTS + 1):
        cut = actions[k * len(actions) // (RESUME_POINTS + 1)]
        resumed = rules_engine.replay(g.header, as_stored(g.events[:cut]), seed=seed)
        for i in actions:
            if i >= cut:
                resumed.apply(g.events[i]["action"])
        assert resumed.events == g.events
        assert position(resumed) == position(g)


def test_replay_of_a_recorded_game_asks_no_rule(monkeypatch):
    g = random_game("1862", [], "no rules")
    seen = position(g)

    def no_rules(self, action):
        raise AssertionError("the fold executed an action")

    monkeypatch.setattr(Game, "_execute", no_rules)
    assert position(rules_engine.replay(g.header, as_stored(g.events))) == seen


def test_games_of_older_versions_record_nothing_and_still_replay():
    g = rules_engine.new_game("1861", seed="old", engine=2)
    rng = random.Random(2)
    for _ in range(200):
        g.apply(rng.choice(g.legal_actions()))
    assert not any("changes" in e for e in g.events)
    assert position(rules_engine.replay(g.header, as_stored(g.events))) == position(g)


def test_the_replay_viewer_steps_through_the_same_positions():
    g = rules_engine.new_game("1863", options=["A8.2", "A7.0"], seed="viewer")
    rng = random.Random(4)
    seen = {}
    for _ in range(300):
        g.apply(rng.choice(g.legal_actions()))
        seen[len(g.events)] = g.state_json()
    st = Stepper(g.header)
    for n, event in enumerate(as_stored(g.events), start=1):
        st.push({"seq": n, "source": "engine", "type": event["type"], "data": event})
        if n in seen:
            st.settle()
            assert st.game.state_json() == seen[n]


def test_verify_decides_again_and_catches_a_record_whose_changes_lie():
    g = random_game("1861", [], "liar")
    record = {"header": g.header, "events": as_stored(g.events), "seed": "liar"}
    assert verify_record(record) == []
    moves = [e for e in record["events"] if e["type"] == "action" and "units" in e["changes"]]
    forged = moves[-1]                  # no later record puts its pieces right again
    uid, look = next(iter(forged["changes"]["units"].items()))
    look["loc"] = "stock" if look["loc"] != "stock" else "pool"      # the piece went elsewhere
    assert rules_engine.replay(g.header, record["events"]).state_json() != g.state_json()
    assert any("differs from what the action" in p for p in verify_record(record))
