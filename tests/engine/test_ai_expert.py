"""The expert level: it plans a Movement Segment as a whole, masses its stacks
for an attack, plays every scenario legally, never reads the dice seed, and its
judgement (tuned by self-play) reads as a win chance after the game."""
from __future__ import annotations

import math
import random

import pytest

import rules_engine
from rules_engine.ai import make_player
from rules_engine.ai.analysis import evaluation_curve
from rules_engine.ai.judge import NAMES, features, union_win_chance
from rules_engine.ai.tune import fit, log_loss

from .test_ai import decides_blind_to_the_seed, play, random_options


def _movement(position: dict, seed: str = "s") -> tuple:
    """The expert's whole Movement Segment from ``position``: the game after it
    and the actions it took."""
    g = rules_engine.from_position(position)
    bot = make_player("expert", seed)
    side, taken = g.side, []
    while g.to_act == side and g.phase == "movement":
        action = bot.choose(g)
        assert action in g.legal_actions()
        g.apply(action)
        taken.append(action)
    return g, taken


@pytest.mark.parametrize("seed", ["a", "b"])
def test_two_stacks_strike_together_not_one_at_a_time(seed):
    # Memphis (an objective, 10.0) holds four Militia; each Union stack alone would
    # fight at about even odds, the two together at three to one.
    position = {"scenario": "1861", "turn": 12, "side": "union", "phase": "movement", "marches": 2,
                "units": {"union": {"humbolt": ["VI"] * 3, "grand_junction": ["VI"] * 3},
                          "confederate": {"memphis": ["MI"] * 4, "richmond": ["VI"] * 3}}}
    g, _ = _movement(position, seed)
    assert len(g.units_in("memphis", "union")) == 6


def test_keeps_washington_held_against_a_raider_two_boxes_away():
    # A single Confederate unit two boxes from Washington takes it (and the game,
    # 10.0) with two Marches if nothing stays there: seen in self-play.
    position = {"scenario": "1861", "turn": 12, "side": "union", "phase": "movement", "marches": 3,
                "units": {"union": {"washington": ["VI"] * 2, "memphis": ["VI"]},
                          "confederate": {"gordonsville": ["CI"], "mobile": ["MI"] * 2}}}
    g, _ = _movement(position)
    assert g.units_in("washington", "union")


def test_beats_the_raiders_next_door_rather_than_guarding_every_city():
    # Two Militia took Baltimore and threaten Philadelphia and the Army Maximum
    # win (10.0); six in Washington can throw them out at good odds.
    position = {"scenario": "1861", "turn": 4, "side": "union", "phase": "movement", "marches": 2,
                "control": {"confederate": ["baltimore"]},
                "units": {"union": {"washington": ["MI"] * 6, "mobile": ["CI", "VI"]},
                          "confederate": {"baltimore": ["MI"] * 2, "manassas_junction": ["MI"],
                                          "memphis": ["MI"]}}}
    g, _ = _movement(position)
    assert len(g.units_in("baltimore", "union")) >= 3


def test_the_plan_is_made_once_and_played_through():
    position = {"scenario": "1861", "turn": 12, "side": "union", "phase": "movement", "marches": 3,
                "units": {"union": {"humbolt": ["VI"] * 3, "grand_junction": ["VI"] * 3,
                                    "washington": ["MI"] * 4},
                          "confederate": {"memphis": ["MI"] * 4, "richmond": ["VI"] * 3}}}
    g = rules_engine.from_position(position)
    bot = make_player("expert", "plan")
    first = bot.choose(g)
    planned = [first, *bot.intent.steps]
    assert planned[-1] == {"type": "end_movement"} or len(planned) > 1
    played = []
    action = first
    while g.to_act == "union" and g.phase == "movement":
        g.apply(action)
        played.append(action)
        if g.phase != "movement":
            break
        action = bot.choose(g)
    # what it played is the plan it made at its first decision, step by step
    assert played == planned[:len(played)]


@pytest.mark.slow   # a whole game of the computer player
@pytest.mark.parametrize("scenario", rules_engine.SCENARIO_IDS)
def test_plays_every_scenario_legally_with_any_options(scenario):
    rng = random.Random(f"expert-{scenario}")
    options = random_options(rng, scenario)
    g = rules_engine.new_game(scenario=scenario, options=options, seed=f"expert-{scenario}")
    bots = {"union": make_player("expert", 1), "confederate": make_player("expert", 2)}
    play(g, bots, 40)                      # play() checks every action is legal
    play(g, {s: make_player("random", 3) for s in bots}, 100_000)
    assert g.result is not None


