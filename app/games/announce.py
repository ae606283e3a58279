"""The announcement of a move to the other processes (Postgres), and the move in it.

After each append the writing process announces it on the 'hd_events' channel
(app.realtime.pg_fanout). The announcement carries what the other processes need to
deliver the move to their sockets without reading the table: the games row's new
values, the new events and, for a player's decision, the side that took it. A process
whose cached game stands just before the move brings it forward by these events (no
read, no replay: app.games.remote).

The payload is the head "game:seq:proc:seated" (all an older version sends), then,
after a newline, the move as JSON. A process reads the head alone to skip its own
announcements and those of games it has no sockets for. A notification holds less
than 8000 bytes: an append too big for that is announced by the head alone, and the
others read it from the table.
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
    """One announced append: its head, and the move (body: JSON) if it came along."""
    game_id: str
    seq: int
    proc: str
    seated: list[int]
    body: str = ""

    def move(self) -> Move | None:
        """The move the announcement carries; None if only its seq came."""
        if not self.body:
            return None
        d = json.loads(self.body)
        row = {c: (_when(d["row"][c]) if c in _TIMES else d["row"][c]) for c in MUTABLE}
        events = [EventRec(seq, source, typ, actor, data, datetime.fromisoformat(at), prev)
                  for seq, source, typ, actor, data, at, prev in d["ev"]]
        return Move(events[0].seq if events else self.seq + 1, row, events, d["side"])


@dataclass
class Move:
    """An announced move: its first seq, the games row's new values, the events, and
    the side whose decision they are (None unless a player's action)."""
    first: int
    row: dict
    events: list[EventRec]
    action_side: str | None


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _stamp(dt: datetime | None) -> str | None:
    return None if dt is None else dt.isoformat()


def announcement(game_id: str, proc: str, mutable: dict, out: list[EventRec], command: dict | None) -> str:
    """The payload that announces an append: the head and the move when it fits, else the head."""
    seated = ",".join(str(mutable[k]) for k in ("union_user_id", "confederate_user_id") if mutable[k])
    head = f"{game_id}:{mutable['seq']}:{proc}:{seated}"
    row = {c: (_stamp(mutable[c]) if c in _TIMES else mutable[c]) for c in MUTABLE}
    events = [[r.seq, r.source, r.type, r.actor, r.payload, _stamp(r.created_at), r.prev_hash] for r in out]
    side = command.get("side") if command is not None and command.get("kind") == "action" else None
    text = head + "\n" + json.dumps({"row": row, "ev": events, "side": side}, separators=(",", ":"),
                                    ensure_ascii=False)
    return text if len(text.encode("utf-8")) <= NOTIFY_LIMIT else head


def head_only(payload: str) -> str:
    """The announcement without its move: what an older version sends, and what goes to
    processes that do not need the move (they read it from the table if they do)."""
    return payload.partition("\n")[0]


def announced_by(payload: str) -> str:
    """The process that made the announced move, read off the head (no JSON decoded)."""
    fields = head_only(payload).split(":", 3)
    return fields[2] if len(fields) > 2 else ""


def parse_note(payload: str) -> Note:
    """An announcement (its move is decoded only when asked for: Note.move)."""
    head, _, body = payload.partition("\n")
    gid, seq, proc, *seated = head.split(":")  # an older version sends no seated ids
    return Note(gid, int(seq), proc, [int(u) for u in (seated[0].split(",") if seated else ()) if u], body)
