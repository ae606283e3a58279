"""What strangers may send: huge bodies and messages, NUL characters, numbers beyond 64
bits, JSON nested 1000 deep, a dict where the engine expects a box id. Each is refused
with a 4xx (on the websocket an "error" message, the socket kept open) and changes
nothing; never a 500. On SQLite and on Postgres (the shared `server` fixture)."""
from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
import pytest
import websockets

from .helpers import Player, new_match, uname, ws_recv, ws_until

HUGE = 2 ** 70
DEEP = "[" * 1000 + "]" * 1000


def deep_dict(depth: int = 1000) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def raw_post(port: int, headers: str, body_chunks=()) -> bytes:
    """Send a request by hand (so that a 200 MiB body need not exist) and read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(headers.encode())
        try:
            for chunk in body_chunks:
                s.sendall(chunk)
        except OSError:
            pass        # the server answered and closed: it did not want the rest
        s.settimeout(30)
        out = b""
        while b"\r\n\r\n" not in out:
            data = s.recv(65536)
            if not data:
                break
            out += data
        return out


def test_a_200_mib_body_is_refused_without_being_read(server):
    pid = server.proc.pid
    before = rss_kib(pid)
    started = time.monotonic()
    answer = raw_post(server.port, "POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                   f"Content-Length: {200 << 20}\r\n\r\n", [b"{" + b" " * 65536])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert time.monotonic() - started < 5
    # chunked, with no length announced: counted as it comes, refused past the cap
    chunk = b"x" * (1 << 20)
    chunks = (b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(200))
    answer = raw_post(server.port, "POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                   "Transfer-Encoding: chunked\r\n\r\n", chunks)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert rss_kib(pid) - before < 20 * 1024, (before, rss_kib(pid))
    assert httpx.get(server.base + "/api/health").status_code == 200


def test_websocket_messages_over_the_cap(server):
    a, b, gid = new_match(server.base)

    async def go():
        url = f"{server.ws_base}/ws/games/{gid}?token={a.token}&state=0"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "ping", "ref": "x" * 100_000}))
            err = await ws_until(ws, lambda m: m.get("type") == "error")
            assert (err["status"], err["code"]) == (413, "too_large") and "bytes" in err["detail"]
            await ws.send(json.dumps({"type": "ping", "ref": 1}))          # the socket stays open
            assert (await ws_until(ws, lambda m: m.get("type") == "pong"))["ref"] == 1
            with pytest.raises(websockets.ConnectionClosed) as closed:
                # beyond 1 MiB: closed; the close may already arrive while the frame is sent
                await ws.send("x" * (2 << 20))
                while True:
                    await ws_recv(ws)
            assert closed.value.rcvd.code == 1009                          # "message too big"
    asyncio.run(go())


def _snapshot(p: Player, gid: str) -> tuple:
    g = p.game(gid)
    return g["seq"], g["to_act"], len(p.http.get(f"/api/games/{gid}/chat").json()["messages"])


def _refused(r: httpx.Response) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert r.json()["detail"]


def _a_box_action(actions: list[dict]) -> tuple[dict, str]:
    for action in actions:
        for key, value in action.items():
            if key != "type" and isinstance(value, str):
                return action, key
    raise AssertionError(f"no action names a box: {actions[:5]}")


def test_hostile_http_input_is_refused_not_crashed(server):
    a, b, gid = new_match(server.base)
    before = _snapshot(a, gid)
    mover = a if a.game(gid)["to_act"] == "union" else b
    legal = mover.legal(gid)
    action, key = _a_box_action(legal["actions"])
    nul = "bad\u0000name"
    answers = [
        httpx.post(server.base + "/api/auth/register", json={"username": nul, "password": "password123"}),
        httpx.post(server.base + "/api/auth/register",
                   json={"username": f"ok{a.user_id}x", "password": "pass\u0000word1"}),
        httpx.post(server.base + "/api/auth/login", json={"username": nul, "password": "x\u0000"}),
        a.http.post(f"/api/games/{gid}/chat", json={"body": "hello\u0000there"}),
        a.http.put("/api/me/notifications", json={"email": "a\u0000@example.org"}),
        a.http.put("/api/me/webhook", json={"url": "http://exa\u0000mple.org/", "prefix": "\u0000"}),
        a.http.post("/api/auth/tokens", json={"name": "t\u0000"}),
        a.http.get(f"/api/games/{gid}%00"),
        a.http.get("/api/games", params={"view": "open\u0000"}),
        mover.act(gid, {**action, key: "wash\u0000ington"}, expected_seq=legal["seq"]),
        mover.act(gid, {**action, key: {"box": action[key]}}, expected_seq=legal["seq"]),
        mover.act(gid, {**action, key: [action[key]]}, expected_seq=legal["seq"]),
        mover.act(gid, action, expected_seq=HUGE),
        mover.act(gid, action, expected_seq=-HUGE),
        a.http.delete(f"/api/auth/tokens/{HUGE}"),
        a.http.get(f"/api/games/{gid}/events", params={"after": HUGE}),
        a.http.get(f"/api/games/{gid}/events", params={"limit": 2 ** 40}),
        a.http.get(f"/api/games/{gid}/chat", params={"after": HUGE}),
        a.http.get("/api/map", params={"engine": HUGE}),
        a.http.get("/api/me/notices", params={"limit": HUGE}),
        a.http.post("/api/me/notices/read", json={"ids": [HUGE]}),
        a.http.post("/api/me/vacation", json={"days": 1e308}),
        mover.http.post(f"/api/games/{gid}/actions", content=json.dumps({"action": json.loads(deep_dict(900))}),
                        headers={"content-type": "application/json"}),
        mover.http.post(f"/api/games/{gid}/actions", content='{"action": {"type": ' + DEEP + "}}",
                        headers={"content-type": "application/json"}),
        mover.http.post(f"/api/games/{gid}/actions", content=deep_dict(1000),
                        headers={"content-type": "application/json"}),
    ]
    for r in answers:
        if r.status_code < 400:     # a few of these are fine to accept (SQLite stores a NUL): never a 500
            assert r.status_code < 300, r.text
            continue
        _refused(r)
    assert _snapshot(a, gid)[:2] == before[:2]
    # a legal move under an action_id with a NUL: stored (SQLite) or refused (Postgres)
    r = mover.act(gid, action, expected_seq=legal["seq"], action_id="id\u0000")
    assert r.status_code == 200 or 400 <= r.status_code < 500, r.text
    assert httpx.get(server.base + "/api/health").status_code == 200


def test_hostile_websocket_input_gets_an_error_and_the_socket_stays_open(server):
    a, b, gid = new_match(server.base)
    mover = a if a.game(gid)["to_act"] == "union" else b
    legal = mover.legal(gid)
    action, key = _a_box_action(legal["actions"])
    messages = [
        json.dumps({"type": "action", "action": {**action, key: {"box": action[key]}}, "ref": 1}),
        json.dumps({"type": "action", "action": {**action, key: "wash\u0000ington"}, "ref": 2}),
        json.dumps({"type": "undo", "action_id": "a\u0000b", "expected_seq": HUGE, "ref": 3}),
        json.dumps({"type": "action", "action": action, "expected_seq": HUGE, "ref": 4}),
        json.dumps({"type": "sync", "after": HUGE, "ref": 5}),
        '{"type": "action", "ref": 6, "action": ' + deep_dict(1000) + "}",
        '{"type": "ping", "ref": 7, "x": ' + DEEP + "}",
        json.dumps({"type": "act\u0000ion", "ref": 8}),
    ]

    async def go():
        url = f"{server.ws_base}/ws/games/{gid}?token={mover.token}&state=0"
        async with websockets.connect(url, max_size=None) as ws:
            for i, text in enumerate(messages, 1):
                await ws.send(text)
                m = await ws_until(ws, lambda m: m.get("type") in ("error", "ack", "pong", "events"))
                assert m["type"] == "error" and 400 <= m["status"] < 500, (i, m)
                await ws.send(json.dumps({"type": "ping", "ref": f"after {i}"}))
                assert (await ws_until(ws, lambda m: m.get("type") == "pong"))["ref"] == f"after {i}"
    asyncio.run(go())
    assert mover.game(gid)["seq"] == legal["seq"]


def test_non_ascii_tokens_and_deep_files_are_refused_not_500(server):
    """A CSRF token or an invitation code with non-ASCII characters, and an export
    file nested a thousand deep, each get a 4xx carrying the security headers."""
    browser = httpx.Client(base_url=server.base, timeout=30)        # a cookie session: CSRF applies
    assert browser.post("/api/auth/register", json={"username": uname(), "password": "password123"}).status_code == 201
    csrf = browser.post("/api/auth/logout", headers=[(b"X-CSRF-Token", "é".encode())])
    private = Player(server.base).http.post("/api/games", json={"scenario": "1861", "side": "union",
                                                                 "private": True}).json()
    invite = Player(server.base).http.post(f"/api/games/{private['id']}/join", json={"invite": "ünïcode"})
    deep = [httpx.post(server.base + "/api/replay/file", content=body,
                       headers={"content-type": "application/json"})
            for body in (DEEP, '{"header": ' + deep_dict(900) + ', "events": [{"seq": 1}]}')]
    assert (csrf.status_code, csrf.json()["code"]) == (403, "csrf")
    assert (invite.status_code, invite.json()["code"]) == (403, "invite_required")
    assert [r.status_code for r in deep] == [422, 422]
    for r in (csrf, invite, *deep):
        assert r.headers["x-content-type-options"] == "nosniff"


def test_an_export_file_over_a_mebibyte_is_read_not_refused(server):
    """Long games export to more than the 1 MiB every other request is held to."""
    padded = json.dumps({"header": {}, "events": [], "padding": "x" * (3 << 20)})
    r = httpx.post(server.base + "/api/replay/file", content=padded, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"   # read, and found not to be a game
    other = httpx.post(server.base + "/api/auth/register", content=padded, headers={"content-type": "application/json"})
    assert other.status_code == 413

