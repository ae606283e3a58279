"""How good a position is for one side: the computer player's judgement.

Scores are in "unit" points from the Union's view (a Veteran Infantry is worth
about 3) and negated for the Confederacy. Only public state is read: units,
control, Army Maximums, the map."""
from __future__ import annotations

from collections import deque
from typing import Any

from ..data import unit_type
from ..game import Game

WIN = 10_000.0
CAPITAL = "washington"

# Worth of a piece: its Combat Value, Crack Infantry more (5.32), cavalry a bit
# more than its fire for its speed and the boxes it screens.
_WORTH = {"MI": 2.0, "VI": 3.0, "CI": 4.0, "MC": 1.5, "VC": 2.5, "CC": 3.5, "CD": 2.0}


class MapFacts:
    """What the evaluation needs to know of a map, worked out once per map."""

    def __init__(self, game_map: Any):
        boxes = game_map.boxes
        # 10.0: the Union wins holding every Confederate city of value 2 or 3
        self.objectives = tuple(sorted(b for b, box in boxes.items() if box.color == "confederate"
                                       and box.shields.get("confederate", 0) >= 2))
        self.shields = {side: [(b, box.shields[side]) for b, box in sorted(boxes.items())
                               if box.shields.get(side)] for side in ("union", "confederate")}
        self.cities = frozenset(b for b, box in boxes.items() if box.recruitment_city)
        self.distances = _all_distances(game_map)
        # the boxes at most two steps from each box (itself included), with the steps
        self.within_two = {box: tuple(sorted((b, d) for b, d in row.items() if d <= 2))
                           for box, row in self.distances.items()}


_FACTS: dict[int, tuple[Any, MapFacts]] = {}


def facts(game_map: Any) -> MapFacts:
    """The facts of a map (the map object is kept alongside, so its id cannot be
    reused by another map)."""
    cached = _FACTS.get(id(game_map))
    if cached is None:
        cached = _FACTS[id(game_map)] = (game_map, MapFacts(game_map))
    return cached[1]


def _all_distances(game_map: Any) -> dict[str, dict[str, int]]:
    """Steps between every two boxes along any line."""
    out = {}
    for start in game_map.boxes:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            box = todo.popleft()
            for nxt, _line in game_map.neighbours(box):
                if nxt not in seen:
                    seen[nxt] = seen[box] + 1
                    todo.append(nxt)
        out[start] = seen
    return out


def worth(unit: Any, entrenched: bool = True) -> float:
    """A piece's worth in battle; ``entrenched=False`` leaves out its
    entrenchment, which helps only the box it is in."""
    value = _WORTH.get(unit.type, unit_type(unit.type)["combat"])
    if unit.red:
        value *= 0.6
    if unit.ent and entrenched:
        value *= 1.25
    return value


class Weights:
    """The knobs of the evaluation; the simple one is the greedy baseline's."""

    def __init__(self, amax: float = 2.0, objective: float = 5.0, material: float = 1.0,
                 advance: float = 0.15, threat: float = 1.0, capital: float = 4.0,
                 siege: float = 3.0, entrenchment_as_material: bool = False):
        self.amax, self.objective, self.material = amax, objective, material
        self.advance, self.threat, self.capital = advance, threat, capital
        self.siege = siege
        # Counting entrenchment as material makes leaving a dug-in box look like
        # losing pieces, so an army never marches out; only the baseline does so.
        self.entrenchment_as_material = entrenchment_as_material


FULL = Weights()
SIMPLE = Weights(advance=0.0, threat=0.0, capital=0.0, siege=0.0, entrenchment_as_material=True)


def evaluate(game: Game, side: str, weights: Weights = FULL) -> float:
    """Score of the position for ``side`` (higher is better)."""
    score = _union_score(game, weights)
    return score if side == "union" else -score


