"""How well a side played a finished game, read off its record (header and events).

Wins alone say little about *why* a level is weak. These figures name the usual
mistakes, for each side of a game:

- battles begun, and their odds when they began: the attacker's chance to win,
  estimated by playing the battle out many times on copies of the position;
- battles begun by a lone unit against a stronger or entrenched box;
- Player Turns after which the side's capital was left open to capture;
- pieces that were on the map and never moved.

``analyse_game(header, events)`` replays the record action by action (folding each
action's recorded changes, as a replay does) and looks at the position where it
matters. docs/ai.md ("Play quality") defines each figure precisely.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

from ..data import SIDES, other, unit_type
from ..game import Game, replay
from ..rebuild import RecordedDice
from .shadow import SampledDice, clone

#: Each side's capital: Washington's loss loses the Union the game (10.0); Richmond
#: is the Confederacy's.
CAPITALS = {"union": "washington", "confederate": "richmond"}
#: Battles played out per estimate at most, and before stopping early (all alike).
MAX_SAMPLES, MIN_SAMPLES = 64, 16
#: Battle steps the fixed policy plays before calling a battle unfinished (a safety net).
MAX_BATTLE_STEPS = 400
#: The fixed policy's choice outside targeting, in order of preference: no retreat,
#: no reinforcement, every leader's plus taken, every routed unit rallied.
_POLICY = ("stand", "open_fire", "leader_bonus", "bonus_done", "rally", "no_rally", "no_promotion")
#: Actions that move a piece in the sense of "never moved".
_MOVES = frozenset({"move", "sea_move", "invade"})


@dataclass
class SideQuality:
    """Counts for one side, over one game or several (``add``)."""
    battles: int = 0                 # battles this side began as the attacker
    better_than_even: int = 0        # ... whose estimated chance to win was above one half
    win_chance_sum: float = 0.0      # sum of those estimates (for the mean)
    won: int = 0                     # ... that the attacker won (or the defender withdrew from)
    lone_against_stronger: int = 0   # ... begun by one unit against a stronger or dug-in box
    capital_turns: int = 0           # Player Turns begun with a unit of its own in the capital
    capital_open: int = 0            # ... after which the capital was open to capture
    pieces: int = 0                  # pieces of this side that were on the map
    never_moved: int = 0             # ... and never moved

    def add(self, more: SideQuality) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(more, f.name))

    def report(self) -> dict[str, Any]:
        """The counts and their shares (None where nothing was counted)."""
        return {"battles": self.battles,
                "better_than_even": _share(self.better_than_even, self.battles),
                "mean_win_chance": _share(self.win_chance_sum, self.battles),
                "won": _share(self.won, self.battles),
                "lone_against_stronger": self.lone_against_stronger,
                "lone_against_stronger_share": _share(self.lone_against_stronger, self.battles),
                "capital_turns": self.capital_turns,
                "capital_open": self.capital_open,
                "capital_open_share": _share(self.capital_open, self.capital_turns),
                "pieces": self.pieces,
                "never_moved": self.never_moved,
                "never_moved_share": _share(self.never_moved, self.pieces)}


def _share(part: float, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def analyse_game(header: dict[str, Any], events: list[dict[str, Any]],
                 seed: str = "quality", samples: int = MAX_SAMPLES) -> dict[str, SideQuality]:
    """Each side's figures for a game (finished or not). ``seed`` seeds the dice of
    the battle estimates, so the same record always gives the same figures."""
    out = {side: SideQuality() for side in SIDES}
    stays = _Stays()
    turn = _TurnWatch()
    fight: dict[str, Any] | None = None         # the battle under way: its attacker and box
    for index, event, derived, g in _positions(header, events):
        if event is None:                      # the starting position
            stays.start(g)
            turn.start(g)
            continue
        if event["action"]["type"] in _MOVES:
            stays.moved(event["action"]["unit"])
        stays.update(g, derived)
        for note in derived:
            if note["type"] == "battle":
                fight = note
                _count_battle(out[note["attacker"]], g, samples, f"{seed}/{index}")
            elif note["type"] in ("battle_won", "withdrew") and fight is not None:
                if note.get("winner", fight["attacker"]) == fight["attacker"]:
                    out[fight["attacker"]].won += 1
                fight = None
        turn.step(g, out)
    for side in SIDES:
        out[side].pieces, out[side].never_moved = stays.counts(side)
    return out


def _positions(header: dict[str, Any], events: list[dict[str, Any]]
               ) -> Iterator[tuple[int, dict[str, Any] | None, list[dict[str, Any]], Game]]:
    """The game before its first action, then after each action: (index of the
    action event, the event, the events it caused, the game). One game object is
    brought forward: read it before the next item is asked for."""
    g = replay(header, [])
    g._recording = False                       # the copy needs the state, not a second log
    yield -1, None, [], g
    i, n = 0, len(events)
    while i < n:
        j = i + 1
        while j < n and events[j]["type"] != "action":
            j += 1
        event, derived = events[i], events[i + 1:j]
        if event["type"] == "action":
            if g.records_changes:
                g.fold_action(event)
            else:                              # older engines: decide it again, recorded dice
                g._dice = RecordedDice([e["value"] for e in derived if e["type"] == "roll"])
                g._execute(event["action"])
                g._legal = None
            yield i, event, derived, g
        i = j


# ---------------------------------------------------------------------- battles
def _count_battle(q: SideQuality, g: Game, samples: int, seed: str) -> None:
    """A battle just begun (``g.battle`` is set up): its odds and whether a lone
    unit attacked a stronger or dug-in box."""
    chance = battle_odds(g, samples, seed)
    q.battles += 1
    q.win_chance_sum += chance
    q.better_than_even += chance > 0.5
    q.lone_against_stronger += lone_against_stronger(g)


def lone_against_stronger(g: Game) -> bool:
    """One attacking unit, and the defenders' total Combat Value is greater than its
    own or any defender is entrenched (a coastal garrison always is, A5.0)."""
    b = g.battle
    assert b is not None
    attackers, defenders = b["units"][b["attacker"]], b["units"][b["defender"]]
    if len(attackers) != 1:
        return False
    units = g.units
    dug_in = any(units[u].ent or units[u].type == "CD" for u in defenders)
    return dug_in or _combat(g, defenders, b["box"]) > _combat(g, attackers, b["box"])


def _combat(g: Game, uids: list[str], box: str) -> int:
    """Total Combat Value (5.1) of units in ``box``; a coastal garrison's (which
    stays off the map, A5.0) is the port's red shield."""
    total = 0
    for uid in uids:
        u = g.units[uid]
        total += (g.map.boxes[box].shields.get("confederate", 0) if u.type == "CD"
                  else unit_type(u.type)["combat"])
    return total


