"""What the engine remembers to decide faster is always what it would work out afresh:
the March paths shared between games by the situation they depend on, and the legal
actions kept from one decision to the next (the boxes a March could start from, the
Union's sea moves, each unit's moves). Random games of option sets that change the
Movement Chart are played in turn in one process, so that one game meets situations
another remembered."""
from __future__ import annotations

import gc
import random

import pytest

import rules_engine
from rules_engine import movement
from rules_engine.game import Game

# rules the March paths depend on (4.8 cavalry-like infantry, 4.9 Union railroads,
# 4.11 the first turn's river limit, 4.12 Kentucky), and none
OPTION_SETS = [[], ["4.8", "4.9", "4.11", "4.12"], ["4.8"], ["4.9", "4.12"]]
ACTIONS = 400                # of each game
CHECK_EVERY = 3              # decisions between two checks


def afresh(g: Game) -> list[dict]:
    """The legal actions of g's position worked out with nothing remembered."""
    saved = g._acts_memo, g._paths_memo, g._paths_token, g._can_march, g._can_march_key
    g._acts_memo, g._paths_memo, g._paths_token = {}, {}, ()
    g._can_march, g._can_march_key = {}, ()
    g._legal = None
    seen = dict(movement._PATHS_SEEN)
    movement.forget_paths_seen()
    try:
        return list(g.legal_actions())
    finally:
        movement._PATHS_SEEN.update(seen)
        g._acts_memo, g._paths_memo, g._paths_token, g._can_march, g._can_march_key = saved
        g._legal = None


def check_paths_seen(g: Game) -> None:
    """Every March unit's remembered paths are the ones a search finds now."""
    if g.phase != "movement" or g.active is None:
        return
    for u in g._march_units_here():
        remembered = movement._PATHS_SEEN.get(g._paths_situation(u))
        if remembered is not None:
            assert remembered == g._paths(u), f"the paths of {u.id} from {u.loc} are remembered wrongly"


@pytest.mark.parametrize("seed", ["memo-a", "memo-b"])
def test_remembered_paths_and_actions_are_those_worked_out_afresh(seed):
    rng = random.Random(seed)
    games = [rules_engine.new_game("1861", options=opts, seed=f"{seed}-{i}")
             for i, opts in enumerate(OPTION_SETS)]
    checked = 0
    for step in range(ACTIONS):
        for g in games:                           # the games take turns: they share paths
            if g.result is not None:
                continue
            legal = g.legal_actions()
            if step % CHECK_EVERY == 0:
                assert list(legal) == afresh(g), f"{g.header['options']}: decision {step}"
                check_paths_seen(g)
                checked += 1
            g.apply(rng.choice(legal))
    assert checked > 200
    assert movement._PATHS_SEEN, "the games met March paths"


def test_a_full_memory_of_paths_is_emptied_and_filled_again(monkeypatch):
    monkeypatch.setattr(movement, "PATHS_SEEN_LIMIT", 5)
    movement.forget_paths_seen()
    g = rules_engine.new_game("1861", seed="memo-limit")
    rng = random.Random(7)
    while g.result is None and len(g.events) < 2000:
        check_paths_seen(g)
        assert len(movement._PATHS_SEEN) <= 5
        g.apply(rng.choice(g.legal_actions()))
    assert movement._PATHS_SEEN


def test_the_shared_path_memory_is_keyed_by_plain_values():
    """The situations the March paths are remembered by hold no containers (sets of
    boxes are bit masks), so the garbage collector stops tracking the keys: a server
    holding many games does not scan them again on every full collection."""
    movement.forget_paths_seen()
    g = rules_engine.new_game("1861", options=["4.8", "4.9"], seed="memo-keys")
    rng = random.Random(3)
    while g.result is None and len(movement._PATHS_SEEN) < 40:
        g.apply(rng.choice(g.legal_actions()))
    gc.collect()
    assert movement._PATHS_SEEN
    assert not any(gc.is_tracked(key) for key in movement._PATHS_SEEN)


@pytest.mark.parametrize(("scenario", "base", "rules"), [
    ("1864", [], ["4.8"]),                      # Crack infantry move as cavalry
    ("1861", [], ["4.9"]),                      # Union railroads reach three boxes
    ("1861", ["4.12"], ["4.11", "4.12"]),       # first turn: one box by river, Kentucky shut either way
    ("1861", [], ["4.12"]),                     # Kentucky shut to the Union
])
def test_paths_remembered_under_other_rules_are_not_taken(scenario, base, rules):
    """The same pieces on the same boxes, with and without a rule that changes the
    Movement Chart or the boxes open: each game gets the paths of its own rules."""
    movement.forget_paths_seen()
    first = rules_engine.new_game(scenario, options=base, seed="memo-rule")
    second = rules_engine.new_game(scenario, options=rules, seed="memo-rule")
    differ = 0
    for uid, u in first.units.items():
        if u.loc in first.at:
            first._paths_known(u)                          # remembered first
            v = second.units[uid]
            assert second._paths_known(v) == second._paths(v), f"{rules}: {uid} at {u.loc}"
            differ += first._paths(u) != second._paths(v)
    assert differ, f"{rules} changes some unit's paths at the start of {scenario}"
