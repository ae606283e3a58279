"""The Movement Segment (4.0 - 4.9): marches, land moves, jumps, entrenching, sea
movement and naval invasions.

A March activates one box (4.0) or moves one unit by sea (4.6, 4.7). During an
activated March each unit that was in the box may move once or entrench."""
from __future__ import annotations

import functools
from collections.abc import Set as AbstractSet
from typing import Any

from .core import ACTIVATABLE, SAILINGS, GameCore
from .data import SIDES, other
from .errors import because
from .boxsets import box_bits
from .map import Line, load_map
from .state import Unit

POTOMAC = "Potomac"
KENTUCKY_OPENS_TURN = 6          # 4.12: the Union 01/02 1862 Player Turn
FIRST_1861_TURN = 1
TWO_MARCHES = because("No unit may take part in more than two Marches in a turn (4.0).")
MUST_STOP = because("A unit entering a box containing enemy units must stop there (4.0).")
# asked of every Union unit in a port while the sea moves are listed: made once
SEA_AFTER_MARCH = {rule: because("A unit moving by sea must not have moved or marched this segment ({rule}).",
                                 rule=rule) for rule in ("4.6", "4.7")}


KIND_BITS = {"road": 1, "rail": 2, "river": 4}
RAIL_BIT = KIND_BITS["rail"]


def line_usable(side: str, line: Line) -> bool:
    """4.2, asked for every step of every path: kept a bare test for speed."""
    return not (side == "confederate" and line.river == POTOMAC)


@functools.cache
def kinds_of(mask: int) -> frozenset[str]:
    """The line kinds a mask of ``KIND_BITS`` holds."""
    return frozenset(kind for kind, bit in KIND_BITS.items() if mask & bit)


@functools.cache
def march_steps(version: int) -> dict[str, dict[str, tuple[tuple[str, Line, str, int], ...]]]:
    """side -> box -> (neighbour, line, line kind, kind bit) for every line of the
    version's map the side may march along (4.2), in the map's neighbour order."""
    board = load_map(version)
    return {side: {box: tuple((nxt, line, line.kind, KIND_BITS[line.kind])
                              for nxt, line in board.neighbours(box) if line_usable(side, line))
                   for box in board.boxes}
            for side in SIDES}


MarchPath = tuple[list[str], list[str]]
MarchNode = tuple[int, str, str, Line, int, str, MarchPath, int, int, int, Line]


@functools.cache
def march_tree(version: int, side: str, start: str) -> tuple[MarchNode, ...]:
    """Every simple path of one to three steps from ``start`` along lines the side may
    use, in depth-first order, each as (steps, last box, box before it, last line,
    its kind bit, first box, (boxes, line kinds), index after the paths that extend
    it, the kind bits of all its lines, the ``box_bits`` of the boxes at either end of
    its railroad steps, its first line): a March walks it, skipping the paths below
    one that is closed to the unit.

    The (boxes, line kinds) lists are the ones every move along the path holds,
    shared by all games (built once, not for every legal list): like the legal
    actions that hold them, they are read, never changed."""
    steps, bits = march_steps(version)[side], box_bits(version)
    nodes: list[list] = []

    def grow(cur: str, path: tuple[str, ...], by: tuple[str, ...], kinds: int, rail_ends: int,
             first_line: Line | None) -> None:
        for nxt, line, kind, bit in steps[cur]:
            if nxt == start or nxt in path:
                continue
            here = len(nodes)
            move = ([*path, nxt], [*by, kind])
            ends = rail_ends | (bits[cur] | bits[nxt] if bit == RAIL_BIT else 0)
            first = first_line or line
            nodes.append([len(path) + 1, nxt, cur, line, bit, move[0][0], move, 0, kinds | bit, ends, first])
            if len(path) < 2:
                grow(nxt, path + (nxt,), by + (kind,), kinds | bit, ends, first)
            nodes[here][7] = len(nodes)

    grow(start, (), (), 0, 0, None)
    return tuple(tuple(node) for node in nodes)


