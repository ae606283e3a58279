"""The Movement Segment (4.0 - 4.9): marches, land moves, jumps, entrenching, sea
movement and naval invasions.

A March activates one box (4.0) or moves one unit by sea (4.6, 4.7). During an
activated March each unit that was in the box may move once or entrench."""
from __future__ import annotations

from typing import Any

from .data import other

POTOMAC = "Potomac"
RAIL_ONLY = frozenset({"rail"})
KENTUCKY_OPENS_TURN = 6          # 4.12: the Union 01/02 1862 Player Turn
FIRST_1861_TURN = 1


class MovementRules:
    # ------------------------------------------------------------------ legal
    def _movement_legal(self) -> list[dict[str, Any]]:
        acts: list[dict[str, Any]] = []
        if self.active is not None:
            enemy = self._enemy_boxes(self.side)
            for u in self._march_units_here():
                if self._can_move(u):
                    for path, by in self._paths(u, enemy):
                        acts.append({"type": "move", "unit": u.id, "path": path, "by": by})
                if self._can_entrench(u):
                    acts.append({"type": "entrench", "unit": u.id})
            acts.append({"type": "end_march"})
        if self.marches > 0:
            for box in self._activatable_boxes():
                acts.append({"type": "activate", "box": box})
            acts.extend(self._sea_actions())
            acts.extend({"type": "refit", "unit": u} for u in self._refittable())   # 5.71
        if self.leaders:
            acts.extend(self._leader_moves_legal())                                 # A8.2
        if self.contained:
            acts.extend(self._breakout_legal())                                     # A4.0
        acts.append({"type": "end_movement"})
        return acts

    def _march_units_here(self):
        units = self.units
        return [units[u] for u in self.march_units if units[u].loc == self.active]

    def _enemy_in(self, box: str, side: str) -> bool:
        units = self.units
        return any(units[u].side != side for u in self.at[box])

    def _can_move(self, u) -> bool:
        if u.m >= 2 or u.sea:
            return False
        if u.loc in self.contained:
            return u.side == "confederate"           # A4.0: the Union must break out first
        return not self._enemy_in(u.loc, u.side)

    def _can_entrench(self, u) -> bool:
        """4.3: one March in a Recruitment City, two Marches of one segment elsewhere."""
        if u.ent or u.m >= 2:
            return False
        if self._enemy_in(u.loc, u.side) and not (u.loc in self.contained and u.side == "confederate"):
            return False                             # 4.3 (A4.0: containing units may)
        if u.loc in self._cities:
            return True
        return (u.dig and u.m == 1) or (not u.dig and u.m == 0 and not u.moved)

    def _activatable_boxes(self) -> list[str]:
        side = self.side
        out = []
        for box in self.occupied_boxes():
            for uid in self.at[box]:
                u = self.units[uid]
                if u.side != side or u.m >= 2:
                    continue
                if self._can_entrench(u) or (self._can_move(u) and self._any_exit(u)):
                    out.append(box)
                    break
        return out

    def _any_exit(self, u) -> bool:
        for nxt, line in self.map.neighbours(u.loc):
            if self._line_usable(u.side, line) and self._may_enter(u.side, nxt):
                return True
        return False

    def _line_usable(self, side: str, line) -> bool:
        return not (side == "confederate" and line.river == POTOMAC)     # 4.2

    def _may_enter(self, side: str, box: str) -> bool:
        if self.map.boxes[box].color != "neutral":
            return True
        if "4.11" in self.options and self.turn == FIRST_1861_TURN:
            return False                                                   # 4.11
        if ("4.12" in self.options and side == "union" and self.turn < KENTUCKY_OPENS_TURN
                and not self.ky_entered):
            return False                                                   # 4.12
        return True

    def _friendly_rail(self, side: str, a: str, b: str) -> bool:
        return self.controller(a) == side and self.controller(b) == side

    def _cav_like(self, u) -> bool:
        return u.is_cav or (u.type == "CI" and "4.8" in self.options)     # 4.8

    def _max_steps(self, u, kinds: set[str], all_friendly_rail: bool) -> int:
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

    def _paths(self, u, enemy: set[str] | None = None) -> list[tuple[list[str], list[str]]]:
        """Every simple path this unit may take in one March, as (boxes, line kinds)."""
        side, start = u.side, u.loc
        out: list[tuple[list[str], list[str]]] = []
        neighbours = self.map.neighbours
        if enemy is None:
            enemy = self._enemy_boxes(side)
        closed = self._closed_boxes(side)
        limits: dict[tuple[frozenset, bool], int] = {}

        def limit(kinds: frozenset, friendly_rail: bool) -> int:
            key = (kinds, friendly_rail)
            if key not in limits:
                limits[key] = self._max_steps(u, set(kinds), friendly_rail)
            return limits[key]

        def extend(cur: str, path: list[str], by: list[str], lines: list, friendly: bool) -> None:
            n = len(path) + 1
            for nxt, line in neighbours(cur):
                if nxt == start or nxt in closed or nxt in path or not self._line_usable(side, line):
                    continue
                kind = line.kind
                kinds = frozenset(by + [kind])
                fr = friendly and (kind != "rail" or self._friendly_rail(side, cur, nxt))
                if n > limit(kinds, fr and kinds == RAIL_ONLY):
                    continue
                new_path, new_by = path + [nxt], by + [kind]
                enemy_here = nxt in enemy
                jump = n == 2 and path[0] in enemy
                if jump and (enemy_here or not self._jump_ok(u, path[0], lines + [line])):
                    continue          # a jump (4.4, 4.5) may not end among enemy units
                out.append((new_path, new_by))
                if enemy_here:
                    if n == 1 and not u.jumped:
                        extend(nxt, new_path, new_by, lines + [line], fr)   # try jumping on
                elif n < 3 and not jump:
                    extend(nxt, new_path, new_by, lines + [line], fr)

        extend(start, [], [], [], True)
        return out

    def _enemy_boxes(self, side: str) -> set[str]:
        units, at = self.units, self.at
        return {box for box in self._occupied if any(units[x].side != side for x in at[box])}

    def _closed_boxes(self, side: str) -> frozenset[str]:
        """Boxes this side may not enter now (4.11, 4.12 Kentucky)."""
        if self._may_enter(side, self._a_kentucky_box):
            return frozenset()
        return self._kentucky

    def _jump_ok(self, u, over: str, lines: list) -> bool:
        """4.4 Cavalry Jump Move or 4.5 Union River Jump Move over ``over``."""
        if u.jumped or len(lines) != 2:
            return False
        kinds = {ln.kind for ln in lines}
        if kinds == {"river"}:                                            # 4.5
            here = u.loc
            downriver = lines[0].is_downriver_from(here) and lines[1].is_downriver_from(over)
            return u.side == "union" and downriver
        if "river" in kinds or not u.is_cav:
            return False                                                  # 4.4
        units = self.units
        return not any(units[x].side != u.side and units[x].is_cav for x in self.at[over])

    def _sea_actions(self) -> list[dict[str, Any]]:
        """4.6 Sea Movement and 4.7 Naval Invasions: one March per unit."""
        if self.side != "union":
            return self._foreign_sea_actions() if self.intervention else []
        acts: list[dict[str, Any]] = []
        ports = self._ports
        sea_allowed = not ("4.11" in self.options and self.turn == FIRST_1861_TURN)
        for port in ports:
            for uid in self.at[port]:
                u = self.units[uid]
                if u.side != "union" or u.moved or u.m or self._sails_from_containment(u):
                    continue
                if sea_allowed:
                    for dest in ports:
                        if dest != port and self.controller(dest) == "union":
                            acts.append({"type": "sea_move", "unit": uid, "to": dest})
                if self.invasion and port == "washington":
                    for dest in ports:
                        if self._invasion_target(dest):
                            acts.append({"type": "invade", "unit": uid, "to": dest})
        return acts

    def _invasion_target(self, dest: str) -> bool:
        if self.controller(dest) != "confederate":
            return False
        if ("4.71" in self.options and dest in ("yorktown", "norfolk")
                and self.controller("fort_monroe") == "confederate"):
            return False                                                  # 4.71
        return True

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
        if any(self._enemy_in(b, u.side) for b in path[:-1]):
            u.jumped = True
        u.m += 1
        u.moved, u.ent, u.dig = True, False, False
        u.frm = boxes[-2]
        u.river = self.map.line_between(boxes[-2], boxes[-1], by[-1]).crosses_river_into(boxes[-1])
        self._note_kentucky_entry(u, path)
        self._place(unit, path[-1])
        if self.leaders:
            self._catch_lone_leaders()

    def _note_kentucky_entry(self, u, boxes: list[str]) -> None:
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
        u.m += 1
        if self.map.boxes[u.loc].recruitment_city or u.dig:
            u.ent, u.dig = True, False
        else:
            u.dig = True
        if self.rules_since(2) and unit in self.march_units:
            self.march_units.remove(unit)       # 4.3: instead of moving; its March is spent

    def _entrenched_this_march(self, u) -> bool:
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
                self._can_entrench(u) or self._can_move(u) for u in self._march_units_here()):
            self.active, self.march_units = None, []
        if self.active is None and self.marches == 0 and not (self.leaders and self._leader_moves_legal()):
            self._do_end_movement()
            return True
        return False

    # ------------------------------------------------------------------ explain
    def _unit_check(self, unit: Any) -> tuple[Any, str | None]:
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is None:
            return None, f"There is no unit {unit!r}."
        if u.side != self.side:
            return None, f"{unit} is not yours to move."
        if u.loc not in self.at:
            return None, f"{unit} is not on the map."
        return u, None

    def _why_activate(self, box: Any) -> str | None:
        if box not in self.map.boxes:
            return f"There is no box {box!r}."
        if self.marches <= 0:
            return "You have no Marches left (4.0)."
        if not self._has(box, self.side):
            return f"{self.map.boxes[box].name} holds none of your units (4.0)."
        return (f"No unit in {self.map.boxes[box].name} can move or entrench: each unit "
                "takes part in at most two Marches a turn and units that entered an "
                "enemy-occupied box must stop there (4.0).")

    def _why_entrench(self, unit: Any) -> str | None:
        u, err = self._unit_check(unit)
        if err:
            return err
        if self._entrenched_this_march(u):
            return ("Outside a Recruitment City entrenching takes two Marches: the unit "
                    "used this one; activate its box again for the second (4.3)."
                    if u.dig else f"{unit} is already entrenched.")
        if self.active != u.loc or unit not in self.march_units:
            return "Entrenching takes a March: activate the unit's box first (4.3)."
        if self._enemy_in(u.loc, u.side):
            return "Units may not entrench in a box containing enemy units (4.3)."
        if u.ent:
            return f"{unit} is already entrenched."
        if u.m >= 2:
            return "No unit may take part in more than two Marches in a turn (4.0)."
        return ("Outside a Recruitment City entrenching takes two Marches of one "
                "Movement Segment by units that have not moved (4.3).")

    def _why_sea_move(self, unit: Any, to: Any) -> str | None:
        return self._why_sea(unit, to, invasion=False)

    def _why_invade(self, unit: Any, to: Any) -> str | None:
        return self._why_sea(unit, to, invasion=True)

    def _why_sea(self, unit: Any, to: Any, invasion: bool) -> str | None:
        rule = "4.7" if invasion else "4.6"
        if self.side != "union" and not (self.intervention and not invasion):
            return f"Only the Union moves by sea ({rule}), until foreign intervention (A8.4)."
        if self.side == "confederate":
            return ("Confederate naval movement goes from a Confederate port, or from Europe, "
                    "to another Confederate-controlled port (A8.4).")
        u, err = self._unit_check(unit)
        if err:
            return err
        if self._sails_from_containment(u):
            return ("Contained Union units must fight and defeat the containing garrison "
                    "(breakout) before they leave the port (A4.0).")
        if to not in self.map.boxes or not self.map.boxes[to].port:
            return f"Units move by sea only to Port boxes ({rule})."
        if u.moved or u.m:
            return f"A unit moving by sea must not have moved or marched this segment ({rule})."
        if invasion:
            if not self.invasion:
                return "Naval Invasions need a roll of 6 for Marches this turn (4.7)."
            if u.loc != "washington":
                return "Invading units must start the Movement Segment in Washington (4.7)."
            if self.controller(to) != "confederate":
                return "Naval Invasions go only to Confederate-controlled ports (4.7)."
            return "While the Confederates control Fort Monroe there is no invasion of Yorktown or Norfolk (4.71)."
        if not self.map.boxes[u.loc].port:
            return "The unit must start the Movement Segment in a Port box (4.6)."
        if "4.11" in self.options and self.turn == FIRST_1861_TURN:
            return "No Union Sea Movement on the first Game Turn (4.11)."
        return "Sea Movement goes only to a Union-controlled port (4.6)."

    def _why_move(self, unit: Any, path: Any, by: Any) -> str | None:
        u, err = self._unit_check(unit)
        if err:
            return err
        if self._entrenched_this_march(u):
            return (f"{unit} entrenched in this March, which it uses instead of moving (4.3).")
        if self.active is None or u.loc != self.active or unit not in self.march_units:
            return "Only units that were in the activated box may move in this March (4.0)."
        if u.m >= 2:
            return "No unit may take part in more than two Marches in a turn (4.0)."
        if u.sea:
            return "A unit that moved by sea may not move again this segment (4.6)."
        if self._enemy_in(u.loc, u.side):
            return "A unit that entered a box containing enemy units must stop there (4.0)."
        if (not isinstance(path, list) or not isinstance(by, list) or not path
                or len(path) != len(by)):
            return 'A move names "path" (boxes) and "by" (one line kind per step).'
        return self._why_path(u, path, by)

    def _why_path(self, u, path: list, by: list) -> str | None:
        side = u.side
        boxes = [u.loc] + list(path)
        lines = []
        for a, b, kind in zip(boxes, boxes[1:], by):
            line = self.map.line_between(a, b, kind) if b in self.map.boxes else None
            if line is None:
                return f"No {kind} line joins {a} and {b}."
            if not self._line_usable(side, line):
                return "Confederate units may never move along the Potomac River (4.2)."
            if not self._may_enter(side, b):
                if "4.11" in self.options and self.turn == FIRST_1861_TURN:
                    return "No unit may enter Kentucky on the first Game Turn (4.11)."
                return "Union units may not enter Kentucky before 01/02 1862 unless a Confederate unit has (4.12)."
            lines.append(line)
        if len(set(boxes)) != len(boxes):
            return "A move may not pass the same box twice."
        kinds = set(by)
        if "river" in kinds and len(kinds) > 1:
            return "No unit may combine river movement with other lines in one March (4.0)."
        if len(kinds) > 1 and not self._cav_like(u):
            return "Infantry may not move along two different types of line in one March (4.0)."
        friendly = all(self._friendly_rail(side, a, b) for a, b, k in zip(boxes, boxes[1:], by) if k == "rail")
        if len(path) > self._max_steps(u, kinds, friendly and kinds == {"rail"}):
            if kinds == {"rail"} and not friendly and not self._cav_like(u):
                return ("Infantry moves only one box along an unfriendly railroad; a friendly "
                        "railroad joins two boxes you control (4.0).")
            return f"That is farther than the unit may move in one March (Movement Chart, 4.0)."
        for i, b in enumerate(path[:-1]):
            if self._enemy_in(b, side):
                return self._why_jump(u, i, b, path, lines)
        return None

    def _why_jump(self, u, i: int, over: str, path: list, lines: list) -> str:
        if i != 0 or len(path) != 2:
            return "A unit entering a box containing enemy units must stop there (4.0)."
        if self._enemy_in(path[-1], u.side):
            return "A Jump Move may not end in a box containing enemy units (4.4)."
        if u.jumped:
            return "A unit may make only one Jump Move per Movement Segment (4.4)."
        kinds = {ln.kind for ln in lines}
        if kinds == {"river"}:
            if u.side != "union":
                return "The Confederacy may not make river Jump Moves (4.5)."
            return "River Jump Moves go only down a river (4.5)."
        if not u.is_cav:
            return ("A unit entering a box containing enemy units must stop there (4.0); "
                    "only Cavalry may jump through one (4.4).")
        if "river" in kinds:
            return "Cavalry may not Jump Move by river (4.4)."
        return "Cavalry may not jump through a box holding enemy Cavalry (4.4)."
