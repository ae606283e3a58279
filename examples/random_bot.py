"""A complete bot for A House Divided: it accepts every challenge and plays random legal
moves in all its games, through the bot API (docs/bot-api.md). Needs only httpx.

    python examples/random_bot.py --server http://localhost:8000 --token=BOT_TOKEN [--games N]

The token is a "bot" token of a bot account (POST /api/me/bot, then POST /api/auth/tokens
{"scope": "bot"}). With --games N the bot stops after N of its games have ended.
"""
import argparse
import json
import os
import random
import threading
import time
import uuid

import httpx


def stream(client: httpx.Client, path: str):
    """The objects of an NDJSON stream (empty keep-alive lines skipped). A dropped
    connection (a server restart, a network fault) is made again, with waits growing to a
    minute; a game stream then begins with gameFull again, so nothing is missed."""
    wait = 1.0
    while True:
        try:
            with client.stream("GET", path, timeout=httpx.Timeout(10, read=None)) as r:
                if r.status_code < 500 and r.status_code != 429:
                    r.raise_for_status()  # refused (a revoked token, no such game): give up
                    wait = 1.0
                    for line in r.iter_lines():
                        if line.strip():
                            yield json.loads(line)
                    return  # the server ended it: a game stream ends when the game is over
                print(f"{path}: {r.status_code}, trying again in {wait:.0f} s")
        except httpx.TransportError as exc:
            print(f"{path}: {exc!r}, trying again in {wait:.0f} s")
        time.sleep(wait)
        wait = min(wait * 2, 60)


def post_action(client: httpx.Client, game_id: str, action: dict, seq: int) -> None:
    """Post our action. A failed connection is retried with the same action_id: the
    server acts once however often the request arrives."""
    body = {"action": action, "expected_seq": seq, "action_id": uuid.uuid4().hex}
    for wait in (1, 2, 4, 8, 16):
        try:
            r = client.post(f"/api/games/{game_id}/actions", json=body)
        except httpx.TransportError as exc:
            print(f"game {game_id}: {exc!r}, trying again in {wait} s")
            time.sleep(wait)
            continue
        if r.status_code not in (200, 409):  # 409: the game moved on; the stream brings news
            print(f"game {game_id}: {r.status_code} {r.text}")
        return


def play(client: httpx.Client, game_id: str, finished: threading.Semaphore) -> None:
    """Follow one game; whenever it waits for us, post a random legal action."""
    for msg in stream(client, f"/api/bot/game/stream/{game_id}"):
        if msg.get("legal"):  # our turn: the legal actions for our seat, at msg["seq"]
            post_action(client, game_id, random.choice(msg["legal"]), msg["seq"])
        if msg.get("status") not in ("open", "active"):
            print(f"game {game_id} is over: {msg.get('result')}")
            break
    finished.release()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="http://localhost:8000")
    ap.add_argument("--token", required=True)
    ap.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    args = ap.parse_args()
    client = httpx.Client(base_url=args.server, headers={"Authorization": f"Bearer {args.token}"}, timeout=30)
    finished = threading.Semaphore(0)
    started: set[str] = set()
    if args.games:  # count finished games in the background and end the process
        def stop_after() -> None:
            for _ in range(args.games):
                finished.acquire()
            os._exit(0)
        threading.Thread(target=stop_after, daemon=True).start()
    me = client.get("/api/auth/me").json()["username"]
    for event in stream(client, "/api/bot/stream/event"):
        if event["type"] == "challenge" and event["challenge"]["target"] == me:  # not our own challenges
            client.post(f"/api/challenges/{event['challenge']['id']}/accept")
        elif event["type"] == "gameStart" and event["game"]["id"] not in started:
            started.add(event["game"]["id"])
            threading.Thread(target=play, args=(client, event["game"]["id"], finished), daemon=True).start()


if __name__ == "__main__":
    main()
