"""Benchmark of the game server (not a test).

Starts `python -m app serve` on a fresh database (SQLite file and/or a throwaway Postgres
database), then from this one client process:

  * scenario "1x2":        one game, its two player sockets, no spectators (same as "1x0");
  * scenario "1x500":      one game, 500 spectator sockets;
  * scenario "50x500":     50 concurrent games, 500 spectator sockets (10 per game);
  * scenario "50x500@200": the same, paced to about 200 actions/s in all (players think
                           ~0.25 s), so the latency is not queueing behind a saturated server;

In each, the side to act picks a random legal action as soon as its socket receives
its legal actions (closed loop, one decision in flight per game), over the websocket.
Reported: actions per second (all games together) and the latency from sending an
action to the moment EVERY socket watching that game (both players and all its
spectators) has received the resulting update: p50 and p99 per action; the server's
CPU time per action (summed over every server process, in microseconds), and the
kernel's share of it (on loopback a write to a socket also runs the receiving side);
the bytes a spectator receives per update, and the updates per read of a spectator's
socket (above 1: the server joined several updates into one write). Finally the memory of the server process per idle
socket (1,000 idle spectators).

Spectators follow the state as a browser does: protocol v2 ("changes": the state's
delta) by default, or with --full-state protocol v1 (?state=1: each "events" message
carries the whole state). Clients only look at the head of each message, so the figures
measure the server, not JSON parsing in the client.

--workers N (Postgres) starts N server processes on the same database; each game's
sockets are dealt across them (the two players on different processes, the spectators
in turn), so every move crosses processes, or with --deal games each game's sockets
all go to one process (games dealt in turn). --server-root runs the server of another
checkout (e.g. a `git worktree` of main, with --full-state) for before/after figures.

    .venv/bin/python bench/server_bench.py                      # both databases
    .venv/bin/python bench/server_bench.py --backend sqlite --seconds 10
    .venv/bin/python bench/server_bench.py --backend postgres --scenarios 50x0 --workers 2
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.server import helpers  # noqa: E402
from tests.server.helpers import DEFAULT_PG, ServerProc  # noqa: E402

SEQ_RE = re.compile(rb'"seq":(\d+)')
UPDATE_HEADS = (b'{"type":"events"', b'{"type":"changes"')
STATUS_RE = re.compile(rb'"status":"(\w+)"')


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class RawSpectator(asyncio.Protocol):
    """A minimal websocket client for spectators: it does the handshake, then only reads
    the seq at the head of each "events" frame, so 500 of them cost the client little and
    the figures measure the server."""

    def __init__(self, path: str, host: str, on_events):
        self.path, self.host, self.on_events = path, host, on_events
        self.buf = bytearray()
        self.open = False
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.first: asyncio.Future = asyncio.get_running_loop().create_future()
        self.transport = None
        self.update_bytes = 0
        self.updates = 0
        self.reads = 0  # data_received calls once open (one per server write, unless they merge)

    def connection_made(self, transport):
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                        .encode())

    def data_received(self, data):
        now = time.perf_counter()
        buf = self.buf
        buf += data
        if not self.open:
            i = buf.find(b"\r\n\r\n")
            if i < 0:
                return
            if self.opened.done():          # the opening timed out and was given up
                self.transport.close()
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(RuntimeError(bytes(buf[:200]).decode()))
                self.transport.close()      # refused: what follows is not a websocket's
                return
            del buf[:i + 4]
            self.open = True
            self.opened.set_result(True)
        else:
            self.reads += 1
        pos = 0
        n_buf = len(buf)
        while n_buf - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            n = b1 & 0x7F
            off = pos + 2
            if n == 126:
                if n_buf - pos < 4:
                    break
                n = int.from_bytes(buf[pos + 2:pos + 4], "big")
                off = pos + 4
            elif n == 127:
                if n_buf - pos < 10:
                    break
                n = int.from_bytes(buf[pos + 2:pos + 10], "big")
                off = pos + 10
            if n_buf < off + n:
                break
            op = b0 & 0x0F
            if op == 1:
                if not self.first.done():
                    self.first.set_result(True)
                elif buf[off:off + 16] == UPDATE_HEADS[0] or buf[off:off + 17] == UPDATE_HEADS[1]:
                    m = SEQ_RE.search(buf, off, off + 200)
                    self.updates += 1
                    self.update_bytes += n
                    self.on_events(int(m.group(1)), now)
            elif op == 9:  # ping -> pong (masked, as a client must)
                payload = bytes(buf[off:off + n])
                mask = os.urandom(4)
                self.transport.write(bytes((0x8A, 0x80 | len(payload))) + mask +
                                     bytes(c ^ mask[i % 4] for i, c in enumerate(payload)))
            elif op == 8:
                self.transport.close()
            pos = off + n
        del buf[:pos]

    def close(self):
        if self.transport and not self.transport.is_closing():
            mask = os.urandom(4)
            self.transport.write(bytes((0x88, 0x82)) + mask + bytes(c ^ mask[i % 4] for i, c in
                                                                    enumerate((1000).to_bytes(2, "big"))))
            self.transport.close()


async def raw_spectator(base_ws: str, path: str, on_events) -> RawSpectator:
    host, port = base_ws.split("//", 1)[1].split(":")
    loop = asyncio.get_running_loop()
    _, proto = await loop.create_connection(lambda: RawSpectator(path, f"{host}:{port}", on_events), host, int(port))
    await proto.opened
    await proto.first
    return proto


class Stats:
    def __init__(self):
        self.latencies: list[float] = []   # action -> every socket of that game
        self.first: list[float] = []       # action -> first socket
        self.actions = 0
        self.measuring = False


class Table:
    """One game: two player sockets plus its spectators."""

    def __init__(self, bench: "Bench", players, n_spectators: int, rng: random.Random):
        self.bench = bench
        self.players = players  # {"union": (username, token), ...}
        self.n_spectators = n_spectators
        self.rng = rng
        self.gid: str | None = None
        self.t_send = 0.0
        self.pending: dict[int, list] = {}
        self.receivers = 0
        self.stop = False
        self.moves_seen = 0  # updates that reached every socket of the table (warm-up)
        self.finished = False
        self.think = 0.0  # seconds a player waits before each decision (paced scenarios)
        self.index = 0  # the table's number (--deal games: its sockets all on server index % N)

    def server_of(self, k: int) -> ServerProc:
        """The server process of this table's k-th socket (0, 1: the players)."""
        srvs = self.bench.srvs
        if self.bench.args.deal == "games":
            return srvs[self.index % len(srvs)]
        return srvs[k % len(srvs)]

    def arrive(self, seq: int, t: float) -> None:
        e = self.pending.get(seq)
        if e is None:
            e = self.pending[seq] = [self.t_send, 0, t]
            if self.bench.stats.measuring:
                self.bench.stats.first.append(t - e[0])
        e[1] += 1
        e[2] = t
        if e[1] == self.receivers:
            del self.pending[seq]
            self.moves_seen += 1
            st = self.bench.stats
            if st.measuring:
                st.latencies.append(e[2] - e[0])
                st.actions += 1

    async def new_game(self) -> None:
        b = self.bench
        (_, ut), (_, ct) = self.players["union"], self.players["confederate"]
        r = await b.http.post("/api/games", json={"scenario": "1861", "side": "union"},
                              headers={"Authorization": f"Bearer {ut}"})
        r.raise_for_status()
        self.gid = r.json()["id"]
        r = await b.http.post(f"/api/games/{self.gid}/join", json={}, headers={"Authorization": f"Bearer {ct}"})
        r.raise_for_status()
        self.pending.clear()

    async def player(self, side: str, token: str) -> None:
        url = f"{self.server_of(int(side == 'confederate')).ws_base}/ws/games/{self.gid}?token={token}&state=0"
        async with websockets.connect(url, max_queue=None, compression=None, max_size=None) as ws:
            snap = json.loads(await ws.recv())
            seq = snap["seq"]
            legal = snap["legal"] if snap["to_act"] == side else []
            while not self.stop:
                if legal:
                    action = self.rng.choice(legal)
                    legal = []
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                    self.t_send = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": action, "expected_seq": seq}))
                msg = await ws.recv(decode=False)
                if msg[:16] == b'{"type":"events"':
                    seq = int(SEQ_RE.search(msg, 0, 200).group(1))
                    self.arrive(seq, time.perf_counter())
                    st = STATUS_RE.search(msg, 0, 300)
                    if st and st.group(1) != b"active":
                        self.finished = True
                        return
                elif msg[:15] == b'{"type":"legal"':
                    m = json.loads(msg)
                    if m["seq"] == seq and m["actions"]:
                        legal = m["actions"]
                elif msg[:15] == b'{"type":"error"':
                    raise RuntimeError(msg.decode())

    async def run(self) -> None:
        """Play games back to back until told to stop."""
        b = self.bench
        while not self.stop:
            await self.new_game()
            self.finished = False
            self.receivers = 2 + self.n_spectators
            path = f"/ws/games/{self.gid}?{b.spectator_query()}"
            socks = []
            for i in range(self.n_spectators):
                socks.append(await raw_spectator(self.server_of(i).ws_base, path, self.arrive))
            b.spectators.extend(socks)  # their traffic counts while they live
            tasks = [asyncio.create_task(self.player(side, tok)) for side, (_, tok) in self.players.items()]
            try:
                await asyncio.gather(*tasks)
            finally:
                for sp in socks:
                    sp.close()
            if not self.finished:
                break


