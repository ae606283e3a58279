"""Sets of boxes the rules ask for again and again, kept in the forms that make them
cheap to ask: a box's bit in masks of boxes (a set of boxes as one int, cheap to
intersect and to hash, and nothing for the garbage collector to track), the boxes each
side holds in sorted order, the boxes each side controls as a mask. ``_relocate``
(core.py) keeps ``_held_bits`` and drops ``_held_lists`` when a box is taken or left;
``_control_changed`` drops what follows from control."""
from __future__ import annotations

import functools

from .core import GameCore
from .map import load_map


@functools.cache
def box_bits(version: int) -> dict[str, int]:
    """box -> its bit in a mask of boxes of the version's map (a set of boxes as one
    int: cheap to intersect, to hash and for the garbage collector to pass over)."""
    return {box: 1 << i for i, box in enumerate(load_map(version).boxes)}


class BoxSets(GameCore):
    def _held_sorted(self, side: str) -> list[str]:
        """The boxes holding a unit of the side, sorted (the order the rules list
        boxes in), kept until a box is taken or left: read, never changed."""
        found = self._held_lists.get(side)
        if found is None:
            found = self._held_lists[side] = sorted(self._held[side])
        return found

    def _controlled_bits(self, side: str) -> int:
        """_controlled(side) as a mask of _box_bit."""
        found = self._by_control.get(("bits", side))
        if found is None:
            # as _controlled: the boxes of its colour without a marker, and its markers
            bit, found = self._box_bit, self._colour_bits[side]
            for box, holder in self.control.items():
                if holder:
                    found = found | bit[box] if holder == side else found & ~bit[box]
            self._by_control["bits", side] = found
        return found
