"""The state every rules mixin shares, declared once, and the bookkeeping that keeps
its indexes true.

``Game`` is built from five rules mixins (movement, combat, turn, advanced rules,
leaders) that read and change the same state. Each of them inherits ``GameCore``, so
the attributes below are what a type checker and the next reader go by; ``Game``
sets them in ``__init__`` (the state proper is what ``Game.state()`` serialises).
"""
from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Protocol

from .actions import LegalActions
from .data import other
from .errors import because
from .map import Line, Map
from .state import Unit


#: The keys under which _acts_memo keeps what follows from where the pieces are and
#: the flags they carry: the boxes a March could start from (_activatable_boxes) and,
#: with a port's id, the sea moves and invasions from that port (_sea_actions).
#: Forgotten (_pieces_changed) wherever a piece moves or is flagged, as a box's
#: entry in _can_march is.
ACTIVATABLE = ("activate", "")
SAILINGS = "sail"


class DieSource(Protocol):
    """Seeded, scripted or recorded dice, or none: one value from 1 to 6 a call."""

    def roll(self) -> int: ...


class GameCore:
    # --- the game's identity and machinery (not part of the state proper)
    header: dict[str, Any]
    engine_version: int
    map: Map
    options: frozenset[str]
    _dice: DieSource
    _recording: bool                  # False while replaying: events are not kept again
    events: list[dict[str, Any]]
    _legal: LegalActions | None       # legal_actions() of this position, once asked
    _reverted: bool                   # a cavalry hold lapsed during this action (8.0)
    _undo_floor: int

    # --- facts about the map the rules ask for again and again, computed once
    _activations: dict[str, dict[str, Any]]
    _box_bit: dict[str, int]          # box -> its bit in masks of boxes (one per box of the map)
    _ports: list[str]
    _cities: frozenset[str]
    _default_owner: dict[str, str | None]
    _colour_boxes: dict[str, frozenset[str]]    # side -> the boxes of its colour
    _colour_bits: dict[str, int]      # side -> the boxes of its colour as a mask of _box_bit
    _kentucky: frozenset[str]
    _a_kentucky_box: str
    _shields: dict[str, list[tuple[str, int]]]
    _union_objectives: tuple[str, ...]

    # --- the pieces and where they are, with indexes kept by _place
    units: dict[str, Unit]
    _garrisons: list[str]             # A5.0 coastal defence garrisons
    at: dict[str, list[str]]          # box -> unit ids there, sorted
    _on_map: dict[str, int]           # side -> units counting against the Army Maximum
    _occupied: set[str]               # boxes holding any unit
    _held: dict[str, set[str]]        # side -> boxes holding some unit of that side
    _side_n: dict[str, dict[str, int]]    # side -> box -> how many of its units are there
    _held_bits: dict[str, int]        # side -> _held[side] as a mask of _box_bit
    _held_lists: dict[Any, list[str]]  # orderings of _held (_held_sorted), dropped when it changes
    _amax: dict[str, int]             # Army Maximum cache, cleared on control changes
    _by_control: dict[tuple[str, Any], Any]  # other facts that follow from control, cleared with it
    _pieces_at: dict[tuple[str, str, str], set[str]]   # (side, type, location) -> the pieces there
    _flagged: set[str]                # units whose per-turn flags may be set (see _flag)
    _touched: set[str]                # pieces the action under way may have changed (see _touch)
    _looks: dict[str, tuple[Any, ...]] | None   # each piece as the changes last recorded it
    # the state proper's plain values and (copies of its) containers, as last recorded
    _last_state: tuple[tuple[Any, ...], list[Any]] | None
    # box -> whether a March could start there (_box_can_march), forgotten for a box
    # when a piece enters or leaves it or a unit there is flagged, and all at once when
    # anything else it depends on changes (the key: side, turn, Kentucky, containment)
    _can_march: dict[str, bool]
    _can_march_key: tuple[Any, ...]
    _placed: dict[str, int]           # side -> how many times a piece of it was placed
    _control_epoch: int               # how many times control changed
    # (box, unit type, jumped) -> the unit's March paths (_paths), while the token (side,
    # turn, Kentucky, enemy pieces placed, control epoch) says nothing they depend on moved
    _paths_memo: dict[tuple[str, str, bool], list[tuple[list[str], list[str]]]]
    _paths_token: tuple[Any, ...]
    # legal actions kept from one decision to the next: (action kind, unit) -> what
    # the unit's actions of that kind were built from (the very list of paths or
    # goals, and its port) and those actions (_moves_along, _sailings); ACTIVATABLE ->
    # (key, boxes, their activate actions); (SAILINGS, port) -> (key, the sea actions
    # from the port)
    _acts_memo: dict[tuple[str, str], tuple[Any, ...]]
    _forts: frozenset[str]            # boxes whose units are always entrenched (4.3)

    # --- the state proper (serialised by Game.state())
    scenario: dict[str, Any]
    turn: int
    side: str                         # the side whose Player Turn it is
    phase: str
    marches: int
    invasion: bool                    # 4.7: a 6 for Marches allows naval invasions
    active: str | None                # the box of the open March
    march_units: list[str]            # units that may still act in the open March
    battle: dict[str, Any] | None     # the battle being fought (see combat.py)
    recruit: dict[str, Any] | None    # points and cities used in the Recruitment Segment
    promotions: int
    control: dict[str, str]           # boxes held by the side that is not their colour
    cav_only: set[str]                # boxes held by Cavalry alone (8.0)
    ky_entered: bool                  # 4.12: a Confederate unit entered Kentucky
    csa_losses: int                   # Confederate Veteran/Crack units lost in battle this Game Turn (6.2)
    supply_boxes: list[str]           # A2.0: boxes still to lose a piece
    washington_loss: int              # A6.0: taken off the Union Army Maximum for good
    border_raised: list[str]          # A8.3: border states whose militia came
    intervention: bool                # A8.4: foreign intervention has come
    leader_resume: str | None         # A8.2: where play goes on after placing leaders
    contained: list[str]              # A4.0: ports where the two sides face off
    march_spent: bool                 # A4.0: a March of this segment went to no break-out
    invaded_ports: list[str]          # A4.0: ports the Union took by invasion
    leaders: dict[str, str]           # A8.2: leader -> box, "waiting" or "captured"
    leader_moves: dict[str, int]      # A8.2: leader moves made this Player Turn
    sea_trips: list[list[str]]        # A8.2: [from, to] of this turn's sea moves
    result: dict[str, Any] | None
    rolls: int                        # dice rolled so far (the seeded dice's index)

    def rules_since(self, version: int) -> bool:
        """True when this game plays the rules as corrected in engine ``version``;
        older games keep the behaviour they were played with."""
        return self.engine_version >= version

    @property
    def _current_battle(self) -> dict[str, Any]:
        """The battle being fought, for code that runs only during one."""
        assert self.battle is not None, "no battle is being fought"
        return self.battle

    @property
    def _current_recruit(self) -> dict[str, Any]:
        """The Recruitment Segment's points, for code that runs only during one."""
        assert self.recruit is not None, "no Recruitment Segment is open"
        return self.recruit

    @property
    def to_act(self) -> str | None:
        if self.result is not None:
            return None
        if self.phase == "battle":
            b = self._current_battle
            if b["step"] == "rout_retreat":
                return other(b["winner"])
            return {"withdraw": b["defender"], "promote": b["winner"],
                    "rally": b.get("rallying")}.get(b["step"], b["firing"])
        return self.side

    # ------------------------------------------------------------------ control
    def controller(self, box_id: str) -> str | None:
        return self.control.get(box_id) or self._default_owner[box_id]

    def army_maximum(self, side: str) -> int:
        """7.1: the sum of the side's shields in the Recruitment Cities it controls."""
        cached = self._amax.get(side)
        if cached is None:
            cached = sum(value for bid, value in self._shields[side] if self.controller(bid) == side)
            if side == "union":
                cached -= self.washington_loss                         # A6.0
            self._amax[side] = cached
        return cached

    def _control_changed(self) -> None:
        self._amax.clear()
        self._by_control.clear()
        self._control_epoch += 1

    def _controlled(self, side: str) -> frozenset[str]:
        """The boxes the side controls now (worked out again after a change of control)."""
        found = self._by_control.get(("boxes", side))
        if found is None:
            # controller(): the control marker, else the box's colour; read off the
            # markers rather than asking every box of the map
            marked = [(b, holder) for b, holder in self.control.items() if holder]
            found = self._by_control["boxes", side] = (
                self._colour_boxes[side].difference([b for b, _ in marked])
                | frozenset([b for b, holder in marked if holder == side]))
        return found

    def units_on_map(self, side: str) -> int:
        """Units in play that count against the Army Maximum (7.1; not A8.4 foreign units)."""
        return self._on_map[side]

    # ------------------------------------------------------------------ events
    def _emit(self, event: dict[str, Any]) -> None:
        if self._recording:
            self.events.append(event)

    def _roll(self, purpose: str, **detail: Any) -> int:
        value = self._dice.roll()
        self.rolls += 1
        if self._recording:
            self.events.append({"type": "roll", "side": detail.pop("side", self.to_act),
                                "purpose": purpose, "value": value, **detail})
        return value

    def _note(self, kind: str, **detail: Any) -> None:
        """A derived event: what the action caused, for the log. Replay skips it."""
        if self._recording:
            self.events.append({"type": kind, **detail})

    # ------------------------------------------------------------------ pieces
    def _place(self, uid: str, loc: str) -> None:
        """Move a piece anywhere (box, pool, stock, draft), keeping the box index."""
        old = self._relocate(uid, loc)
        if old in self.at:
            self._check_vacated(old, self.units[uid].side)

    def _relocate(self, uid: str, loc: str) -> str:
        """Move a piece and keep every index of where pieces are; no rule is asked.
        Returns where the piece was."""
        u = self.units[uid]
        old = u.loc
        self._touched.add(uid)
        self._can_march.pop(old, None)
        self._can_march.pop(loc, None)
        self._pieces_changed(old, loc)
        self._placed[u.side] += 1
        self._pieces_at[u.side, u.type, old].discard(uid)
        self._pieces_at.setdefault((u.side, u.type, loc), set()).add(uid)
        counted = not u.foreign                 # A8.4: foreign units never count (7.1)
        side_n = self._side_n[u.side]
        if old in self.at:
            self.at[old].remove(uid)
            self._on_map[u.side] -= counted
            side_n[old] -= 1
            if not side_n[old]:
                self._held[u.side].discard(old)
                self._held_bits[u.side] &= ~self._box_bit[old]
                self._held_lists.clear()
            if not self.at[old]:
                self._occupied.discard(old)
        u.loc = loc
        if loc in self.at:
            self._on_map[u.side] += counted
            bisect.insort(self.at[loc], uid)
            self._occupied.add(loc)
            side_n[loc] += 1
            if side_n[loc] == 1:
                self._held[u.side].add(loc)
                self._held_bits[u.side] |= self._box_bit[loc]
                self._held_lists.clear()
        return old

    def _check_vacated(self, box: str, side: str) -> None:
        """8.0 exception: Cavalry alone control a box only while they occupy it."""
        if box in self.contained and not self._has(box, side):
            self.contained.remove(box)                 # A4.0: the face-off is over
        if box in self.cav_only and self.control.get(box) == side and not self._has(box, side):
            self.cav_only.discard(box)
            del self.control[box]
            self._control_changed()
            self._note("control_reverts", box=box)
            self._reverted = self.rules_since(2)       # judged once the action is done (R45)

    def occupied_boxes(self) -> list[str]:
        return sorted(self._occupied)

    def _has(self, box: str, side: str) -> bool:
        return self._side_n[side][box] > 0

    def _enemy_in(self, box: str, side: str) -> bool:
        return len(self.at[box]) > self._side_n[side][box]

    def _enemy_boxes(self, side: str) -> set[str]:
        """Boxes holding a unit of the other side: the index itself, not to be changed."""
        return self._held[other(side)]

    def _contested_boxes(self) -> list[str]:
        """5.0: boxes where units of both sides meet, sorted."""
        return sorted(self._held["union"] & self._held["confederate"])

    def _side_units(self, box: str, side: str) -> list[Unit]:
        units = self.units
        return [units[u] for u in self.at[box] if units[u].side == side]

    def _own_unit(self, unit: Any) -> Unit | str:
        """The moving side's unit on the map named ``unit``, or why there is none."""
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is None:
            return because("There is no unit {unit}.", unit=repr(unit))
        if u.side != self.side:
            return because("{unit} is not yours to move.", unit=unit)
        if u.loc not in self.at:
            return because("{unit} is not on the map.", unit=unit)
        return u

    def _flag(self, u: Unit) -> None:
        """Called wherever a per-turn flag of the unit is set: the next Player Turn
        clears the flags of these units only, not of every unit on the map."""
        self._flagged.add(u.id)
        self._touched.add(u.id)
        self._can_march.pop(u.loc, None)
        self._pieces_changed(u.loc)

    def _pieces_changed(self, *boxes: str) -> None:
        """A piece left or entered these places, or a unit's flags there changed: what
        _acts_memo keeps of the position as a whole, and of these boxes, is worked
        out again when next asked."""
        memo = self._acts_memo
        memo.pop(ACTIVATABLE, None)
        for box in boxes:
            memo.pop((SAILINGS, box), None)

    def _touch(self, u: Unit) -> None:
        """Called wherever a piece's flags change without _place or _flag (which call
        it themselves): the action's record of changes (changes.py) shows the piece."""
        self._touched.add(u.id)

    def pieces_at(self, side: str, type_: str, loc: str) -> frozenset[str]:
        """The pieces of a side and type in a place (box, pool, stock, draft...)."""
        return frozenset(self._pieces_at.get((side, type_, loc), ()))

    def _any_off_map(self, side: str, type_: str, loc: str) -> bool:
        """Whether _pick_off_map would find a piece (without picking it)."""
        return bool(self._pieces_at.get((side, type_, loc)))

    def _pick_off_map(self, side: str, type_: str, loc: str) -> str | None:
        """Lowest-numbered piece of a type in the pool/stock/draft, or None."""
        there = self._pieces_at.get((side, type_, loc))
        return min(there) if there else None

    if TYPE_CHECKING:
        # What each rules mixin offers the others. Only the type checker reads these
        # signatures; it also checks that each mixin's implementation still fits them.
        @property
        def first_turn(self) -> int: ...
        def _phase_legal(self) -> list[dict[str, Any]]: ...
        def _advance(self) -> None: ...
        # boxsets.py
        def _held_sorted(self, side: str) -> list[str]: ...
        def _controlled_bits(self, side: str) -> int: ...
        # movement.py
        def _movement_legal(self) -> list[dict[str, Any]]: ...
        def _movement_auto(self) -> bool: ...
        def _may_enter(self, side: str, box: str) -> bool: ...
        def _entry_refusal(self, side: str, box: str) -> str | None: ...
        def _line_usable(self, side: str, line: Line) -> bool: ...
        def _spend_march(self) -> None: ...
        def _is_port(self, box: Any) -> bool: ...
        def _note_kentucky_entry_from_battle(self, uid: str, box: str) -> None: ...
        # combat.py
        def _battle_choice_legal(self) -> list[dict[str, Any]]: ...
        def _battle_legal(self) -> list[dict[str, Any]]: ...
        def _start_combat_segment(self) -> None: ...
        def _do_fight(self, box: str) -> None: ...
        def _finish_battle(self, winner: str | None) -> None: ...
        def _eliminate(self, uid: str) -> None: ...
        def _adjacent(self, box: str, side: str) -> list[str]: ...
        def _beat_only_a_garrison(self) -> bool: ...
        def _garrison_for(self, box: str, uids: list[str]) -> str | None: ...
        # turn.py
        def _promotable(self, u: Unit, in_battle: bool) -> bool: ...
        def _refittable(self) -> list[str]: ...
        def _end_combat_segment(self) -> None: ...
        def _end_promotion_segment(self) -> None: ...
        def _start_marches(self) -> None: ...
        # advanced.py
        def _make_garrisons(self) -> list[str]: ...
        def _make_foreign_units(self) -> None: ...
        def _start_turn_steps(self) -> None: ...
        def _supply_legal(self) -> list[dict[str, Any]]: ...
        def _marches_from_die(self, value: int) -> int: ...
        def _capital_captured(self) -> None: ...
        def _new_battle_day(self) -> None: ...
        def _shots_allowed(self, side: str) -> int: ...
        def _containable(self, box: str) -> bool: ...
        def _breakout_legal(self) -> list[dict[str, Any]]: ...
        def _sails_from_containment(self, u: Unit) -> bool: ...
        def _note_invaded_ports(self, captured: list[str]) -> None: ...
        def _morale_checks(self, side: str) -> None: ...
        def _day_end_rally(self) -> None: ...
        def _desertion_checks(self) -> None: ...
        def _foreign_sea_actions(self) -> list[dict[str, Any]]: ...
        def _foreign_sea_refusal(self, unit: Any, to: Any) -> str | None: ...
        def _foreign_replacement(self, die: int) -> None: ...
        # leaders.py
        def _init_leaders(self) -> None: ...
        def leader_value(self, lid: str) -> int: ...
        def _leaders_in(self, box: str, side: str) -> list[str]: ...
        def _leader_total(self, box: str, side: str) -> int: ...
        def _leader_placements(self, when: str | None = None) -> list[dict[str, Any]]: ...
        def _leader_moves_legal(self) -> list[dict[str, Any]]: ...
        def _catch_lone_leaders(self) -> None: ...
        def _leaders_follow(self, frm: str, to: str, side: str) -> None: ...
        def _bonus_legal(self) -> list[dict[str, Any]]: ...
        def _bonus_step_needed(self) -> bool: ...
        def _leader_reinforcements(self, side: str) -> list[str]: ...
