"""What an action changed, recorded with it, and the fold that applies such a record.

From engine version 3 on, every recorded action event carries ``"changes"``: the
pieces whose location or flags the action changed (each as ``Unit.look()`` gives
it, without the id, side and type a piece never changes) and the fields of the state
proper that it changed, with their new values (a part where nothing changed is left
out):

    {"type": "action", "side": "union", "action": {...},
     "changes": {"units": {"U-VI-03": {"loc": "harpers_ferry", "m": 1, "moved": true}},
                 "state": {"phase": "battle", "battle": {...}, ...}}}

Deciding (``Game.apply``) works the action out by the rules and writes the record;
applying (``fold_action``) only copies the record into the state: no rule is asked,
no die is rolled, no path is searched, which is what makes a replay fast. Games of
older versions carry no record: they are replayed by executing their actions again.

The record holds only JSON values (a stored event comes back from the database as
JSON): the state holds lists, dicts, strings, numbers, booleans and None, and one set
(``cav_only``), written as a sorted list and read back as a set.
"""
from __future__ import annotations

import marshal
from itertools import compress
from operator import attrgetter, ne
from typing import Any

from .core import GameCore

#: The first engine version whose action events carry their changes.
CHANGES_RECORDED_SINCE = 3

#: Every field of the state proper besides the pieces (what ``Game.state()`` writes,
#: apart from what it works out from these): first those holding a plain value, then
#: those holding a list, set or dict (which change in place).
VALUE_FIELDS = (
    "turn", "side", "phase", "marches", "invasion", "active", "promotions", "ky_entered",
    "csa_losses", "washington_loss", "intervention", "leader_resume", "march_spent", "rolls",
)
CONTAINER_FIELDS = (
    "march_units", "battle", "recruit", "control", "cav_only", "supply_boxes",
    "border_raised", "leaders", "leader_moves", "sea_trips", "contained", "invaded_ports",
    "result",
)
STATE_FIELDS = VALUE_FIELDS + CONTAINER_FIELDS
_values = attrgetter(*VALUE_FIELDS)
_CONTAINER_INDEXES = range(len(CONTAINER_FIELDS))
_containers = attrgetter(*CONTAINER_FIELDS)
_SET_FIELDS = frozenset({"cav_only"})
# containers of strings, numbers and None only (or None themselves): a shallow copy is a copy
_FLAT_FIELDS = frozenset({"march_units", "control", "supply_boxes", "border_raised", "leaders",
                          "leader_moves", "contained", "invaded_ports", "result"})
# fields the cached facts about control follow (Army Maximum, controlled boxes)
_CONTROL_FIELDS = frozenset({"control", "washington_loss"})
# how a piece looks: what its record in the changes holds
_look = attrgetter("loc", "red", "ent", "dig", "m", "moved", "jumped", "sea", "frm", "river",
                   "fought", "prom")
# a piece's record names the per-turn flags it has set (Unit.to_dict)
_TURN_FLAG_KEYS = frozenset({"dig", "m", "moved", "jumped", "sea", "frm", "river", "fought", "prom"})


_NOTHING: dict[str, Any] = {}