class Bench:
    def __init__(self, args, srvs: list[ServerProc]):
        self.args = args
        self.srvs = srvs
        self.srv = srvs[0]
        self.stats = Stats()
        self.http = httpx.AsyncClient(base_url=self.srv.base, timeout=60)
        self.spectators: list[RawSpectator] = []

    def spectator_query(self) -> str:
        if self.args.no_state:
            return "state=0"
        return "state=1" if self.args.full_state else "v=2"

    def cpu(self) -> tuple[float, float]:
        """(user, system) CPU seconds used so far by every server process (and the processes
        they started)."""
        times = [_cpu_tree(srv.proc.pid) for srv in self.srvs]
        return sum(u for u, _ in times), sum(s for _, s in times)

    def update_traffic(self) -> tuple[int, int, int]:
        """(bytes, updates, reads) the spectators received so far."""
        return (sum(sp.update_bytes for sp in self.spectators), sum(sp.updates for sp in self.spectators),
                sum(sp.reads for sp in self.spectators))

    async def users(self, n: int) -> list[tuple[str, str]]:
        out = []
        sem = asyncio.Semaphore(8)

        async def one():
            async with sem:
                name = "b" + uuid.uuid4().hex[:12]
                r = await self.http.post("/api/auth/register", json={"username": name, "password": "benchmark-pw"})
                r.raise_for_status()
                out.append((name, r.json()["token"]))
        await asyncio.gather(*(one() for _ in range(n)))
        return out

    async def scenario(self, name: str, games: int, spectators: int, seconds: float, rate: float = 0) -> dict:
        users = await self.users(2 * games)
        per_game = [spectators // games + (1 if i < spectators % games else 0) for i in range(games)]
        tables = [Table(self, {"union": users[2 * i], "confederate": users[2 * i + 1]}, per_game[i],
                        random.Random(i)) for i in range(games)]
        for i, t in enumerate(tables):
            t.index = i
            if rate:
                t.think = games / rate
        self.stats = Stats()
        runs = [asyncio.create_task(t.run()) for t in tables]
        # warm up: every table connected and a few of its moves reached all its sockets (on a
        # busy machine creating 50 games takes longer than any fixed pause)
        await asyncio.sleep(max(2.0, spectators / 250))
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not all(t.moves_seen >= 3 for t in tables):
            await asyncio.sleep(0.2)
        t0 = time.perf_counter()
        self.stats.measuring = True
        (user0, sys0), (bytes0, n0, reads0) = self.cpu(), self.update_traffic()
        await asyncio.sleep(seconds)
        self.stats.measuring = False
        elapsed = time.perf_counter() - t0
        (user1, sys1), (bytes1, n1, reads1) = self.cpu(), self.update_traffic()
        cpu = (user1 - user0) + (sys1 - sys0)
        for t in tables:
            t.stop = True
        await asyncio.sleep(0.5)
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        st = self.stats
        ms = [x * 1000 for x in st.latencies]
        first = [x * 1000 for x in st.first]
        res = {"scenario": name, "games": games, "spectators": spectators, "actions": st.actions,
               "actions_per_s": round(st.actions / elapsed, 1),
               "p50_ms_all_sockets": round(pct(ms, 50), 2), "p99_ms_all_sockets": round(pct(ms, 99), 2),
               "p50_ms_first_socket": round(pct(first, 50), 2),
               "server_cpu_percent": round(100 * cpu / elapsed, 0),
               "server_cpu_us_per_action": round(1e6 * cpu / max(1, st.actions)),
               # the kernel's share (system calls: on loopback a write also runs the receiving side)
               "server_sys_us_per_action": round(1e6 * (sys1 - sys0) / max(1, st.actions)),
               "bytes_per_update": round((bytes1 - bytes0) / (n1 - n0)) if n1 > n0 else None,
               # more than 1: the server joined several updates into one write to a spectator
               "updates_per_spectator_read": round((n1 - n0) / (reads1 - reads0), 2) if reads1 > reads0 else None,
               "workers": len(self.srvs), "deal": self.args.deal, "spectators_follow": self.spectator_query(),
               "load_average": [round(x, 2) for x in os.getloadavg()]}
        print(json.dumps(res), flush=True)
        return res

    async def idle_memory(self, n: int) -> dict:
        (name, tok), (name2, tok2) = await self.users(2)
        r = await self.http.post("/api/games", json={"scenario": "1861", "side": "union"},
                                 headers={"Authorization": f"Bearer {tok}"})
        gid = r.json()["id"]
        await self.http.post(f"/api/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {tok2}"})
        path = f"/ws/games/{gid}"
        # warm up: a few sockets, so caches and code paths exist before measuring
        warm = [await raw_spectator(self.srv.ws_base, path, lambda *a: None) for _ in range(20)]
        await asyncio.sleep(1)
        before = rss_kb(self.srv.proc.pid)
        socks = [await raw_spectator(self.srv.ws_base, path, lambda *a: None) for _ in range(n)]
        await asyncio.sleep(2)
        after = rss_kb(self.srv.proc.pid)
        res = {"idle_sockets": n, "rss_before_mb": round(before / 1024, 1), "rss_after_mb": round(after / 1024, 1),
               "kb_per_idle_socket": round((after - before) / n, 1)}
        print(json.dumps(res), flush=True)
        for sp in socks + warm:
            sp.close()
        return res


