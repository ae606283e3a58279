"""The applying path against the deciding path: a game rebuilt from its header and a
prefix of its events (``replay``, no legality checks, recorded dice) reaches exactly the
position that playing reached there (the whole state, the legal actions offered next,
the undo floor and the dice position), for random games of every scenario, engine
version and kind of option set; and the engine's incremental indexes always agree with
the pieces they index."""
from __future__ import annotations

import json
from collections import Counter

import pytest

import rules_engine
from rules_engine.ai import make_player
from rules_engine.data import SIDES
from rules_engine.map import scenario_ids
from rules_engine.options import IMPLEMENTED

RULE_OPTIONS = sorted(o for o in IMPLEMENTED if not o.startswith("11.3"))
SNAPSHOT_EVERY = 61            # actions between two positions recorded in play
CHECK_EVERY = 5                # actions between two checks of the indexes
FOLDS_PER_GAME = 4             # of which about this many (and the last) are folded to
TURN_FLAGS = ("m", "moved", "jumped", "sea", "dig", "frm", "river", "fought", "prom")


def option_sets(scenario: str, engine: int) -> list[list[str]]:
    """No options, every rule option, and every rule option with the earliest 03
    (March) ending the scenario allows (11.3)."""
    sets = [[], RULE_OPTIONS]
    for ending in ("11.3:1862", "11.3:1863", "11.3:1864"):
        try:
            rules_engine.new_game(scenario, options=[ending], seed="probe", engine=engine)
        except ValueError:
            continue
        sets.append(RULE_OPTIONS + [ending])
        break
    return sets


CASES = [(engine, scenario, options)
         for engine in rules_engine.DATA_VERSIONS
         for scenario in scenario_ids(engine)
         for options in option_sets(scenario, engine)]


def position(g) -> str:
    """Everything a player or the server can see of a position, as canonical JSON."""
    return json.dumps({"state": g.state(), "legal": g.legal_actions(), "to_act": g.to_act,
                       "undo_floor": g.undo_floor(), "rolls": g.rolls},
                      sort_keys=True, separators=(",", ":"))


def check_indexes(g) -> None:
    """The indexes kept while pieces move equal the same facts counted afresh."""
    for side in SIDES:
        counted = Counter(g.units[u].loc for u in g.units
                          if g.units[u].side == side and g.units[u].loc in g.at)
        assert g._held[side] == set(counted)
        assert {b: n for b, n in g._side_n[side].items() if n} == dict(counted)
    assert g._occupied == {b for b, uids in g.at.items() if uids}
    where: dict = {}
    for uid, u in g.units.items():
        where.setdefault((u.side, u.type, u.loc), set()).add(uid)
    assert {k: v for k, v in g._pieces_at.items() if v} == where
    for u in g.units.values():
        if u.loc in g.at and u.id not in g._flagged:
            assert not any(getattr(u, f) for f in TURN_FLAGS), f"{u.id} has turn flags nobody will clear"
    for side in SIDES:
        owned = {b for b in g.map.boxes if g.controller(b) == side}
        assert g._controlled(side) == owned
        assert g._controlled_bits(side) == sum(g._box_bit[b] for b in owned)
        assert g._held_bits[side] == sum(g._box_bit[b] for b in g._held[side])
        assert g._held_sorted(side) == sorted(g._held[side])
    check_march_memory(g)


def check_march_memory(g) -> None:
    """What the engine remembers of the boxes a March could start from, and of the
    paths of a March, is still true."""
    if g._can_march_key == (g.side, g.turn, g.ky_entered, tuple(g.contained)):
        for box, can in g._can_march.items():
            assert g._box_can_march(box) == can, f"a March from {box} is remembered wrongly"
    if g._paths_memory() is g._paths_memo:
        for (box, type_, jumped), paths in g._paths_memo.items():
            unit = next((u for u in g.units.values() if u.loc == box and u.type == type_
                         and u.jumped == jumped and u.side == g.side), None)
            if unit is not None:
                assert g._paths(unit) == paths, f"the paths from {box} are remembered wrongly"


