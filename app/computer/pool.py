"""The server's side of the computer's worker processes (app.computer.worker).

The computer thinks in processes of its own, so that its CPU-bound search never holds
the GIL against the event loop: `processes` slots, each a single-process executor
started on first use (spawned: no copy of the server's threads and connections) at a
lower CPU priority (`nice`). A game always goes to the same slot, chosen by a stable
hash of its id, so that slot's worker keeps the game's copy and its player objects
between decisions (the expert's plan of a Movement Segment lives in its player object).

Each slot remembers how many of a game's events its worker holds, and sends only the
newer ones; the worker checks that it holds exactly what the slot believes (else it
asks for all of them). A worker that dies (the executor is broken) is replaced on the
next call; the call that met the crash fails, and the computer's sweep tries the move
again a few seconds later.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from . import worker

log = logging.getLogger("app.computer")


class Slot:
    """One worker process and what it is believed to hold."""

    def __init__(self, index: int, nice: int, games: int):
        self.index, self.nice, self.games = index, nice, games
        self.executor: ProcessPoolExecutor | None = None
        self.sent: OrderedDict[str, tuple[int, dict[str, Any] | None]] = OrderedDict()
        self.started = 0   # workers started in this slot (a crash starts another)
        self.pid: int | None = None   # the worker's process id, as it last said

    def pool(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=worker.init, initargs=(self.nice, self.games))
            self.started += 1
            self.pid = None
        return self.executor

    def submit(self, executor: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> Any:
        """The call's future; the first call starts the worker, whose process id is then
        known at once (so that stopping can end a worker that never answered yet)."""
        before = None if self.pid is not None else {p.pid for p in multiprocessing.active_children()}
        future = executor.submit(worker.call, fn, *args)
        if before is not None:
            started = {p.pid for p in multiprocessing.active_children()} - before
            self.pid = started.pop() if len(started) == 1 else None
        return future

    def held(self, gid: str, events: list[dict[str, Any]]) -> tuple[int, dict[str, Any] | None]:
        """How many of `events` the worker holds (0: none, or not these)."""
        n, last = self.sent.get(gid, (0, None))
        if n == 0 or n > len(events) or events[n - 1] != last:
            return 0, None
        return n, last

    def now_holds(self, gid: str, events: list[dict[str, Any]]) -> None:
        self.sent[gid] = (len(events), events[-1] if events else None)
        self.sent.move_to_end(gid)
        while len(self.sent) > self.games:
            self.sent.popitem(last=False)

    def broken(self, executor: ProcessPoolExecutor) -> None:
        """The worker died: the next call starts another, which holds nothing yet."""
        if self.executor is executor:
            self.executor = None
            self.sent.clear()
            executor.shutdown(wait=False, cancel_futures=True)


class ThinkingPool:
    def __init__(self, processes: int = 2, nice: int = 10, games_per_worker: int = 32):
        self.slots = [Slot(i, nice, games_per_worker) for i in range(max(1, processes))]

    def slot_of(self, gid: str) -> Slot:
        """The game's slot: the same one for the game's whole life (and in every process)."""
        return self.slots[zlib.crc32(gid.encode()) % len(self.slots)]

    async def run(self, slot: Slot, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) in the slot's worker. A worker found dead before the call is
        replaced at once; one that dies during the call fails it (BrokenProcessPool)."""
        executor = slot.pool()
        try:
            future = slot.submit(executor, fn, *args)
        except BrokenProcessPool:
            log.warning("a computer worker process had died (slot %d): starting another", slot.index)
            slot.broken(executor)
            executor = slot.pool()
            future = slot.submit(executor, fn, *args)
        try:
            pid, result = await asyncio.wrap_future(future)
            if slot.executor is executor:
                slot.pid = pid
            return result
        except BrokenProcessPool:
            log.warning("a computer worker process died (slot %d): it will be started again", slot.index)
            slot.broken(executor)
            raise

    async def decide(self, gid: str, level: str, key: str, header: dict[str, Any],
                     events: list[dict[str, Any]]) -> dict[str, Any]:
        """The action of the player `key` at `level` for the side to act in the game
        (header and effective events: the public record, never the seed)."""
        slot = self.slot_of(gid)
        base, last = slot.held(gid, events)
        slot.now_holds(gid, events)   # in the order of the calls: the worker takes them in that order
        try:
            out = await self.run(slot, worker.decide, gid, level, key, header, base, last, events[base:])
            if out.get(worker.RESEND):
                slot.now_holds(gid, events)
                out = await self.run(slot, worker.decide, gid, level, key, header, 0, None, events)
        except BaseException:
            slot.sent.pop(gid, None)   # unsure what the worker holds now: all of them next time
            raise
        return out["action"]

    async def analyse(self, gid: str, header: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The expert's evaluation curve of a game (rules_engine.ai.analysis)."""
        return await self.run(self.slot_of(gid), worker.analyse, header, events)

    async def pids(self) -> list[int]:
        """The process ids of the workers (started if need be; tests)."""
        return [await self.run(slot, worker.pid) for slot in self.slots]

    def shutdown(self) -> None:
        """Stop every worker now: a search under way is not waited for (the server is
        stopping; the sweep of the next start makes that move)."""
        live = {p.pid: p for p in multiprocessing.active_children()}
        for slot in self.slots:
            if slot.executor is not None:
                slot.executor.shutdown(wait=False, cancel_futures=True)
                slot.executor = None
                if slot.pid in live:
                    live[slot.pid].terminate()
