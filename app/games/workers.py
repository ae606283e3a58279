"""Where the game service's blocking calls run for async code: on the event loop itself
(BlockingCalls, inline), or in worker threads (Workers).

asyncio.to_thread costs, per call, a copy of the context, a concurrent.futures Future
chained to an asyncio one, and the executor's check for an idle thread: on a busy
server a good part of the loop's time per move. Here a call is a job on one queue,
taken by the first free thread of a fixed set, and its result is set on the loop's
future directly.
"""
from __future__ import annotations

import asyncio
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from ..store import cooperative

# as many threads as asyncio's default executor would start at most
POOL_SIZE = min(32, (os.cpu_count() or 1) + 4)

_Job = tuple[asyncio.AbstractEventLoop, asyncio.Future, Callable[..., Any], tuple]


class Workers:
    def __init__(self, size: int = POOL_SIZE):
        self.size = size
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) in one of the threads; its result or its exception."""
        if len(self._threads) < self.size:
            self._start_one()
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._jobs.put((loop, done, fn, args))
        return await done

    def _start_one(self) -> None:
        with self._start_lock:
            if len(self._threads) < self.size:
                t = threading.Thread(target=self._work, name=f"hd-worker-{len(self._threads)}", daemon=True)
                self._threads.append(t)
                t.start()

    def _work(self) -> None:
        while True:
            loop, done, fn, args = self._jobs.get()
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the caller, as to_thread would
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(_settle, done, result, error)
            except RuntimeError:
                pass  # the loop is closed: nobody waits any more


def _settle(done: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


class BlockingCalls:
    """Runs a blocking service method (a command, a read) for async code.

    inline: on the event loop itself. With SQLite the call simply runs there (the hops
    to a thread and back would cost more than the local file takes to answer); with
    Postgres (waits_cooperatively) it runs in a greenlet there and hands its waits for the
    database to the loop (app.store.cooperative), at most `slots` at once: each holds a
    pooled connection, and a checkout from an empty pool would block the loop's thread.
    Otherwise, and while other processes share the database (`shared`): in one of the
    worker threads."""

    def __init__(self, inline: bool, waits_cooperatively: bool, slots: int):
        self.inline = inline
        self.waits_cooperatively = waits_cooperatively
        self.slots = slots
        self.workers = Workers()
        self._free_slots: asyncio.Semaphore | None = None  # made on the loop, at the first call
        # set by the hub (Postgres): whether other processes serve the same database now.
        # Their moves keep this process's listener and announcer threads busy, and a
        # command on the loop hands the GIL to those threads at each of its waits and
        # waits to get it back: then worker threads serve commands for less (two
        # processes, 50 games: 1.05-1.17x the moves per second and 0.80-0.91x the CPU
        # per move of commands on the loop), while a process alone does better on the
        # loop (one process, 50 games: 1.09-1.15x the moves per second of threads)
        self.shared: Callable[[], bool] = lambda: False

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if not self.inline or (self.waits_cooperatively and self.shared()):
            return await self.workers.run(fn, *args)
        if not self.waits_cooperatively:
            return fn(*args)
        if self._free_slots is None:
            self._free_slots = asyncio.Semaphore(self.slots)
        async with self._free_slots:
            return await cooperative.run(fn, *args)
