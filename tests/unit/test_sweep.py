"""The sweep that catches lost notifications between processes: a game whose table is
ahead of what its sockets were given is read from the table only when the same seq is
still not delivered at the next pass (a move committed a moment ago is usually still
on its way in its announcement), and then it is read."""
from __future__ import annotations

import asyncio

from app.realtime.pg_fanout import PostgresFanout


class Watched:
    """A game with sockets in this process, and the reads the sweep asked of it."""

    def __init__(self, game_id: str, delivered: int):
        self.game_id, self.delivered = game_id, delivered
        self.subs = {"a socket"}
        self.fills: list[int] = []

    def request_fill(self, seq: int) -> None:
        self.fills.append(seq)


class Table:
    """The game service's current_seqs, answered pass by pass by the test."""

    def __init__(self):
        self.asked: asyncio.Queue = asyncio.Queue()
        self.answers: asyncio.Queue = asyncio.Queue()

    def current_seqs(self, gids):
        raise AssertionError("the sweep asks through call()")

    async def call(self, fn, gids):
        assert fn == self.current_seqs
        self.asked.put_nowait(list(gids))
        return await self.answers.get()


def _sweep_two_passes(announcement_arrives: bool) -> list[int]:
    """The table is at seq 5 while the sockets have 4; between the two passes the
    announcement of move 5 arrives, or it was lost. The reads the sweep asked for."""
    async def main():
        game, table = Watched("g1", delivered=4), Table()
        fanout = PostgresFanout()
        fanout.channels, fanout.service = {"g1": game}, table
        sweep = asyncio.create_task(fanout._sweep(every=0.05))
        try:
            assert await table.asked.get() == ["g1"]  # first pass: nothing seen before
            assert game.fills == []
            table.answers.put_nowait({"g1": 5})
            await asyncio.sleep(0.01)  # the sweep takes in the answer and waits for its next pass
            if announcement_arrives:
                game.delivered = 5
            assert await table.asked.get() == ["g1"]  # second pass, after its check
            return game.fills
        finally:
            sweep.cancel()
    return asyncio.run(main())


def test_a_move_on_its_way_is_not_read_again():
    assert _sweep_two_passes(announcement_arrives=True) == []


def test_a_lost_notification_is_read_from_the_table_at_the_next_pass():
    assert _sweep_two_passes(announcement_arrives=False) == [5]
