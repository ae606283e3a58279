"""The game service's worker threads: a blocking call's result or exception reaches the
awaiting coroutine, and several calls run at once (one slow command does not hold up
the others). Where a call runs (BlockingCalls): on the loop, in a greenlet there when
its database waits cooperatively, in a worker thread when told to or while other
processes share the database."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app.games.workers import BlockingCalls, Workers
from app.store import cooperative


def test_a_call_returns_its_result_and_raises_its_exception():
    async def main():
        workers = Workers(size=2)
        assert await workers.run(lambda a, b: a + b, 2, 3) == 5
        assert await workers.run(threading.get_ident) != threading.get_ident()
        with pytest.raises(ValueError, match="refused"):
            await workers.run(_refuse)
    asyncio.run(main())


def test_slow_calls_run_side_by_side():
    async def main():
        workers = Workers(size=4)
        start = time.monotonic()
        assert await asyncio.gather(*(workers.run(time.sleep, 0.3) for _ in range(4))) == [None] * 4
        return time.monotonic() - start
    assert asyncio.run(main()) < 1.0  # one after the other would take 1.2 s


def test_a_caller_that_gave_up_does_not_break_the_thread():
    async def main():
        workers = Workers(size=1)
        waiting = asyncio.ensure_future(workers.run(time.sleep, 0.2))
        await asyncio.sleep(0.05)
        waiting.cancel()
        assert await workers.run(lambda: "next") == "next"  # the same thread, free again
    asyncio.run(main())


def _refuse():
    raise ValueError("refused")


def _where() -> tuple[int, bool]:
    return threading.get_ident(), cooperative.cooperating()


def test_a_call_runs_where_the_database_and_the_other_processes_say():
    async def main():
        loop_thread = threading.get_ident()
        sqlite = BlockingCalls(inline=True, waits_cooperatively=False, slots=2)
        postgres = BlockingCalls(inline=True, waits_cooperatively=True, slots=2)
        threads = BlockingCalls(inline=False, waits_cooperatively=True, slots=2)
        assert await sqlite.run(_where) == (loop_thread, False)
        assert await postgres.run(_where) == (loop_thread, True)
        in_thread, cooperating = await threads.run(_where)
        assert in_thread != loop_thread and not cooperating
        # another process shares the database: its moves keep this one's fan-out threads
        # busy, and a command does better in a worker thread
        postgres.shared = lambda: True
        in_thread, cooperating = await postgres.run(_where)
        assert in_thread != loop_thread and not cooperating
    asyncio.run(main())


def test_at_most_slots_calls_wait_on_the_loop_at_once():
    async def main():
        calls = BlockingCalls(inline=True, waits_cooperatively=True, slots=2)
        inside = peak = 0

        def command() -> None:
            nonlocal inside, peak
            inside += 1
            peak = max(peak, inside)
            cooperative.pause(0.05)
            inside -= 1

        await asyncio.gather(*(calls.run(command) for _ in range(6)))
        return peak
    assert asyncio.run(main()) == 2
