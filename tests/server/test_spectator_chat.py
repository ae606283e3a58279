"""The spectators' chat during play is for logged-in watchers: a logged-out reader is
refused with the reason (over HTTP; the game socket does not send it them either:
tests/server/test_push.py), else a player could read it from a logged-out window. Once
the game is over it is open to everyone."""
from __future__ import annotations

import httpx

from .helpers import Player, new_match


def read(base: str, gid: str, channel: str, player: Player | None = None, **headers) -> httpx.Response:
    client = player.http if player else httpx.Client(base_url=base, headers=headers)
    return client.get(f"/api/games/{gid}/chat", params={"channel": channel})


def test_the_spectators_chat_is_for_logged_in_watchers_while_the_game_is_on(server):
    a, b, gid = new_match(server.base)
    fan = Player(server.base)
    r = fan.http.post(f"/api/games/{gid}/chat", json={"channel": "spectators", "body": "He should attack"})
    assert r.status_code == 201, r.text

    anon = read(server.base, gid, "spectators")
    assert anon.status_code == 403 and anon.json()["code"] == "chat_forbidden", anon.text
    assert "log in to read the spectators' chat" in anon.json()["detail"]
    assert "He should attack" not in anon.text
    german = read(server.base, gid, "spectators", **{"Accept-Language": "de"})
    assert german.status_code == 403 and "log in" not in german.json()["detail"]   # said in German
    assert [m["body"] for m in read(server.base, gid, "spectators", fan).json()["messages"]] == ["He should attack"]
    assert read(server.base, gid, "spectators", a).status_code == 403

    assert a.http.post(f"/api/games/{gid}/resign").status_code == 200
    after = read(server.base, gid, "spectators")
    assert after.status_code == 200 and [m["body"] for m in after.json()["messages"]] == ["He should attack"]
