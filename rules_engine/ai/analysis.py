"""After the game: the expert's judgement of a finished (or running) game, turn by
turn, as the Union's chance to win, for the evaluation graph beside the move list.

A point is taken at the start (the game's first Player Turn has no event of its
own), at the start of every later Player Turn (its ``player_turn`` event) and at
the end; ``at`` is the number of events up to that point, so a client shows the
position by replaying that many events."""
from __future__ import annotations

from typing import Any

from .judge import union_win_chance
from .shadow import Shadow


def evaluation_curve(header: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``[{"at", "turn", "side", "union": chance 0..1}, ...]`` in event order."""
    turns = [i for i, e in enumerate(events) if e.get("type") == "player_turn"]
    marks = sorted({0, *turns, len(events)})
    shadow = Shadow(header, [])
    points = []
    for at in marks:
        game = shadow.sync(events[:at])
        points.append({"at": at, "turn": game.turn, "side": game.side,
                       "union": round(union_win_chance(game), 4)})
    return points
