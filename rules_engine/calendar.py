"""The Game Turn track (3.0, 9.0): one month a turn, two in winter.

Turn 1 is 07 (July) 1861 and turn 40 is 06 (June) 1865; 9.1 extends to turn 45."""
from __future__ import annotations

import functools

_FULL_YEAR = ("01/02", "03", "04", "05", "06", "07", "08", "09", "10", "11/12")


@functools.cache
def track() -> tuple[tuple[int, str], ...]:
    """(year, months) for every turn, index 0 = turn 1, through 11/12 1865."""
    turns = [(1861, m) for m in _FULL_YEAR[5:]]
    for year in (1862, 1863, 1864, 1865):
        turns += [(year, m) for m in _FULL_YEAR]
    return tuple(turns)


def year(turn: int) -> int:
    return track()[turn - 1][0]


def months(turn: int) -> str:
    return track()[turn - 1][1]


def label(turn: int) -> str:
    y, m = track()[turn - 1]
    return f"{m} {y}"


@functools.cache
def turn_of(year_: int, month: int) -> int:
    """The turn containing the given month (1-12); asked every Player Turn, so kept."""
    for i, (y, m) in enumerate(track()):
        if y == year_ and month in {int(p) for p in m.split("/")}:
            return i + 1
    raise ValueError(f"no game turn for {month:02d}/{year_}")