def _record(units: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """The record, without the parts where nothing changed (fewer objects to keep)."""
    if units:
        return {"units": units, "state": state} if state else {"units": units}
    return {"state": state} if state else {}


def _flat_copy(value: Any) -> Any:
    return value if value is None else value.copy()


class ChangeRecord(GameCore):
    """Recording an action's changes (deciding) and folding them in (applying)."""

    @property
    def records_changes(self) -> bool:
        """True for games whose action events carry their changes (and fold)."""
        return self.rules_since(CHANGES_RECORDED_SINCE)

    def _prepare_record(self) -> None:
        """Called before an action is recorded: what the record compares with is
        taken now from the position if it was not kept (a game just set up or
        folded), and the touched pieces are forgotten."""
        if self._looks is None or self._last_state is None:
            self._looks = {uid: _look(u) for uid, u in self.units.items()}
            # a copy of the containers (marshal copies plain data fastest)
            self._last_state = (_values(self), list(marshal.loads(marshal.dumps(_containers(self)))))
        self._touched.clear()

    def _record_changes(self) -> dict[str, Any]:
        """The record of what differs from the last record (or from the position
        _prepare_record took): the touched pieces that look different, the fields
        whose values differ. Compared by value, so that the record depends on the
        positions alone, not on how the game got there (played, or folded and played
        on)."""
        looks, last, touched = self._looks, self._last_state, self._touched
        assert looks is not None and last is not None, "_prepare_record comes first"
        changed = {}
        if touched:
            units = self.units
            for uid in sorted(touched) if len(touched) > 1 else touched:
                u = units[uid]
                look = _look(u)
                if look != looks[uid]:
                    looks[uid] = look
                    changed[uid] = u.look()
        last_values, last_containers = last
        values = _values(self)
        state = {}
        if values != last_values:
            # the fields whose values differ, in VALUE_FIELDS order (picked out in C)
            state = dict(compress(zip(VALUE_FIELDS, values, strict=True), map(ne, values, last_values)))
            self._last_state = (values, last_containers)
        containers = _containers(self)
        for i in compress(_CONTAINER_INDEXES, map(ne, containers, last_containers)):
            new, name = containers[i], CONTAINER_FIELDS[i]
            # copies: the state may go on changing in place, the record and what
            # the next record compares with may not (nor may one change the other)
            if name in _SET_FIELDS:
                last_containers[i], state[name] = set(new), sorted(new)
            elif name in _FLAT_FIELDS:
                last_containers[i], state[name] = _flat_copy(new), _flat_copy(new)
            else:
                data = marshal.dumps(new)
                last_containers[i], state[name] = marshal.loads(data), marshal.loads(data)
        return _record(changed, state)

    def fold_action(self, event: dict[str, Any]) -> None:
        """Apply one recorded action event of a game that records changes: copy its
        changes into the state, with no check and no search."""
        changes = event["changes"]
        self._fold_changes(changes.get("units", _NOTHING), changes.get("state", _NOTHING))

    def fold_actions(self, events: list[dict[str, Any]]) -> None:
        """Apply a run of recorded events at once. Each record gives a piece's whole
        look and a field's whole value, so the last record of each piece and field is
        what folding them one by one would leave: only those are applied."""
        units: dict[str, dict[str, Any]] = {}
        state: dict[str, Any] = {}
        add_units, add_state = units.update, state.update
        for event in events:
            # only action events carry changes; an action that changed nothing has none
            changes = event.get("changes")
            if changes:
                if "units" in changes:
                    add_units(changes["units"])
                if "state" in changes:
                    add_state(changes["state"])
        self._fold_changes(units, state)

    def _fold_changes(self, looks: dict[str, dict[str, Any]], state: dict[str, Any]) -> None:
        units, flagged, can_march = self.units, self._flagged, self._can_march
        self._acts_memo.clear()                 # a fold may change anything
        for uid, d in looks.items():
            u = units[uid]
            if u.loc != d["loc"]:
                self._relocate(uid, d["loc"])
            else:
                can_march.pop(u.loc, None)      # its flags may change whether a March can start
            if len(d) == 1:                     # its location alone: no flag is set
                u.red = u.ent = u.dig = u.moved = u.jumped = u.sea = u.river = u.fought = u.prom = False
                u.m, u.frm = 0, None
                continue
            get = d.get
            u.red, u.ent, u.dig = get("red", False), get("ent", False), get("dig", False)
            u.moved, u.jumped, u.sea = get("moved", False), get("jumped", False), get("sea", False)
            u.river, u.fought, u.prom = get("river", False), get("fought", False), get("prom", False)
            u.m, u.frm = get("m", 0), get("frm")
            if not _TURN_FLAG_KEYS.isdisjoint(d):
                flagged.add(uid)                # the next Player Turn clears them
        if state:
            # a copy (marshal copies plain data fastest): the state changes in place
            # later and must not change the recorded event
            for name, value in marshal.loads(marshal.dumps(state)).items():
                setattr(self, name, set(value) if name in _SET_FIELDS else value)
        if not _CONTROL_FIELDS.isdisjoint(state):
            self._control_changed()
        self._legal = None

    def _forget_memories(self) -> None:
        """After a fold: what was worked out from earlier positions is worked out again."""
        self._can_march, self._can_march_key = {}, ()
        self._paths_memo, self._paths_token = {}, ()
        self._acts_memo = {}
        self._control_changed()
        self._legal = None
        self._looks = self._last_state = None    # taken afresh when the next action is recorded
