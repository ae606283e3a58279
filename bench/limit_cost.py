"""What counting the rate limits in the database (RATE_LIMIT_STORE=database, so that they
hold for all the processes on it) costs against counting in each process alone
(RATE_LIMIT_STORE=process). Not a test.

1. In one process: the time of one RateLimiter.hit, for a small limit (chat, 20/60:
   every event is counted in the table, here each with a new key, an insert: the worst
   case) and for a large one (action, 1800/60: taken from the table in chunks of 56).
2. End to end, a server of each kind: the latency of a rate-limited request (POST
   /api/auth/password-reset, counted per address, each from a new address) and of opening
   a websocket (the "socket" limit, per address), p50 and p99.

    .venv/bin/python bench/limit_cost.py [--requests 300] [--backend sqlite|postgres|both]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import psycopg
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.config import normalize_database_url  # noqa: E402
from app.guard.ratelimit import RateLimiter, parse_limits  # noqa: E402
from app.guard.shared import TableCounts  # noqa: E402
from app.store.db import Database  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402
from tests.server.helpers import DEFAULT_PG, ServerProc  # noqa: E402


def percentiles(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"p50 {statistics.median(ms):.3f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.3f} ms"


def hits(limiter: RateLimiter, name: str, keys: list[str]) -> list[float]:
    out = []
    for key in keys:
        t0 = time.perf_counter()
        limiter.hit(name, key)
        out.append(time.perf_counter() - t0)
    return out


def in_process(url: str | None, n: int) -> None:
    db = Database(normalize_database_url(url)) if url else None
    shared = TableCounts(db) if db else None
    limiter = RateLimiter(parse_limits(""), shared=shared)
    try:
        small = hits(limiter, "chat", [f"user:{uuid.uuid4().hex}" for _ in range(n)])
        large = hits(limiter, "action", ["user:1"] * min(n, 1800))
    finally:
        if db:
            db.dispose()
    where = "the table" if url else "this process only"
    print(f"  {where:17s} hit, chat (new key each): {percentiles(small)}; action (one key): {percentiles(large)}")


def end_to_end(urls: dict[str, str], n: int, log_dir: Path) -> None:
    """One server of each kind at once, their requests taken in turn (so that the load
    of the machine weighs on both alike)."""
    servers = {store: ServerProc(url, log_dir=log_dir, rate_limit_store=store,
                                 rate_limits="password_reset=5/3600,socket=30/60").start()
               for store, url in urls.items()}
    resets: dict[str, list[float]] = {store: [] for store in servers}
    opens: dict[str, list[float]] = {store: [] for store in servers}
    try:
        clients = {store: httpx.Client(base_url=srv.base, timeout=30) for store, srv in servers.items()}
        for i in range(n):
            for store, http in clients.items():
                t0 = time.perf_counter()
                r = http.post("/api/auth/password-reset", json={"email": "nobody@example.org"},
                              headers={"X-Forwarded-For": f"198.18.{i // 250}.{i % 250 + 1}"})
                resets[store].append(time.perf_counter() - t0)
                assert r.status_code == 202, r.text
        for i in range(n):
            for store, srv in servers.items():
                opens[store].append(asyncio.run(socket_open(srv.ws_base, f"198.19.{i // 250}.{i % 250 + 1}")))
    finally:
        for srv in servers.values():
            srv.stop()
    for store in servers:
        print(f"  {store:8s} password-reset: {percentiles(resets[store])}; websocket open: {percentiles(opens[store])}")


async def socket_open(ws_base: str, address: str) -> float:
    t0 = time.perf_counter()
    async with websockets.connect(f"{ws_base}/ws/games/nosuchgame", additional_headers={"X-Forwarded-For": address}) as ws:
        await ws.recv()
    return time.perf_counter() - t0


def pg_database(admin_url: str) -> tuple[str, str]:
    name = f"hd_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return name, admin_url.rpartition("/")[0] + "/" + name


def drop(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    ap.add_argument("--pg-url", default=DEFAULT_PG)
    args = ap.parse_args()
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            made: list[str] = []

            def fresh(backend: str = backend, made: list[str] = made) -> str:
                if backend == "sqlite":
                    return f"sqlite:///{Path(tmp) / uuid.uuid4().hex}.sqlite3"
                name, url = pg_database(args.pg_url)
                made.append(name)
                return url
            try:
                print(f"{backend}, in one process:")
                in_process(None, args.requests)
                url = fresh()
                upgrade(url)
                in_process(url, args.requests)
                print(f"{backend}, end to end ({args.requests} each):")
                end_to_end({store: fresh() for store in ("process", "database")}, args.requests, Path(tmp))
            finally:
                for name in made:
                    drop(args.pg_url, name)


if __name__ == "__main__":
    main()
