"""The odds of a battle, worked out from the pieces in its box.

Both judgements use these: the learned one (judge.py) always, the hand-set one
(evaluate.py) for the expert, whose attacks should go by how battles really end
(the hard level keeps its rougher square law)."""
from __future__ import annotations

import math
from typing import Any

from ..data import unit_type
from ..game import Game


#: The defender fires first in every round (5.0): worth about a tenth more fire.
FIRST_FIRE = 1.1
#: How sharply the odds follow the ratio of fighting strengths: the more hits the
#: battle holds, the less luck decides it (fitted to battles played out on copies
#: by quality.battle_odds, from one against one to ten against six: within about
#: 0.1 of theirs).
SHARPNESS_BASE, SHARPNESS_PER_ROOT_HIT = 1.2, 0.65


def lanchester_odds(game: Game) -> dict[str, float]:
    """The Union's chance to win each battle box (a box holding both sides), by
    Lanchester's square law on the units' fire (5.1: a hit on a roll at or under
    the Combat Value, one less against entrenched or Crack Infantry targets, 5.31,
    5.32) and their hits to kill (two a full unit, one a reduced), the defender
    firing first. The side whose Player Turn it is attacks."""
    out = {}
    units = game.units
    for box in game._contested_boxes():
        side_units: dict[str, list[Any]] = {"union": [], "confederate": []}
        for uid in game.at[box]:
            u = units[uid]
            side_units[u.side].append(u)
        attacker = game.side
        defender = "confederate" if attacker == "union" else "union"
        attack = _fighting_strength(side_units[attacker], side_units[defender])
        defence = _fighting_strength(side_units[defender], side_units[attacker]) * FIRST_FIRE
        if attack <= 0.0:
            p = 0.0
        elif defence <= 0.0:
            p = 1.0
        else:
            hits = sum(1 if u.red else 2 for u in side_units["union"] + side_units["confederate"])
            r = (attack / defence) ** (SHARPNESS_BASE + SHARPNESS_PER_ROOT_HIT * math.sqrt(hits))
            p = r / (1.0 + r)
        out[box] = p if attacker == "union" else 1.0 - p
    return out


def _fighting_strength(firing: list[Any], targets: list[Any]) -> float:
    """Expected hits a round times hits it takes to destroy the side."""
    if not firing or not targets:
        return 0.0
    malus = sum((1 if t.ent else 0) - unit_type(t.type)["defense"] for t in targets) / len(targets)
    fire = sum(max(0.0, unit_type(u.type)["combat"] - malus) for u in firing) / 6.0
    toughness = sum(1 if u.red else 2 for u in firing)
    return fire * toughness