def battle_odds(g: Game, samples: int = MAX_SAMPLES, seed: str = "odds") -> float:
    """The attacker's chance to win the battle just begun in ``g`` (a Monte Carlo
    estimate): the battle is played out on copies of the position with sampled dice,
    both sides under one fixed policy (every unit fires, targets spread, nobody
    retreats or reinforces). Stops after ``MIN_SAMPLES`` if every one so far had
    the same winner: most battles are lopsided, and a rule that stopped once the
    estimate looked far enough from one half would push close ones outwards."""
    b = g.battle
    assert b is not None and g.phase == "battle"
    rng = random.Random(seed)
    g.legal_actions()                          # worked out once, shared by the copies
    wins = 0
    n = 0
    while n < samples:
        n += 1
        wins += _attacker_wins(clone(g, SampledDice(rng)))
        if n == MIN_SAMPLES and wins in (0, n):
            break
    return wins / n


def _attacker_wins(g: Game) -> bool:
    """Play the battle out under the fixed policy; a defender that withdrew (5.6)
    gave the box up, which counts as the attacker's win."""
    b = g.battle
    assert b is not None
    for _ in range(MAX_BATTLE_STEPS):
        if g.battle is None or b["winner"] is not None or g.result is not None:
            break
        g.apply(_policy_action(g))
    if b["winner"] is not None:
        return bool(b["winner"] == b["attacker"])
    return g.battle is None and not any(g.units[u].side == b["defender"] for u in g.at[b["box"]])


def _policy_action(g: Game) -> dict[str, Any]:
    acts = g.legal_actions()
    b = g.battle
    assert b is not None
    if b["step"] == "target":
        return _spread_target(g, acts)
    for kind in _POLICY:
        for a in acts:
            if a["type"] == kind:
                return a
    return acts[0]                             # e.g. the retreat routed units must make


def _spread_target(g: Game, acts: list[dict[str, Any]]) -> dict[str, Any]:
    """The shot at the enemy unit fired on least so far this round, a reduced one
    first (one more hit eliminates it)."""
    b = g.battle
    assert b is not None
    shots: dict[str, int] = {}
    for _, target in b["targets"]:
        shots[target] = shots.get(target, 0) + 1
    return min(acts, key=lambda a: (shots.get(a["target"], 0), not g.units[a["target"]].red))


