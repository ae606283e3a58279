"""How good a position is for one side: the computer player's judgement.

Scores are in "unit" points from the Union's view (a Veteran Infantry is worth
about 3) and negated for the Confederacy. Only public state is read: units,
control, Army Maximums, the map."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from .. import calendar
from ..data import unit_type
from ..game import Game
from ..turn import MARCH_LEVELS
from .odds import lanchester_odds

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
                 siege: float = 3.0, entrenchment_as_material: bool = False, reach: bool = False,
                 lanchester: bool = False, focus: float = 0.0, ending: float = 0.0):
        self.amax, self.objective, self.material = amax, objective, material
        self.advance, self.threat, self.capital = advance, threat, capital
        self.siege = siege
        # Counting entrenchment as material makes leaving a dug-in box look like
        # losing pieces, so an army never marches out; only the baseline does so.
        self.entrenchment_as_material = entrenchment_as_material
        # Threats to cities and to Washington judged by what the enemy can bring in
        # a whole Movement Segment (two Marches: ``Reach``), not only from next
        # door: a raider two boxes from an empty Washington wins the game.
        self.reach = reach
        # Battles by their true odds (odds.py, within 0.05 of battles played out)
        # rather than the rough square law of ``_win_chance``.
        self.lanchester = lanchester
        # The siege of the open objective most advanced counts (1 + focus) times:
        # seven sieges at once take none of the cities.
        self.focus = focus
        # In a game decided by the Army Maximums at a set turn (the Short Game,
        # 11.3 endings) every point of the difference near that turn matters.
        self.ending = ending


FULL = Weights()
#: The expert's: the full evaluation with threats by reach, true battle odds, one siege
#: first and the Army Maximum endings (docs/ai.md, "The expert's weights").
EXPERT = Weights(reach=True, lanchester=True, focus=1.0, ending=6.0)
SIMPLE = Weights(advance=0.0, threat=0.0, capital=0.0, siege=0.0, entrenchment_as_material=True)


def evaluate(game: Game, side: str, weights: Weights = FULL) -> float:
    """Score of the position for ``side`` (higher is better)."""
    score = _union_score(game, weights)
    return score if side == "union" else -score


def _union_score(game: Game, w: Weights) -> float:
    if game.result is not None:
        return WIN if game.result["winner"] == "union" else -WIN
    strength = _strength_by_box(game)
    odds = lanchester_odds(game) if w.lanchester else _battle_odds(game, strength)
    owner = _Owner(game, odds)
    amax = _projected_amax(game, owner)
    score = w.amax * (amax["union"] - amax["confederate"])
    if amax["confederate"] > amax["union"]:
        score -= 50.0                          # 10.0: the South would win at once
    if w.ending:
        diff = amax["union"] - amax["confederate"]
        score += w.ending * ending_margin(game, amax_ending(game), diff)
    held = sum(owner[b] for b in facts(game.map).objectives)
    score += w.objective * held + (20.0 if held > 6.5 else 0.0)
    material_strength = strength if w.entrenchment_as_material else _strength_by_box(game, False)
    score += w.material * _material(material_strength, odds)
    if w.advance:
        score += w.advance * _advance(game, owner)
    # what threatens next turn is what survives this turn's battles
    standing = _after_battles(strength, odds) if w.reach else strength
    near = Reach(game, standing) if w.reach else _NextDoor(game, strength)
    if w.threat:
        exposed = _threats(game, standing, owner, "union", near)
        score -= w.threat * exposed
        score += w.threat * _threats(game, standing, owner, "confederate", near)
        if w.reach:
            score -= _sudden_death(amax, exposed)
    if w.siege:
        # the Union must win by the last turn (10.0): attacking grows urgent
        score += w.siege * (1.0 + game.turn / 20.0) * _siege(game, strength, w.focus)
    if w.capital:
        danger = _capital_reach(game, standing, near) if w.reach else _capital_danger(game, strength)
        score -= w.capital * danger
    return score


def amax_ending(game: Game) -> tuple[int, int] | None:
    """When the game is decided by the Army Maximums at a set turn, that turn and
    the smallest difference (Union - Confederacy) that wins it for the Union: the
    Short Game's five (11.1), or the 03 (March) ending agreed under 11.3 (one
    above its Historical Draw)."""
    if game.scenario["id"] == "1861-short":
        return game.last_turn, 5
    for year, lowest in MARCH_LEVELS.items():
        if f"11.3:{year}" in game.options:
            return calendar.turn_of(year, 3), lowest + 4
    return None


def ending_margin(game: Game, ending: tuple[int, int] | None, diff: float) -> float:
    """How far the Union is above (or below) what it needs at that ending,
    weighed by how near it is (full weight from four turns before it)."""
    if ending is None:
        return 0.0
    end, needs = ending
    near = min(1.0, max(0.0, 1.0 - (end - game.turn - 4) / 12.0))
    return max(-6.0, min(6.0, diff - needs + 0.5)) * near


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


def _after_battles(strength: dict, odds: dict[str, float]) -> dict[str, dict[str, float]]:
    """Each side's strength by box once the battles are fought, each side's
    pieces in a battle box counted by its chance to win it (the loser retreats
    or is destroyed)."""
    out = dict(strength)
    for box, p_union in odds.items():
        cell = strength[box]
        out[box] = {"union": cell["union"] * p_union, "confederate": cell["confederate"] * (1.0 - p_union)}
    return out


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


def _material(pieces: dict, odds: dict[str, float]) -> float:
    """Worth of the pieces (``pieces``: by box), those in a battle by ``odds``
    (the Union's chance in each battle box): a battle costs the loser more."""
    total = 0.0
    for box, cell in pieces.items():
        u, c = cell["union"], cell["confederate"]
        p = odds.get(box)
        if p is not None:
            u *= 0.5 + 0.5 * p
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


def _siege(game: Game, strength: dict, focus: float) -> float:
    """Union forces gathered at or next to an objective it does not hold,
    measured against its defenders: an attack needs a strong stack first. The
    best-gathered siege counts ``focus`` more."""
    sieges = []
    for target in _open_objectives(game):
        cell = strength.get(target, {})
        defenders = cell.get("confederate", 0.0)
        near = cell.get("union", 0.0) + sum(
            strength[n]["union"] for n, _ in game.map.neighbours(target) if n in strength)
        if near:
            sieges.append(min(2.0, near / (1.2 * defenders + 2.0)))
    return sum(sieges) + focus * max(sieges, default=0.0)


def _threats(game: Game, strength: dict, owner: dict, side: str, near: Callable[[str, str], float]) -> float:
    """Recruitment cities of ``side`` (and, for the Union, the objectives it holds)
    the enemy could take next turn: enemy strength within ``near`` (next door, or
    in reach) against the defenders, times the city's value."""
    enemy = "confederate" if side == "union" else "union"
    danger = 0.0
    cities = list(facts(game.map).shields[side])
    if side == "union":
        cities += [(b, 3) for b in facts(game.map).objectives]
    for box, value in cities:
        share = owner[box] if side == "union" else 1.0 - owner[box]
        if share < 0.5:
            continue
        attackers = near(box, enemy)
        if not attackers:
            continue
        mine = strength.get(box, {}).get(side, 0.0) * 1.3
        if attackers > mine:
            danger += value * min(1.0, (attackers - mine) / (attackers + 1.0))
    return danger


class _NextDoor:
    """Each side's strength in the boxes next to a box (a box joined by two lines
    counts twice, as the hard level always has)."""

    def __init__(self, game: Game, strength: dict[str, dict[str, float]]):
        self.neighbours = game.map.neighbours
        self.strength = strength

    def __call__(self, box: str, side: str) -> float:
        strength = self.strength
        return sum(strength[n][side] for n, _line in self.neighbours(box) if n in strength)


class Reach:
    """Each side's strength that could be in a box after one Movement Segment:
    the box's own, all of the boxes next door, half of those two steps away (a
    March of cavalry, by river or friendly rail, or two Marches by road). Worked
    out for the boxes asked about only (the cities and the capitals)."""

    def __init__(self, game: Game, strength: dict[str, dict[str, float]]):
        self.near = facts(game.map).within_two
        self.strength = strength

    def __call__(self, box: str, side: str) -> float:
        total = 0.0
        strength = self.strength
        for other, steps in self.near[box]:
            cell = strength.get(other)
            if cell is not None and cell[side]:
                total += cell[side] if steps <= 1 else 0.5 * cell[side]
        return total


def _sudden_death(amax: dict[str, float], exposed: float) -> float:
    """10.0: the South wins the moment its Army Maximum exceeds the Union's, so
    cities it can take next turn matter far more when they would close the gap:
    0 while the Union keeps a margin of one after losing every exposed city,
    then 20 a point of shortfall (at most 60)."""
    margin = amax["union"] - amax["confederate"] - exposed
    return 0.0 if margin >= 1.0 else 20.0 * min(3.0, 1.0 - margin)


def _capital_reach(game: Game, strength: dict, near: Callable[[str, str], float]) -> float:
    """Losing Washington loses the game (10.0): 0..10 by the Confederate force
    that can reach it in one Movement Segment against what holds it (an empty
    Washington two boxes from a single unit is all but lost). Cavalry, and
    infantry on friendly rail, cover two boxes a March and so four in a turn:
    those three or four steps away count a quarter (seen in self-play: a Crack
    Cavalry took an empty Washington from four boxes away)."""
    attackers = near(CAPITAL, "confederate")
    steps = facts(game.map).distances[CAPITAL]
    attackers += 0.25 * sum(cell["confederate"] for box, cell in strength.items()
                            if 3 <= steps.get(box, 99) <= 4)
    if not attackers:
        return 0.0
    defenders = strength.get(CAPITAL, {}).get("union", 0.0) * 1.5
    return 10.0 * attackers * attackers / (attackers * attackers + defenders * defenders + 1.0)


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

