"""Rate limits under load (not a test): a server with the default limits (README: *Rate
limits*), then

1. floods: 100 wrong passwords for one account, 100 logins over many accounts from one
   address, 100 registrations from one address, 100 chat posts, 5,000 websocket pings on
   one socket and 100 sockets from one address; each prints how many were answered 429;
2. a normal game: two players, each choosing among the legal actions with the rules
   engine's computer player (the random level: the fastest), as fast as the server
   answers, each with its game socket open; it prints the decisions made, the most
   actions one player made in any 60 s, and the number of 429 answers (which must be 0).

    .venv/bin/python bench/ratelimit_load.py [--decisions 3000] [--database-url postgresql://.../empty_db]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import uuid
from collections import deque
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine.ai.players import make_player  # noqa: E402
from tests.server.helpers import TEST_GAME_SEED, ServerProc  # noqa: E402


class Client:
    def __init__(self, base: str, address: str = "198.51.100.1"):
        self.name = f"b{uuid.uuid4().hex[:10]}"
        self.http = httpx.Client(base_url=base, headers={"X-Forwarded-For": address}, timeout=60)
        r = self.http.post("/api/auth/register", json={"username": self.name, "password": "password123"})
        r.raise_for_status()
        self.token = r.json()["token"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"


def fresh_address(n: int) -> str:
    return f"198.18.{n // 250}.{n % 250 + 1}"


def count(statuses: list[int]) -> dict:
    return {"sent": len(statuses), "answered_429": statuses.count(429),
            "other": {str(s): statuses.count(s) for s in sorted(set(statuses)) if s != 429}}


def floods(base: str, ws_base: str) -> dict:
    out = {}
    victim = Client(base, fresh_address(1))
    out["wrong_passwords_one_account"] = count([httpx.post(
        base + "/api/auth/login", json={"username": victim.name, "password": f"guess{i}"},
        headers={"X-Forwarded-For": fresh_address(100 + i)}).status_code for i in range(100)])
    names = [Client(base, fresh_address(300 + i)).name for i in range(100)]
    out["logins_one_address_many_accounts"] = count([httpx.post(
        base + "/api/auth/login", json={"username": n, "password": "password123"},
        headers={"X-Forwarded-For": "192.0.2.7"}).status_code for n in names])
    out["registrations_one_address"] = count([httpx.post(
        base + "/api/auth/register", json={"username": f"f{uuid.uuid4().hex[:10]}", "password": "password123"},
        headers={"X-Forwarded-For": "192.0.2.8"}).status_code for _ in range(100)])
    poster = Client(base, fresh_address(2))
    gid = poster.http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    out["chat_posts_one_account"] = count([poster.http.post(f"/api/games/{gid}/chat", json={"body": f"spam {i}"})
                                           .status_code for i in range(100)])
    out.update(asyncio.run(socket_floods(ws_base, gid)))
    return out


PINGS = 5000  # more than the socket's limit of messages a minute


async def socket_floods(ws_base: str, gid: str) -> dict:
    url = f"{ws_base}/ws/games/{gid}?state=0"
    statuses = []
    async with websockets.connect(url, additional_headers={"X-Forwarded-For": "192.0.2.9"}, max_queue=None) as ws:
        await ws.recv()
        for i in range(PINGS):
            await ws.send(json.dumps({"type": "ping", "ref": i}))
        while len(statuses) < PINGS:
            m = json.loads(await ws.recv())
            if m["type"] in ("pong", "error"):
                statuses.append(200 if m["type"] == "pong" else m["status"])
    opened = []
    for _ in range(100):
        ws = await websockets.connect(url, additional_headers={"X-Forwarded-For": "192.0.2.10"})
        first = json.loads(await ws.recv())
        opened.append(429 if first.get("type") == "error" and first.get("status") == 429 else 101)
        await ws.close()
    return {"ws_pings_one_socket": count(statuses), "sockets_one_address": count(opened)}


def normal_game(base: str, ws_base: str, decisions: int) -> dict:
    """Two players play game after game until `decisions` decisions are made."""
    a, b = Client(base, "198.51.100.21"), Client(base, "198.51.100.22")
    ai = {side: make_player("random", seed=side) for side in ("union", "confederate")}
    times: dict[int, deque] = {id(a): deque(), id(b): deque()}
    busiest = limited = made = games = 0
    socket_messages = 0
    started = time.monotonic()
    while made < decisions:
        gid = a.http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
        b.http.post(f"/api/games/{gid}/join", json={}).raise_for_status()
        seats = {"union": a, "confederate": b}
        games += 1
        listeners = SocketListeners(ws_base, gid, [a, b])
        try:
            while made < decisions:
                game = a.http.get(f"/api/games/{gid}").json()
                if game["status"] != "active":
                    break
                player = seats[game["to_act"]]
                legal = player.http.get(f"/api/games/{gid}/legal").json()
                action = ai[game["to_act"]].choose(LegalOnly(legal["actions"]))
                r = player.http.post(f"/api/games/{gid}/actions", json={"action": action,
                                                                          "expected_seq": legal["seq"]})
                limited += r.status_code == 429
                r.raise_for_status()
                made += 1
                busiest = max(busiest, _count_in_last_minute(times[id(player)]))
        finally:
            socket_messages += listeners.stop()
    seconds = time.monotonic() - started
    return {"games": games, "decisions": made, "seconds": round(seconds, 1),
            "decisions_per_second": round(made / seconds, 1),
            "most_actions_of_one_player_in_60s": busiest, "answered_429": limited,
            "socket_messages_received": socket_messages}


def _count_in_last_minute(window: deque) -> int:
    now = time.monotonic()
    window.append(now)
    while window[0] <= now - 60:
        window.popleft()
    return len(window)


class LegalOnly:
    """What the engine's computer player asks of a game, answered from the server's list."""

    def __init__(self, actions: list[dict]):
        self.actions = actions

    def legal_actions(self) -> list[dict]:
        return self.actions


class SocketListeners:
    """Each player's game socket, open and read in a thread while the game is played."""

    def __init__(self, ws_base: str, gid: str, players: list[Client]):
        import threading
        self.received = 0
        self.stopping = False
        self.loop = asyncio.new_event_loop()
        urls = [f"{ws_base}/ws/games/{gid}?token={p.token}&state=0" for p in players]
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.listen_all(urls),))
        self.thread.start()

    async def listen_all(self, urls: list[str]) -> None:
        await asyncio.gather(*(self.listen(u) for u in urls))

    async def listen(self, url: str) -> None:
        async with websockets.connect(url, max_queue=None) as ws:
            while not self.stopping:
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    self.received += 1
                except TimeoutError:
                    pass

    def stop(self) -> int:
        self.stopping = True
        self.thread.join()
        return self.received


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=3000)
    ap.add_argument("--database-url", help="an empty database (default: a throwaway SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ratelimit-load-"))
    url = args.database_url or f"sqlite:///{tmp / 'hd.sqlite3'}"
    srv = ServerProc(url, log_dir=tmp, rate_limits="", game_seed=TEST_GAME_SEED).start()   # the defaults
    try:
        print(json.dumps({"floods": floods(srv.base, srv.ws_base)}, indent=1))
        print(json.dumps({"normal_game": normal_game(srv.base, srv.ws_base, args.decisions)}, indent=1))
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