@functools.cache
def march_reach(version: int, side: str, start: str) -> tuple[frozenset[str], int, int]:
    """The boxes near ``start`` whose state the March paths from it depend on (see
    ``MovementRules._paths_situation``): those one or two steps away (a path stops at
    an enemy there, a jump goes over one a step away and may not end in one two steps
    away), the same as a mask of ``box_bits``, and the mask of those at either end of
    a railroad step (a friendly railroad)."""
    nodes = march_tree(version, side, start)
    bits = box_bits(version)
    near = frozenset(node[1] for node in nodes if node[0] <= 2)
    rail = frozenset(box for node in nodes if node[4] == RAIL_BIT for box in (node[1], node[2]))
    return near, sum(bits[box] for box in near), sum(bits[box] for box in rail)


#: The March paths worked out, by everything they depend on (``_paths_situation``),
#: shared by every game: a situation met once, in any game, is not searched again
#: (games of one scenario meet the same ones at its start). An entry holds the key
#: and a list of the path tree's own (boxes, kinds) pairs, about 2 kB; emptied when
#: full (30 random games meet about 1,700 situations).
_PATHS_SEEN: dict[tuple[Any, ...], list[MarchPath]] = {}
PATHS_SEEN_LIMIT = 4096


def forget_paths_seen() -> None:
    """Empty the shared memory of March paths (benchmarks start each round afresh)."""
    _PATHS_SEEN.clear()


@functools.cache
def march_exits(version: int, side: str, closed: frozenset[str]) -> frozenset[str]:
    """The boxes with a line the side may march along to a box not ``closed``."""
    return frozenset(box for box, steps in march_steps(version)[side].items()
                     if any(step[0] not in closed for step in steps))


#: Engine version from which invaders may not entrench in a port its coastal defence
#: garrison still holds (A5.0 with 4.3 and 4.7).
GARRISON_HOLDS_THE_PORT_SINCE = 5


