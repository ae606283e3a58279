"""The websocket protocol: the messages the server builds by hand on its hot path obey
the published models, client messages are refused with the words clients know, and
docs/api.md carries the current JSON Schema."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games.records import Change
from app.realtime import protocol

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
START, END = "<!-- websocket-schema:start -->", "<!-- websocket-schema:end -->"


def _change() -> Change:
    events = [{"seq": 8, "source": "engine", "type": "roll", "actor": "union", "at": "2026-12-01T00:00:00+00:00",
               "data": {"type": "roll", "value": 3}}]
    ch = Change("g1", 8, 8, events, "active", "union", None, {"union": 1, "confederate": 2})
    ch.state_json = json.dumps({"turn": 1, "units": []})
    ch.legal = {"union": [{"type": "roll_marches"}], "confederate": []}
    return ch


@pytest.mark.parametrize("with_state", [True, False])
def test_the_events_message_of_every_change_obeys_the_model(with_state):
    msg = protocol.SERVER_MESSAGES.validate_json(_change().text(with_state))
    assert isinstance(msg, protocol.EventsMsg) and (msg.state is not None) == with_state


def test_the_legal_message_of_every_change_obeys_the_model():
    msg = protocol.SERVER_MESSAGES.validate_json(_change().legal_text("union") or "")
    assert isinstance(msg, protocol.LegalActionsMsg) and msg.actions == [{"type": "roll_marches"}]


@pytest.mark.parametrize("echo", [{}, {"action_id": "c-1"}, {"action_id": "c-1", "ref": {"a": [1, 2.5, None]}},
                                  {"ref": None}, {"ref": "\u00e9"}, {"ref": 10 ** 30}, {"ref": float("inf")},
                                  {"action_id": "x", "ref": [float("nan")]}])
def test_the_ack_built_by_hand_is_the_ack_of_the_model(echo):
    by_hand = protocol.ack_text("action", 58, echo)
    assert by_hand == protocol.dump(protocol.AckMsg(of="action", seq=58, **echo))
    assert isinstance(protocol.SERVER_MESSAGES.validate_json(by_hand), protocol.AckMsg)


def test_messages_built_from_the_models_send_only_what_was_set():
    assert json.loads(protocol.dump(protocol.PongMsg())) == {"type": "pong"}
    assert json.loads(protocol.dump(protocol.PongMsg(ref=None))) == {"type": "pong", "ref": None}
    ack = protocol.AckMsg(of="undo", seq=4, action_id="a1")
    assert json.loads(protocol.dump(ack)) == {"type": "ack", "of": "undo", "seq": 4, "action_id": "a1"}


@pytest.mark.parametrize("raw, detail", [
    ('{"type": "sync"}', "sync needs after: a seq number"),
    ('{"type": "sync", "after": true}', "sync needs after: a seq number"),
    ('{"type": "sync", "after": -1}', "sync needs after: a seq number"),
    ('{"type": "action"}', 'an action message needs "action"'),
    ('{"type": "action", "action": {}, "expected_seq": "3"}', "expected_seq must be an integer"),
    ('{"type": "undo", "action_id": 5}', "action_id must be a string"),
    ('{"type": "fly"}', "unknown message type 'fly'"),
])
def test_bad_client_messages_are_refused_with_their_reason(raw, detail):
    kind, _, msg = protocol.envelope(raw)
    with pytest.raises(protocol.ProtocolError) as exc:
        protocol.parse(kind, msg)
    assert (exc.value.status, exc.value.detail, exc.value.code) == (422, detail, "invalid_request")


@pytest.mark.parametrize("raw, status", [("{", 400), ("[]", 422), ('{"type": 1}', 422)])
def test_a_message_that_is_not_one_is_refused(raw, status):
    with pytest.raises(protocol.ProtocolError) as exc:
        protocol.envelope(raw)
    assert exc.value.status == status


def test_docs_publish_the_current_json_schema():
    doc = API_DOC.read_text()
    published = doc[doc.index(START) + len(START):doc.index(END)].strip().removeprefix("```json").removesuffix("```")
    assert json.loads(published) == protocol.json_schema(), \
        "docs/api.md is out of date: paste the output of python -m app.realtime.protocol"


def test_the_snapshot_obeys_the_model(tmp_path):
    from app.accounts.auth import Accounts
    from app.games.service import GameService
    from app.store.db import Database
    from app.store.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'hd.sqlite3'}"
    upgrade(url)
    db = Database(url)
    try:
        svc = GameService(db)
        accounts = Accounts(db, "key", 30)
        a, b = accounts.register("ann", "password1", None), accounts.register("bob", "password1", None)
        gid = svc.create_game(a, "1861", [], "union", "live", False)["id"]
        svc.join(b, gid)
        snap = svc.snapshot(gid, a.id)
        snap.pop("_seats_ids")
        snap.update(watchers=1, online=["union"], you={"user_id": a.id, "username": "ann"})
        msg = protocol.SERVER_MESSAGES.validate_json(json.dumps(snap))
        assert isinstance(msg, protocol.SnapshotMsg) and msg.your_sides == ["union"]
    finally:
        db.dispose()
