"""The fastest one game could go on this machine and this stack (not a test).

One game has one decision in flight: the player's program sends an action, waits for
the new legal actions, picks one and sends it. Here the same client library as the
players of `server_bench.py` (websockets, JSON) talks to a bare server on the same
stack as the site (uvicorn with uvloop and its websockets-sansio protocol, a plain
ASGI app: no FastAPI, no rules, no game), which for each action either

  * "echo":   answers at once with an "events" and a "legal" message, or
  * "commit": first INSERTs an event-sized row into Postgres as its own transaction
              with Postgres's default durability (what acknowledging a move needs:
              `commit_floor.py` times that alone), on the event loop, then answers.

Reported: round trips per second and their p50/p99. Every real move costs what
"commit" costs and then the site's own work (the rules, the hash chain, the append's
larger statement, the fan-out), so "commit" is the ceiling of `server_bench.py
--scenarios 1x2` on Postgres here, and the difference between the two figures is the
whole of the site's own time per move.

    .venv/bin/python bench/move_floor.py
    .venv/bin/python bench/move_floor.py --seconds 10 --pg-url postgresql://postgres@127.0.0.1:5432/postgres
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid

import psycopg
import websockets

EVENT_BYTES = 900  # about one move's events as the append stores them
LEGAL = [{"type": "move", "unit": f"U{i}", "to": "Washington"} for i in range(25)]  # a typical legal list


def bare_app(pg_url: str | None):
    """The ASGI app of the server process: a websocket that answers every action."""
    conn = psycopg.connect(pg_url, autocommit=True) if pg_url else None
    table = f"move_floor_{uuid.uuid4().hex[:8]}"
    if conn is not None:
        conn.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, seq int, body text)")
    body = "x" * EVENT_BYTES

    async def lifespan(receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                if conn is not None:
                    conn.execute(f"DROP TABLE {table}")
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            return await lifespan(receive, send)
        await receive()
        await send({"type": "websocket.accept"})
        seq = 0
        while (message := await receive())["type"] == "websocket.receive":
            action = json.loads(message["text"])["action"]
            seq += 1
            if conn is not None:
                conn.execute(f"INSERT INTO {table} (seq, body) VALUES (%s, %s)", (seq, body))
            events = {"type": "events", "seq": seq, "events": [{"seq": seq, "type": "action", "data": action}]}
            await send({"type": "websocket.send", "text": json.dumps(events)})
            await send({"type": "websocket.send", "text": json.dumps({"type": "legal", "seq": seq, "actions": LEGAL})})
    return app


def serve(port: int, pg_url: str | None) -> None:
    import uvicorn
    uvicorn.run(bare_app(pg_url), host="127.0.0.1", port=port, ws="websockets-sansio", loop="uvloop",
                log_level="warning")


async def play(port: int, seconds: float) -> list[float]:
    """Round trips of one closed-loop player, as server_bench.py's players make them."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_queue=None, compression=None,
                                  max_size=None) as ws:
        action, seq, times = LEGAL[0], 0, []
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": action, "expected_seq": seq}))
            await ws.recv(decode=False)
            legal = json.loads(await ws.recv())
            seq, action = legal["seq"], legal["actions"][seq % len(legal["actions"])]
            times.append(time.perf_counter() - sent)
        return times


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(variant: str, pg_url: str, seconds: float) -> dict:
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--pg-url", pg_url]
                              + (["--commit"] if variant == "commit" else []))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the bare server did not start") from None
                time.sleep(0.1)
        asyncio.run(play(port, 1.0))  # warm up
        times = sorted(asyncio.run(play(port, seconds)))
    finally:
        server.terminate()
        server.wait()
    return {"variant": variant, "round_trips_per_s": round(len(times) / sum(times)),
            "p50_ms": round(statistics.median(times) * 1e3, 3), "p99_ms": round(times[int(len(times) * 0.99)] * 1e3, 3),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--seconds", type=float, default=6.0)
    # the bare server's process: its port, and whether it commits
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--commit", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.pg_url if args.commit else None)
        return
    for variant in ("echo", "commit"):
        print(json.dumps(measure(variant, args.pg_url, args.seconds)), flush=True)


if __name__ == "__main__":
    main()
