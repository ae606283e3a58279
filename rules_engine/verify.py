"""Check a finished (or running) game from its record alone.

    python -m rules_engine verify game.json

The record is JSON: {"header": {...}, "events": [...engine events...], "seed": "..."
(once revealed), "state_sha256": "..." (optional)}. The check
  1. matches the seed against the header's published commitment (SHA-256);
  2. recomputes every die from the seed and its index (see dice.py) and compares;
  3. plays the whole game again through the DECIDING path: every recorded action must
     be legal where it stands, and must produce exactly the recorded events;
  4. compares the final state's SHA-256 with the one recorded, if any.
"""
from __future__ import annotations

import hashlib
from typing import Any

from .dice import ScriptedDice, commitment, seeded_roll
from .errors import IllegalAction


def state_sha256(game) -> str:
    return hashlib.sha256(game.state_json().encode("ascii")).hexdigest()


def verify_record(record: dict[str, Any]) -> list[str]:
    """Every problem found, in words; an empty list means the record is sound."""
    from .game import Game, _silently
    from .setup import place_position, place_scenario

    header, events, seed = record["header"], record["events"], record.get("seed")
    problems: list[str] = []
    rolls = [e for e in events if e.get("type") == "roll"]
    if seed is not None:
        published = header.get("seed_commitment")
        if published and commitment(seed) != published:
            problems.append("the revealed seed does not match the commitment published at the start")
        for i, event in enumerate(rolls):
            expected = seeded_roll(seed, i)
            if event["value"] != expected:
                problems.append(f"die {i + 1} ({event.get('purpose')}) shows {event['value']}, "
                                f"but the seed gives {expected}")
    game = Game(header, ScriptedDice([e["value"] for e in rolls]))
    _silently(game, lambda: place_position(game, header["position"]) if "position" in header
              else place_scenario(game))
    i = 0
    while i < len(events):
        event = events[i]
        if event.get("type") != "action":
            problems.append(f"event {i + 1} ({event.get('type')}) is not the result of any action")
            break
        if event.get("side") != game.to_act:
            problems.append(f"event {i + 1}: {event.get('side')} acted when it was {game.to_act}'s turn")
            break
        try:
            produced = game.apply(event["action"])
        except IllegalAction as exc:
            problems.append(f"event {i + 1}: illegal action {event['action']}: {exc.reason}")
            break
        recorded = events[i:i + len(produced)]
        if recorded != produced:
            problems.append(f"event {i + 1}: the record differs from what the action produces")
            break
        i += len(produced)
    want = record.get("state_sha256")
    if not problems and want and state_sha256(game) != want:
        problems.append("the final state differs from the recorded one")
    return problems
