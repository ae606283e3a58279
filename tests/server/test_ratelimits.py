"""Rate limits, wired in: each answers 429 with Retry-After (on a websocket an "error"
message with status 429, the socket kept open) and counts per account or per address.

One server with small limits; each test speaks from addresses of its own (uvicorn takes
X-Forwarded-For from a proxy on loopback), so the tests do not share counts."""
from __future__ import annotations

import asyncio
import json
import uuid

import httpx
import pytest
import websockets

from .helpers import ServerProc, ws_recv, ws_until

LIMITS = {"login_account": 3, "login_address": 6, "register": 3, "password_reset": 2, "mail": 2, "chat": 3, "create_game": 2,
          "action": 5, "ws_message": 5, "socket": 3}


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    path = tmp_path_factory.mktemp("limits") / "hd.sqlite3"
    srv = ServerProc(f"sqlite:///{path}", log_dir=path.parent, webhook_allow_hosts="localhost",
                     rate_limits=",".join(f"{k}={v}/60" for k, v in LIMITS.items())).start()
    yield srv
    srv.stop()


def an_address() -> str:
    n = uuid.uuid4().int
    return f"203.0.{n % 250}.{(n >> 8) % 250 + 1}"


class Client:
    """A player speaking from one address of its own."""

    def __init__(self, base: str, address: str | None = None):
        self.address = address or an_address()
        self.http = httpx.Client(base_url=base, headers={"X-Forwarded-For": self.address}, timeout=30)
        self.name = f"r{uuid.uuid4().hex[:10]}"
        r = self.http.post("/api/auth/register", json={"username": self.name, "password": "password123"})
        assert r.status_code == 201, r.text
        self.user_id = r.json()["id"]
        self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"


def assert_limited(r: httpx.Response, name: str) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "rate_limited" and name in r.json()["detail"]
    assert 1 <= int(r.headers["retry-after"]) <= 60


def login(base: str, address: str, username: str, password: str) -> httpx.Response:
    return httpx.post(base + "/api/auth/login", json={"username": username, "password": password},
                      headers={"X-Forwarded-For": address})


def test_wrong_passwords_lock_the_account_for_a_while_but_right_ones_do_not_count(limited):
    victim = Client(limited.base)
    attacker = an_address()
    for _ in range(5):   # more right passwords than the account limit: fine
        assert login(limited.base, an_address(), victim.name, "password123").status_code == 200
    for _ in range(3):
        assert login(limited.base, attacker, victim.name, "wrong-password").status_code == 401
    assert_limited(login(limited.base, attacker, victim.name, "password123"), "login_account")
    other = Client(limited.base)   # other accounts from that address: their own count (the
    # address's 5th attempt: within login_address)
    assert login(limited.base, attacker, other.name, "password123").status_code == 200


def test_a_stranger_guessing_from_elsewhere_does_not_lock_the_owner_out(limited):
    owner = Client(limited.base)
    strangers = [an_address() for _ in range(2)]
    for address in strangers:      # each stranger's address locks itself out of the account
        for _ in range(3):
            assert login(limited.base, address, owner.name, "guess").status_code == 401
        assert_limited(login(limited.base, address, owner.name, "guess"), "login_account")
        assert_limited(login(limited.base, address, owner.name, "password123"), "login_account")
    r = login(limited.base, owner.address, owner.name, "password123")   # the owner, at home
    assert r.status_code == 200, r.text
    assert r.json()["user"]["username"] == owner.name


def test_one_address_gets_a_few_attempts_whatever_the_account(limited):
    address = an_address()
    names = [Client(limited.base).name for _ in range(7)]
    answers = [login(limited.base, address, name, "password123").status_code for name in names]
    assert answers[:6] == [200] * 6 and answers[6] == 429
    assert login(limited.base, an_address(), names[6], "password123").status_code == 200


def test_password_reset_mails_per_address(limited):
    address = an_address()
    for _ in range(2):
        r = httpx.post(limited.base + "/api/auth/password-reset", json={"email": "someone@example.org"},
                       headers={"X-Forwarded-For": address})
        assert r.status_code == 202, r.text
    assert_limited(httpx.post(limited.base + "/api/auth/password-reset", json={"email": "someone@example.org"},
                              headers={"X-Forwarded-For": address}), "password_reset")


def test_wrong_current_passwords_in_a_password_change_count_as_wrong_logins(limited):
    p = Client(limited.base)
    for _ in range(3):
        r = p.http.post("/api/auth/password", json={"current_password": "guess", "new_password": "new password"})
        assert r.status_code == 403, r.text
    r = p.http.post("/api/auth/password", json={"current_password": "password123", "new_password": "new password"})
    assert_limited(r, "login_account")


def test_registrations_per_address(limited):
    address = an_address()
    for _ in range(3):
        Client(limited.base, address)
    r = httpx.post(limited.base + "/api/auth/register", headers={"X-Forwarded-For": address},
                   json={"username": f"r{uuid.uuid4().hex[:10]}", "password": "password123"})
    assert_limited(r, "register")
    Client(limited.base)        # another address may