@pytest.mark.slow   # a whole game of the computer player
def test_never_reads_the_seed_and_decides_the_same_on_a_replayed_record():
    decides_blind_to_the_seed("expert", "1861-short", 30)


@pytest.mark.slow   # a whole game of the computer player
def test_same_seed_same_game():
    def run():
        players = {"union": make_player("expert", "u"), "confederate": make_player("expert", "c")}
        g = rules_engine.new_game(scenario="1862", seed="same")
        play(g, players, 40)
        return g.events
    assert run() == run()


def test_the_win_chance_follows_the_cities():
    base = {"scenario": "1861", "turn": 20, "side": "union", "phase": "marches_roll",
            "units": {"union": {"washington": ["VI"] * 4}, "confederate": {"richmond": ["VI"] * 4}}}
    more = dict(base, control={"union": ["memphis", "new_orleans", "mobile"]})
    assert union_win_chance(rules_engine.from_position(more)) > union_win_chance(rules_engine.from_position(base))
    assert len(features(rules_engine.from_position(base))) == len(NAMES)


def test_evaluation_curve_has_a_point_per_player_turn_and_ends_with_the_result():
    g = rules_engine.new_game(scenario="1861-short", seed="curve")
    play(g, {s: make_player("random", s) for s in ("union", "confederate")}, 100_000)
    curve = evaluation_curve(g.header, g.events)
    # the start (the first Player Turn has no event), every later one, the end
    turns = sum(1 for e in g.events if e["type"] == "player_turn")
    assert len(curve) == turns + 2
    assert curve[0]["at"] == 0 and curve[0]["turn"] == 1 and curve[0]["side"] == "union"
    assert all(0.0 <= p["union"] <= 1.0 for p in curve)
    assert [p["at"] for p in curve] == sorted(p["at"] for p in curve)
    assert curve[-1]["at"] == len(g.events)
    assert curve[-1]["union"] == (1.0 if g.result["winner"] == "union" else 0.0)


def test_the_fit_recovers_the_weights_that_made_the_results():
    from rules_engine.ai.judge import PRIOR
    rng = random.Random(7)
    # results drawn from known weights within the fit's range (half the prior's,
    # the objectives' twice), positions with every feature between 0 and 1
    true = [PRIOR[name] / 2 for name in NAMES]
    true[NAMES.index("objectives")] = 2 * PRIOR["objectives"]
    rows = []
    for game in range(6000):
        x = [1.0] + [rng.random() for _ in NAMES[1:]]
        p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(true, x, strict=True))))
        rows.append({"game": game, "x": x, "y": 1 if rng.random() < p else 0})
    w = fit(rows, l2=0.0)
    assert w[NAMES.index("objectives")] == pytest.approx(true[NAMES.index("objectives")], abs=0.25)
    assert log_loss(rows, w) < log_loss(rows, [PRIOR[name] for name in NAMES])


def test_a_recorded_game_gives_one_position_per_player_turn_with_its_result():
    from rules_engine.ai.tune import positions, record_game
    g = rules_engine.new_game(scenario="1861-short", seed="record")
    actions, marks = record_game(g, {s: make_player("random", s) for s in ("union", "confederate")})
    record = {"game": 0, "seed": "t", "scenario": "1861-short", "dice": "record", "actions": actions,
              "marks": marks, "y": 1 if g.result["winner"] == "union" else 0}
    rows = positions(record)
    # the first Player Turn has no event of its own
    assert len(rows) == len(marks) == 1 + sum(1 for e in g.events if e["type"] == "player_turn")
    assert {r["y"] for r in rows} == {record["y"]}
    assert all(len(r["x"]) == len(NAMES) for r in rows)


@pytest.mark.parametrize("attackers, defenders, low, high", [
    (["VI"], ["MI"], 0.55, 0.70),               # exactly 5/8 (quality.battle_odds's duel)
    (["VI"] * 3, ["MI"] * 4, 0.15, 0.40),       # even worth, but the defender fires first
    (["VI"] * 6, ["MI"] * 4, 0.90, 1.00),       # massed: no longer a gamble
    (["VI"] * 4, ["CI*"] * 3, 0.00, 0.20),      # entrenched Crack Infantry (5.31, 5.32)
])
def test_battle_odds_follow_the_battles_as_played(attackers, defenders, low, high):
    from rules_engine.ai.odds import lanchester_odds
    g = rules_engine.from_position({
        "scenario": "1861", "turn": 12, "side": "union", "phase": "movement", "marches": 1,
        "units": {"union": {"memphis": attackers, "washington": ["MI"]},
                  "confederate": {"memphis": defenders, "richmond": ["MI"]}}})
    assert low <= lanchester_odds(g)["memphis"] <= high
