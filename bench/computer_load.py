"""Benchmark (not a test): does a server busy with games against the expert keep people's
moves fast?

Starts `python -m app serve` on a fresh database (SQLite, or a throwaway Postgres
database with --backend postgres) with the computer's default settings (worker processes
at a lower CPU priority, COMPUTER_DELAY_SECONDS 0.6), then from this one client process:

  * --games (20) games against the computer at --level (expert), all at once: in each a
    person's websocket answers its legal actions with a random one after a pause like a
    quick person's (--think, seconds: uniform between half and one and a half of it); a
    game that ends is followed by a new one, so the computer always has games to think in;
  * one game between two people over their websockets, who take turns making random
    legal moves --pause seconds apart: the latency of each of their moves, from sending
    the action to the moment both players' sockets have its update, is the figure.

Reported (one JSON line): p50, p99 and max of that latency over --seconds of
measurement (after a warm-up in which every game against the computer has had an answer
from it), the moves measured, the computer's moves in the window and its answer time
(from a person's move to their next legal actions when the computer moved in between:
thinking plus the delay), the CPU the
server process and the computer's worker processes used, the load average (1 minute:
at the end, and the mean and max sampled every second), and the exact command.

    .venv/bin/python bench/computer_load.py                       # 20 expert games, SQLite, 60 s
    .venv/bin/python bench/computer_load.py --games 0             # the same person's game alone
    .venv/bin/python bench/computer_load.py --backend postgres --seconds 120

The target: p99 under 50 ms with 20 games against the expert running.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shlex
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.server.helpers import DEFAULT_PG, ServerProc  # noqa: E402

SEQ_RE = re.compile(rb'"seq":(\d+)')
STATUS_RE = re.compile(rb'"status":"(\w+)"')


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))]


def _cpu(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def cpu_split(pid: int) -> tuple[float, float]:
    """(CPU seconds of the server process, of its computer worker processes)."""
    workers = 0.0
    for child in _children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers += _cpu(child)
        except OSError:
            continue
    return _cpu(pid), workers


class Load:
    def __init__(self, args, srv: ServerProc):
        self.args, self.srv = args, srv
        self.http = httpx.AsyncClient(base_url=srv.base, timeout=120)
        self.measuring = False
        self.stop = False
        self.latencies: list[float] = []       # the people's game: action -> both sockets
        self.answers: list[float] = []         # games against the computer: move -> next legal actions
        self.computer_moves = 0
        self.answered = 0                      # games against the computer with an answer so far

    async def user(self) -> tuple[str, str]:
        name = "l" + uuid.uuid4().hex[:12]
        r = await self.http.post("/api/auth/register", json={"username": name, "password": "benchmark-pw"})
        r.raise_for_status()
        return name, r.json()["token"]

    # ------------------------------------------------------------ games against the computer
    async def against_computer(self, index: int) -> None:
        rng = random.Random(index)
        _, token = await self.user()
        side = "union" if index % 2 else "confederate"   # the computer plays both sides in turn
        first = True
        while not self.stop:
            r = await self.http.post("/api/games", headers={"Authorization": f"Bearer {token}"},
                                     json={"scenario": self.args.scenario, "side": side,
                                           "opponent": {"computer": self.args.level}})
            r.raise_for_status()
            gid = r.json()["id"]
            await self.person(gid, token, rng, first)
            first = False

    async def person(self, gid: str, token: str, rng: random.Random, first: bool) -> None:
        url = f"{self.srv.ws_base}/ws/games/{gid}?token={token}&state=0"
        async with websockets.connect(url, max_queue=None, compression=None, max_size=None) as ws:
            snap = json.loads(await ws.recv())
            seq, legal, sent, own_seen, replied = snap["seq"], snap["legal"], None, False, False
            while not self.stop:
                if legal:
                    action, legal = rng.choice(legal), []
                    await asyncio.sleep(self.args.think * (0.5 + rng.random()))
                    await ws.send(json.dumps({"type": "action", "action": action, "expected_seq": seq}))
                    sent, own_seen, replied = time.perf_counter(), False, False
                msg = await ws.recv(decode=False)
                if msg[:16] == b'{"type":"events"':
                    seq = int(SEQ_RE.search(msg, 0, 200).group(1))
                    computer = sent is None or own_seen   # every update but the one of the person's own move
                    own_seen, replied = own_seen or sent is not None, replied or computer
                    if self.measuring and computer:
                        self.computer_moves += 1
                    st = STATUS_RE.search(msg, 0, 300)
                    if st and st.group(1) != b"active":
                        return
                elif msg[:15] == b'{"type":"legal"':
                    m = json.loads(msg)
                    if m["seq"] == seq and m["actions"]:
                        legal = m["actions"]
                        if sent is not None and replied and self.measuring:
                            self.answers.append(time.perf_counter() - sent)
                        if first:
                            self.answered, first = self.answered + 1, False
                        sent = None
                elif msg[:15] == b'{"type":"error"':
                    if json.loads(msg)["status"] != 409:  # stale (the computer moved first): legal comes again
                        raise RuntimeError(msg.decode())

    # ------------------------------------------------------------ the people's game
    async def people(self) -> None:
        rng = random.Random(99)
        (_, a), (_, b) = await self.user(), await self.user()
        while not self.stop:
            r = await self.http.post("/api/games", json={"scenario": "1861", "side": "union"},
                                     headers={"Authorization": f"Bearer {a}"})
            gid = r.json()["id"]
            await self.http.post(f"/api/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {b}"})
            game = {"pending": {}, "t_send": 0.0, "over": False}
            await asyncio.gather(*(self.player(gid, side, tok, rng, game)
                                   for side, tok in (("union", a), ("confederate", b))))

    async def player(self, gid: str, side: str, token: str, rng: random.Random, game: dict) -> None:
        url = f"{self.srv.ws_base}/ws/games/{gid}?token={token}&state=0"
        async with websockets.connect(url, max_queue=None, compression=None, max_size=None) as ws:
            snap = json.loads(await ws.recv())
            seq = snap["seq"]
            legal = snap["legal"] if snap["to_act"] == side else []
            while not self.stop and not game["over"]:
                if legal:
                    action, legal = rng.choice(legal), []
                    await asyncio.sleep(self.args.pause)
                    game["t_send"] = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": action, "expected_seq": seq}))
                try:
                    msg = await asyncio.wait_for(ws.recv(decode=False), 1.0)
                except asyncio.TimeoutError:
                    continue
                if msg[:16] == b'{"type":"events"':
                    seq = int(SEQ_RE.search(msg, 0, 200).group(1))
                    self.arrived(game, seq, time.perf_counter())
                    st = STATUS_RE.search(msg, 0, 300)
                    if st and st.group(1) != b"active":
                        game["over"] = True
                elif msg[:15] == b'{"type":"legal"':
                    m = json.loads(msg)
                    if m["seq"] == seq and m["actions"]:
                        legal = m["actions"]

    def arrived(self, game: dict, seq: int, now: float) -> None:
        got = game["pending"].setdefault(seq, [game["t_send"], 0])
        got[1] += 1
        if got[1] == 2:   # both players' sockets have it
            del game["pending"][seq]
            if self.measuring:
                self.latencies.append(now - got[0])

    # ------------------------------------------------------------ the run
    async def run(self) -> dict:
        tasks = [asyncio.create_task(self.against_computer(i)) for i in range(self.args.games)]
        tasks.append(asyncio.create_task(self.people()))
        deadline = time.monotonic() + 300
        while self.answered < self.args.games and time.monotonic() < deadline:
            await asyncio.sleep(0.5)   # warm-up: every worker started, every game answered once
            for t in tasks:
                if t.done() and t.exception():
                    raise t.exception()
        await asyncio.sleep(2)
        cpu0, t0, loads = cpu_split(self.srv.proc.pid), time.perf_counter(), []
        self.measuring = True
        while time.perf_counter() - t0 < self.args.seconds:
            await asyncio.sleep(1)
            loads.append(os.getloadavg()[0])
        self.measuring = False
        elapsed, cpu1 = time.perf_counter() - t0, cpu_split(self.srv.proc.pid)
        self.stop = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        ms = [x * 1000 for x in self.latencies]
        answers = [x * 1000 for x in self.answers]
        return {"games_against_computer": self.args.games, "level": self.args.level, "scenario": self.args.scenario,
                "backend": self.args.backend, "seconds": round(elapsed, 1),
                "person_moves": len(ms), "person_p50_ms": round(pct(ms, 50), 2),
                "person_p99_ms": round(pct(ms, 99), 2), "person_max_ms": round(max(ms, default=float("nan")), 2),
                "computer_moves": self.computer_moves,
                "computer_answer_p50_ms": round(pct(answers, 50)), "computer_answer_p99_ms": round(pct(answers, 99)),
                "server_cpu_percent": round(100 * (cpu1[0] - cpu0[0]) / elapsed),
                "workers_cpu_percent": round(100 * (cpu1[1] - cpu0[1]) / elapsed),
                "load_average_end": [round(x, 2) for x in os.getloadavg()],
                "load_1min_mean": round(sum(loads) / max(1, len(loads)), 2),
                "load_1min_max": round(max(loads, default=0.0), 2), "cores": os.cpu_count(),
                "command": " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv])}


async def main_async(args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        if args.backend == "postgres":
            import psycopg
            admin = os.environ.get("TEST_DATABASE_URL", DEFAULT_PG)
            name = f"hd_bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'CREATE DATABASE "{name}"')
            url = admin.rsplit("/", 1)[0] + "/" + name
        else:
            url = f"sqlite:///{tmp}/bench.sqlite3"
        srv = ServerProc(url, log_dir=Path(tmp)).start()
        try:
            return await Load(args, srv).run()
        finally:
            srv.stop()
            if args.backend == "postgres":
                with psycopg.connect(admin, autocommit=True) as c:
                    c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="games against the computer at once")
    p.add_argument("--level", default="expert")
    p.add_argument("--scenario", default="1861", help="of the games against the computer")
    p.add_argument("--seconds", type=float, default=60.0, help="measurement window")
    p.add_argument("--think", type=float, default=1.0, help="mean pause of the people playing the computer")
    p.add_argument("--pause", type=float, default=0.25, help="pause between the measured people's moves")
    p.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    print(json.dumps(asyncio.run(main_async(p.parse_args()))), flush=True)


if __name__ == "__main__":
    main()
