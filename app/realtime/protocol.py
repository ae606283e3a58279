"""The websockets' messages (the game socket's, and "waiting" on the user socket /ws/me)
as pydantic models: one discriminated union (on "type") for each direction. docs/api.md
publishes their JSON Schema (`python -m app.realtime.protocol` prints it; a test checks
the two agree).

Server messages on the hot path (the snapshot on connect, the events and legal actions
after every change) are built as plain JSON (Change serialises each change once for all
sockets); tests check that they validate against ServerMessage. Every other server
message is built from these models.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError


class ProtocolError(Exception):
    """A client message refused before it reaches the game service (answered as "error")."""

    def __init__(self, status: int, detail: str, code: str):
        super().__init__(detail)
        self.status, self.detail, self.code = status, detail, code


# --------------------------------------------------------------------------- client -> server

class _ClientMessage(BaseModel):
    # other keys are ignored, so that older and newer clients keep working
    model_config = ConfigDict(extra="ignore")
    ref: Any = Field(None, description="any value: echoed in the answer")


class ActionMsg(_ClientMessage):
    type: Literal["action"]
    action: Any = Field(..., description="one of the legal actions (GET /api/games/{id}/legal)")
    expected_seq: StrictInt | None = Field(None, description="the seq the client last saw: 409 stale otherwise")
    action_id: StrictStr | None = Field(None, description="client-chosen id: a retry returns the first result")


class UndoMsg(_ClientMessage):
    type: Literal["undo"]
    expected_seq: StrictInt | None = None
    action_id: StrictStr | None = None


class ResignMsg(_ClientMessage):
    type: Literal["resign"]
    expected_seq: StrictInt | None = None
    action_id: StrictStr | None = None


class SyncMsg(_ClientMessage):
    type: Literal["sync"]
    after: StrictInt = Field(..., ge=0, description="send every event after this seq")


class LegalMsg(_ClientMessage):
    type: Literal["legal"]


class PingMsg(_ClientMessage):
    type: Literal["ping"]


ClientMessage = Annotated[ActionMsg | UndoMsg | ResignMsg | SyncMsg | LegalMsg | PingMsg,
                          Field(discriminator="type")]
CLIENT_MESSAGES = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("action", "undo", "resign", "sync", "legal", "ping")
ACTING_TYPES = ("action", "undo", "resign")

# what a refused field says (the wording clients have always seen)
_FIELD_ERRORS = {
    ("sync", "after"): "sync needs after: a seq number",
    ("action", "action"): 'an action message needs "action"',
    "expected_seq": "expected_seq must be an integer",
    "action_id": "action_id must be a string",
}


MAX_NESTING = 32  # no message of the protocol comes near; deeper ones only cost recursion


def nesting_depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def text_of(received: Mapping[str, Any]) -> str:
    """The text of a received websocket message (a binary one read as UTF-8)."""
    raw = received.get("text")
    if raw is None and received.get("bytes") is not None:
        raw = received["bytes"].decode("utf-8", "replace")
    return raw or ""


def envelope(raw: str) -> tuple[str, dict, dict]:
    """(type, the keys to echo in the answer, the message) of a raw client message."""
    too_deep = False
    try:
        msg = json.loads(raw)
    except ValueError as exc:
        raise ProtocolError(400, f"malformed JSON: {exc}", "malformed_json") from None
    except RecursionError:  # deeper than the parser's stack
        too_deep = True
    if too_deep or nesting_depth(msg) > MAX_NESTING:
        raise ProtocolError(400, f"the message is nested more than {MAX_NESTING} levels deep", "too_deep")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError(422, 'a message is a JSON object with a "type"', "invalid_request")
    return msg["type"], {k: msg[k] for k in ("action_id", "ref") if k in msg}, msg


def parse(kind: str, msg: dict) -> ActionMsg | UndoMsg | ResignMsg | SyncMsg | LegalMsg | PingMsg:
    """The message as its model, or ProtocolError naming the first bad field."""
    if kind not in CLIENT_TYPES:
        raise ProtocolError(422, f"unknown message type {kind!r}", "invalid_request")
    try:
        return CLIENT_MESSAGES.validate_python(msg)
    except ValidationError as exc:
        loc = exc.errors()[0]["loc"]
        field = str(loc[1]) if len(loc) > 1 else ""
        detail = _FIELD_ERRORS.get((kind, field)) or _FIELD_ERRORS.get(field) or f"invalid {kind} message"
        raise ProtocolError(422, detail, "invalid_request") from None


# --------------------------------------------------------------------------- server -> client

class _ServerMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")


Seats = dict[str, Any]


class Presence(_ServerMessage):
    here: bool = Field(description="the seat's player has the game open")
    away_for: int | None = Field(None, description="not here: seconds since their last socket on the game closed "
                                                   "(null: not known, e.g. not seen since the server started)")


SeatPresence = dict[str, Presence]


class SnapshotMsg(_ServerMessage):
    type: Literal["snapshot"] = "snapshot"
    game_id: str
    seq: int
    status: str
    to_act: str | None
    result: dict | None
    scenario: str
    options: list[str]
    mode: str
    seats: Seats
    your_sides: list[str]
    state: dict
    legal: list[dict] = Field(description="the caller's legal actions")
    watchers: int = Field(description="people on the game's page: users, and logged-out connections")
    online: list[str]
    presence: SeatPresence | None = None
    you: dict | None = None


class EventsMsg(_ServerMessage):
    type: Literal["events"] = "events"
    game_id: str
    seq: int = Field(description="the last seq")
    status: str | None = None
    to_act: str | None = None
    result: dict | None = None
    events: list[dict]
    state: dict | None = Field(None, description="the state after the events (unless state=0)")
    catch_up: bool | None = Field(None, description="true: nothing was missed, the socket is live")


class ChangesMsg(_ServerMessage):
    """Protocol v2 (?v=2): after each change, the new events and what changed in the state
    since seq `base`. A client whose seq is not `base` asks for a resync (a "sync"
    message: the answer is an "events" message with the whole state)."""
    type: Literal["changes"] = "changes"
    game_id: str
    base: int = Field(description="the seq the delta starts from")
    seq: int = Field(description="the last seq")
    status: str
    to_act: str | None
    result: dict | None
    events: list[dict]
    delta: dict = Field(description="top-level keys of the state that changed; under units the new or changed "
                                    "units (by id); under units_gone the ids of units no longer listed")


class LegalActionsMsg(_ServerMessage):
    type: Literal["legal"] = "legal"
    game_id: str
    seq: int
    to_act: str | None
    actions: list[dict]
    side: str | None = Field(None, description="after a change: the side these actions are for")
    your_sides: list[str] | None = Field(None, description="answer to a legal request: the caller's seats")
    action_id: Any = None
    ref: Any = None


class WatchersMsg(_ServerMessage):
    """Sent when the people on the game's page change: a player arrives or leaves, a
    watcher comes or goes (a user with several tabs counts once)."""
    type: Literal["watchers"] = "watchers"
    game_id: str
    count: int = Field(description="people on the game's page: users, and logged-out connections")
    online: list[str] = Field(description="sides whose player is connected")
    presence: SeatPresence | None = Field(None, description="per side (union, confederate): here, or away for "
                                                            "how long")


class AckMsg(_ServerMessage):
    type: Literal["ack"] = "ack"
    of: Literal["action", "undo", "resign"]
    seq: int
    duplicate: bool | None = None
    events: list[dict] | None = Field(None, description="only for a duplicate: the first result's events")
    action_id: Any = None
    ref: Any = None


class ErrorMsg(_ServerMessage):
    type: Literal["error"] = "error"
    status: int
    code: str
    detail: str
    of: str | None = None
    action_id: Any = None
    ref: Any = None


class ChatLine(_ServerMessage):
    id: int
    channel: Literal["players", "spectators"]
    user: str
    body: str
    at: str


class ChatMsg(_ServerMessage):
    """A new chat message, sent only to the sockets that may read its channel."""
    type: Literal["chat"] = "chat"
    game_id: str
    message: ChatLine


class WaitingMsg(_ServerMessage):
    """The user socket (/ws/me): on connect, then whenever it changes."""
    type: Literal["waiting"] = "waiting"
    count: int = Field(description="games in which it is the user's turn")
    unread: int = Field(description="unread notices")


class PongMsg(_ServerMessage):
    type: Literal["pong"] = "pong"
    action_id: Any = None
    ref: Any = None


ServerMessage = Annotated[SnapshotMsg | EventsMsg | ChangesMsg | LegalActionsMsg | WatchersMsg | AckMsg | ErrorMsg
                          | PongMsg | ChatMsg | WaitingMsg,
                          Field(discriminator="type")]
SERVER_MESSAGES = TypeAdapter(ServerMessage)


def dump(msg: _ServerMessage) -> str:
    """Compact JSON of a server message: its type, then only the fields that were set
    (an echoed "ref" is sent even when it is null, because the client sent it)."""
    data = msg.model_dump(mode="json", exclude_unset=True)
    data.pop("type", None)
    return json.dumps({"type": type(msg).model_fields["type"].default, **data}, separators=(",", ":"))


def ack_text(of: str, seq: int, echo: dict) -> str:
    """dump(AckMsg(of=of, seq=seq, **echo)) without building the model (the answer to
    every move). An echoed number JSON cannot hold (NaN, an infinity) goes through the
    model, which writes it as null."""
    try:
        return json.dumps({"type": "ack", "of": of, "seq": seq, **echo}, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return dump(AckMsg(of=of, seq=seq, **echo))


def json_schema() -> dict:
    return {"client_to_server": CLIENT_MESSAGES.json_schema(), "server_to_client": SERVER_MESSAGES.json_schema()}


if __name__ == "__main__":
    print(json.dumps(json_schema(), indent=1, sort_keys=True))
