"""The applying path: a game rebuilt from its header and its recorded events.

Games of engine version 3 on are folded: each action event's record of changes is
copied into the state (changes.py), with no rule asked, no die drawn and no path
searched. Games of older versions carry no such record: their recorded actions are
executed again with their recorded dice and no legality checks.
"""
from __future__ import annotations

from typing import Any

from .dice import NoDice, SeededDice
from .errors import IllegalAction
from .game import Game, silently
from .setup import place_position, place_scenario


class RecordedDice:
    """Feeds a replay the die values recorded in its events, in order."""

    def __init__(self, values: list[int]):
        self._values = values
        self._next = 0

    def roll(self) -> int:
        if self._next >= len(self._values):
            raise ValueError("the event log has fewer die rolls than its actions need")
        value = self._values[self._next]
        self._next += 1
        return value


def replay(header: dict[str, Any], events: list[dict[str, Any]], seed: str | None = None) -> Game:
    """Rebuild a game from its header and events (no legality checks, recorded dice)."""
    g = Game(header, NoDice())
    if "position" in header:
        silently(g, lambda: place_position(g, header["position"]))
    else:
        silently(g, lambda: place_scenario(g))
    g._recording = False
    if g.records_changes:
        _fold_events(g, events)
        floor = _recorded_floor(events, g.to_act)
    else:
        g._dice = RecordedDice([e["value"] for e in events if e["type"] == "roll"])
        floor = _execute_events(g, events)
    # the floor is where the last action that rolled or changed the actor ended
    g._undo_floor = _undo_floor_of(events, floor)
    g._recording = True
    g._legal = None
    g.events = list(events)
    g._dice = SeededDice(seed, g.rolls) if seed is not None else NoDice()
    return g


def fold_onto(g: Game, events: list[dict[str, Any]]) -> None:
    """Bring a game forward by events recorded after its own: how a server process whose
    cached game is behind another process's moves catches up, with only the events it
    has not seen, never a replay from the start. Games whose action events carry their
    changes fold them (no rule asked, no die drawn); older versions decide the recorded
    actions again with the game's own dice, and a ValueError says when that does not
    give exactly the recorded events. The game's dice move on past the rolls drawn."""
    if not g.records_changes:
        _decide_again(g, events)
        return
    g._recording = False
    _fold_events(g, events)
    g._recording = True
    g.events.extend(events)
    g._undo_floor = _undo_floor_of(g.events, _recorded_floor(g.events, g.to_act))
    if isinstance(g._dice, SeededDice):
        g._dice.index = g.rolls


def _decide_again(g: Game, events: list[dict[str, Any]]) -> None:
    start = len(g.events)
    try:
        for i, event in enumerate(events):
            # an action event its predecessors' actions have not already produced
            if event["type"] == "action" and len(g.events) <= start + i:
                g.apply(event["action"])
    except IllegalAction as refused:
        raise ValueError(f"these events do not follow from the game: {refused}") from refused
    if g.events[start:] != events:
        raise ValueError("these events do not follow from the game: its actions gave other events")


def _fold_events(g: Game, events: list[dict[str, Any]]) -> None:
    """Fold the events' records of changes into the state (applying path); what the
    game remembered of its earlier positions no longer holds."""
    g.fold_actions(events)
    g._forget_memories()


def _recorded_floor(events: list[dict[str, Any]], to_act_now: str | None) -> int:
    """The undo floor read off the events, from the end: just after the last roll, or
    after the last action after which another side was to act. An action event names
    the side that acted, so the side to act after one action is the side of the next."""
    next_actor = to_act_now
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        kind = event["type"]
        if kind == "roll":
            return i + 1
        if kind == "action":
            if event["side"] != next_actor:
                return i + 1
            next_actor = event["side"]
    return 0


def _execute_events(g: Game, events: list[dict[str, Any]]) -> int:
    """Execute the recorded actions again with their recorded dice (games of versions
    whose events carry no changes); the undo floor before extending it."""
    floor = 0
    for i, event in enumerate(events):
        if event["type"] == "action":
            before = g.to_act
            g._execute(event["action"])
            if g.to_act != before:
                floor = i + 1
        elif event["type"] == "roll":
            floor = i + 1
    return floor


def _undo_floor_of(events: list[dict[str, Any]], floor: int) -> int:
    """Extend a floor that falls inside an action's events to that action's end."""
    n = len(events)
    while floor < n and events[floor]["type"] != "action":
        floor += 1
    return floor