def _union_score(game: Game, w: Weights) -> float:
    if game.result is not None:
        return WIN if game.result["winner"] == "union" else -WIN
    strength = _strength_by_box(game)
    owner = _Owner(game, _battle_odds(game, strength))
    amax = _projected_amax(game, owner)
    score = w.amax * (amax["union"] - amax["confederate"])
    if amax["confederate"] > amax["union"]:
        score -= 50.0                          # 10.0: the South would win at once
    held = sum(owner[b] for b in facts(game.map).objectives)
    score += w.objective * held + (20.0 if held > 6.5 else 0.0)
    material_strength = strength if w.entrenchment_as_material else _strength_by_box(game, False)
    score += w.material * _material(game, strength, material_strength)
    if w.advance:
        score += w.advance * _advance(game, owner)
    if w.threat:
        score -= w.threat * _threats(game, strength, owner, "union")
        score += w.threat * _threats(game, strength, owner, "confederate")
    if w.siege:
        # the Union must win by the last turn (10.0): attacking grows urgent
        score += w.siege * (1.0 + game.turn / 20.0) * _siege(game, strength, owner)
    if w.capital:
        score -= w.capital * _capital_danger(game, strength)
    return score


def _strength_by_box(game: Game, entrenched: bool = True) -> dict[str, dict[str, float]]:
    """Total worth of each side's pieces in every occupied box."""
    out: dict[str, dict[str, float]] = {}
    units = game.units
    for box in game.occupied_boxes():
        cell = {"union": 0.0, "confederate": 0.0}
        for uid in game.at[box]:
            u = units[uid]
            cell[u.side] += worth(u, entrenched)
        out[box] = cell
    return out


def _win_chance(mine: float, theirs: float, defending: bool) -> float:
    """Rough odds of a battle: fire is exchanged round after round, so the
    larger force wins more often than its share of the strength."""
    if defending:
        mine *= 1.3                            # fires first, often entrenched
    else:
        theirs *= 1.3
    mine, theirs = mine * mine, theirs * theirs
    return mine / (mine + theirs) if mine + theirs else 0.5


def _battle_odds(game: Game, strength: dict) -> dict[str, float]:
    """The Union's chance in each box holding both sides, by ``_win_chance``."""
    defending = game.side != "union"
    return {box: _win_chance(cell["union"], cell["confederate"], defending)
            for box, cell in strength.items() if cell["union"] and cell["confederate"]}


class _Owner(dict):
    """Union share (0..1) of each box's control once the moving side's combat is
    over: boxes the mover alone holds change hands (8.0), battles go by ``odds``
    (the Union's chance in each box holding both sides). Only boxes holding the
    mover's pieces are stored; the rest keep their controller."""

    def __init__(self, game: Game, odds: dict[str, float]):
        super().__init__()
        self.game = game
        mover = game.side
        taken = 1.0 if mover == "union" else 0.0
        for box, p_union in odds.items():
            mover_wins = p_union if mover == "union" else 1.0 - p_union
            self[box] = mover_wins * taken + (1.0 - mover_wins) * self._now(box)
        for box in game._held[mover]:
            if box not in odds:
                self[box] = taken

    def _now(self, box: str) -> float:
        return 1.0 if self.game.controller(box) == "union" else 0.0

    def __missing__(self, box: str) -> float:
        return self._now(box)


def _projected_amax(game: Game, owner: dict[str, float]) -> dict[str, float]:
    """Army Maximums (7.1) once the projected captures are made."""
    out = {}
    for side in ("union", "confederate"):
        delta = 0.0
        for box, value in facts(game.map).shields[side]:
            if box not in owner:
                continue
            share = owner[box] if side == "union" else 1.0 - owner[box]
            controller = game.controller(box)
            if controller is None and share == 0.0:
                continue                            # Kentucky stays neutral
            delta += value * (share - (1.0 if controller == side else 0.0))
        out[side] = game.army_maximum(side) + delta
    return out


