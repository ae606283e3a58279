"""The decisions a player sends, one TypedDict per action ``type``.

They type the API edge: ``Game.legal_actions()`` lists them and ``Game.apply()``
takes them. At run time they are plain dicts, so JSON from the server is applied
as it comes; ``apply`` checks it against the legal actions itself. The phases in
which each one may be sent are in docs/rules-api.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from operator import is_
from typing import Any, Literal, TypedDict, get_args, get_type_hints

LineKind = Literal["road", "rail", "river"]


# --- Movement Segment (4.0 - 4.9)
class RollMarches(TypedDict):
    type: Literal["roll_marches"]


class Activate(TypedDict):
    type: Literal["activate"]
    box: str


class Move(TypedDict):
    type: Literal["move"]
    unit: str
    path: list[str]          # the boxes entered, in order
    by: list[str]            # the kind of line of each step (LineKind)


class Entrench(TypedDict):
    type: Literal["entrench"]
    unit: str


class EndMarch(TypedDict):
    type: Literal["end_march"]


class SeaMove(TypedDict):
    type: Literal["sea_move"]
    unit: str
    to: str


class Invade(TypedDict):
    type: Literal["invade"]
    unit: str
    to: str


class Refit(TypedDict):
    type: Literal["refit"]
    unit: str


class MoveLeader(TypedDict):
    type: Literal["move_leader"]
    leader: str
    path: list[str]
    by: list[str]            # line kinds, or ["sea"] with a piece that sailed


class Breakout(TypedDict):
    type: Literal["breakout"]
    box: str


class EndMovement(TypedDict):
    type: Literal["end_movement"]


# --- Combat Segment (5.0 - 5.7)
class Fight(TypedDict):
    type: Literal["fight"]
    box: str


class Contain(TypedDict):
    type: Literal["contain"]
    box: str


class EndCombat(TypedDict):
    type: Literal["end_combat"]


class Withdraw(TypedDict):
    type: Literal["withdraw"]
    to: str


class Stand(TypedDict):
    type: Literal["stand"]


class Retreat(TypedDict):
    type: Literal["retreat"]
    to: str


class Reinforce(TypedDict):
    type: Literal["reinforce"]
    unit: str


class ReinforceLeader(TypedDict):
    type: Literal["reinforce_leader"]
    leader: str


class OpenFire(TypedDict):
    type: Literal["open_fire"]


class LeaderBonus(TypedDict):
    type: Literal["leader_bonus"]
    unit: str


class BonusDone(TypedDict):
    type: Literal["bonus_done"]


class Target(TypedDict):
    type: Literal["target"]
    unit: str
    target: str


class Rally(TypedDict):
    type: Literal["rally"]
    unit: str


class NoRally(TypedDict):
    type: Literal["no_rally"]


# --- Promotion (6.0), recruitment (7.0), supply (A2.0), leaders (A8.2)
class Promote(TypedDict):
    type: Literal["promote"]
    unit: str


class NoPromotion(TypedDict):
    type: Literal["no_promotion"]


class RollReplacements(TypedDict):
    type: Literal["roll_replacements"]


class RollRecruits(TypedDict):
    type: Literal["roll_recruits"]


class Recruit(TypedDict):
    type: Literal["recruit"]
    unit_type: Literal["MI", "MC"]
    box: str


class EndRecruitment(TypedDict):
    type: Literal["end_recruitment"]


class SupplyLoss(TypedDict):
    type: Literal["supply_loss"]
    unit: str


class PlaceLeader(TypedDict):
    type: Literal["place_leader"]
    leader: str
    box: str


Action = (RollMarches | Activate | Move | Entrench | EndMarch | SeaMove | Invade | Refit
          | MoveLeader | Breakout | EndMovement | Fight | Contain | EndCombat | Withdraw
          | Stand | Retreat | Reinforce | ReinforceLeader | OpenFire | LeaderBonus
          | BonusDone | Target | Rally | NoRally | Promote | NoPromotion | RollReplacements
          | RollRecruits | Recruit | EndRecruitment | SupplyLoss | PlaceLeader)


def action_fields() -> dict[str, frozenset[str]]:
    """Each action type and the keys it carries besides "type" (for checks and docs)."""
    out = {}
    for cls in get_args(Action):
        hints = get_type_hints(cls)
        (kind,) = get_args(hints["type"])
        out[kind] = frozenset(hints) - {"type"}
    return out


class LegalActions(list[dict[str, Any]]):
    """The legal actions of one position (a plain list to its readers), able to say
    whether it holds an action. A single lookup scans, which is faster than building
    an index; from the second lookup on (the computer player tries every action on
    copies of one position, which share this list) a hashed index answers."""

    __slots__ = ("_keys", "_scanned")

    def __init__(self, actions: list[dict[str, Any]]):
        super().__init__(actions)
        self._keys: set[frozenset[tuple[str, Any]]] | None = None
        self._scanned = False

    def holds(self, action: Mapping[str, Any]) -> bool:
        if self._keys is None:
            if not self._scanned:
                self._scanned = True
                # an action picked from this very list is found by identity, without
                # comparing it field by field with every action before it
                return any(map(is_, self, repeat(action))) or action in self
            self._keys = {_action_key(a) for a in self}
        try:
            return _action_key(action) in self._keys
        except TypeError:                 # unhashable values: nothing legal holds them
            return False


def _action_key(action: Mapping[str, Any]) -> frozenset[tuple[str, Any]]:
    """A hashable key equal for two actions exactly when the dicts are equal: a list
    becomes a tuple tagged with ``list`` (no action value is ever a tuple), so a list
    never matches a tuple, as in dict equality. Raises TypeError for values that
    cannot be hashed (nested lists, dicts), which no legal action holds."""
    return frozenset((k, (list, tuple(v)) if isinstance(v, list) else v) for k, v in action.items())
