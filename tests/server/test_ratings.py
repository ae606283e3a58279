"""Ratings: rated games change both players' Glicko-2 ratings once when they end (a
resignation counts as a loss, a drawn result half a point); casual games and games
against the computer change nothing; an administrator's new result replaces the old
one and an annulment takes it back. Ratings show in the lobby, the game and the profile."""
from __future__ import annotations

import httpx
import pytest

from .helpers import Player
from .replay_helpers import make_admin, resign


def rated_match(base: str, rated: bool = True) -> tuple[Player, Player, str]:
    a, b = Player(base), Player(base)
    r = a.http.post("/api/games", json={"scenario": "1861-short", "side": "union", "rated": rated})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert r.json()["rated"] is rated
    assert b.join(gid).status_code == 200
    return a, b, gid


def profile(base: str, username: str) -> dict:
    r = httpx.get(f"{base}/api/players/{username}")
    assert r.status_code == 200, r.text
    return r.json()


def test_a_rated_game_changes_both_ratings_once(server):
    a, b, gid = rated_match(server.base)
    assert profile(server.base, a.username)["rating"] is None  # not rated before the first rated game ends
    resign(b, gid)
    pa, pb = profile(server.base, a.username), profile(server.base, b.username)
    assert pa["rating"]["rating"] > 1600 and pb["rating"]["rating"] < 1400
    assert pa["rating"]["games"] == pb["rating"]["games"] == 1 and pa["rating"]["provisional"]
    [h] = pa["rating_history"]
    assert h["game_id"] == gid and h["opponent"] == b.username and h["score"] == 1.0 and h["change"] > 0
    assert pb["rating_history"][0]["score"] == 0.0
    assert [g["id"] for g in pa["games"]] == [gid]
    # the finished game cannot be resigned again: the ratings stay
    assert a.http.post(f"/api/games/{gid}/resign").status_code == 409
    assert profile(server.base, a.username)["rating"] == pa["rating"]
    # the seats carry the ratings: game page, API and lobby
    seat = a.game(gid)["seats"]["union"]
    assert seat["rating"]["rating"] == pa["rating"]["rating"]
    page = httpx.get(f"{server.base}/games/{gid}").text
    assert f"({pa['rating']['rating']}?)" in page and "rated" in page
    html = httpx.get(f"{server.base}/players/{a.username}").text
    assert f"{pa['rating']['rating']}?" in html and gid in html and b.username in html
    # a logged-in visitor may challenge the player from the profile, not themselves
    assert 'id="challenge"' in a.http.get(f"/players/{b.username}").text
    assert 'id="challenge"' not in a.http.get(f"/players/{a.username}").text


def test_casual_games_and_unknown_players_change_nothing(server):
    a, b, gid = rated_match(server.base, rated=False)
    resign(a, gid)
    assert profile(server.base, a.username)["rating"] is None
    assert profile(server.base, b.username)["rating_history"] == []
    r = httpx.get(f"{server.base}/api/players/nobody-{a.username}")
    assert r.status_code == 404
    assert httpx.get(f"{server.base}/players/nobody-{a.username}").status_code == 404


def test_an_ended_game_keeps_its_result_until_an_annulment_takes_it_back(server):
    admin = make_admin(server)
    a, b, gid = rated_match(server.base)
    resign(b, gid)
    won = profile(server.base, a.username)["rating"]["rating"]
    assert won > 1500
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": None, "reason": "a fair draw"})
    assert r.status_code == 409 and r.json()["code"] == "game_over", r.text
    pa = profile(server.base, a.username)
    assert pa["rating"]["rating"] == won and [h["reversed"] for h in pa["rating_history"]] == [False]
    r = admin.http.post(f"/api/admin/games/{gid}/annul", json={"reason": "played by one person"})
    assert r.status_code == 200, r.text
    pa = profile(server.base, a.username)
    assert pa["rating"]["rating"] == 1500 and pa["rating"]["games"] == 0 and pa["rating"]["deviation"] == 350
    assert all(h["reversed"] for h in pa["rating_history"])


def test_an_adjudicated_game_is_rated_as_its_result(server):
    admin = make_admin(server)
    a, b, gid = rated_match(server.base)
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": None, "reason": "a fair draw"})
    assert r.status_code == 200, r.text
    pa, pb = profile(server.base, a.username), profile(server.base, b.username)
    assert pa["rating"]["games"] == pb["rating"]["games"] == 1
    assert pa["rating_history"][0]["score"] == 0.5 and not pa["rating_history"][0]["reversed"]


@pytest.mark.parametrize("level", ["easy"])
def test_games_against_the_computer_are_casual(server, level):
    p = Player(server.base)
    r = p.http.post("/api/games", json={"scenario": "1861-short", "opponent": {"computer": level}})
    assert r.status_code == 201 and r.json()["rated"] is False
    resign(p, r.json()["id"])
    assert profile(server.base, p.username)["rating"] is None
    assert profile(server.base, f"Computer ({level})")["computer"] is True