# ---------------------------------------------------------------------- capitals
class _TurnWatch:
    """Follows Player Turns: the moving side's garrison of its capital when its
    turn began, and at the turn's end whether the capital was left open."""

    def __init__(self) -> None:
        self.turn: tuple[int, str] = (0, "")
        self.garrison = 0

    def start(self, g: Game) -> None:
        self.turn = (g.turn, g.side)
        self.garrison = len(_own_in(g, CAPITALS[g.side], g.side))

    def step(self, g: Game, out: dict[str, SideQuality]) -> None:
        if (g.turn, g.side) == self.turn:
            return
        side = self.turn[1]
        if self.garrison and g.result is None:
            out[side].capital_turns += 1
            out[side].capital_open += capital_open(g, side, self.garrison)
        self.start(g)


def _own_in(g: Game, box: str, side: str) -> list[str]:
    return [u for u in g.at[box] if g.units[u].side == side]


def capital_open(g: Game, side: str, garrison_at_start: int) -> bool:
    """At the end of ``side``'s Player Turn (``g`` is the position the enemy moves
    from), which began with ``garrison_at_start`` of its units in its capital: the
    capital is open if no unit of its own is left there and an enemy unit is there
    or can reach it in one March, or if some of the garrison left and the strongest
    enemy stack next to it has at least twice the Combat Value of what stayed
    (entrenched units of the garrison counting one more each)."""
    capital, enemy = CAPITALS[side], other(side)
    mine = _own_in(g, capital, side)
    if not mine:
        return _enemy_can_reach(g, capital, enemy)
    if len(mine) >= garrison_at_start:
        return False
    held = _combat(g, mine, capital) + sum(g.units[u].ent for u in mine)
    return _strongest_next_to(g, capital, enemy) >= 2 * held


def _enemy_can_reach(g: Game, box: str, enemy: str) -> bool:
    """An enemy unit is in ``box`` or has a path of one March into it."""
    if _own_in(g, box, enemy):
        return True
    for start in g.occupied_boxes():
        for uid in _own_in(g, start, enemy):
            if any(path[-1] == box for path, _ in g._paths(g.units[uid])):
                return True
    return False


def _strongest_next_to(g: Game, box: str, enemy: str) -> int:
    """The greatest Combat Value of the enemy's units in one box joined to ``box``
    by a line the enemy may use."""
    return max((_combat(g, _own_in(g, n, enemy), n) for n in g._adjacent(box, enemy)), default=0)


# ---------------------------------------------------------------------- never moved
class _Stays:
    """Each piece's stay on the map, from its placing (setup, recruitment) to its
    leaving it (eliminated); a promotion replaces the counter (6.0) but continues
    the stay. A stay that includes a move, sea move or invasion has moved."""

    def __init__(self) -> None:
        self.on_map: dict[str, int] = {}       # counter on the map -> its stay
        self.side: list[str] = []              # stay -> side
        self.moves: list[bool] = []            # stay -> moved

    def start(self, g: Game) -> None:
        for uid in self._on_map_now(g):
            self.on_map[uid] = self._new(g.units[uid].side)

    def _new(self, side: str) -> int:
        self.side.append(side)
        self.moves.append(False)
        return len(self.side) - 1

    @staticmethod
    def _on_map_now(g: Game) -> set[str]:
        return {u for box in g.occupied_boxes() for u in g.at[box] if g.units[u].type != "CD"}

    def moved(self, uid: str) -> None:
        stay = self.on_map.get(uid)
        if stay is not None:
            self.moves[stay] = True

    def update(self, g: Game, derived: list[dict[str, Any]]) -> None:
        now = self._on_map_now(g)
        before = self.on_map
        promoted = {e["to"]: e["unit"] for e in derived if e["type"] == "promoted"}
        stays = {}
        for uid in now:
            stay = before.get(uid)
            if stay is None:
                old = before.get(promoted.get(uid, ""))
                stay = old if old is not None else self._new(g.units[uid].side)
            stays[uid] = stay
        self.on_map = stays

    def counts(self, side: str) -> tuple[int, int]:
        """(stays of this side, stays that never moved)."""
        mine = [moved for s, moved in zip(self.side, self.moves, strict=True) if s == side]
        return len(mine), mine.count(False)


def match_quality(games: list[dict[str, SideQuality]]) -> dict[str, Any]:
    """The figures of several games added up, as a report (used by match.py with
    each game's figures keyed by player, not side)."""
    total: dict[str, SideQuality] = {}
    for game in games:
        for who, q in game.items():
            total.setdefault(who, SideQuality()).add(q)
    return {who: q.report() for who, q in sorted(total.items())}