def _material(game: Game, strength: dict, pieces: dict) -> float:
    """Worth of the pieces (``pieces``: by box), those in a battle by its odds
    (judged on ``strength``, entrenchment included)."""
    total = 0.0
    mover = game.side
    for box, cell in pieces.items():
        u, c = cell["union"], cell["confederate"]
        if u and c:
            odds = strength[box]
            p = _win_chance(odds["union"], odds["confederate"], defending=(mover != "union"))
            u *= 0.5 + 0.5 * p                  # a battle costs the loser more
            c *= 0.5 + 0.5 * (1.0 - p)
        total += u - c
    return total


def _open_objectives(game: Game) -> list[str]:
    """The objectives the Union does not control yet. Control changes only at the
    end of a combat segment (8.0), so every choice weighed in one segment sees the
    same targets: taking one is not punished by pulling towards the next one."""
    return [b for b in facts(game.map).objectives if game.controller(b) != "union"]


def _advance(game: Game, owner: dict[str, float]) -> float:
    """The Union must go and take the seven cities (10.0): reward units near the
    ones it does not hold yet, weighted by their distance."""
    targets = _open_objectives(game)
    if not targets:
        return 0.0
    dist = facts(game.map).distances
    score = 0.0
    units = game.units
    for box in game.occupied_boxes():
        row = dist[box]
        near = min(row.get(t, 99) for t in targets)
        pull = max(0, 8 - near)
        if pull:
            score += pull * sum(worth(units[u], False) for u in game.at[box]
                                if units[u].side == "union")
    return score


def _siege(game: Game, strength: dict, owner: dict) -> float:
    """Union forces gathered at or next to an objective it does not hold,
    measured against its defenders: an attack needs a strong stack first."""
    score = 0.0
    for target in _open_objectives(game):
        cell = strength.get(target, {})
        defenders = cell.get("confederate", 0.0)
        near = cell.get("union", 0.0) + sum(
            strength[n]["union"] for n, _ in game.map.neighbours(target) if n in strength)
        if near:
            score += min(2.0, near / (1.2 * defenders + 2.0))
    return score


def _threats(game: Game, strength: dict, owner: dict, side: str) -> float:
    """Recruitment cities of ``side`` (and, for the Union, the objectives it holds)
    the enemy could take next turn: enemy strength next door against the
    defenders, times the city's value."""
    enemy = "confederate" if side == "union" else "union"
    near: dict[str, float] = {}
    for box, cell in strength.items():
        if cell[enemy]:
            for n, _line in game.map.neighbours(box):
                near[n] = near.get(n, 0.0) + cell[enemy]
    danger = 0.0
    cities = list(facts(game.map).shields[side])
    if side == "union":
        cities += [(b, 3) for b in facts(game.map).objectives]
    for box, value in cities:
        attackers = near.get(box)
        if not attackers:
            continue
        share = owner[box] if side == "union" else 1.0 - owner[box]
        if share < 0.5:
            continue
        mine = strength.get(box, {}).get(side, 0.0) * 1.3
        if attackers > mine:
            danger += value * min(1.0, (attackers - mine) / (attackers + 1.0))
    return danger


def _capital_danger(game: Game, strength: dict) -> float:
    """Losing Washington loses the game (10.0)."""
    mine = strength.get(CAPITAL, {}).get("union", 0.0) * 1.5
    near = sum(_survivors(game, strength[n], "confederate")
               for n, _ in game.map.neighbours(CAPITAL) if n in strength)
    near += strength.get(CAPITAL, {}).get("confederate", 0.0)
    if near <= mine:
        return 0.0
    return 10.0 * min(1.0, (near - mine) / (near + 1.0))


def _survivors(game: Game, cell: dict[str, float], side: str) -> float:
    """Strength of ``side`` in a box once a battle there is fought, by its odds."""
    enemy = "confederate" if side == "union" else "union"
    if not cell[enemy]:
        return cell[side]
    win = _win_chance(cell[side], cell[enemy], defending=(game.side != side))
    return cell[side] * win

