"""A stored game's history as a record anyone can check: the hash chain over its events
and the fold that turns the stored log (with take-backs) into the effective history.

Pure: hashlib and json only. Used by the server (app/integrity.py, app/replay.py) and by
``python -m rules_engine verify`` on an exported game (see docs/dice.md).

Stored events are dicts ``{"seq", "source", "type", "actor", "at", "data"}`` where
``source`` is "engine" (``data`` is the engine's event) or "server" (create, join, start,
undo, resign, abort and the administrators' rewind, adjudicate, annul).

Hash chain (tamper evidence):
    h0     = SHA-256("ahd-chain/1\\n" + canonical({"game_id": id, "header": header}))
    h(seq) = SHA-256(h(seq-1) + "\\n" + canonical(event))      (event without its hashes)
Each stored event carries ``prev_hash`` = h(seq-1); the game keeps the head h(last).
canonical() is JSON with sorted keys, no spaces, ASCII only; ``at`` is UTC with
microseconds ("2026-12-01T10:00:00.123456Z").
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any
from collections.abc import Iterable

CHAIN_TAG = "ahd-chain/1\n"
TAKE_BACK_TYPES = ("undo", "rewind")   # server events: "events from data.to_seq on no longer count"
EXPORT_FORMAT = "ahd-game-export/1"


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def utc_stamp(dt: datetime | str | None) -> str | None:
    """The chain's form of a time: UTC, microseconds, 'Z'."""
    if dt is None or isinstance(dt, str):
        return dt
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def header_hash(game_id: str, header: dict[str, Any]) -> str:
    return hashlib.sha256((CHAIN_TAG + canonical({"game_id": game_id, "header": header})).encode("ascii")).hexdigest()


def chained_content(event: dict[str, Any]) -> dict[str, Any]:
    return {"seq": event["seq"], "source": event["source"], "type": event["type"],
            "actor": event.get("actor"), "at": utc_stamp(event.get("at")), "data": event["data"]}


def event_hash(prev: str, event: dict[str, Any]) -> str:
    return hashlib.sha256((prev + "\n" + canonical(chained_content(event))).encode("ascii")).hexdigest()


def check_chain(game_id: str, header: dict[str, Any], events: list[dict[str, Any]],
                head: str | None = None) -> list[str]:
    """Problems with the chain, each naming the seq where it shows; [] if intact.
    Events may carry "prev_hash" (as stored) and "hash" (as exported)."""
    problems: list[str] = []
    h = header_hash(game_id, header)
    expect_seq = 1
    present = {ev.get("seq") for ev in events}
    for ev in events:
        seq = ev.get("seq")
        if seq != expect_seq:
            if expect_seq in present:
                problems.append(f"seq {seq}: comes where seq {expect_seq} should be (events reordered)")
            elif isinstance(seq, int) and seq > expect_seq:
                problems.append(f"seq {seq}: events {expect_seq}..{seq - 1} are missing (removed?)")
            else:
                problems.append(f"seq {seq}: out of order after seq {expect_seq - 1} (reordered or duplicated?)")
            return problems
        if ev.get("prev_hash") is not None and ev["prev_hash"] != h:
            where = "the header" if seq == 1 else f"seq {seq - 1}"
            problems.append(f"seq {seq}: its prev_hash does not match the hash of {where}: "
                            f"{where} was changed, or events were removed, inserted or reordered")
            return problems
        h = event_hash(h, ev)
        if ev.get("hash") is not None and ev["hash"] != h:
            problems.append(f"seq {seq}: the event was edited (its content no longer gives its hash)")
            return problems
        expect_seq += 1
    if head is not None and head != h:
        last = expect_seq - 1
        problems.append(f"seq {last}: the chain head does not match (the last event was edited, "
                        "or events were removed from the end)")
    return problems


def chain_hashes(game_id: str, header: dict[str, Any], events: Iterable[dict[str, Any]]) -> list[str]:
    """h(seq) for every event, in order."""
    h = header_hash(game_id, header)
    out = []
    for ev in events:
        h = event_hash(h, ev)
        out.append(h)
    return out


# --------------------------------------------------------------------------- the fold

