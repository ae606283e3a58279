"""Presence by person: a user with several tabs (or sockets on several processes) counts
once, a logged-out watcher counts per connection, and a player whose last socket closes
is "away" (since when) on everyone else's page; the computer takes a live seat only from
a player who does not have the game open."""
from __future__ import annotations

import websockets

from .helpers import new_match, ws_recv, ws_until


def _watchers(m: dict) -> bool:
    return m["type"] == "watchers"


async def test_people_not_tabs_and_a_player_who_leaves_is_away(server):
    a, b, gid = new_match(server.base)
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(f"{url}?token={b.token}") as b_page:
        snap = await ws_recv(b_page)
        assert snap["presence"]["confederate"] == {"here": True}
        assert snap["presence"]["union"]["here"] is False
        async with websockets.connect(f"{url}?token={a.token}") as tab1, \
                websockets.connect(f"{url}?token={a.token}") as tab2, \
                websockets.connect(url) as anon1, websockets.connect(url) as anon2:
            for ws in (tab1, tab2, anon1, anon2):
                await ws_recv(ws)
            # b, a (two tabs: one person) and two logged-out connections
            m = await ws_until(b_page, lambda m: _watchers(m) and m["count"] == 4)
            assert m["online"] == ["confederate", "union"]
            assert m["presence"] == {"union": {"here": True}, "confederate": {"here": True}}
            assert a.game(gid)["watchers"] == 4
        # every socket of the Union player closed: away, since just now
        m = await ws_until(b_page, lambda m: _watchers(m) and m["count"] == 1)
        assert m["online"] == ["confederate"]
        assert m["presence"]["union"]["here"] is False and 0 <= m["presence"]["union"]["away_for"] <= 5
    # a new page sees how long the player has been away
    async with websockets.connect(url) as later:
        snap = await ws_recv(later)
        assert snap["presence"]["union"]["here"] is False and snap["presence"]["union"]["away_for"] is not None


async def test_one_tab_of_two_closing_leaves_the_player_here(server):
    a, b, gid = new_match(server.base)
    url = f"{server.ws_base}/ws/games/{gid}"
    async with websockets.connect(url) as watcher:
        await ws_recv(watcher)
        async with websockets.connect(f"{url}?token={a.token}") as tab1:
            await ws_recv(tab1)
            async with websockets.connect(f"{url}?token={a.token}") as tab2:
                await ws_recv(tab2)
                await ws_until(watcher, lambda m: _watchers(m) and m["online"] == ["union"] and m["count"] == 2)
            # one of the two tabs closed: the Union player is still here
            snap = await _snapshot(url)
            assert snap["presence"]["union"] == {"here": True} and snap["watchers"] == 3


async def _snapshot(url: str) -> dict:
    async with websockets.connect(url) as ws:
        return await ws_recv(ws)


async def test_takeover_refused_while_the_player_to_act_is_here(server):
    """A live game: however long the player to act has been thinking, while their page is
    open the opponent cannot hand their seat to the computer."""
    a, b, gid = new_match(server.base)
    to_act = a.game(gid)["to_act"]
    thinking, waiting = (a, b) if to_act == "union" else (b, a)
    async with websockets.connect(f"{server.ws_base}/ws/games/{gid}?token={thinking.token}") as ws:
        await ws_recv(ws)
        r = waiting.http.post(f"/api/games/{gid}/computer-takeover", json={"level": "easy"})
        assert r.status_code == 409 and r.json()["code"] == "not_abandoned"
        assert "has the game open" in r.json()["detail"]


async def test_presence_adds_up_across_processes(pg_url, make_server):
    """Two processes on one Postgres: a player with a tab on each counts once, stays here
    while either tab is open, and is away (since when) once both are closed."""
    s1, s2 = make_server(pg_url), make_server(pg_url)
    a, b, gid = new_match(s1.base)
    path = f"/ws/games/{gid}"
    async with websockets.connect(f"{s2.ws_base}{path}") as watcher:
        await ws_recv(watcher)
        async with websockets.connect(f"{s1.ws_base}{path}?token={a.token}") as on_1:
            await ws_recv(on_1)
            async with websockets.connect(f"{s2.ws_base}{path}?token={a.token}") as on_2:
                await ws_recv(on_2)
                m = await ws_until(watcher, lambda m: _watchers(m) and m["online"] == ["union"], timeout=10)
                assert m["count"] == 2   # the watcher, and the Union player once
            # the tab on process 2 closed: on process 2 the player is still here
            snap = await _snapshot(f"{s2.ws_base}{path}")
            assert snap["online"] == ["union"] and snap["presence"]["union"] == {"here": True}
        m = await ws_until(watcher, lambda m: _watchers(m) and m["online"] == [], timeout=10)
        assert m["count"] == 1 and 0 <= m["presence"]["union"]["away_for"] <= 10
