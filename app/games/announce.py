"""The announcement of a move to the other processes (Postgres), and the move in it.

After each append the writing process announces it on the 'hd_events' channel
(app.realtime.pg_fanout). The announcement carries what the other processes need to
deliver the move to their sockets without reading the table: the games row's new
values, the new events and, for a player's decision, the side that took it. A process
whose cached game stands just before the move brings it forward by these events (no
read, no replay: app.games.remote).

A notification holds less than 8000 bytes: an append too big for that is announced by
its seq alone ("game:seq:proc:seated", the form older versions send), and the others
read it from the table.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from ..store.events import MUTABLE, EventRec

# Postgres refuses a notification payload of 8000 bytes or more
NOTIFY_LIMIT = 7999
_TIMES = ("updated_at", "started_at", "finished_at")


@dataclass
class Note:
    """One announced append. row, events and first are None in the short form (the
    events are then read from the table)."""
    game_id: str
    seq: int
    proc: str
    seated: list[int]
    first: int | None = None
    row: dict | None = None
    events: list[EventRec] | None = None
    action_side: str | None = None  # the side whose decision the events are (a player's action)


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _stamp(dt: datetime | None) -> str | None:
    return None if dt is None else dt.isoformat()


def announcement(game_id: str, proc: str, mutable: dict, out: list[EventRec], command: dict | None) -> str:
    """The payload that announces an append: the whole move when it fits, else the short form."""
    seated = ",".join(str(mutable[k]) for k in ("union_user_id", "confederate_user_id") if mutable[k])
    short = f"{game_id}:{mutable['seq']}:{proc}:{seated}"
    row = {c: (_stamp(mutable[c]) if c in _TIMES else mutable[c]) for c in MUTABLE}
    events = [[r.seq, r.source, r.type, r.actor, r.payload, _stamp(r.created_at), r.prev_hash] for r in out]
    side = command.get("side") if command is not None and command.get("kind") == "action" else None
    text = json.dumps({"g": game_id, "p": proc, "u": seated, "row": row, "ev": events, "side": side},
                      separators=(",", ":"), ensure_ascii=False)
    return text if len(text.encode("utf-8")) <= NOTIFY_LIMIT else short


def parse_note(payload: str) -> Note:
    """An announcement, in either form."""
    if not payload.startswith("{"):
        gid, seq, proc, *seated = payload.split(":")  # an older version sends no seated ids
        return Note(gid, int(seq), proc, [int(u) for u in (seated[0].split(",") if seated else ()) if u])
    d = json.loads(payload)
    row = {c: (_when(d["row"][c]) if c in _TIMES else d["row"][c]) for c in MUTABLE}
    events = [EventRec(seq, source, typ, actor, data, datetime.fromisoformat(at), prev)
              for seq, source, typ, actor, data, at, prev in d["ev"]]
    last = int(d["row"]["seq"])
    return Note(d["g"], last, d["p"], [int(u) for u in d["u"].split(",") if u],
                events[0].seq if events else last + 1, row, events, d["side"])