@dataclass
class Folded:
    """The stored log read as the server reads it."""
    effective: list[dict[str, Any]] = field(default_factory=list)   # engine events that count, in order
    effective_seqs: list[int] = field(default_factory=list)
    status: dict[int, str] = field(default_factory=dict)             # seq -> effective | undone | superseded
    roll_index: dict[int, int] = field(default_factory=dict)         # seq of a roll -> its die index
    taken_back: list[tuple[int, int, str]] = field(default_factory=list)  # (from_seq, through_seq, by type)


def fold(events: list[dict[str, Any]], upto: int | None = None) -> Folded:
    """Effective engine events of a stored log (up to seq `upto`): the spans taken back by
    undo and rewind events are skipped. Every roll gets the die index it was drawn with
    (the number of effective rolls before it when it was made)."""
    f = Folded()
    eff: list[tuple[int, dict]] = []
    rolls = 0
    for ev in events:
        seq = ev["seq"]
        if upto is not None and seq > upto:
            break
        if ev["source"] == "engine":
            if ev["type"] == "roll":
                f.roll_index[seq] = rolls
                rolls += 1
            eff.append((seq, ev["data"]))
            f.status[seq] = "effective"
        else:
            f.status[seq] = "effective"
            if ev["type"] in TAKE_BACK_TYPES:
                k = ev["data"]["to_seq"]
                while eff and eff[-1][0] >= k:
                    s, data = eff.pop()
                    f.status[s] = "undone" if ev["type"] == "undo" else "superseded"
                    if data.get("type") == "roll":
                        rolls -= 1
                # server events inside the span (e.g. an earlier adjudication) are history too
                for s in range(k, seq):
                    if f.status.get(s) == "effective":
                        f.status[s] = "undone" if ev["type"] == "undo" else "superseded"
                f.taken_back.append((k, ev["data"].get("through_seq", seq - 1), ev["type"]))
    f.effective = [d for _, d in eff]
    f.effective_seqs = [s for s, _ in eff]
    return f


def rest_points(events: list[dict[str, Any]]) -> set[int]:
    """Seqs after which the game rested (the end of a command): the next event is an
    action or a server event, or there is none."""
    out = set()
    for i, ev in enumerate(events):
        nxt = events[i + 1] if i + 1 < len(events) else None
        if nxt is None or nxt["source"] == "server" or nxt["data"].get("type") == "action":
            out.add(ev["seq"])
    return out


def is_export(record: dict[str, Any]) -> bool:
    evs = record.get("events") or []
    return record.get("format") == EXPORT_FORMAT or bool(evs and "seq" in evs[0] and "data" in evs[0])


# --------------------------------------------------------------------------- step by step

class _Feed:
    """Die values pushed in as the recorded roll events come."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self.i = 0

    def roll(self) -> int:
        if self.i >= len(self.values):
            raise ValueError("an action needs a die roll the record does not have")
        v = self.values[self.i]
        self.i += 1
        return v


class Stepper:
    """Folds a stored log one event at a time through the applying path (no legality
    checks, no search: the changes each action event carries, or for games of engine
    versions before 3 the action executed again with its recorded dice) and says after
    which events the game rested, with its state.

        st = Stepper(header)
        for ev in stored_events: changed = st.push(ev)   # True: st.game is a new rest state
    """

    def __init__(self, header: dict[str, Any]):
        self.header = header
        self.events: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []
        self._reset([])

    def _reset(self, effective: list[dict[str, Any]]) -> None:
        from .game import replay
        g = replay(self.header, effective)
        self.feed = _Feed()
        g._dice = self.feed
        g._recording = False
        self.game = g

    def _flush(self) -> bool:
        if not self._pending:
            return False
        group, self._pending = self._pending, []
        if self.game.records_changes:
            for e in group:
                if e.get("type") == "action":
                    self.game.fold_action(e)
            return True
        self.feed.values.extend(e["value"] for e in group if e.get("type") == "roll")
        for e in group:
            if e.get("type") == "action":
                self.game._execute(e["action"])
        self.game._legal = None
        return True

    def push(self, ev: dict[str, Any]) -> bool:
        """Take the next stored event; True if the state changed with it (it may change
        again if the next event belongs to the same action)."""
        self.events.append(ev)
        if ev["source"] == "engine":
            if ev["data"].get("type") == "action":
                self._flush()
            self._pending.append(ev["data"])
            return True
        changed = self._flush()
        if ev["type"] in TAKE_BACK_TYPES:
            self._reset(fold(self.events).effective)
            return True
        return changed

    def settle(self) -> None:
        """Apply the action in progress (call before reading the state)."""
        self._flush()
