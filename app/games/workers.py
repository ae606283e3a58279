"""The one place async code runs the game service's blocking calls (commands, reads):
a fixed set of worker threads, as many as the database pool has connections
(docs/architecture.md, "Where blocking work runs").

Why threads, and why that many: a call may wait for the database, for the game's lock
or for a pooled connection, and none of these waits may stop the event loop. In a thread
each is an ordinary blocking wait. With no more threads than pooled connections, the
calls from async code never wait for one another's connections; and a caller that is
cancelled or closed cannot interrupt a call half done: the thread runs it to its end
(releasing the game's lock and the connection) and its result is dropped.

asyncio.to_thread costs, per call, a copy of the context, a concurrent.futures Future
chained to an asyncio one, and the executor's check for an idle thread: on a busy
server a good part of the loop's time per move. Here a call is a job on one queue,
taken by the first free thread, and its result is set on the loop's future directly.
"""
from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

_Job = tuple[asyncio.AbstractEventLoop, asyncio.Future, Callable[..., Any], tuple]


class Workers:
    def __init__(self, size: int):
        if size < 1:
            raise ValueError("a pool of worker threads needs at least one thread")
        self.size = size
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) in one of the threads; its result or its exception. A caller
        cancelled meanwhile is cancelled at once; the call still runs to its end."""
        if len(self._threads) < self.size:
            self._start_one()
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._jobs.put((loop, done, fn, args))
        try:
            return await done
        finally:
            done.cancel()  # its coroutine was closed: the result has nowhere to go (no-op when done)

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
    if done.done():  # the caller was cancelled (or its coroutine closed): nobody reads it
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
