"""Test helpers: real server processes, HTTP players and websocket clients."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

from app.guard.ratelimit import DEFAULT_LIMITS
from tests.isolation import free_port

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
# the dice seed of every game on a server started with game_seed=TEST_GAME_SEED: random
# play is then repeatable, and tests that need a long game need no retries
TEST_GAME_SEED = "0123456789abcdef" * 4
# test servers are hit by many players from one address: limits no test meets unless it
# starts its own server with RATE_LIMITS of its own (tests/server/test_ratelimits.py)
GENEROUS_RATE_LIMITS = ",".join(f"{name}=1000000/1" for name in DEFAULT_LIMITS)
# likewise the caps on open websockets (the benchmarks open hundreds from one address)
GENEROUS_SOCKET_CAPS = {"WS_SOCKETS_PER_ADDRESS": "100000", "WS_SOCKETS_PER_ACCOUNT": "100000"}


class ServerProc:
    """`python -m app serve` in a subprocess (so a test can kill and restart it)."""

    def __init__(self, database_url: str, port: int | None = None, log_dir: Path | None = None, **env):
        self.database_url = database_url
        self.port = port or free_port()
        self.chose_port = port is None   # then a port taken meanwhile by another process is no failure
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.log_dir = log_dir
        self.log_path: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> "ServerProc":
        env = dict(os.environ)
        env.update({"DATABASE_URL": self.database_url, "SECRET_KEY": "test-secret-key-of-at-least-32-bytes",
                    "RATE_LIMITS": GENEROUS_RATE_LIMITS, **GENEROUS_SOCKET_CAPS,
                    "PUBLIC_URL": self.base, "LOG_LEVEL": "warning",
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))})
        env.update({k.upper(): str(v) for k, v in self.env.items()})
        log_dir = self.log_dir or Path(os.environ.get("TMPDIR", "/tmp"))
        self.log_path = log_dir / f"server-{self.port}-{uuid.uuid4().hex[:6]}.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port)], cwd=str(ROOT), env=env,
                                     stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if self.chose_port and "address already in use" in self.log():
                    self._log.close()
                    self.port = free_port()
                    return self.start(timeout)
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                # ready, not just up: on Postgres the event listener must be listening
                if httpx.get(self.base + "/api/ready", timeout=1).status_code == 200:
                    self.chose_port = False   # a restart comes back where the clients expect it
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()  # do not leave a half-started server behind
        raise RuntimeError(f"server did not start:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:] if self.log_path else ""
        except OSError:
            return ""

    def kill(self) -> None:
        """Hard stop, like a crash: no shutdown handlers run."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if getattr(self, "_log", None):
            self._log.close()


def uname(prefix: str = "u") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


class Player:
    """A registered user talking to a server over HTTP with a bearer token."""

    def __init__(self, base: str, username: str | None = None, password: str = "password123"):
        self.base = base
        self.username = username or uname()
        self.password = password
        r = httpx.post(base + "/api/auth/register", json={"username": self.username, "password": password})
        assert r.status_code == 201, r.text
        self.user_id = r.json()["id"]
        self.token = r.json()["token"]
        self.http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {self.token}"}, timeout=30)

    def create(self, side="union", scenario="1861", mode="live", private=False, options=()) -> dict:
        r = self.http.post("/api/games", json={"scenario": scenario, "side": side, "mode": mode,
                                                "private": private, "options": list(options)})
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, gid: str, **body) -> httpx.Response:
        return self.http.post(f"/api/games/{gid}/join", json=body)

    def game(self, gid: str) -> dict:
        r = self.http.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        return r.json()

    def legal(self, gid: str) -> dict:
        r = self.http.get(f"/api/games/{gid}/legal")
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, gid: str, action: dict, **kw) -> httpx.Response:
        return self.http.post(f"/api/games/{gid}/actions", json={"action": action, **kw})

    def close(self):
        self.http.close()


def events(base: str, gid: str, after: int = 0) -> list[dict]:
    r = httpx.get(f"{base}/api/games/{gid}/events", params={"after": after}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["events"]


def new_match(base: str, scenario: str = "1861") -> tuple[Player, Player, str]:
    """Two players and a started game (a plays the Union)."""
    a, b = Player(base), Player(base)
    gid = a.create(side="union", scenario=scenario)["id"]
    r = b.join(gid)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active"
    return a, b, gid


def players_by_side(a: Player, b: Player) -> dict[str, Player]:
    return {"union": a, "confederate": b}


def play_random(base: str, seats: dict[str, Player], gid: str, rng, max_decisions: int,
                stop=None) -> int:
    """Random legal play over HTTP; returns the number of decisions made."""
    n = 0
    while n < max_decisions:
        g = seats["union"].game(gid)
        if g["status"] != "active":
            break
        p = seats[g["to_act"]]
        lg = p.legal(gid)
        assert lg["actions"], lg
        action = rng.choice(lg["actions"])
        r = p.act(gid, action, expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
        n += 1
        if stop and stop(r.json()):
            break
    return n


def effective_engine_events(evs: list[dict]) -> list[dict]:
    """The engine history: engine events minus the spans taken back by undo events."""
    eff: list[tuple[int, dict]] = []
    for e in evs:
        if e["source"] == "engine":
            eff.append((e["seq"], e["data"]))
        elif e["type"] == "undo":
            k = e["data"]["to_seq"]
            eff = [(s, d) for s, d in eff if s < k]
    return [d for _, d in eff]


async def ws_recv(ws, timeout: float = 10) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def ws_until(ws, pred, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no matching message")
        m = await ws_recv(ws, left)
        if pred(m):
            return m


def active_match_after(base: str, decisions: int, seed: int):
    """A started game still in progress after `decisions` random decisions. The server
    must deal its dice from TEST_GAME_SEED (the game_seed setting): then the same random
    play gives the same game every time, one that does not end early."""
    import random
    a, b, gid = new_match(base)
    play_random(base, {"union": a, "confederate": b}, gid, random.Random(seed), decisions)
    assert a.game(gid)["status"] == "active", "the game ended early: is the server on TEST_GAME_SEED?"
    return a, b, gid


def said_by_the_browser(events: list[dict], tmp_path: Path, lang: str = "en") -> list[str | None]:
    """The events as static/words.js says them (in node), with the page's words in `lang`."""
    from app.notices.words import box_names, words_data
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"events": events, "words": words_data(lang), "boxes": box_names()}))
    script = tmp_path / "say.mjs"
    script.write_text(
        'import fs from "fs";\n'
        'const c = JSON.parse(fs.readFileSync(process.argv[2]));\n'
        'globalThis.document = { getElementById: () => ({ textContent: JSON.stringify(c.words) }) };\n'
        'const { Narrator } = await import(process.argv[3]);\n'
        'const n = new Narrator((id) => c.boxes[id] || String(id));\n'
        'process.stdout.write(JSON.stringify(c.events.map((e) => n.say(e).text)));\n')
    out = subprocess.run(["node", str(script), str(case), (ROOT / "static" / "words.js").as_uri()],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def service_match(db):
    """An in-process game service on `db` (migrated) with a started 1861 game: alice
    (union) against bob. (service, {side: user}, game id)"""
    from app.accounts.auth import Accounts
    from app.games.service import GameService

    svc = GameService(db, game_seed=TEST_GAME_SEED)
    acc = Accounts(db, "k", 30)
    users = {"union": acc.register("alice", "password1", None), "confederate": acc.register("bob", "password1", None)}
    gid = svc.create_game(users["union"], "1861", [], "union", "live", False)["id"]
    svc.join(users["confederate"], gid)
    return svc, users, gid
