"""What the game service keeps and hands out: the replayed state of a game (Entry),
the decisions a player may still take back (Cmd), one committed change as the
websocket sends it (Change: serialised and framed once, written to every socket), and
what changed between two states (state_delta: the replay's frames and the sockets of
protocol v2 send only that)."""
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



def state_delta(prev: dict, cur: dict) -> dict:
    """What changed from state `prev` to state `cur`: the top-level keys whose value
    changed, under "units" the units (by id) that are new or changed, under "units_gone"
    the ids of units no longer listed. Applying it to prev (apply_delta) gives cur."""
    d: dict[str, Any] = {}
    for k, v in cur.items():
        if k == "units":
            continue
        if prev.get(k) != v:
            d[k] = v
    pu = {u["id"]: u for u in prev.get("units", ())}
    changed = [u for u in cur.get("units", ()) if pu.get(u["id"]) != u]
    if changed:
        d["units"] = changed
    ids = {u["id"] for u in cur.get("units", ())}
    gone = [uid for uid in pu if uid not in ids]
    if gone:
        d["units_gone"] = gone
    return d


def apply_delta(prev: dict, delta: dict) -> dict:
    """prev with a state_delta applied (what static/game-state.js does in the browser)."""
    cur = {**prev, **{k: v for k, v in delta.items() if k not in ("units", "units_gone")}}
    units = {u["id"]: u for u in prev.get("units", ())}
    for uid in delta.get("units_gone", ()):
        units.pop(uid, None)
    for u in delta.get("units", ()):
        units[u["id"]] = u
    cur["units"] = list(units.values())  # the old units in their order, then the new ones
    return cur


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
    # protocol v2: what changed in the state since seq first_seq - 1 (JSON), set by the
    # channel that knew that state; None: v2 sockets get the whole state instead
    delta_json: str | None = None
    # the state of state_json as the engine gave it (fresh lists and dicts, never changed
    # afterwards): the channel diffs it against the next change's without parsing the JSON
    state: dict | None = None
    # the state delta_json was worked out from, when a channel did it ahead (Channel.prepare)
    delta_of: dict | None = None
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

    def changes_frame(self) -> bytes:
        """Protocol v2: the "changes" frame (the events, the situation after them and the
        state's delta from seq `base`), serialised and framed once for every v2 socket."""
        f = self._texts.get("changes-frame")
        if f is None:
            assert self.delta_json is not None  # only a change whose delta is known
            head = json.dumps({"type": "changes", "game_id": self.game_id, "base": self.first_seq - 1,
                               "seq": self.last_seq, "status": self.status, "to_act": self.to_act,
                               "result": self.result, "events": self.events}, separators=(",", ":"))
            text = self._texts["changes"] = head[:-1] + ',"delta":' + self.delta_json + "}"
            f = self._texts["changes-frame"] = ws_frame(text)
        return f

    def changes_text(self) -> str:
        self.changes_frame()
        return self._texts["changes"]

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
                      self.status, self.to_act, self.result, self.seats, self.state_json, self.legal,
                      state=self.state)

