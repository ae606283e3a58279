"""Every error answers 4xx with a reason, and changes nothing."""
from __future__ import annotations

import json

import httpx

from .helpers import Player, events, new_match


def _snapshot(p: Player, gid: str):
    g = p.game(gid)
    return g["seq"], g["state"], g["to_act"], len(events(p.base, gid))


def test_errors_change_nothing(server):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    g = a.game(gid)
    mover, other = seats[g["to_act"]], seats["confederate" if g["to_act"] == "union" else "union"]
    before = _snapshot(a, gid)
    legal = mover.legal(gid)["actions"]

    def check(r: httpx.Response, status: int, code: str | None = None):
        assert r.status_code == status, r.text
        body = r.json()
        assert isinstance(body["detail"], str) and body["detail"]
        if code:
            assert body["code"] == code, body
        assert _snapshot(a, gid) == before

    # illegal move
    check(mover.act(gid, {"type": "no-such-action"}), 422, "illegal_action")
    check(mover.act(gid, {"type": legal[0]["type"], "box": "atlantis"}), 422, "illegal_action")
    # out of turn
    check(other.act(gid, legal[0]), 409, "not_your_turn")
    # stale expected seq
    check(mover.act(gid, legal[0], expected_seq=before[0] - 1), 409, "stale")
    check(mover.act(gid, legal[0], expected_seq=before[0] + 5), 409, "stale")
    # malformed JSON, wrong shapes
    check(mover.http.post(f"/api/games/{gid}/actions", content=b"{not json",
                          headers={"content-type": "application/json"}), 400, "malformed_json")
    check(mover.http.post(f"/api/games/{gid}/actions", json={"act": legal[0]}), 422, "invalid_request")
    # JSON sent as a form, or with no Content-Type: say what to send
    body = json.dumps({"action": legal[0]}).encode()
    for content_type in ("application/x-www-form-urlencoded", None):
        check(mover.http.post(f"/api/games/{gid}/actions", content=body,
                              headers={"content-type": content_type} if content_type else {}),
              415, "unsupported_media_type")
    check(mover.http.post(f"/api/games/{gid}/actions", json={"action": "roll"}), 422)
    check(mover.http.post(f"/api/games/{gid}/actions", json={"action": {"box": "x"}}), 422, "invalid_action")
    check(mover.http.post(f"/api/games/{gid}/actions", json={"action": legal[0], "expected_seq": "x"}), 422)
    check(mover.act(gid, legal[0], action_id="x" * 65), 422)
    # a seat that is not yours / no seat at all
    stranger = Player(server.base)
    check(stranger.act(gid, legal[0]), 403, "not_a_player")
    # anonymous
    check(httpx.post(f"{server.base}/api/games/{gid}/actions", json={"action": legal[0]}), 401)
    # unknown game
    r = mover.act("nosuchgame", legal[0])
    assert r.status_code == 404 and r.json()["detail"]
    for path in ("", "/legal", "/events"):
        r = httpx.get(f"{server.base}/api/games/nosuchgame{path}")
        assert r.status_code == 404 and r.json()["detail"], path
    assert mover.http.post("/api/games/nosuchgame/join").status_code == 404
    assert mover.http.post("/api/games/nosuchgame/resign").status_code == 404
    # and the move is still there to be made
    r = mover.act(gid, legal[0], expected_seq=before[0])
    assert r.status_code == 200 and r.json()["seq"] > before[0]


def test_acting_before_the_game_starts(server):
    a = Player(server.base)
    gid = a.create()["id"]
    r = a.act(gid, {"type": "activate", "box": "washington"})
    assert r.status_code == 409 and r.json()["code"] == "game_not_started"
    assert a.legal(gid)["actions"] == []


def test_numbers_beyond_64_bits_and_nul_characters_are_refused_not_crashed(server):
    a, b, gid = new_match(server.base)
    before = _snapshot(a, gid)
    huge = str(2 ** 70)
    r = httpx.get(f"{server.base}/api/games/{gid}/events", params={"after": huge})
    assert r.status_code == 422 and r.json()["detail"], r.text
    r = a.http.post(f"/api/games/{gid}/chat", json={"text": "hello\u0000there"})
    assert r.status_code in (201, 422), r.text          # SQLite stores it; Postgres refuses it
    assert _snapshot(a, gid) == before
