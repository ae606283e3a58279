"""The normal level marches: activating a box is worth the best March it opens.

A player that judges one action at a time by the evaluation after it never
activated a box (activation alone changes nothing on the map, and between equals
the March is kept), so "normal" ended every Movement Segment at once but for sea
moves. Each test plays a whole Movement Segment two ways: with one player kept for
the game, and as the site decides (app/computer/players.py ``decide``): a new player
for every decision, deciding on the game rebuilt from its record."""
from __future__ import annotations

import pytest

import rules_engine
from rules_engine.ai import make_player
from rules_engine.ai.evaluate import evaluate

MODES = ("kept", "site")


def _position(side: str, union: dict, confederate: dict) -> dict:
    return {"scenario": "1861", "turn": 6, "side": side, "phase": "movement", "marches": 2,
            "units": {"union": union, "confederate": confederate}}


def _decide(mode: str, kept, g, gid: str) -> dict:
    """One decision of the kept player, or of a new one as the site makes it."""
    if mode == "kept":
        return kept.choose(g)
    seq = len(g.events)
    return make_player("normal", seed=f"{gid}:{seq}").choose(rules_engine.replay(g.header, g.events))


def _movement_segment(g, mode: str, seed: str) -> list[dict]:
    """Let normal play the side to act's Movement Segment; the actions it chose."""
    side, kept = g.to_act, make_player("normal", seed)
    chosen: list[dict] = []
    while g.to_act == side and g.phase == "movement" and len(chosen) < 40:
        action = _decide(mode, kept, g, seed)
        assert action in g.legal_actions()
        g.apply(action)
        chosen.append(action)
    assert g.phase != "movement" or g.to_act != side, "the Movement Segment never ended"
    return chosen


def _marched(chosen: list[dict]) -> bool:
    """A box was activated and at least one of its units moved."""
    types = [a["type"] for a in chosen]
    return "activate" in types and "move" in types


@pytest.mark.parametrize("seed", ["a", "b", "c"])
@pytest.mark.parametrize("mode", MODES)
def test_union_marches_into_an_undefended_objective(mode, seed):
    # Atlanta (10.0) is empty and next door; no Union unit is in a port, so only a
    # land March can gain anything
    g = rules_engine.from_position(_position(
        "union", {"chattanooga": ["VI", "VI", "MI"], "columbus_oh": ["MI", "MI"]},
        {"richmond": ["VI*"] * 3, "new_orleans": ["MI", "MI"]}))
    assert not any(a["type"] in ("sea_move", "invade") for a in g.legal_actions())
    before = evaluate(g, "union")
    chosen = _movement_segment(g, mode, seed)
    assert _marched(chosen), chosen
    assert g.units_in("atlanta", "union"), chosen
    assert evaluate(g, "union") > before


@pytest.mark.parametrize("seed", ["a", "b", "c"])
@pytest.mark.parametrize("mode", MODES)
def test_confederacy_marches_into_an_undefended_union_city(mode, seed):
    # St. Louis (a Union Recruitment City worth 2, 7.1) is empty and next door
    g = rules_engine.from_position(_position(
        "confederate", {"washington": ["VI*"] * 4, "harrisburg": ["MI", "MI"]},
        {"ironton": ["VI", "VI", "MI"], "richmond": ["VI*"] * 3}))
    before = evaluate(g, "confederate")
    chosen = _movement_segment(g, mode, seed)
    assert _marched(chosen), chosen
    assert g.units_in("st_louis", "confederate"), chosen
    assert evaluate(g, "confederate") > before


@pytest.mark.parametrize("mode", MODES)
def test_both_sides_march_in_the_first_turn_of_1861(mode):
    # 4.1: no die for Marches on the first Game Turn, two Marches each
    g = rules_engine.new_game(scenario="1861", seed="first-turn")
    kept = {"union": make_player("normal", "u"), "confederate": make_player("normal", "c")}
    moved: dict[str, list[dict]] = {"union": [], "confederate": []}
    while g.turn == 1 and g.to_act is not None:
        side, phase = g.to_act, g.phase
        action = _decide(mode, kept[side], g, "first-turn")
        if phase == "movement":
            moved[side].append(action)
        g.apply(action)
    assert _marched(moved["union"]), moved["union"]
    assert _marched(moved["confederate"]), moved["confederate"]


def test_merging_identical_pieces_changes_no_choice():
    """Judging the moves of identical pieces once is a saving, not a new judgement."""
    from rules_engine.ai.evaluate import FULL
    from rules_engine.ai.players import SearchPlayer

    def play(merge: bool) -> list[dict]:
        g = rules_engine.from_position(_position(
            "union", {"washington": ["VI*"] * 6 + ["MI*"] * 4, "chattanooga": ["VI", "VI", "MI", "MI"]},
            {"richmond": ["VI*"] * 3, "manassas_junction": ["MI", "MI"]}))
        bot = SearchPlayer("m", "normal", FULL, samples=2, lookahead=2, stacks=True, merge=merge)
        out = []
        while g.to_act == "union" and g.phase == "movement":
            out.append(bot.choose(g))
            g.apply(out[-1])
        return out
    assert play(True) == play(False)


def test_a_last_look_at_every_march_before_passing():
    """The lookahead follows an activation only to a few destinations (battles and
    cities first); before ending the segment with Marches left, every destination of
    every box is weighed. A one-destination lookahead sees only the battle against
    the entrenched Crack Infantry in Knoxville, not the empty Atlanta."""
    from rules_engine.ai.evaluate import FULL
    from rules_engine.ai.players import SearchPlayer

    def segment(seed: str, last_look: bool) -> list[dict]:
        g = rules_engine.from_position(_position(
            "union", {"chattanooga": ["VI", "VI", "MI"], "columbus_oh": ["MI", "MI"]},
            {"knoxville": ["CI*"] * 4, "richmond": ["VI*"] * 3, "new_orleans": ["MI", "MI"]}))
        bot = SearchPlayer(seed, "t", FULL, samples=2, lookahead=1, stacks=True, last_look=last_look)
        out = []
        while g.to_act == "union" and g.phase == "movement":
            out.append(bot.choose(g))
            g.apply(out[-1])
        return out
    seeds = ["a", "b", "c", "d", "e", "f"]
    assert all(_marched(segment(s, True)) for s in seeds)
    assert not all(_marched(segment(s, False)) for s in seeds)     # the test can fail