def _cpu(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process."""
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(parts[11]) / tick, int(parts[12]) / tick


def _cpu_tree(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process and its live children (uvicorn's worker
    processes)."""
    user, system = _cpu(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for child in children:
        try:
            child_user, child_system = _cpu_tree(int(child))
        except OSError:
            continue
        user, system = user + child_user, system + child_system
    return user, system


async def run_backend(args, backend: str) -> list[dict]:
    tmp = tempfile.mkdtemp(prefix="hd-bench-")
    dropdb = None
    if backend == "postgres":
        import psycopg
        admin = args.pg_url
        db_name = f"hd_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{db_name}"')
        url = admin.rsplit("/", 1)[0] + "/" + db_name

        def dropdb():
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    else:
        url = f"sqlite:///{tmp}/bench.sqlite3"
    if args.server_root:
        helpers.ROOT = Path(args.server_root).resolve()  # ServerProc runs `python -m app` there
    n = args.workers if backend == "postgres" else 1
    srvs = [ServerProc(url, log_dir=Path(tmp), log_level="warning").start() for _ in range(n)]
    results = []
    try:
        bench = Bench(args, srvs)
        print(f"# backend {backend}  server pids {[s.proc.pid for s in srvs]}  root {helpers.ROOT}", flush=True)
        if not args.no_memory:  # first, while the process is fresh
            r = await bench.idle_memory(args.idle)
            r["backend"] = backend
            results.append(r)
        for name in [x for x in args.scenarios.split(",") if x]:
            base, _, rate = name.partition("@")   # "50x500@200": paced to about 200 actions/s in all
            games, specs = (1, 0) if base == "1x2" else (int(x) for x in base.split("x"))
            r = await bench.scenario(name, games, specs, args.seconds, float(rate or 0))
            r["backend"] = backend
            results.append(r)
        await bench.http.aclose()
    finally:
        for s in srvs:
            s.stop()
        if dropdb:
            dropdb()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"# server log and database kept in {tmp}", flush=True)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    ap.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--scenarios", default="1x2,1x500,50x500,50x500@200",
                    help="GAMESxSPECTATORS[@ACTIONS_PER_S], comma separated; without @ every game plays "
                         "as fast as it can (closed loop)")
    ap.add_argument("--idle", type=int, default=1000)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-state", action="store_true", help="spectators ask for events without the state")
    ap.add_argument("--full-state", action="store_true",
                    help="spectators use protocol v1 with the whole state in every update (?state=1)")
    ap.add_argument("--workers", type=int, default=1, help="server processes on the same database (Postgres)")
    ap.add_argument("--server-root", help="run the server from this checkout (before/after figures)")
    ap.add_argument("--deal", choices=["sockets", "games"], default="sockets",
                    help="with several workers: every game's sockets across them (each move crosses "
                         "processes), or whole games to one worker each")
    ap.add_argument("--json", help="write all results to this file")
    ap.add_argument("--keep", action="store_true", help="keep the server log and SQLite file")
    args = ap.parse_args()
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    results = []
    for b in backends:
        results += asyncio.run(run_backend(args, b))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    print("\n| backend | workers | scenario | actions/s | p50 ms (all sockets) | p99 ms (all sockets) | "
          "server CPU us/action | bytes/update | load average |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if "scenario" in r:
            print(f"| {r['backend']} | {r['workers']} | {r['scenario']} | {r['actions_per_s']} | "
                  f"{r['p50_ms_all_sockets']} | {r['p99_ms_all_sockets']} | {r['server_cpu_us_per_action']} | "
                  f"{r['bytes_per_update']} | {r['load_average']} |")
    for r in results:
        if "idle_sockets" in r:
            print(f"\n{r['backend']}: {r['kb_per_idle_socket']} KB per idle socket "
                  f"({r['idle_sockets']} sockets, RSS {r['rss_before_mb']} -> {r['rss_after_mb']} MB)")


if __name__ == "__main__":
    main()
