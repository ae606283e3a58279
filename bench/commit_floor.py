"""What one durable commit costs this machine's Postgres (not a test).

The floor under one game's moves per second: a game has one decision in flight (the next
move depends on this one's result), and a move is acknowledged only once its commit is
on disk, so one game cannot go faster than one commit round trip per move, before any
server or client work. This times N single-row INSERTs of an event-sized row, each its
own transaction with Postgres's default durability (synchronous_commit on), from one
connection, as the server's append does; and, for comparison only, the same with
synchronous_commit off (which the server never uses: it could lose acknowledged moves).

    .venv/bin/python bench/commit_floor.py
    .venv/bin/python bench/commit_floor.py --pg-url postgresql://postgres@127.0.0.1:5432/postgres --rows 5000
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import uuid

import psycopg

EVENT_BYTES = 900  # about one move's events as the append stores them


def commit_times(conn: psycopg.Connection, table: str, rows: int) -> list[float]:
    body = "x" * EVENT_BYTES
    times = []
    for seq in range(rows):
        started = time.perf_counter()
        conn.execute(f"INSERT INTO {table} (seq, body) VALUES (%s, %s)", (seq, body))
        times.append(time.perf_counter() - started)
    return times


def summary(times: list[float], cpu_s: float) -> dict:
    ordered = sorted(times)
    return {"commits": len(times),
            "median_us": round(statistics.median(ordered) * 1e6),
            "p99_us": round(ordered[int(len(ordered) * 0.99) - 1] * 1e6),
            "client_cpu_us": round(cpu_s / len(times) * 1e6),
            "ceiling_moves_per_s": round(len(times) / sum(times))}


def measure(conn: psycopg.Connection, table: str, rows: int) -> dict:
    before = os.times()
    times = commit_times(conn, table, rows)
    after = os.times()
    return summary(times, (after.user + after.system) - (before.user + before.system))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--rows", type=int, default=3000)
    args = parser.parse_args()
    table = f"commit_floor_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, seq int, body text)")
        try:
            report = {"load_average": [round(x, 2) for x in os.getloadavg()],
                      "durable": measure(conn, table, args.rows)}
            conn.execute("SET synchronous_commit = off")
            report["not_durable_for_comparison"] = measure(conn, table, args.rows)
        finally:
            conn.execute(f"DROP TABLE {table}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
