"""Blocking database code run on the event loop without stopping it (Postgres).

A game command is plain synchronous code: the cached state, the engine's decision, the
append (one round trip to Postgres, answered once the commit is on disk), the publish.
On SQLite it runs on the event loop itself, since a local file answers in microseconds.
On Postgres the loop must not stand still during the round trip; a worker thread would
keep it going, but the hops there and back (a queue, a thread's wake-up, the loop's
wake-up, the GIL changing hands) cost a move about as much CPU as the rules engine
and add their latency to every move.

Here the command runs in a greenlet on the loop's own thread (`run`). When psycopg
would wait for the server, `CooperativeConnection.wait` hands the wait to the loop,
which serves other sockets meanwhile and switches back once the socket is ready. Only
code started by `run` waits this way; in worker threads and command-line tools the
same connection waits as psycopg's own does.

Such code must not block the loop's thread in any other way: a lock that another
command on this loop may hold is taken with `acquire`, a pause is `pause`, and the
caller of `run` bounds how many commands wait at once (each holds a pooled connection,
and a checkout from an empty pool would block the thread).
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import select
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import Any

import greenlet
import psycopg
from psycopg.waiting import Ready, Wait

# how often a command on the loop looks again at a lock another command holds (a game's
# lock is held for one move, about a millisecond; two commands on one game are rare)
LOCK_POLL_S = 0.0005


class _Command(greenlet.greenlet):
    """The greenlet of one command started by `run`: its type marks the code whose waits
    go to the loop."""


def cooperating() -> bool:
    """Whether this code runs in a command started by `run` (on the loop's thread)."""
    return type(greenlet.getcurrent()) is _Command


def _hand_over(wait: Callable[[], Awaitable[Any]]) -> Any:
    """From a command: let the loop await wait() and go on with its result."""
    return greenlet.getcurrent().parent.switch(wait)


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args) on the loop's thread, its waits for the database handed to the loop;
    its result or its exception.

    If the caller is cancelled meanwhile (its socket closed), the command still runs to
    its end, as it would in a worker thread (its commit may already be on the way), and
    the cancellation is raised after it."""
    command = _Command(fn)
    command.gr_context = contextvars.copy_context()
    wait = command.switch(*args)
    cancelled: asyncio.CancelledError | None = None
    while not command.dead:
        try:
            value = await wait()
        except asyncio.CancelledError as exc:
            cancelled = exc
            continue
        except BaseException as exc:  # noqa: B036 - handed to the command, where it was waiting
            wait = command.throw(exc)
        else:
            wait = command.switch(value)
    if cancelled is not None:
        raise cancelled
    return wait


def acquire(lock: threading.Lock) -> None:
    """Take a lock that commands on the loop and worker threads share. On the loop it is
    never waited for in place: the command holding it may be one that this loop must
    resume first."""
    if lock.acquire(blocking=False):
        return
    if not cooperating():
        lock.acquire()
        return
    while not lock.acquire(blocking=False):
        _hand_over(partial(asyncio.sleep, LOCK_POLL_S))


@contextlib.contextmanager
def holding(lock: threading.Lock) -> Iterator[None]:
    """`with lock:`, the lock taken with `acquire`."""
    acquire(lock)
    try:
        yield
    finally:
        lock.release()


def pause(seconds: float) -> None:
    """time.sleep, letting the loop go on meanwhile when run by a command on it."""
    if cooperating():
        _hand_over(partial(asyncio.sleep, seconds))
    else:
        time.sleep(seconds)


async def _socket_ready(fileno: int, wait: int) -> int:
    """Wait on the loop until the database socket is ready as psycopg asks (Wait.R,
    Wait.W or Wait.RW); which way it is ready (Ready.R or Ready.W)."""
    if wait & Wait.W:
        # a socket asked for writing is nearly always writable at once: ask the kernel
        # before paying a round of the loop (poll, as select() refuses a descriptor
        # above 1023, and a server with a thousand sockets open has such)
        writable = select.poll()
        writable.register(fileno, select.POLLOUT)
        if writable.poll(0):
            return Ready.W
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[int] = loop.create_future()
    if wait & Wait.R:
        loop.add_reader(fileno, _settle, ready, Ready.R)
    if wait & Wait.W:
        loop.add_writer(fileno, _settle, ready, Ready.W)
    try:
        return await ready
    finally:
        if wait & Wait.R:
            loop.remove_reader(fileno)
        if wait & Wait.W:
            loop.remove_writer(fileno)


def _settle(ready: asyncio.Future[int], how: int) -> None:
    if not ready.done():
        ready.set_result(how)


class CooperativeConnection(psycopg.Connection):
    """A psycopg connection whose waits go to the event loop when a command started by
    `run` uses it; everywhere else it waits as psycopg's own connection does."""

    def wait(self, gen: Any, *args: Any, **kwargs: Any) -> Any:
        # a wait with a time limit (cancelling a query, waiting for notifications) is
        # never on a command's path: psycopg's own handles it
        if not cooperating() or kwargs.get("timeout") is not None:
            return super().wait(gen, *args, **kwargs)
        fileno = self.pgconn.socket
        try:
            wait = next(gen)
            while True:
                wait = gen.send(_hand_over(partial(_socket_ready, fileno, wait)))
        except StopIteration as done:
            return done.value
        except OSError as exc:
            raise psycopg.OperationalError("connection socket closed") from exc
