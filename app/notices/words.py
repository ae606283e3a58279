"""Game events in words, for notices and mails ("Union: Infantry moves to Richmond.")."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


@functools.lru_cache(maxsize=1)
def _names() -> tuple[dict, dict]:
    import rules_engine
    from rules_engine.data import pieces
    # every version's boxes, so the events of games on an older map keep their names
    boxes = {box.id: box.name for version in sorted(rules_engine.DATA_VERSIONS)
             for box in rules_engine.load_map(version).boxes.values()}
    types = {k: v["name"] for k, v in pieces()["types"].items()}
    return boxes, types


SIDE: dict[Any, str] = {"union": "Union", "confederate": "Confederate"}


def box_name(b: Any) -> str:
    return _names()[0].get(b, str(b))


def unit_name(u: Any) -> str:
    parts = str(u).split("-")
    side = {"U": "Union", "C": "Confederate"}.get(parts[0], "")
    t = _names()[1].get(parts[1]) if len(parts) >= 3 else None
    return f"{side} {t or u}".strip()


def describe(ev: dict) -> str | None:
    """One event (as EventRec.out() gives it) in words, or None for the minor ones."""
    d = ev.get("data") or {}
    t = ev.get("type")
    if ev.get("source") == "server":
        return _server_event(t, d)
    s = SIDE.get(d.get("side"), "")
    if t == "player_turn":
        return f"Turn {d.get('turn')} ({d.get('date')}): {s} player turn."
    if t == "action":
        return _action(s, d.get("action") or {})
    if t == "roll":
        return _roll(s, d)
    return _outcome(t, s, d)


def _server_event(t: Any, d: dict) -> str | None:
    if d.get("text"):
        return d["text"]
    words: dict[Any, Callable[[], str | None]] = {
        "join": lambda: f"{d.get('username')} takes the {SIDE.get(d.get('side'), '')} seat.",
        "start": lambda: f"The game begins: the {SIDE.get(d.get('to_act'), '')} player moves first.",
        "undo": lambda: f"The {SIDE.get(d.get('side'), '')} player took back a decision.",
        "resign": lambda: f"{d.get('username')} ({SIDE.get(d.get('side'), '')}) resigned.",
        "abort": lambda: f"{d.get('by')} aborted the game."}
    return words.get(t, lambda: None)()


def _action(s: str, a: dict) -> str | None:
    at = a.get("type")
    if at == "activate":
        return f"{s} activates {box_name(a.get('box'))}."
    if at == "move":
        return f"{s}: {unit_name(a.get('unit'))} moves to {' -> '.join(box_name(b) for b in a.get('path') or [])}."
    if at == "sea_move":
        return f"{s}: {unit_name(a.get('unit'))} moves by sea to {box_name(a.get('to'))}."
    if at == "invade":
        return f"{s}: {unit_name(a.get('unit'))} makes a naval invasion of {box_name(a.get('to'))}."
    if at == "reinforce":
        return f"{s}: {unit_name(a.get('unit'))} reinforces the battle."
    if at == "stand":
        return f"{s}: the cavalry stands and fights."
    return None


def _roll(s: str, d: dict) -> str:
    p = d.get("purpose")
    if p == "marches":
        v = d.get("value")
        return f"{s} rolls {v}: {2 if v == 1 else v} marches."
    if p == "recruits":
        v = d.get("value")
        return f"{s} rolls {v}: {2 if v == 1 else v} recruitment points."
    if p == "fire":
        hit = d.get("value", 7) <= d.get("need", 0)
        return (f"{unit_name(d.get('unit'))} fires at {unit_name(d.get('target'))}: {d.get('value')} "
                f"({'hit' if hit else 'miss'}, needs {d.get('need')} or less).")
    return f"{s} rolls {d.get('value')} ({p})."


def _outcome(t: Any, s: str, d: dict) -> str | None:
    simple: dict[Any, Callable[[], str]] = {
        "battle": lambda: f"Battle at {box_name(d.get('box'))}: the {SIDE.get(d.get('attacker'), '')} attacks.",
        "reduced": lambda: f"{unit_name(d.get('unit'))} is reduced.",
        "eliminated": lambda: f"{unit_name(d.get('unit'))} is eliminated.",
        "retreated": lambda: f"The {s} retreats from {box_name(d.get('box'))} to {box_name(d.get('to'))}.",
        "withdrew": lambda: (f"The defending cavalry withdraws from {box_name(d.get('box'))} "
                             f"to {box_name(d.get('to'))}."),
        "battle_won": lambda: f"The {SIDE.get(d.get('winner'), '')} wins the battle of {box_name(d.get('box'))}.",
        "promoted": lambda: f"{unit_name(d.get('unit'))} at {box_name(d.get('box'))} is promoted.",
        "recruited": lambda: f"{unit_name(d.get('unit'))} recruited at {box_name(d.get('box'))}.",
        "captured": lambda: f"The {s} captures {box_name(d.get('box'))}.",
        "control_reverts": lambda: f"{box_name(d.get('box'))} reverts to its original owner.",
        "kentucky_entered": lambda: "Kentucky's neutrality is violated.",
        "game_over": lambda: f"Game over: {SIDE.get(d.get('winner'), 'nobody')} wins. {d.get('reason') or ''}".strip(),
    }
    f = simple.get(t)
    return f() if f else None


def events_in_words(events: list[dict], limit: int = 40) -> list[str]:
    lines = [x for x in (describe(e) for e in events) if x]
    if len(lines) > limit:
        lines = [f"... ({len(lines) - limit} earlier entries in the game log)"] + lines[-limit:]
    return lines


