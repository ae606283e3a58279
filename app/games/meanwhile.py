"""Work a worker thread hands to the event loop while it waits for the database, and
takes back afterwards: done by then, or called off before the loop started it.

A move's commit is a round trip to Postgres during which its thread waits and the loop
is usually idle: the loop works out meanwhile what the move's sockets will be sent
(CommandCore._work_out_meanwhile). That work reads the cached game, which the next
command on the game changes, so the thread that handed it over waits for it to end
before it lets the game go (take): the loop and the thread never read or change one
game at the same time."""
from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger("app.games")

T = TypeVar("T")


class Meanwhile(Generic[T]):
    def __init__(self, loop: asyncio.AbstractEventLoop, work: Callable[[], T]):
        self._claim = threading.Lock()
        self._started = False
        self._called_off = False
        self._finished = threading.Event()
        self._result: T | None = None
        try:
            loop.call_soon_threadsafe(self._run, work)
        except RuntimeError:  # the loop is closed: nothing will run it
            self._called_off = True

    def _run(self, work: Callable[[], T]) -> None:
        with self._claim:
            if self._called_off:
                return
            self._started = True
        try:
            self._result = work()
        except Exception:  # the thread works it out again
            log.exception("work handed to the event loop failed")
        finally:
            self._finished.set()

    def take(self) -> T | None:
        """The work's result, waited for if the loop is at it; None when it failed or had
        not started (it never will now)."""
        with self._claim:
            if not self._started:
                self._called_off = True
                return None
        self._finished.wait()
        return self._result
