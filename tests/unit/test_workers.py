"""The game service's worker threads: a blocking call's result or exception reaches the
awaiting coroutine, several calls run at once (one slow command does not hold up the
others) but never more than the pool has threads (one per pooled database connection),
and a caller that gives up neither waits for its call nor breaks the thread."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app.games.workers import Workers


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


def test_at_most_size_calls_run_at_once():
    inside = peak = 0
    count = threading.Lock()

    def call() -> None:
        nonlocal inside, peak
        with count:
            inside += 1
            peak = max(peak, inside)
        time.sleep(0.05)
        with count:
            inside -= 1

    async def main():
        workers = Workers(size=2)
        await asyncio.gather(*(workers.run(call) for _ in range(6)))
    asyncio.run(main())
    assert peak == 2


def test_a_cancelled_caller_is_cancelled_at_once_and_the_call_still_ends():
    ended = threading.Event()

    def slow() -> None:
        time.sleep(0.3)
        ended.set()
        raise ValueError("refused after all")

    async def main():
        workers = Workers(size=1)
        waiting = asyncio.ensure_future(workers.run(slow))
        await asyncio.sleep(0.05)
        waiting.cancel()
        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert time.monotonic() - started < 0.1  # not held until the call ends
        assert waiting.cancelled()  # its later error does not replace the cancellation
        assert await workers.run(lambda: "next") == "next"
    asyncio.run(main())
    assert ended.is_set()