class MovementRules(GameCore):
    # ------------------------------------------------------------------ legal
    def _movement_legal(self) -> list[dict[str, Any]]:
        acts: list[dict[str, Any]] = []
        if self.active is not None:
            paths_of = self._paths_memory()
            for u in self._march_units_here():
                if self._move_refusal(u) is None:
                    # the units of one box, side and type (and jump made or not) share their paths
                    key = (u.loc, u.type, u.jumped)
                    if key not in paths_of:
                        paths_of[key] = self._paths_known(u)
                    acts += self._moves_along(u.id, paths_of[key])
                if self._entrench_refusal(u) is None:
                    acts.append({"type": "entrench", "unit": u.id})
            acts.append({"type": "end_march"})
        if self.marches > 0:
            self._activatable_boxes()
            acts += self._acts_memo[ACTIVATABLE][2]          # their activate actions
            acts += self._sea_actions()
            acts.extend({"type": "refit", "unit": u} for u in self._refittable())   # 5.71
        if self.leaders:
            acts.extend(self._leader_moves_legal())                                 # A8.2
        if self.contained:
            acts.extend(self._breakout_legal())                                     # A4.0
        acts.append({"type": "end_movement"})
        return acts

    def _paths_memory(self) -> dict[tuple[str, str, bool], list[tuple[list[str], list[str]]]]:
        """The paths worked out for the moving side's units, kept from one decision to
        the next while nothing they depend on changes: the moving side's own moves
        change none of it; an enemy piece placed, a change of control, a new turn or
        Kentucky opening does (see ``_paths``)."""
        side = self.side
        token = (side, self.turn, self.ky_entered, self._placed[other(side)], self._control_epoch)
        if token != self._paths_token:
            self._paths_memo, self._paths_token = {}, token
            # and the actions kept (built from such paths, or as old): a game holds
            # only those of the segment under way
            self._acts_memo.clear()
        return self._paths_memo

    def _paths_known(self, u: Unit) -> list[MarchPath]:
        """``_paths(u)``, searched only if no game has met the same situation before."""
        situation = self._paths_situation(u)
        found = _PATHS_SEEN.get(situation)
        if found is None:
            if len(_PATHS_SEEN) >= PATHS_SEEN_LIMIT:
                _PATHS_SEEN.clear()
            found = _PATHS_SEEN[situation] = self._paths(u)
        return found

    def _paths_situation(self, u: Unit) -> tuple[Any, ...]:
        """Everything ``_paths(u)`` reads, as a key: the map, the side, the start, what
        kind of mover the unit is (cavalry, cavalry-like, jump made), the boxes closed
        to it, the enemy boxes near the start, the controlled boxes at the railroad
        steps from it, the enemy cavalry it could not jump over and the rules that
        change the Movement Chart (4.9, 4.11 on the first turn)."""
        side, start = u.side, u.loc
        near, near_bits, rail_bits = march_reach(self.engine_version, side, start)
        # sets of boxes as masks of box_bits: a key of small ints and flags
        enemy_near = near_bits & self._held_bits[other(side)]
        blocking_cav = 0
        if enemy_near and u.is_cav and not u.jumped:
            units, at, bit = self.units, self.at, self._box_bit
            for box in near:
                if bit[box] & enemy_near and any(units[x].side != side and units[x].is_cav for x in at[box]):
                    blocking_cav |= bit[box]
        # the boxes closed are Kentucky's or none (_closed_boxes): a flag says which, so
        # that the key holds no container (the garbage collector stops tracking it)
        return (self.engine_version, side, start, self._cav_like(u), u.is_cav, u.jumped,
                bool(self._closed_boxes(side)), enemy_near, rail_bits & self._controlled_bits(side),
                blocking_cav, "4.9" in self.options,
                "4.11" in self.options and self.turn == FIRST_1861_TURN)

    def _moves_along(self, uid: str, paths: list[MarchPath]) -> list[dict[str, Any]]:
        """The unit's move actions along these paths: kept while its paths are the same
        list, so that the next decision of the March hands out the same actions."""
        known = self._acts_memo.get(("move", uid))
        if known is not None and known[0] is paths:
            return known[1]
        moves = [{"type": "move", "unit": uid, "path": path, "by": by} for path, by in paths]
        self._acts_memo["move", uid] = (paths, moves)
        return moves

    def _march_units_here(self) -> list[Unit]:
        units = self.units
        return [units[u] for u in self.march_units if units[u].loc == self.active]

    def _move_refusal(self, u: Unit) -> str | None:
        """Why this unit may not move in a March now, wherever it would go; None if it may."""
        if u.m >= 2:
            return TWO_MARCHES
        if u.sea:
            return because("A unit that moved by sea may not move again this segment (4.6).")
        if u.loc in self.contained:
            if u.side == "confederate":
                return None                          # A4.0: the containing side may leave
            return because("Contained Union units must fight and defeat the containing garrison "
                           "(breakout) before they move out of the port (A4.0).")
        if len(self.at[u.loc]) > self._side_n[u.side][u.loc]:           # _enemy_in, spelled out: asked often
            return because("A unit that entered a box containing enemy units must stop there (4.0).")
        return None

    def _entrench_refusal(self, u: Unit) -> str | None:
        """4.3: one March in a Recruitment City, two Marches of one segment elsewhere."""
        # (A4.0: containing units may)
        if self._enemy_in(u.loc, u.side) and not (u.loc in self.contained and u.side == "confederate"):
            return because("Units may not entrench in a box containing enemy units (4.3).")
        if u.side == "union" and (held := self._garrison_holds(u.loc)):
            return held
        if u.ent:
            return because("{unit} is already entrenched.", unit=u.id)
        if u.m >= 2:
            return TWO_MARCHES
        if u.loc in self._cities:
            return None
        if (u.dig and u.m == 1) or (not u.dig and u.m == 0 and not u.moved):
            return None
        return because("Outside a Recruitment City entrenching takes two Marches of one "
                       "Movement Segment by units that have not moved (4.3).")

    def _garrison_holds(self, box: str) -> str | None:
        """Why the Union may not entrench in ``box``: 4.7 lets invaders entrench only
        in an empty port, and its coastal defence (A5.0) is a piece that holds it
        until destroyed. None if no garrison holds it."""
        if not self.rules_since(GARRISON_HOLDS_THE_PORT_SINCE) or self._garrison_for(box, self.at[box]) is None:
            return None
        return because("The coastal defence of {box} still holds it: invaders may entrench there only "
                       "once it is destroyed (A5.0, 4.7).", box=self.map.boxes[box].name)

    def _activatable_boxes(self) -> list[str]:
        """The boxes ``_why_activate`` accepts; asked only while Marches are left, where
        it comes down to ``_box_can_march``."""
        key = (self.side, self.turn, self.ky_entered, tuple(self.contained))
        if key != self._can_march_key:
            self._can_march, self._can_march_key = {}, key
        remembered = self._acts_memo.get(ACTIVATABLE)
        if remembered is not None and remembered[0] == key:
            return remembered[1]
        known, held = self._can_march, self._held_sorted(self.side)
        unknown = [box for box in held if box not in known]
        if unknown:
            exits = march_exits(self.engine_version, self.side, self._closed_boxes(self.side))
            for box in unknown:
                known[box] = self._box_can_march(box, exits=exits)
        boxes = [box for box in held if known[box]]
        # kept until a piece enters or leaves a box or a unit is flagged (as _can_march),
        # with the boxes' activate actions
        activations = self._activations
        self._acts_memo[ACTIVATABLE] = (key, boxes, [activations[box] for box in boxes])
        return boxes

    def _box_can_march(self, box: str, exits: frozenset[str] | None = None) -> bool:
        """4.0: some unit of the moving side there may still move somewhere or entrench.
        ``exits``: ``march_exits`` of the moving side, when the caller has them."""
        side = self.side
        if exits is None:
            exits = march_exits(self.engine_version, side, self._closed_boxes(side))
        units = self.units
        # some line leads from the box to one the side may enter (see ``_paths``)
        exit_open = box in exits
        for uid in self.at[box]:
            u = units[uid]
            if u.side != side or u.m >= 2:
                continue
            if (exit_open and self._move_refusal(u) is None) or self._entrench_refusal(u) is None:
                return True
        return False

    def _line_usable(self, side: str, line: Line) -> bool:
        return line_usable(side, line)

    def _line_refusal(self, side: str, line: Line) -> str | None:
        if self._line_usable(side, line):
            return None
        return because("Confederate units may never move along the Potomac River (4.2).")

    def _may_enter(self, side: str, box: str) -> bool:
        if self.map.boxes[box].color != "neutral":
            return True                    # the first test of _entry_refusal, made here for speed
        return self._entry_refusal(side, box) is None

    def _entry_refusal(self, side: str, box: str) -> str | None:
        """Why units of this side may not enter the box at all now (Kentucky); None if they may."""
        if self.map.boxes[box].color != "neutral":
            return None
        if "4.11" in self.options and self.turn == FIRST_1861_TURN:
            return because("No unit may enter Kentucky on the first Game Turn (4.11).")
        if ("4.12" in self.options and side == "union" and self.turn < KENTUCKY_OPENS_TURN
                and not self.ky_entered):
            return because("Union units may not enter Kentucky before 01/02 1862 unless a Confederate unit has (4.12).")
        return None

    def _friendly_rail(self, side: str, a: str, b: str) -> bool:
        owned = self._controlled(side)
        return a in owned and b in owned

    def _cav_like(self, u: Unit) -> bool:
        return u.is_cav or (u.type == "CI" and "4.8" in self.options)     # 4.8

    def _distance_refusal(self, u: Unit, kinds: AbstractSet[str], all_friendly_rail: bool, steps: int) -> str | None:
        """Why ``steps`` boxes along these kinds of line are too far for one March; None if not."""
        if steps <= self._max_steps(u, kinds, all_friendly_rail):
            return None
        if "river" in kinds and len(kinds) > 1:
            return because("No unit may combine river movement with other lines in one March (4.0).")
        if len(kinds) > 1 and not self._cav_like(u):
            return because("Infantry may not move along two different types of line in one March (4.0).")
        if kinds == {"rail"} and not all_friendly_rail and not self._cav_like(u):
            return because("Infantry moves only one box along an unfriendly railroad; a friendly "
                           "railroad joins two boxes you control (4.0).")
        return because("That is farther than the unit may move in one March (Movement Chart, 4.0).")

    def _max_steps(self, u: Unit, kinds: AbstractSet[str], all_friendly_rail: bool) -> int:
        """Movement Chart: how many boxes one March may cover along these kinds."""
        if "river" in kinds:
            if len(kinds) > 1:
                return 0                          # nobody mixes rivers with other lines
            return 1 if ("4.11" in self.options and self.turn == FIRST_1861_TURN) else 2
        bonus = u.side == "union" and "4.9" in self.options and kinds == {"rail"} and all_friendly_rail
        if self._cav_like(u):
            return 3 if bonus else 2
        if len(kinds) > 1:
            return 0                              # infantry may not mix line types
        if kinds == {"road"}:
            return 1
        if not all_friendly_rail:
            return 1                              # unfriendly railroad: one box
        return 3 if bonus else 2

    def _paths(self, u: Unit, enemy: set[str] | None = None) -> list[MarchPath]:
        """Every simple path this unit may take in one March, as (boxes, line kinds).

        The fast path of ``_why_path``: the same checks, each by the same function, but
        made once per step while the paths grow (``_max_steps`` is the distance part of
        ``_distance_refusal``; ``_closed_boxes`` is ``_entry_refusal`` for Kentucky, the
        only boxes it closes; ``march_steps`` leaves out the lines ``_line_usable``
        closes). Line kinds are bits of a mask while the paths grow."""
        side, start = u.side, u.loc
        out: list[MarchPath] = []
        if enemy is None:
            enemy = self._enemy_boxes(side)
        closed = self._closed_boxes(side)
        # a friendly railroad joins two boxes the side controls (_friendly_rail): the
        # path's railroads are all friendly when none of their ends is outside these
        foreign = ~self._controlled_bits(side)
        limits: dict[int, int] = {}      # 2 * kinds mask + all friendly rail -> max steps
        nodes = march_tree(self.engine_version, side, start)
        i, total = 0, len(nodes)
        while i < total:
            n, nxt, _, line, _, first, move, subtree_end, kinds, rail_ends, first_line = nodes[i]
            here, i = i, subtree_end         # unless the path goes on below
            if nxt in closed:
                continue
            key = 2 * kinds + (kinds == RAIL_BIT and not rail_ends & foreign)
            most = limits.get(key)
            if most is None:
                most = limits[key] = self._max_steps(u, kinds_of(kinds), key & 1 == 1)
            if n > most:
                continue
            jump = n == 2 and first in enemy
            if jump and self._jump_refusal(u, first, [first_line, line], nxt) is not None:
                continue
            out.append(move)
            # a unit stops in an enemy box, but may try jumping on from the first (4.4, 4.5)
            if (n == 1 and not u.jumped) if nxt in enemy else (n < 3 and not jump):
                i = here + 1
        return out

    def _closed_boxes(self, side: str) -> frozenset[str]:
        """Boxes this side may not enter now (4.11, 4.12 Kentucky)."""
        if self._may_enter(side, self._a_kentucky_box):
            return frozenset()
        return self._kentucky

    def _jump_refusal(self, u: Unit, over: str, lines: list[Line], to: str) -> str | None:
        """Why this unit may not go on through the enemy-occupied box ``over`` to ``to``
        (4.4 Cavalry Jump Move, 4.5 Union River Jump Move); None if it may."""
        if len(lines) != 2:
            return MUST_STOP
        if self._enemy_in(to, u.side):
            return because("A Jump Move may not end in a box containing enemy units (4.4).")
        if u.jumped:
            return because("A unit may make only one Jump Move per Movement Segment (4.4).")
        kinds = {ln.kind for ln in lines}
        if kinds == {"river"}:
            if u.side != "union":
                return because("The Confederacy may not make river Jump Moves (4.5).")
            if not (lines[0].is_downriver_from(u.loc) and lines[1].is_downriver_from(over)):
                return because("River Jump Moves go only down a river (4.5).")
            return None
        if not u.is_cav:
            return because("A unit entering a box containing enemy units must stop there (4.0); "
                           "only Cavalry may jump through one (4.4).")
        if "river" in kinds:
            return because("Cavalry may not Jump Move by river (4.4).")
        units = self.units
        if any(units[x].side != u.side and units[x].is_cav for x in self.at[over]):
            return because("Cavalry may not jump through a box holding enemy Cavalry (4.4).")
        return None

    def _sea_actions(self) -> list[dict[str, Any]]:
        """4.6 Sea Movement and 4.7 Naval Invasions: one March per unit."""
        if self.side != "union":
            return self._foreign_sea_actions() if self.intervention else []
        # besides the pieces in a port and their flags (see _pieces_changed), the
        # actions from it follow from these
        key = (self.turn, self.invasion, tuple(self.contained), self._control_epoch)
        acts: list[dict[str, Any]] = []
        goals: dict[bool, list[str]] = {}
        memo = self._acts_memo
        for port in self._union_ports():
            remembered = memo.get((SAILINGS, port))
            if remembered is None or remembered[0] != key:
                remembered = memo[SAILINGS, port] = (key, self._sea_actions_from(port, goals))
            acts += remembered[1]
        return acts

    def _union_ports(self) -> list[str]:
        """The ports holding a Union unit, in the map's order: kept as _held_sorted is."""
        found = self._held_lists.get(SAILINGS)
        if found is None:
            held = self._held["union"]
            found = self._held_lists[SAILINGS] = [port for port in self._ports if port in held]
        return found

    def _sea_actions_from(self, port: str, goals: dict[bool, list[str]]) -> list[dict[str, Any]]:
        """Sea moves and invasions of the Union units in ``port``. The ports they may go
        to are the same for every unit (``_sea_goal_refusal``), so they are worked out
        once, in ``goals``; the one test that depends on the port is the first of
        ``_sea_dest_refusal``."""
        acts: list[dict[str, Any]] = []
        # without a 6 for Marches _sea_unit_refusal refuses every invasion (4.7)
        kinds = ((False, "sea_move"), (True, "invade")) if self.invasion else ((False, "sea_move"),)
        for uid in self.at[port]:
            u = self.units[uid]
            if u.side != "union":
                continue
            for invasion, kind in kinds:
                if self._sea_unit_refusal(u, invasion) is None:
                    if invasion not in goals:
                        goals[invasion] = self._sea_goals(invasion)
                    acts += self._sailings(uid, port, kind, goals[invasion])
        return acts

    def _sailings(self, uid: str, port: str, kind: str, goals: list[str]) -> list[dict[str, Any]]:
        """The unit's sea moves or invasions from ``port`` to these goals (a sea move
        goes to another port): kept while the goals are the same list (see _sea_goals)."""
        known = self._acts_memo.get((kind, uid))
        if known is not None and known[0] is goals and known[1] == port:
            return known[2]
        invasion = kind == "invade"
        acts = [{"type": kind, "unit": uid, "to": to} for to in goals if invasion or to != port]
        self._acts_memo[kind, uid] = (goals, port, acts)
        return acts

    def _sea_goals(self, invasion: bool) -> list[str]:
        """The ports ``_sea_goal_refusal`` accepts: they follow from control alone."""
        found = self._by_control.get(("sea goals", invasion))
        if found is None:
            found = self._by_control["sea goals", invasion] = [
                to for to in self._ports if self._sea_goal_refusal(to, invasion) is None]
        return found

    def _sea_unit_refusal(self, u: Unit, invasion: bool) -> str | None:
        """Why this Union unit may not sail (4.6) or invade (4.7) now, wherever to."""
        rule = "4.7" if invasion else "4.6"
        if self._sails_from_containment(u):
            return because("Contained Union units must fight and defeat the containing garrison "
                           "(breakout) before they leave the port (A4.0).")
        if u.moved or u.m:
            return SEA_AFTER_MARCH[rule]
        if invasion:
            if not self.invasion:
                return because("Naval Invasions need a roll of 6 for Marches this turn (4.7).")
            if u.loc != "washington":
                return because("Invading units must start the Movement Segment in Washington (4.7).")
            return None
        if not self.map.boxes[u.loc].port:
            return because("The unit must start the Movement Segment in a Port box (4.6).")
        if "4.11" in self.options and self.turn == FIRST_1861_TURN:
            return because("No Union Sea Movement on the first Game Turn (4.11).")
        return None

    def _sea_dest_refusal(self, frm: str, to: Any, invasion: bool) -> str | None:
        """Why Union units may not sail (4.6) or invade (4.7) from ``frm`` to ``to``."""
        if not invasion and to == frm:
            return because("Sea Movement goes to another port (4.6).")
        return self._sea_goal_refusal(to, invasion)

    def _sea_goal_refusal(self, to: Any, invasion: bool) -> str | None:
        """Why no Union unit may sail (4.6) or invade (4.7) to ``to`` now, from anywhere."""
        if not self._is_port(to):
            return because("Units move by sea only to Port boxes ({rule}).", rule="4.7" if invasion else "4.6")
        if invasion:
            if self.controller(to) != "confederate":
                return because("Naval Invasions go only to Confederate-controlled ports (4.7).")
            if ("4.71" in self.options and to in ("yorktown", "norfolk")
                    and self.controller("fort_monroe") == "confederate"):
                return because("While the Confederates control Fort Monroe there is no invasion of Yorktown or "
                               "Norfolk (4.71).")
            return None
        if self.controller(to) != "union":
            return because("Sea Movement goes only to a Union-controlled port (4.6).")
        return None

    def _is_port(self, box: Any) -> bool:
        return isinstance(box, str) and box in self.map.boxes and self.map.boxes[box].port

    # ------------------------------------------------------------------ execute
    def _do_roll_marches(self) -> None:
        value = self._roll("marches")
        self.marches = self._marches_from_die(value)                      # 4.0, A3.0
        self.invasion = value == 6                                        # 4.7
        self.phase = "movement"

    def _spend_march(self) -> None:
        """A March of the segment goes to something other than a break-out (A4.0)."""
        self.marches -= 1
        self.march_spent = True

    def _do_activate(self, box: str) -> None:
        self._spend_march()
        self.active = box
        self.march_units = [u for u in self.at[box] if self.units[u].side == self.side]

    def _do_end_march(self) -> None:
        self.active = None
        self.march_units = []

    def _do_move(self, unit: str, path: list[str], by: list[str]) -> None:
        u = self.units[unit]
        origin = u.loc
        boxes = [origin] + path
        self._flag(u)
        if any(self._enemy_in(b, u.side) for b in path[:-1]):
            u.jumped = True
        u.m += 1
        u.moved, u.ent, u.dig = True, False, False
        u.frm = boxes[-2]
        last = self.map.line_between(boxes[-2], boxes[-1], by[-1])
        assert last is not None             # a legal move runs along lines of the map
        u.river = last.crosses_river_into(boxes[-1])
        self._note_kentucky_entry(u, path)
        self._place(unit, path[-1])
        if self.leaders:
            self._catch_lone_leaders()

    def _note_kentucky_entry(self, u: Unit, boxes: list[str]) -> None:
        """4.12: a Confederate unit entering (or passing through) Kentucky during 1861
        frees the Union of the restriction at once."""
        if u.side == "confederate" and self.turn < KENTUCKY_OPENS_TURN and not self.ky_entered:
            if any(b in self._kentucky for b in boxes):
                self.ky_entered = True                                    # 4.12 lifted
                self._note("kentucky_entered", unit=u.id)

    def _note_kentucky_entry_from_battle(self, uid: str, box: str) -> None:
        """4.12 says "enters", in any way (ruling R41): from engine version 2 a
        withdrawal (5.6), retreat (5.4) or reinforcement (5.5) into Kentucky counts too;
        version 1 counted only moves."""
        if self.rules_since(2):
            self._note_kentucky_entry(self.units[uid], [box])

    def _do_entrench(self, unit: str) -> None:
        u = self.units[unit]
        self._flag(u)
        u.m += 1
        if self.map.boxes[u.loc].recruitment_city or u.dig:
            u.ent, u.dig = True, False
        else:
            u.dig = True
        if self.rules_since(2) and unit in self.march_units:
            self.march_units.remove(unit)       # 4.3: instead of moving; its March is spent

    def _entrenched_this_march(self, u: Unit) -> bool:
        """4.3 (ruling R40): entrenching is "instead of moving", and outside a
        Recruitment City its two Marches are two activations. From engine version 2 a
        unit that entrenched (or began to) in the open March leaves that March: it
        neither moves nor entrenches again in it. Only entrenching takes a unit still
        in the activated box out of the March."""
        return (self.rules_since(2) and u.loc == self.active and u.id not in self.march_units
                and (u.dig or u.ent))

    def _sea_common(self, unit: str, to: str, invasion: bool) -> None:
        self.active, self.march_units = None, []
        self._spend_march()
        u = self.units[unit]
        self._flag(u)
        u.m += 1
        u.moved, u.sea, u.ent, u.dig = True, True, False, False
        u.frm, u.river = "sea", invasion          # 5.34: invasions attack across a river
        if u.loc in self.at:
            self.sea_trips.append([u.loc, to])    # a leader there may sail along (8.2.1)
        self._place(unit, to)
        self._catch_lone_leaders()

    def _do_sea_move(self, unit: str, to: str) -> None:
        self._sea_common(unit, to, invasion=False)

    def _do_invade(self, unit: str, to: str) -> None:
        self._sea_common(unit, to, invasion=True)

    def _do_end_movement(self) -> None:
        self.active, self.march_units = None, []
        self.marches = 0
        self.invasion = False
        self._start_combat_segment()

    def _movement_auto(self) -> bool:
        """Close a March nobody can use and end a segment with no Marches left."""
        if self.active is not None and not any(
                self._move_refusal(u) is None or self._entrench_refusal(u) is None for u in self._march_units_here()):
            self.active, self.march_units = None, []
        if self.active is None and self.marches == 0 and not (self.leaders and self._leader_moves_legal()):
            self._do_end_movement()
            return True
        return False

    # ------------------------------------------------------------------ refusals
    # Each _why_<action> returns why that action is not allowed now, or None if it is;
    # the legal-action lists above are built from the same checks.
    def _why_activate(self, box: Any) -> str | None:
        if not isinstance(box, str) or box not in self.map.boxes:
            return because("There is no box {box}.", box=repr(box))
        if self.marches <= 0:
            return because("You have no Marches left (4.0).")
        if not self._has(box, self.side):
            return because("{box} holds none of your units (4.0).", box=self.map.boxes[box].name)
        if not self._box_can_march(box):
            if self.side == "union" and (held := self._garrison_holds(box)):
                return held
            return because("No unit in {box} can move or entrench: each unit takes part in at most two Marches "
                           "a turn and units that entered an enemy-occupied box must stop there (4.0).",
                           box=self.map.boxes[box].name)
        return None

    def _why_entrench(self, unit: Any) -> str | None:
        u = self._own_unit(unit)
        if isinstance(u, str):
            return u
        if self._entrenched_this_march(u):
            return (because("Outside a Recruitment City entrenching takes two Marches: the unit "
                    "used this one; activate its box again for the second (4.3).")
                    if u.dig else because("{unit} is already entrenched.", unit=unit))
        if self.active != u.loc or unit not in self.march_units:
            return because("Entrenching takes a March: activate the unit's box first (4.3).")
        return self._entrench_refusal(u)

    def _why_sea_move(self, unit: Any, to: Any) -> str | None:
        return self._why_sea(unit, to, invasion=False)

    def _why_invade(self, unit: Any, to: Any) -> str | None:
        return self._why_sea(unit, to, invasion=True)

    def _why_sea(self, unit: Any, to: Any, invasion: bool) -> str | None:
        if self.side != "union" and not (self.intervention and not invasion):
            rule = "4.7" if invasion else "4.6"
            return because("Only the Union moves by sea ({rule}), until foreign intervention (A8.4).", rule=rule)
        if self.marches <= 0:
            return because("You have no Marches left (4.0).")
        if self.side == "confederate":
            return self._foreign_sea_refusal(unit, to)
        u = self._own_unit(unit)
        if isinstance(u, str):
            return u
        return self._sea_unit_refusal(u, invasion) or self._sea_dest_refusal(u.loc, to, invasion)

    def _why_move(self, unit: Any, path: Any, by: Any) -> str | None:
        u = self._own_unit(unit)
        if isinstance(u, str):
            return u
        if self._entrenched_this_march(u):
            return because("{unit} entrenched in this March, which it uses instead of moving (4.3).", unit=unit)
        if self.active is None or u.loc != self.active or unit not in self.march_units:
            return because("Only units that were in the activated box may move in this March (4.0).")
        refusal = self._move_refusal(u)
        if refusal:
            return refusal
        if (not isinstance(path, list) or not isinstance(by, list) or not path
                or len(path) != len(by) or not all(isinstance(x, str) for x in path + by)):
            return because('A move names "path" (boxes) and "by" (one line kind per step).')
        return self._why_path(u, path, by)

    def _why_path(self, u: Unit, path: list[str], by: list[str]) -> str | None:
        """Why this unit may not take this path in its March; None if it may (see _paths)."""
        side = u.side
        boxes = [u.loc] + list(path)
        lines = []
        for a, b, kind in zip(boxes, boxes[1:], by, strict=False):
            line = self.map.line_between(a, b, kind) if b in self.map.boxes else None
            if line is None:
                return because("No {kind} line joins {a} and {b}.", kind=kind, a=a, b=b)
            refusal = self._line_refusal(side, line) or self._entry_refusal(side, b)
            if refusal:
                return refusal
            lines.append(line)
        if len(set(boxes)) != len(boxes):
            return because("A move may not pass the same box twice.")
        friendly = all(self._friendly_rail(side, a, b) for a, b, k in zip(boxes, boxes[1:], by, strict=False)
                       if k == "rail")
        kinds = set(by)
        refusal = self._distance_refusal(u, kinds, friendly and kinds == {"rail"}, len(path))
        if refusal:
            return refusal
        for i, b in enumerate(path[:-1]):
            if self._enemy_in(b, side):
                if i != 0 or len(path) != 2:
                    return MUST_STOP
                return self._jump_refusal(u, b, lines, path[-1])
        return None
