"""The bot game stream when the game moves between its reads: a bot must always learn
that its game is over (else it waits forever on a finished game)."""
from __future__ import annotations

import asyncio
import json

from app.bots.streams import game_stream


class GameEndingMeanwhile:
    """A game at seq 1 when the stream opens. Seq 2 is appended before the stream's first
    look at the game's seq and status; the last move (seq 3, the end) just after that
    look, before the stream reads the events."""

    def __init__(self):
        self.seq, self.status = 1, "active"
        self.looks = 0

    def seats_of(self, gid):
        self.looks += 1
        if self.looks == 1:
            self.seq = 2
        seats = {"union": 1, "confederate": 2, "status": self.status, "seq": self.seq}
        if self.looks == 1:
            self.seq, self.status = 3, "finished"
        return seats

    def events(self, gid, after):
        return {"events": [{"seq": n} for n in range(after + 1, self.seq + 1)]}

    def legal(self, gid, user):
        over = self.status != "active"
        return {"seq": self.seq, "to_act": None if over else "union", "your_sides": ["union"],
                "actions": [] if over else [{"type": "end_movement"}]}

    def get_game(self, gid, user):
        return {"id": gid, "status": self.status, "seq": self.seq,
                "result": {"winner": "union"} if self.status != "active" else None}

    async def call(self, fn, *args):
        """GameService.call runs a blocking call in a worker thread; here, in a thread too."""
        return await asyncio.to_thread(fn, *args)


async def _messages(games, most: int) -> list[dict]:
    out = []
    async for raw in game_stream(games, "g", None, poll=0):
        if raw.strip():
            out.append(json.loads(raw))
        if len(out) >= most:
            break
    return out


def test_the_stream_ends_with_the_status_that_goes_with_its_last_events():
    messages = asyncio.run(asyncio.wait_for(_messages(GameEndingMeanwhile(), most=10), 5))
    assert messages[0]["type"] == "gameFull" and messages[0]["seq"] == 1
    batches = messages[1:]
    assert [[e["seq"] for e in b["events"]] for b in batches] == [[2], [3]]
    assert batches[-1]["status"] == "finished" and batches[-1]["result"] == {"winner": "union"}
