"""Check a finished (or running) game from its record alone.

    python -m rules_engine verify game.json

The record is JSON: {"header": {...}, "events": [...engine events...], "seed": "..."
(once revealed), "state_sha256": "..." (optional)}. The check
  1. matches the seed against the header's published commitment (SHA-256);
  2. recomputes every die from the seed and its index (see dice.py) and compares;
  3. plays the whole game again through the DECIDING path: every recorded action must
     be legal where it stands, and must produce exactly the recorded events;
  4. compares the final state's SHA-256 with the one recorded, if any.

A server export (``GET /api/games/{id}/export``, format "ahd-game-export/1": every stored
event with its seq, source and hash) is checked the same way after two more steps:
  0. the hash chain from the game's header through every event to the published head
     (an edited, removed, inserted or reordered event is reported with its seq);
  1b. the log is folded as the server folds it (spans taken back by undo and by an
     administrator's rewind are skipped, but their dice are checked against the seed too).
Problems name the seq they are at.
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from .dice import ScriptedDice, commitment, seeded_roll
from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game


def state_sha256(game: Game) -> str:
    return hashlib.sha256(game.state_json().encode("ascii")).hexdigest()


def verify_record(record: dict[str, Any]) -> list[str]:
    """Every problem found, in words; an empty list means the record is sound."""
    from .record import is_export
    if is_export(record):
        return verify_export(record)
    return _verify_engine_events(record["header"], record["events"], record.get("seed"),
                                 record.get("state_sha256"))


def verify_export(record: dict[str, Any]) -> list[str]:
    """A server export: chain, every die (effective or not) against the seed, then the
    effective history re-decided action by action."""
    from .record import check_chain, fold
    header, stored, seed = record["header"], record["events"], record.get("seed")
    problems = check_chain(record.get("game_id", ""), header, stored, record.get("chain_head"))
    if [e.get("seq") for e in stored] != list(range(1, len(stored) + 1)):
        return problems  # events missing or out of order: the fold would be meaningless
    # (a content edit breaks the chain too; the checks below say what the edit changed)
    f = fold(stored)
    if seed is not None:
        published = header.get("seed_commitment")
        if published and commitment(seed) != published:
            problems.append("the revealed seed does not match the commitment published at the start")
        else:
            for ev in stored:
                if ev["source"] == "engine" and ev["type"] == "roll":
                    i = f.roll_index[ev["seq"]]
                    expected = seeded_roll(seed, i)
                    if ev["data"].get("value") != expected:
                        problems.append(f"seq {ev['seq']}: die {i + 1} ({ev['data'].get('purpose')}) shows "
                                        f"{ev['data'].get('value')}, but the seed gives {expected}")
    problems += _verify_engine_events(header, f.effective, None, record.get("state_sha256"),
                                      labels=[f"seq {s}" for s in f.effective_seqs])
    return problems


def _verify_engine_events(header: dict[str, Any], events: list[dict[str, Any]], seed: str | None,
                          want: str | None, labels: list[str] | None = None) -> list[str]:
    from .game import Game, silently
    from .setup import place_position, place_scenario

    def at(i: int) -> str:
        return labels[i] if labels is not None and i < len(labels) else f"event {i + 1}"

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
    silently(game, lambda: place_position(game, header["position"]) if "position" in header
              else place_scenario(game))
    i = 0
    while i < len(events):
        event = events[i]
        if event.get("type") != "action":
            problems.append(f"{at(i)} ({event.get('type')}) is not the result of any action")
            break
        if event.get("side") != game.to_act:
            problems.append(f"{at(i)}: {event.get('side')} acted when it was {game.to_act}'s turn")
            break
        try:
            produced = game.apply(event["action"])
        except IllegalAction as exc:
            problems.append(f"{at(i)}: illegal action {event['action']}: {exc.reason}")
            break
        except (RuntimeError, ValueError) as exc:   # e.g. the record has fewer dice than the actions need
            problems.append(f"{at(i)}: {event['action']} cannot be replayed: {exc}")
            break
        recorded = events[i:i + len(produced)]
        if recorded != produced:
            j = next((k for k, (a, b) in enumerate(zip(recorded, produced, strict=False)) if a != b),
                     min(len(recorded), len(produced)))
            problems.append(f"{at(i + j)}: the record differs from what the action at {at(i)} produces")
            break
        i += len(produced)
    if not problems and want and state_sha256(game) != want:
        problems.append("the final state differs from the recorded one")
    return problems
