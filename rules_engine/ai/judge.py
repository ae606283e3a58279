"""A judgement of a position learned from self-play: a handful of features a
player of this game weighs, combined by weights fitted to game results (tune.py),
read as the Union's chance to win.

Each feature is measured from the Union's side (positive is good for the Union).
Their weighted sum is the log-odds of a Union win: it draws the evaluation graph
after a game (``union_win_chance``, analysis.py), and ``judge`` can pick moves for
the expert (higher is better for the side given), though the hand-set evaluation
plays better for now (docs/ai.md). The weights live in
``data/expert_weights.json`` with the commands that made them.

Battles still to be fought by the side moving are counted by their odds
(``odds.lanchester_odds``), so a position in the middle of a Player Turn reads as it will
stand once its battles are over."""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..game import Game
from .evaluate import Reach, _Owner, _projected_amax, amax_ending, ending_margin, facts, worth
from .odds import lanchester_odds

WEIGHTS_FILE = Path(__file__).parent / "data" / "expert_weights.json"

CAPITALS = {"union": "washington", "confederate": "richmond"}

#: Feature names, in the order ``features`` returns them.
NAMES = (
    "bias",               # a constant: the side that moves first is not the question here
    "amax_diff",          # Army Maximums (7.1): Union - Confederacy, after the mover's battles
    "amax_margin",        # how close the Confederacy is to an Army Maximum win (10.0), 0..4
    "amax_close",         # the same, squared below a margin of 3: one city from losing
    "objectives",         # the seven cities (10.0) the Union holds, after the mover's battles
    "objectives_late",    # the same, times "time"
    "objectives_close",   # the same, squared above four: a city or two from winning
    "time",               # 1 - turns left / 40: the South wins by lasting (10.0); 0 in a
                          # game decided by the Army Maximums at its end
    "ending",             # such a game (11.1, 11.3): the Army Maximum difference against
                          # what the Union needs then, the more the nearer the end
    "material",           # worth of the pieces, Union - Confederacy
    "union_lost",         # shield value of the Union's recruitment cities the enemy holds
    "union_threatened",   # ... and of those it holds that the enemy can reach, by the danger
    "south_lost",         # the same for the Confederacy's cities and the objectives (3 each)
    "south_threatened",
    "washington",         # danger to Washington (10.0: its loss ends the game)
    "richmond",           # Union force within reach of Richmond against its defenders
    "advance",            # Union force near the objectives it lacks
    "entrenched",         # entrenched worth, Union - Confederacy (4.3)
    "room",               # units each side may still recruit (7.1): Union - Confederacy
)

#: Before any tuning: a hand-set judgement, also the prior the tuning pulls towards.
PRIOR = {
    "bias": 0.0, "amax_diff": 0.10, "amax_margin": -0.35, "amax_close": -0.3, "objectives": 0.60,
    "objectives_late": 0.6, "objectives_close": 2.0, "time": -1.5, "ending": 0.5, "material": 0.2,
    "union_lost": -0.25, "union_threatened": -0.15, "south_lost": 0.25, "south_threatened": 0.05,
    "washington": -0.8, "richmond": 0.4, "advance": 0.004, "entrenched": 0.01, "room": 0.01,
}


@lru_cache(maxsize=1)
def tuned_weights() -> tuple[float, ...]:
    """The weights in data/expert_weights.json (the prior if none were tuned)."""
    if WEIGHTS_FILE.exists():
        data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
        table = data["weights"]
    else:
        table = PRIOR
    return tuple(float(table.get(name, 0.0)) for name in NAMES)


def log_odds(game: Game, weights: tuple[float, ...] | None = None) -> float:
    """The Union's log-odds of winning (finished games: plus or minus 20)."""
    if game.result is not None:
        return 20.0 if game.result["winner"] == "union" else -20.0
    w = weights or tuned_weights()
    return sum(a * b for a, b in zip(w, features(game), strict=True))


def union_win_chance(game: Game, weights: tuple[float, ...] | None = None) -> float:
    x = max(-30.0, min(30.0, log_odds(game, weights)))
    return 1.0 / (1.0 + math.exp(-x))


def judge(game: Game, side: str, weights: tuple[float, ...] | None = None) -> float:
    """Higher is better for ``side``."""
    x = log_odds(game, weights)
    return x if side == "union" else -x


def features(game: Game) -> list[float]:
    """The position measured feature by feature (see NAMES)."""
    strength, pieces, entrenched = _strengths(game)
    odds = lanchester_odds(game)
    owner = _Owner(game, odds)
    amax = _projected_amax(game, owner)
    ending = amax_ending(game)
    gone = 0.0 if ending else max(0.0, 1.0 - (game.last_turn - game.turn) / 40.0)
    diff = amax["union"] - amax["confederate"]
    held = sum(owner[b] for b in facts(game.map).objectives)
    reach = Reach(game, strength)
    return [
        1.0,
        diff,
        max(0.0, min(4.0, 4.0 - diff)),
        max(0.0, 3.0 - diff) ** 2,
        held,
        held * gone,
        max(0.0, held - 4.0) ** 2,
        gone,
        ending_margin(game, ending, diff),
        _material(pieces, odds),
        *_exposure(game, strength, owner, reach, "union"),
        *_exposure(game, strength, owner, reach, "confederate"),
        _capital_danger(game, strength, reach, "union"),
        _capital_danger(game, strength, reach, "confederate"),
        _advance(game, pieces),
        entrenched,
        _room(game),
    ]


