"""The rate limits hold for all the processes on one database together (RATE_LIMIT_STORE
=database, the default): requests split between two server processes get no more than
the limit in all. The counts live in the rate_counts table, whose rows expire and are
purged, so a flood of distinct keys leaves no more than two windows' worth behind."""
from __future__ import annotations

import json
import uuid

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.core.config import normalize_database_url
from app.guard.ratelimit import RateLimited, RateLimiter, parse_limits
from app.guard.shared import TableCounts
from app.store.db import Database
from app.store.migrate import upgrade

from .helpers import GENEROUS_RATE_LIMITS, ws_recv, ws_until

LIMITS = "register=3/3600,chat=4/60,action=4/60,socket=4/60"


def an_address() -> str:
    n = uuid.uuid4().int
    return f"192.0.{n % 250}.{(n >> 8) % 250 + 1}"


def register(base: str, address: str) -> httpx.Response:
    return httpx.post(base + "/api/auth/register", headers={"X-Forwarded-For": address}, timeout=30,
                      json={"username": f"s{uuid.uuid4().hex[:10]}", "password": "password123"})


@pytest.fixture
def two_servers(db_url, make_server):
    limits = f"{GENEROUS_RATE_LIMITS},{LIMITS}"
    return make_server(db_url, rate_limits=limits), make_server(db_url, rate_limits=limits)


def test_two_processes_count_registrations_and_chat_together(two_servers):
    s1, s2 = two_servers
    address = an_address()
    answers = [register(s.base, address) for s in (s1, s2, s1, s2, s1)]
    assert [r.status_code for r in answers] == [201, 201, 201, 429, 429], [r.text for r in answers]
    assert answers[3].json()["code"] == "rate_limited" and "register" in answers[3].json()["detail"]
    assert 1 <= int(answers[3].headers["retry-after"]) <= 7200
    assert register(s2.base, an_address()).status_code == 201         # another address may

    token = answers[0].json()["token"]
    clients = [httpx.Client(base_url=s.base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
               for s in (s1, s2)]
    gid = clients[0].post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    posts = [clients[i % 2].post(f"/api/games/{gid}/chat", json={"body": f"hello {i}"}) for i in range(6)]
    assert [r.status_code for r in posts] == [201] * 4 + [429] * 2, [r.text for r in posts]
    assert len(clients[1].get(f"/api/games/{gid}/chat").json()["messages"]) == 4


async def test_two_processes_count_sockets_and_socket_actions_together(two_servers):
    s1, s2 = two_servers
    reg = register(s1.base, an_address()).json()
    other = register(s2.base, an_address()).json()
    a = httpx.Client(base_url=s1.base, headers={"Authorization": f"Bearer {reg['token']}"}, timeout=30)
    gid = a.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    joined = httpx.post(f"{s2.base}/api/games/{gid}/join", json={}, timeout=30,
                        headers={"Authorization": f"Bearer {other['token']}"})
    assert joined.status_code == 200, joined.text
    seq = a.get(f"/api/games/{gid}").json()["seq"]

    # actions per account: two over HTTP on one process, two over a socket on the other,
    # then the fifth is refused wherever it comes (refused moves count too)
    for _ in range(2):
        assert a.post(f"/api/games/{gid}/actions", json={"action": {"type": "x"}}).status_code in (409, 422)
    address = an_address()
    headers = {"additional_headers": {"X-Forwarded-For": address}}
    url = f"/ws/games/{gid}?token={reg['token']}&state=0"
    async with websockets.connect(s2.ws_base + url, **headers) as on2, \
            websockets.connect(s1.ws_base + url, **headers) as on1:
        await ws_recv(on2), await ws_recv(on1)
        answers = []
        for ws in (on2, on2, on1):
            await ws.send(json.dumps({"type": "action", "action": {"type": "x"}}))
            answers.append(await ws_until(ws, lambda m: m["type"] == "error"))
        assert all(m["code"] != "rate_limited" for m in answers[:2]), answers
        assert (answers[2]["status"], answers[2]["code"]) == (429, "rate_limited")
        assert "action" in answers[2]["detail"]

        # sockets opened per address: two so far, two more (one on each), then refused on both
        async with websockets.connect(s1.ws_base + url, **headers) as third, \
                websockets.connect(s2.ws_base + url, **headers) as fourth:
            await ws_recv(third), await ws_recv(fourth)
            for srv in (s1, s2):
                async with websockets.connect(srv.ws_base + url, **headers) as refused:
                    err = await ws_recv(refused)
                    assert (err["status"], err["code"]) == (429, "rate_limited") and "socket" in err["detail"]
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await ws_recv(refused)
                    assert closed.value.rcvd.code == 4429
    assert a.get(f"/api/games/{gid}").json()["seq"] == seq          # nothing moved


def test_expired_counts_are_purged(db_url):
    """A flood of distinct keys makes rows; once they can no longer count (two windows
    on) the next count purges them, and their keys start afresh."""
    upgrade(db_url)
    db = Database(normalize_database_url(db_url))
    try:
        now = [1_000_000.0]
        limiter = RateLimiter(parse_limits("register=2/60"), shared=TableCounts(db), clock=lambda: now[0],
                              wall=lambda: now[0], max_keys=50)
        for n in range(300):
            limiter.hit("register", f"10.1.{n // 250}.{n % 250}")
        assert len(limiter) <= 50                         # this process keeps few keys ...
        assert _rows(db) == 300                           # ... the table counts them all
        limiter.hit("register", "10.1.0.0")               # its second: a key forgotten here ...
        with pytest.raises(RateLimited):                  # ... is still counted in the table
            limiter.hit("register", "10.1.0.0")
        now[0] += 121                                     # two windows on: every row has expired
        limiter.hit("register", "10.9.9.9")
        assert _rows(db) == 1
        limiter.hit("register", "10.1.0.0")               # and the old key starts afresh
        limiter.hit("register", "10.1.0.0")
    finally:
        db.dispose()


def _rows(db: Database) -> int:
    with db.read() as conn:
        return conn.execute(text("SELECT COUNT(*) FROM rate_counts")).scalar_one()
