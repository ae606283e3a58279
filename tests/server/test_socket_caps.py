"""What one stranger's sockets may cost: at most WS_SOCKETS_PER_ADDRESS open sockets per
address without logging in, WS_SOCKETS_PER_ACCOUNT per account (game sockets and the
user socket together); past the cap a socket is refused (an "error" message, then close
4429 with the reason) and nothing else changes. On every socket, messages past the
size cap or the socket's message limit are answered with an error, and a socket that
keeps on flooding is closed (4429)."""
from __future__ import annotations

import json
import uuid

import pytest
import websockets

from .helpers import GENEROUS_RATE_LIMITS, Player, ServerProc, new_match, ws_recv, ws_until

CAP = 2
MESSAGES = 5      # ws_message: messages per socket per minute


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    path = tmp_path_factory.mktemp("caps") / "hd.sqlite3"
    srv = ServerProc(f"sqlite:///{path}", log_dir=path.parent, ws_sockets_per_address=CAP,
                     ws_sockets_per_account=CAP, ws_max_message_bytes=1000,
                     rate_limits=f"{GENEROUS_RATE_LIMITS},ws_message={MESSAGES}/60").start()
    yield srv
    srv.stop()


def an_address() -> str:
    n = uuid.uuid4().int
    return f"198.51.{n % 250}.{(n >> 8) % 250 + 1}"


def from_(address: str) -> dict:
    return {"additional_headers": {"X-Forwarded-For": address}}


async def refused_over_the_cap(ws) -> str:
    """The refusal of a socket over its cap: its error message and close; the reason."""
    err = await ws_recv(ws)
    assert (err["type"], err["status"], err["code"]) == ("error", 429, "too_many_sockets"), err
    assert f"already has {CAP} connections open" in err["detail"]
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws_recv(ws)
    assert closed.value.rcvd.code == 4429
    assert closed.value.rcvd.reason == err["detail"]
    return err["detail"]


async def test_anonymous_sockets_per_address(capped):
    a, b, gid = new_match(capped.base)
    url = f"{capped.ws_base}/ws/games/{gid}"
    crowd = an_address()
    async with websockets.connect(url, **from_(crowd)) as first, websockets.connect(url, **from_(crowd)) as second:
        assert (await ws_recv(first))["type"] == "snapshot"
        assert (await ws_recv(second))["type"] == "snapshot"
        watchers = a.game(gid)["watchers"]
        async with websockets.connect(url, **from_(crowd)) as third:
            assert "this address" in await refused_over_the_cap(third)
        assert a.game(gid)["watchers"] == watchers            # the refused one was never a watcher
        async with websockets.connect(url, **from_(an_address())) as elsewhere:   # another address may
            assert (await ws_recv(elsewhere))["type"] == "snapshot"
        await second.close()
        await ws_until(first, lambda m: m["type"] == "watchers" and m["count"] == watchers - 1)
        async with websockets.connect(url, **from_(crowd)) as again:    # one closed: room for one more
            assert (await ws_recv(again))["type"] == "snapshot"
        await first.send(json.dumps({"type": "ping", "ref": 1}))      # the first was never touched
        assert (await ws_until(first, lambda m: m["type"] == "pong"))["ref"] == 1


async def test_sockets_per_account_wherever_they_come_from(capped):
    a, b, gid = new_match(capped.base)
    game_url = f"{capped.ws_base}/ws/games/{gid}?token={a.token}"
    me_url = f"{capped.ws_base}/ws/me?token={a.token}"
    async with websockets.connect(game_url, **from_(an_address())) as page, \
            websockets.connect(me_url, **from_(an_address())) as badge:
        assert (await ws_recv(page))["type"] == "snapshot"
        assert (await ws_recv(badge))["type"] == "waiting"
        for url in (game_url, me_url):              # a third socket of the account, from a third address
            async with websockets.connect(url, **from_(an_address())) as third:
                assert "this account" in await refused_over_the_cap(third)
        async with websockets.connect(f"{capped.ws_base}/ws/games/{gid}?token={b.token}") as other:
            assert (await ws_recv(other))["type"] == "snapshot"        # another account is not affected
        move = a.legal(gid)["actions"][0]
        await page.send(json.dumps({"type": "action", "action": move, "ref": 7}))
        assert (await ws_until(page, lambda m: m["type"] in ("ack", "error")))["type"] == "ack"


async def test_the_refusal_is_said_in_the_readers_language(capped):
    p = Player(capped.base)
    assert p.http.post("/api/language", json={"language": "de"}).status_code == 200
    url = f"{capped.ws_base}/ws/me?token={p.token}"
    async with websockets.connect(url) as one, websockets.connect(url) as two:
        await ws_recv(one), await ws_recv(two)
        async with websockets.connect(url) as three:
            err = await ws_recv(three)
            assert err["code"] == "too_many_sockets" and "connections open" not in err["detail"]
            assert str(CAP) in err["detail"]


@pytest.mark.parametrize("where", ["me", "game"])
async def test_too_large_and_too_many_messages(capped, where):
    p = Player(capped.base)
    gid = p.create()["id"]
    url = f"{capped.ws_base}/ws/me?token={p.token}" if where == "me" else \
        f"{capped.ws_base}/ws/games/{gid}?token={p.token}"
    async with websockets.connect(url) as ws:
        await ws_recv(ws)                                             # the badge, or the snapshot
        await ws.send(json.dumps({"type": "ping", "ref": "x" * 2000}))
        err = await ws_until(ws, lambda m: m["type"] == "error")
        assert (err["status"], err["code"]) == (413, "too_large") and "1000 bytes" in err["detail"]
        answers = []
        for i in range(MESSAGES + 1):                                 # the large one counted nothing
            await ws.send(json.dumps({"type": "ping", "ref": i}))
            answers.append(await ws_until(ws, lambda m: m["type"] in ("pong", "error")))
        assert [m["type"] for m in answers] == ["pong"] * MESSAGES + ["error"]
        assert (answers[-1]["status"], answers[-1]["code"]) == (429, "rate_limited")
        assert "ws_message" in answers[-1]["detail"]
        # a client that goes on sending regardless is closed, with the reason
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(10 * MESSAGES):
                await ws.send(json.dumps({"type": "ping"}))
            while True:
                await ws_recv(ws)
        assert closed.value.rcvd.code == 4429 and "too many messages" in closed.value.rcvd.reason
    async with websockets.connect(url) as fresh:                     # a new socket starts afresh
        await ws_recv(fresh)
        await fresh.send(json.dumps({"type": "ping", "ref": "ok"}))
        assert (await ws_until(fresh, lambda m: m["type"] == "pong"))["ref"] == "ok"
