"""The computer player: legal play in every scenario and option set, the same game
from the same seed, no knowledge of the dice seed, and the match command."""
from __future__ import annotations

import json
import random

import pytest

import rules_engine
from rules_engine.__main__ import main
from rules_engine.ai import LEVELS, make_player
from rules_engine.options import validate_options

ADVANCED = [o for o in rules_engine.option_ids() if o.startswith("A")]


def random_options(rng: random.Random, scenario: str) -> list[str]:
    """A random valid option set, always with some Advanced rules."""
    chosen = rng.sample(ADVANCED, 3)
    for oid in rng.sample(rules_engine.option_ids(), 12):
        try:
            validate_options(chosen + [oid], scenario)
        except ValueError:
            continue
        if oid not in chosen:
            chosen.append(oid)
    return chosen


def play(g, players: dict, decisions: int) -> None:
    """Let ``players`` decide for up to ``decisions`` decisions, checking each one."""
    for _ in range(decisions):
        side = g.to_act
        if side is None:
            return
        action = players[side].choose(g)
        assert action in g.legal_actions()
        g.apply(action)


@pytest.mark.slow   # a whole game of the computer player
@pytest.mark.parametrize("scenario", rules_engine.SCENARIO_IDS)
def test_plays_every_scenario_legally_to_the_end(scenario):
    rng = random.Random(scenario)
    options = random_options(rng, scenario)
    g = rules_engine.new_game(scenario=scenario, options=options, seed=f"ai-{scenario}")
    levels = rng.sample(["easy", "normal", "hard", "greedy"], 2)
    bots = {"union": make_player(levels[0], 1), "confederate": make_player(levels[1], 2)}
    play(g, bots, 20)
    # a whole game by the computer is too slow for a unit test here (the next test
    # plays one): random players finish it from the computer's position
    play(g, {s: make_player("random", 3) for s in bots}, 100_000)
    assert g.result is not None, (scenario, options)


@pytest.mark.slow   # a whole game of the computer player
def test_finishes_a_whole_game_with_advanced_rules():
    options = ["A2.0", "A4.0", "A8.2", "4.8", "7.5"]
    g = rules_engine.new_game(scenario="1861-short", options=options, seed="whole")
    bots = {"union": make_player("easy", 1), "confederate": make_player("random", 2)}
    play(g, bots, 5_000)
    assert g.result is not None
    # the player's own copy of the game followed the real one to the end
    assert bots["union"].shadow.sync(g.events).state_json() == g.state_json()


@pytest.mark.slow   # a whole game of the computer player
def test_same_seed_same_game():
    def run():
        players = {"union": make_player("normal", "u"), "confederate": make_player("hard", "c")}
        g = rules_engine.new_game(scenario="1862", seed="same")
        play(g, players, 30)
        return g.events
    assert run() == run()


class _SealedDice:
    """The game's die source, sealed: rolling works, anything else (the seed, the
    roll index) fails the test."""

    def __init__(self, dice):
        object.__setattr__(self, "_inner", dice)

    def roll(self) -> int:
        return self._inner.roll()

    def __getattr__(self, name):
        raise AssertionError(f"the computer player read the die source ({name})")


def decides_blind_to_the_seed(level: str, scenario: str, decisions: int) -> None:
    """``level`` never reads the die source, and makes the same choice from the real
    game as from its record replayed without a seed."""
    g = rules_engine.new_game(scenario=scenario, seed="hidden")
    g._dice = _SealedDice(g._dice)
    seeing, blind = make_player(level, "x"), make_player(level, "x")
    for _ in range(decisions):
        action = seeing.choose(g)
        assert blind.choose(rules_engine.replay(g.header, g.events)) == action
        g.apply(action)


@pytest.mark.slow   # a whole game of the computer player
def test_never_reads_the_seed():
    decides_blind_to_the_seed("hard", "1861", 25)


def test_levels():
    assert set(LEVELS) >= {"random", "greedy", "easy", "normal", "hard"}
    with pytest.raises(ValueError):
        make_player("grandmaster")


def test_match_command_prints_one_json_line(capsys):
    assert main(["match", "--a", "random", "--b", "random", "--games", "2",
                 "--scenario", "1861-short", "--seed", "shape"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["games"] == 2 and out["a"] == "random" and out["b"] == "random"
    assert out["wins"]["a"] + out["wins"]["b"] + out["unfinished"] == 2
    for who in ("a", "b"):
        timing = out["seconds_per_decision"][who]
        assert set(timing) == {"decisions", "median", "p99"} and timing["decisions"] > 0


def test_match_refuses_unknown_levels(capsys):
    assert main(["match", "--a", "grandmaster", "--games", "1"]) == 2


def _position(union: dict, confederate: dict) -> dict:
    return {"scenario": "1861", "turn": 15, "side": "union", "phase": "movement",
            "marches": 2, "units": {"union": union, "confederate": confederate}}


def test_entrenchment_is_not_counted_as_pieces_except_by_the_baseline():
    from rules_engine.ai.evaluate import FULL, SIMPLE, evaluate

    def score(code: str, weights) -> float:
        g = rules_engine.from_position(_position({"philadelphia": [code] * 4}, {"richmond": ["MI"]}))
        return evaluate(g, "union", weights)
    # leaving a dug-in box far from the enemy costs nothing in the full evaluation,
    # so an entrenched army is free to march out ...
    assert score("VI*", FULL) == pytest.approx(score("VI", FULL))
    # ... while the greedy baseline keeps its old judgement
    assert score("VI*", SIMPLE) > score("VI", SIMPLE)


@pytest.mark.parametrize("seed", ["a", "b"])
def test_hard_union_marches_on_richmond_leaving_washington_a_garrison(seed):
    army = ["CI*"] * 4 + ["MI*"] * 5 + ["VI*"] * 5
    g = rules_engine.from_position(_position(
        {"washington": army, "petersburg": ["MI", "MI", "VI"]},
        {"richmond": ["CI*"] * 4, "manassas_junction": ["CI", "MI", "VI"]}))
    bot = make_player("hard", seed)
    decisions = 0
    while g.to_act == "union" and g.phase == "movement" and decisions < 40:
        g.apply(bot.choose(g))
        decisions += 1
    next_to_richmond = sum(len(g.units_in(b, "union")) for b, _ in g.map.neighbours("richmond"))
    staying = len(g.units_in("washington", "union"))
    # most of the army goes towards the objective (not all: an enemy is next door)
    assert next_to_richmond >= len(army) // 2
    assert 0 < staying < len(army) // 2