def play_with_snapshots(engine, scenario, options, seed):
    """A random game to the end: the game and, every SNAPSHOT_EVERY actions, the
    number of events so far and the position then."""
    g = rules_engine.new_game(scenario, options=options, seed=seed, engine=engine)
    bot = make_player("random", seed=seed)
    snapshots = [(0, position(g))]
    actions = 0
    while g.result is None:
        g.apply(bot.choose(g))
        actions += 1
        check_march_memory(g)
        if actions % CHECK_EVERY == 0:
            check_indexes(g)
        if actions % SNAPSHOT_EVERY == 0:
            snapshots.append((len(g.events), position(g)))
        assert actions < 20_000
    check_indexes(g)
    snapshots.append((len(g.events), position(g)))
    return g, snapshots


@pytest.mark.parametrize("engine, scenario, options", CASES,
                         ids=[f"v{e}-{s}-{len(o)}opts" for e, s, o in CASES])
def test_the_fold_reaches_the_position_play_reached(engine, scenario, options):
    seed = f"fold-{engine}-{scenario}-{len(options)}"
    g, snapshots = play_with_snapshots(engine, scenario, options, seed)
    step = max(1, len(snapshots) // FOLDS_PER_GAME)
    for n_events, seen in snapshots[::step] + snapshots[-1:]:
        folded = rules_engine.replay(g.header, g.events[:n_events])
        assert position(folded) == seen, f"the fold of {n_events} events differs from play"
        check_indexes(folded)


@pytest.mark.parametrize("scenario", ["1861", "1863"])
def test_a_folded_game_rolls_on_with_the_same_dice(scenario):
    """Rebuilt half-way with its seed, a game plays on exactly as the original did:
    the same events, the same die values, the same final position."""
    seed = f"dice-{scenario}"
    g, _ = play_with_snapshots(rules_engine.ENGINE_VERSION, scenario, RULE_OPTIONS, seed)
    actions = [i for i, e in enumerate(g.events) if e["type"] == "action"]
    cut = actions[len(actions) // 2]
    resumed = rules_engine.replay(g.header, g.events[:cut], seed=seed)
    for i in actions[len(actions) // 2:]:
        resumed.apply(g.events[i]["action"])
    assert resumed.events == g.events
    assert position(resumed) == position(g)


@pytest.mark.parametrize("engine", rules_engine.DATA_VERSIONS)
def test_a_cached_game_brought_forward_reaches_each_position_and_rolls_on(engine):
    """A server's cached game behind another process's moves catches up with only the
    events it has not seen (fold_onto): after each batch it stands where play stood, and
    it then plays on with the same dice, giving exactly the original events."""
    seed = f"catch-up-{engine}"
    g, snapshots = play_with_snapshots(engine, "1861", RULE_OPTIONS, seed)
    cached = rules_engine.replay(g.header, [], seed=seed)
    done = 0
    for n_events, seen in snapshots[1:len(snapshots) // 2]:
        rules_engine.fold_onto(cached, g.events[done:n_events])
        done = n_events
        assert position(cached) == seen, f"brought forward to {n_events} events, the game differs from play"
        check_indexes(cached)
    for event in g.events[done:]:
        if event["type"] == "action" and len(cached.events) < len(g.events):
            cached.apply(event["action"])
    assert cached.events == g.events
    assert position(cached) == position(g)


def test_events_that_do_not_follow_are_refused_by_a_game_that_decides_again():
    """An older engine's game re-decides what it is brought forward by, and says so
    when the stored events are not what its actions give."""
    old = min(rules_engine.DATA_VERSIONS)
    g, _ = play_with_snapshots(old, "1861", [], "catch-up-refused")
    cached = rules_engine.replay(g.header, [], seed="another seed")
    with pytest.raises(ValueError):
        rules_engine.fold_onto(cached, g.events[:400])