# ------------------------------------------------------------------ battles
def _material(pieces: dict[str, dict[str, float]], odds: dict[str, float]) -> float:
    """Worth of the pieces, Union - Confederacy; in a battle the loser is counted
    at half (it retreats or is destroyed) and the winner at three quarters."""
    total = 0.0
    for box, cell in pieces.items():
        u, c = cell["union"], cell["confederate"]
        p = odds.get(box)
        if p is not None:
            u *= 0.5 + 0.25 * p
            c *= 0.5 + 0.25 * (1.0 - p)
        total += u - c
    return total


# ------------------------------------------------------------------ the terms
def _strengths(game: Game) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]], float]:
    """Each side's worth in every occupied box with its entrenchment (for battle)
    and without (as pieces), and the entrenched worth, Union - Confederacy, in
    one pass over the pieces."""
    strength: dict[str, dict[str, float]] = {}
    pieces: dict[str, dict[str, float]] = {}
    entrenched = 0.0
    units = game.units
    for box in game.occupied_boxes():
        fighting = {"union": 0.0, "confederate": 0.0}
        bare = {"union": 0.0, "confederate": 0.0}
        for uid in game.at[box]:
            u = units[uid]
            value = worth(u, False)
            bare[u.side] += value
            if u.ent:
                fighting[u.side] += value * 1.25
                entrenched += value if u.side == "union" else -value
            else:
                fighting[u.side] += value
        strength[box], pieces[box] = fighting, bare
    return strength, pieces, entrenched


def _exposure(game: Game, strength: dict, owner: dict, reach: Reach, side: str) -> tuple[float, float]:
    """Shield value of ``side``'s recruitment cities (for the Confederacy also the
    objectives, worth 3 each) the enemy holds after the mover's battles, and of
    those it does not hold but can reach, each by its danger (enemy strength in
    reach against the defenders, 0..1). Kept apart: a taken city is sure, a
    threat only a chance, and a raiding stack threatens many cities at once."""
    enemy = "confederate" if side == "union" else "union"
    f = facts(game.map)
    cities = list(f.shields[side])
    if side == "confederate":
        cities += [(b, 3) for b in f.objectives]
    lost = threatened = 0.0
    for box, value in cities:
        held = owner[box] if side == "union" else 1.0 - owner[box]
        if game.controller(box) is None and held == 0.0:
            continue                                 # neutral and untouched (4.12)
        lost += value * (1.0 - held)
        attackers = reach(box, enemy)
        if attackers > 0.0 and held > 0.0:
            defenders = strength.get(box, {}).get(side, 0.0) * 1.3
            threatened += value * held * attackers / (attackers + defenders + 1.0)
    return lost, threatened


def _capital_danger(game: Game, strength: dict, reach: Reach, side: str) -> float:
    """0..1: how much of an enemy force can reach ``side``'s capital against what
    holds it."""
    capital = CAPITALS[side]
    if capital not in game.map.boxes:
        return 0.0
    enemy = "confederate" if side == "union" else "union"
    attackers = reach(capital, enemy)
    defenders = strength.get(capital, {}).get(side, 0.0) * 1.5
    if attackers <= 0.0:
        return 0.0
    return attackers * attackers / (attackers * attackers + defenders * defenders + 1.0)


def _advance(game: Game, pieces: dict[str, dict[str, float]]) -> float:
    """Union worth near the objectives it does not hold (closer counts more)."""
    # the objectives not held when the segment began: control changes only at the
    # end of a combat segment (8.0), so every plan of a segment chases the same ones
    f = facts(game.map)
    targets = tuple(b for b in f.objectives if game.controller(b) != "union")
    if not targets:
        return 0.0
    pull = _pull(game.map, targets)
    return sum(pull[box] * cell["union"] for box, cell in pieces.items() if cell["union"])


_PULLS: dict[tuple[int, tuple[str, ...]], tuple[Any, dict[str, int]]] = {}


def _pull(game_map: Any, targets: tuple[str, ...]) -> dict[str, int]:
    """8 minus the steps from each box to the nearest target (0 from 8 steps on),
    worked out once per map and set of targets (the map is kept alongside, so its
    id cannot be reused by another)."""
    key = (id(game_map), targets)
    cached = _PULLS.get(key)
    if cached is None:
        dist = facts(game_map).distances
        pull = {box: max(0, 8 - min(row.get(t, 99) for t in targets)) for box, row in dist.items()}
        cached = _PULLS[key] = (game_map, pull)
    return cached[1]


def _room(game: Game) -> float:
    """Units each side could still add (7.1), Union - Confederacy."""
    return (max(0.0, game.army_limit("union") - game.units_on_map("union"))
            - max(0.0, game.army_limit("confederate") - game.units_on_map("confederate")))
