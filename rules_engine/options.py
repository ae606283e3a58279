"""Which optional and Advanced rules a game uses: chosen at creation, fixed for the game."""
from __future__ import annotations

from typing import Any

from .data import options_table

# Options the engine plays today. Choosing any other known option is refused
# (never silently ignored) until its rules are in.
IMPLEMENTED = frozenset({"4.11", "4.12", "4.71", "4.8", "4.9", "7.3", "7.4", "7.5", "9.1", "10.1"})


def validate_options(options: Any, scenario: str) -> list[str]:
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise ValueError("options must be a list of option ids, e.g. [\"4.8\", \"7.5\"]")
    table = options_table()
    chosen = []
    for oid in options:
        oid = str(oid)
        if oid not in table:
            raise ValueError(f"unknown option {oid!r}; known: {', '.join(sorted(table))}")
        if oid not in IMPLEMENTED:
            raise ValueError(f"option {oid} ({table[oid]['title']}) is not available yet")
        chosen.append(oid)
    if len(set(chosen)) != len(chosen):
        raise ValueError("an option is listed twice")
    return sorted(chosen)