def test_verification_and_webhook_test_mails_per_account(limited):
    p = Client(limited.base)
    assert p.http.put("/api/me/notifications", json={"email": f"{p.name}@example.org"}).status_code == 200
    assert p.http.post("/api/me/email/verify").status_code == 200
    assert_limited(p.http.post("/api/me/email/verify"), "mail")
    # changing the address would send a mail too: refused, and the address is unchanged
    assert_limited(p.http.put("/api/me/notifications", json={"email": f"x{p.name}@example.org"}), "mail")
    assert p.http.get("/api/me/notifications").json()["email"] == f"{p.name}@example.org"
    q = Client(limited.base)
    assert q.http.put("/api/me/webhook", json={"url": "http://localhost:9/hook"}).status_code == 200
    assert q.http.post("/api/me/webhook/test").status_code == 200
    assert q.http.post("/api/me/webhook/test").status_code == 200
    assert_limited(q.http.post("/api/me/webhook/test"), "mail")


def test_chat_posts_per_account(limited):
    a = Client(limited.base)
    gid = a.http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    for i in range(3):
        assert a.http.post(f"/api/games/{gid}/chat", json={"body": f"hello {i}"}).status_code == 201
    assert_limited(a.http.post(f"/api/games/{gid}/chat", json={"body": "once more"}), "chat")
    assert len(a.http.get(f"/api/games/{gid}/chat").json()["messages"]) == 3


def test_game_creation_per_account(limited):
    a = Client(limited.base)
    for _ in range(2):
        assert a.http.post("/api/games", json={"scenario": "1861"}).status_code == 201
    assert_limited(a.http.post("/api/games", json={"scenario": "1861"}), "create_game")
    assert len([g for g in a.http.get("/api/games", params={"view": "mine"}).json()["games"]]) == 2


def test_actions_per_account_over_http_and_websocket(limited):
    a, b = Client(limited.base), Client(limited.base)
    gid = a.http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    assert b.http.post(f"/api/games/{gid}/join", json={}).status_code == 200
    seq = a.http.get(f"/api/games/{gid}").json()["seq"]
    for _ in range(5):   # refused moves count too: a script cannot probe faster than the limit
        r = a.http.post(f"/api/games/{gid}/actions", json={"action": {"type": "no_such_action"}})
        assert r.status_code in (409, 422), r.text
    assert_limited(a.http.post(f"/api/games/{gid}/actions", json={"action": {"type": "x"}}), "action")

    async def over_the_socket():
        url = f"{limited.ws_base}/ws/games/{gid}?token={a.http.headers['Authorization'][7:]}&state=0"
        async with websockets.connect(url, additional_headers={"X-Forwarded-For": a.address}) as ws:
            await ws.send(json.dumps({"type": "action", "action": {"type": "x"}, "ref": 1}))
            err = await ws_until(ws, lambda m: m.get("type") == "error")
            assert (err["status"], err["code"], err["of"], err["ref"]) == (429, "rate_limited", "action", 1)
            await ws.send(json.dumps({"type": "ping", "ref": 2}))     # still open
            assert (await ws_until(ws, lambda m: m.get("type") == "pong"))["ref"] == 2
    asyncio.run(over_the_socket())
    assert a.http.get(f"/api/games/{gid}").json()["seq"] == seq     # nothing moved


def test_websocket_messages_per_socket_and_sockets_per_address(limited):
    a, b, gid = new_match_from(limited)
    address = an_address()

    async def go():
        url = f"{limited.ws_base}/ws/games/{gid}?state=0"
        headers = {"X-Forwarded-For": address}
        async with websockets.connect(url, additional_headers=headers) as ws:
            await ws_recv(ws)                                          # the snapshot
            for i in range(6):
                await ws.send(json.dumps({"type": "ping", "ref": i}))
            answers = [await ws_until(ws, lambda m: m["type"] in ("pong", "error")) for _ in range(6)]
            assert [m["type"] for m in answers] == ["pong"] * 5 + ["error"]
            assert answers[5]["status"] == 429 and answers[5]["code"] == "rate_limited"
            async with websockets.connect(url, additional_headers=headers), \
                    websockets.connect(url, additional_headers=headers):
                async with websockets.connect(url, additional_headers=headers) as fourth:
                    err = await ws_recv(fourth)
                    assert (err["type"], err["status"], err["code"]) == ("error", 429, "rate_limited")
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await ws_recv(fourth)
                    assert closed.value.rcvd.code == 4429
            async with websockets.connect(url, additional_headers={"X-Forwarded-For": an_address()}) as other:
                assert (await ws_recv(other))["type"] in ("snapshot", "events")
    asyncio.run(go())


def new_match_from(srv):
    a, b = Client(srv.base), Client(srv.base)
    gid = a.http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    assert b.http.post(f"/api/games/{gid}/join", json={}).status_code == 200
    return a, b, gid


def test_the_limits_are_read_from_the_environment_and_checked(tmp_path):
    srv = ServerProc(f"sqlite:///{tmp_path / 'x.sqlite3'}", log_dir=tmp_path, rate_limits="chat=ten/60")
    with pytest.raises(RuntimeError, match="RATE_LIMITS"):
        srv.start(timeout=180)   # it stops as soon as it has read the settings; slow only on a loaded machine
