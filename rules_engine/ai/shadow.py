"""The computer player's own copy of a game: rebuilt from the public record
(header and events) and so never holding the dice seed.

The copy is kept in step with the real game by applying the new recorded actions
with the recorded die values; lookahead works on clones given dice the player
samples itself."""
from __future__ import annotations

import copy
import random
from typing import Any

from ..game import Game, replay
from ..state import Unit

# Parts of a Game that never change during play, shared by every clone: the map,
# the setup and the indexes built from them. ``_legal`` is only ever replaced,
# never changed in place, so clones share it too, and with it the index it builds
# for finding actions. (The shadow tests compare a followed copy with the real game
# after whole games, which would catch a part that started to change.)
_SHARED = frozenset(("map", "scenario", "header", "options", "engine_version", "_legal",
                     "_ports", "_cities", "_default_owner", "_kentucky", "_a_kentucky_box",
                     "_shields", "_union_objectives", "_garrisons",
                     "_activations", "_colour_boxes", "_colour_bits", "_box_bit"))
# The largest parts of the state, copied by their known shape (a general copy
# looks at every member's type).
_BY_SHAPE = {
    "units": lambda units: {uid: u.copy() for uid, u in units.items()},
    "at": lambda at: {box: list(uids) for box, uids in at.items()},
    "_side_n": lambda by_side: {side: dict(boxes) for side, boxes in by_side.items()},
    "_pieces_at": lambda places: {key: set(ids) for key, ids in places.items()},
}
# Memories of facts worked out from the position: an empty one is always right.
_MEMORIES = frozenset(("_paths_memo", "_acts_memo"))


class SampledDice:
    """Dice the computer player rolls for its own simulations."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def roll(self) -> int:
        return self.rng.randint(1, 6)


class _RecordedDice:
    """Feeds the shadow game the die values the real game recorded."""

    def __init__(self) -> None:
        self.values: list[int] = []

    def roll(self) -> int:
        if not self.values:
            raise RuntimeError("the shadow game needs a die the record does not hold")
        return self.values.pop(0)


class Shadow:
    """A seedless copy of a game, followed event by event."""

    def __init__(self, header: dict[str, Any], events: list[dict[str, Any]]):
        self.header = header
        self.game = replay(header, events)
        self.game._recording = False       # the copy needs the state, not a second log
        self.game.events = []
        self.seen = len(events)
        self.last = events[-1] if events else None

    def follows(self, header: dict[str, Any], events: list[dict[str, Any]]) -> bool:
        """True if ``events`` continue the record this copy has followed so far
        (not a game taken back, nor another game)."""
        if header != self.header or len(events) < self.seen:
            return False
        return (events[self.seen - 1] if self.seen else None) == self.last

    def sync(self, events: list[dict[str, Any]]) -> Game:
        """Apply the actions recorded since the last call, with their recorded dice."""
        new = events[self.seen:]
        self.seen = len(events)
        self.last = events[-1] if events else None
        for i, event in enumerate(new):
            if event["type"] != "action":
                continue
            if self.game.records_changes:
                self.game.fold_action(event)       # the recorded changes: nothing to work out
                continue
            dice = _RecordedDice()
            for later in new[i + 1:]:
                if later["type"] == "action":
                    break
                if later["type"] == "roll":
                    dice.values.append(later["value"])
            self.game._dice = dice
            self.game._execute(event["action"])
            self.game._legal = None
        return self.game


def clone(game: Game, dice: Any) -> Game:
    """A copy of a (seedless) game that rolls with ``dice`` and keeps no log.

    A hand-written copy: ``copy.deepcopy`` cannot copy the map and is several
    times slower, and the search copies a game for every choice it weighs."""
    new = object.__new__(type(game))
    state = {}
    for key, value in game.__dict__.items():
        if key in _SHARED:
            state[key] = value
        elif key == "_dice":
            state[key] = dice
        elif key == "events":
            state[key] = []
        elif key in _MEMORIES:
            state[key] = {}               # worked out again when needed: cheaper than a copy
        elif key in ("_looks", "_last_state"):
            state[key] = None             # what recording changes keeps; a clone records none
        elif key in _BY_SHAPE:
            state[key] = _BY_SHAPE[key](value)
        else:
            state[key] = _copy(value)
    new.__dict__ = state
    new._recording = False
    return new


_ATOMS = (str, int, float, bool, type(None), frozenset)
_ATOM_TYPES = frozenset(_ATOMS)


def _copy(value: Any) -> Any:
    """A deep copy of plain data and Unit pieces (containers of plain values, the
    most of the state, are copied whole and only their other members one by one)."""
    kind = type(value)
    if kind in _ATOM_TYPES:
        return value
    if kind is dict:
        out = dict(value)
        for k, v in out.items():
            if type(v) not in _ATOM_TYPES:
                out[k] = _copy(v)
        return out
    if kind is list:
        return [v if type(v) in _ATOM_TYPES else _copy(v) for v in value]
    if kind is set:
        return set(value)
    if kind is tuple:
        return tuple(_copy(v) for v in value)
    if kind is Unit:
        return value.copy()
    return copy.deepcopy(value)
