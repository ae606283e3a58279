"""What the game service keeps and hands out: the replayed state of a game (Entry),
the decisions a player may still take back (Cmd), and one committed change as the
websocket sends it (Change: serialised and framed once, written to every socket)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

SIDES = ("union", "confederate")


def ws_frame(text: str) -> bytes:
    """An unmasked, uncompressed websocket text frame (RFC 6455 5.2), as a server sends it."""
    data = text.encode("utf-8")
    n = len(data)
    if n < 126:
        return b"\x81" + bytes((n,)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data



def other_side(side: str) -> str:
    return "confederate" if side == "union" else "union"


def side_name(side: str | None) -> str:
    return {"union": "Union", "confederate": "Confederate"}.get(side or "", "nobody")



@dataclass(slots=True)
class Cmd:
    """An effective (not taken back) player decision: where its events start."""
    first_seq: int
    side: str
    ev_index: int  # index of its first event in game.events


@dataclass
class Entry:
    """A game's replayed state, cached per process, valid for exactly `seq`."""
    game: Any
    seq: int
    stack: list[Cmd]
    header: dict
    seed: str
    row: Any = None  # the games row as of `seq` (lets a command skip reading it)


@dataclass
class Change:
    """What one committed command (or a catch-up read) adds to a game: the new events
    and the game's situation after them. Serialised once per change, not per socket."""
    game_id: str
    first_seq: int
    last_seq: int
    events: list[dict]
    status: str
    to_act: str | None
    result: dict | None
    seats: dict[str, int | None]
    state_json: str | None = None
    legal: dict[str, list] | None = None
    _texts: dict = field(default_factory=dict)

    def text(self, with_state: bool) -> str:
        key = bool(with_state and self.state_json is not None)
        t = self._texts.get(key)
        if t is None:
            head = json.dumps({"type": "events", "game_id": self.game_id, "seq": self.last_seq,
                               "status": self.status, "to_act": self.to_act, "result": self.result,
                               "events": self.events}, separators=(",", ":"))
            t = head[:-1] + ',"state":' + self.state_json + "}" if key and self.state_json else head
            self._texts[key] = t
        return t

    def frame(self, with_state: bool) -> bytes:
        """The websocket frame for text(with_state): built once, written to every socket."""
        key = ("frame", bool(with_state and self.state_json is not None))
        f = self._texts.get(key)
        if f is None:
            f = self._texts[key] = ws_frame(self.text(with_state))
        return f

    def legal_text(self, side: str) -> str | None:
        if self.legal is None:
            return None
        key = ("legal", side)
        t = self._texts.get(key)
        if t is None:
            t = json.dumps({"type": "legal", "game_id": self.game_id, "seq": self.last_seq, "side": side,
                            "to_act": self.to_act, "actions": self.legal.get(side, [])},
                           separators=(",", ":"))
            self._texts[key] = t
        return t

    def legal_frame(self, side: str) -> bytes | None:
        t = self.legal_text(side)
        if t is None:
            return None
        key = ("legal-frame", side)
        f = self._texts.get(key)
        if f is None:
            f = self._texts[key] = ws_frame(t)
        return f

    def after(self, seq: int) -> Change:
        """The same change without the events a subscriber already has."""
        return Change(self.game_id, seq + 1, self.last_seq, [e for e in self.events if e["seq"] > seq],
                      self.status, self.to_act, self.result, self.seats, self.state_json, self.legal)

