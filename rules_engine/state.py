"""The game state: plain data, serialisable to canonical JSON.

Everything here is data; the rules that change it live in the rules modules."""
from __future__ import annotations

import functools
import json
from typing import Any
from collections.abc import Collection

from .data import SIDES, pieces, unit_type

# Where a unit can be when not on the map.
POOL, STOCK, DRAFT, BORDER, COAST = "pool", "stock", "draft", "border", "coast"
ABROAD, EUROPE, FOREIGN_LOST = "abroad", "europe", "foreign_lost"     # A8.4 pieces
OFF_MAP = (POOL, STOCK, DRAFT, BORDER, COAST, ABROAD, EUROPE, FOREIGN_LOST)


class Unit:
    """One military piece of the counter mix. Promotion replaces the piece (6.0).

    Per-turn flags (reset at the start of every Player Turn):
      m       Marches this unit has taken part in this Movement Segment (max 2, 4.0)
      moved   it moved (by land, sea or invasion) this Movement Segment
      jumped  it made its one Jump Move this Movement Segment (4.4, 4.5)
      sea     it moved by sea or invaded: no further movement (4.6, 4.7)
      dig     it spent the first of the two Marches entrenching outside a Recruitment City (4.3)
      frm     the box it entered its current box from ("sea" for an invasion)
      river   it entered its current box across a river side or by invasion (5.34)
      fought  it took part in a battle this Player Turn (5.5)
      prom    it was promoted this Player Turn (6.0)
    """

    __slots__ = ("id", "side", "type", "loc", "red", "ent", "dig", "m", "moved",
                 "jumped", "sea", "frm", "river", "fought", "prom", "foreign")
    id: str
    side: str
    type: str
    loc: str
    red: bool
    ent: bool
    dig: bool
    m: int
    moved: bool
    jumped: bool
    sea: bool
    frm: str | None
    river: bool
    fought: bool
    prom: bool
    foreign: bool                     # an A8.4 Foreign Intervention piece (fixed by its id)

    def __init__(self, uid: str, side: str, type_: str, loc: str):
        self.id, self.side, self.type, self.loc = uid, side, type_, loc
        self.foreign = uid.startswith("C-FI-")   # asked at every move: worked out once
        self.red = self.ent = False
        self.clear_turn_flags()

    def clear_turn_flags(self) -> None:
        self.m = 0
        self.moved = self.jumped = self.sea = self.dig = False
        self.frm = None
        self.river = self.fought = self.prom = False

    def copy(self) -> Unit:
        """The same piece with the same flags (the computer player copies every
        piece for each position it weighs: field by field is the quickest way)."""
        new = Unit.__new__(Unit)
        new.id, new.side, new.type, new.loc = self.id, self.side, self.type, self.loc
        new.red, new.ent, new.dig, new.m, new.moved = self.red, self.ent, self.dig, self.m, self.moved
        new.jumped, new.sea, new.frm, new.river = self.jumped, self.sea, self.frm, self.river
        new.fought, new.prom, new.foreign = self.fought, self.prom, self.foreign
        return new

    @property
    def kind(self) -> str:
        return unit_type(self.type)["kind"]

    @property
    def is_cav(self) -> bool:
        return self.type[1] == "C"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "side": self.side, "type": self.type}
        d.update(self.look())
        return d

    def look(self) -> dict[str, Any]:
        """What may change of the piece: its location and the flags it has set."""
        d: dict[str, Any] = {"loc": self.loc}
        # spelled out: asked for every piece an action changes (changes.py)
        if self.red:
            d["red"] = True
        if self.ent:
            d["ent"] = True
        if self.dig:
            d["dig"] = True
        if self.moved:
            d["moved"] = True
        if self.jumped:
            d["jumped"] = True
        if self.sea:
            d["sea"] = True
        if self.river:
            d["river"] = True
        if self.fought:
            d["fought"] = True
        if self.prom:
            d["prom"] = True
        if self.m:
            d["m"] = self.m
        if self.frm is not None:
            d["frm"] = self.frm
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        u = cls(d["id"], d["side"], d["type"], d["loc"])
        for flag in ("red", "ent", "dig", "moved", "jumped", "sea", "river", "fought", "prom"):
            setattr(u, flag, bool(d.get(flag, False)))
        u.m = int(d.get("m", 0))
        u.frm = d.get("frm")
        return u


def make_counter_mix(options: Collection[str] = frozenset()) -> dict[str, Unit]:
    """Every piece of the Game Piece Inventory, all in stock, ids like U-VI-07; with
    A8.3 also the three Border Militia (C-BM-KY, C-BM-MD, C-BM-MO), held back."""
    return {uid: Unit(uid, side, code, loc) for uid, side, code, loc in _counter_mix("A8.3" in options)}


@functools.cache
def _counter_mix(border_militia: bool) -> tuple[tuple[str, str, str, str], ...]:
    """Each piece of make_counter_mix as (id, side, type, where it starts): worked out
    once, as every game (and every replay) makes its pieces."""
    mix = [(f"{side[0].upper()}-{code}-{n:02d}", side, code, STOCK)
           for side in SIDES for code, count in pieces()["inventory"][side].items()
           for n in range(1, count + 1)]
    if border_militia:
        mix += [(f"C-BM-{state}", "confederate", "MI", BORDER) for state in ("KY", "MD", "MO")]
    return tuple(mix)


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
