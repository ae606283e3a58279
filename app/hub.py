"""Fan-out of game events to websockets.

One Channel per game per process holds that process's subscribers. A committed change
is serialised once (Change.text), framed once (Change.frame) and the same bytes are
written to every subscriber's socket; a slow socket never delays the others (it is
dropped when its unsent output grows too large, and reconnects with ?after=N).

Across processes (Postgres): every append does pg_notify('hd_events', 'game:seq:proc')
inside its transaction. Each process LISTENs; for a game it has subscribers for, it reads
the events it has not delivered yet from the table and delivers them. Presence (how
many sockets watch a game, which players are online) travels on 'hd_presence'.
With SQLite (one process) the in-memory path alone is used.
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

from .games import Change, GameService, ws_frame

log = logging.getLogger("app.hub")
PRESENCE_CHANNEL = "hd_presence"


class Subscriber:
    """One socket. Two ways to write to it:

    * raw (the default with uvicorn): the frame of each change is built once and written
      straight to every socket's transport: no per-socket serialisation, task or queue.
      A socket whose unsent output passes `max_buffer` bytes is too slow and is dropped
      (the client reconnects with ?after=<last seq>).
    * queued (any other ASGI server, or compression on): a queue and a writer task per
      socket that calls websocket.send_text.
    """
    __slots__ = ("queue", "ready", "pending", "seq", "user_id", "want_state", "closed",
                 "close_reason", "channel", "transport", "max_buffer")

    def __init__(self, user_id: int | None, want_state: bool, limit: int, transport: Any = None,
                 max_buffer: int = 4 << 20):
        self.transport = transport
        self.queue: asyncio.Queue[str | None] | None = None if transport is not None else asyncio.Queue(maxsize=limit)
        self.max_buffer = max_buffer
        self.ready = False
        self.pending: list[Change] = []
        self.seq = -1
        self.user_id = user_id
        self.want_state = want_state
        self.closed = False
        self.close_reason = ""
        self.channel: Channel | None = None

    def _too_slow(self) -> None:
        self.closed = True
        self.close_reason = "too slow: reconnect with ?after=<last seq>"

    def _write(self, frame: bytes) -> None:
        t = self.transport
        if t.is_closing():
            self.closed = True
            return
        if t.get_write_buffer_size() > self.max_buffer:
            self._too_slow()
            t.abort()
            return
        t.write(frame)

    def put(self, text: str, frame: bytes | None = None) -> None:
        if self.closed:
            return
        if self.transport is not None:
            self._write(frame if frame is not None else ws_frame(text))
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self._too_slow()
            try:  # wake the writer so it closes the socket
                self.queue.get_nowait()
                self.queue.put_nowait(None)
            except Exception:
                pass

    def end(self) -> None:
        """No more messages (the writer task, if any, stops)."""
        if self.queue is not None:
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                pass

    def sides(self, seats: dict[str, int | None]) -> list[str]:
        if self.user_id is None:
            return []
        return [side for side, uid in seats.items() if uid == self.user_id]

    def send_change(self, change: Change) -> None:
        sides = self.sides(change.seats) if (change.legal is not None and self.user_id is not None) else ()
        if self.transport is not None:
            frame = change.frame(self.want_state)
            for side in sides:  # a player's socket: the events and its legal actions in one write
                frame += change.legal_frame(side) or b""
            if not self.closed:
                self._write(frame)
        else:
            self.put(change.text(self.want_state))
            for side in sides:
                t = change.legal_text(side)
                if t:
                    self.put(t)
        self.seq = change.last_seq


class Channel:
    def __init__(self, hub: "Hub", game_id: str):
        self.hub = hub
        self.game_id = game_id
        self.subs: set[Subscriber] = set()
        self.delivered: int | None = None
        self.prebuf: list[Change] = []
        self.initialized = asyncio.Event()
        self.fill_target = 0
        self.fill_task: asyncio.Task | None = None
        self.presence_task: asyncio.Task | None = None
        self.last_presence: tuple | None = None
        # counters (not a scan of subs): worker threads read them while the loop changes subs
        self.n_state = 0
        self.n_users = 0

    def add(self, sub: Subscriber) -> None:
        if sub not in self.subs:
            self.subs.add(sub)
            self.n_state += sub.want_state
            self.n_users += sub.user_id is not None

    def remove(self, sub: Subscriber) -> None:
        if sub in self.subs:
            self.subs.discard(sub)
            self.n_state -= sub.want_state
            self.n_users -= sub.user_id is not None

    # -- flags read by worker threads
    def want_state(self) -> bool:
        return self.n_state > 0

    def want_legal(self) -> bool:
        return self.n_users > 0

    async def init(self) -> None:
        try:
            info = await self.hub.service.call(self.hub.service.seats_of, self.game_id)
            self.delivered = info["seq"] if info else 0
        except Exception:
            log.exception("channel init for %s failed", self.game_id)
            self.delivered = 0
        buf, self.prebuf = self.prebuf, []
        self.initialized.set()
        for ch in buf:
            self.deliver(ch)

    def deliver(self, change: Change) -> None:
        """Deliver a change in seq order (runs in the event loop)."""
        if self.delivered is None:
            self.prebuf.append(change)
            return
        if change.last_seq <= self.delivered:
            return
        if change.first_seq > self.delivered + 1:
            self.request_fill(change.last_seq)
            return
        if change.first_seq <= self.delivered:
            change = change.after(self.delivered)
        self.delivered = change.last_seq
        self.hub.seats[self.game_id] = change.seats
        for sub in list(self.subs):
            offer(sub, change)

    def request_fill(self, target: int) -> None:
        self.fill_target = max(self.fill_target, target)
        if self.fill_task is None or self.fill_task.done():
            self.fill_task = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        while self.delivered is not None and self.fill_target > self.delivered:
            start = self.delivered
            try:
                change = await self.hub.service.call(self.hub.service.load_change, self.game_id, start,
                                                 self.want_state(), self.want_legal())
            except Exception:
                log.exception("catch-up of %s failed", self.game_id)
                await asyncio.sleep(0.5)
                continue
            if change is None:
                break
            self.deliver(change)
            if self.delivered == start:
                break

    def presence(self) -> tuple[int, tuple[str, ...]]:
        count = len(self.subs)
        online = set()
        seats = self.hub.seats.get(self.game_id) or {}
        for s in self.subs:
            for side, uid in seats.items():
                if uid is not None and uid == s.user_id:
                    online.add(side)
        return count, tuple(sorted(online))


def offer(sub: Subscriber, change: Change) -> None:
    if sub.closed:
        return
    if not sub.ready:
        sub.pending.append(change)
        return
    if change.last_seq <= sub.seq:
        return
    if change.first_seq == sub.seq + 1:
        sub.send_change(change)
    elif change.first_seq <= sub.seq:
        sub.send_change(change.after(sub.seq))
    else:  # this socket missed something: read it from the table
        sub.ready = False
        sub.pending.append(change)
        asyncio.get_running_loop().create_task(sub.channel.hub.catch_up(sub))


class Hub:
    def __init__(self, service: GameService, backend: str, dsn: str | None = None,
                 queue_limit: int = 1000):
        self.service = service
        self.backend = backend
        self.dsn = dsn
        self.queue_limit = queue_limit
        self.channels: dict[str, Channel] = {}
        self.seats: dict[str, dict[str, int | None]] = {}
        self.remote: dict[str, dict[str, tuple[int, tuple[str, ...], float]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._tasks: list[asyncio.Task] = []
        self._notify_conn: Any = None
        self._stopping = False
        service.on_change = self.publish_threadsafe
        service.wants = self.wants
        self._notify_queue: list[str] = []
        self._notify_wake: asyncio.Event | None = None
        if backend == "postgres":
            service.notify = self.notify_threadsafe

    # ---------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        if self.backend == "postgres":
            self._notify_wake = asyncio.Event()
            self._tasks.append(self.loop.create_task(self._listen()))
            self._tasks.append(self.loop.create_task(self._presence_heartbeat()))
            self._tasks.append(self.loop.create_task(self._notify_sender()))
            self._tasks.append(self.loop.create_task(self._sweep()))

    async def stop(self) -> None:
        self._stopping = True
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except BaseException:
                pass
        if self._notify_conn is not None:
            try:
                await self._notify_conn.close()
            except Exception:
                pass

    # ---------------------------------------------------------------- publish
    def wants(self, gid: str) -> tuple[bool, bool]:
        ch = self.channels.get(gid)
        if ch is None:
            return False, False
        return ch.want_state(), ch.want_legal()

    def publish_threadsafe(self, change: Change) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self._deliver_local(change)  # a command run inline on the loop
        else:
            loop.call_soon_threadsafe(self._deliver_local, change)

    def _deliver_local(self, change: Change) -> None:
        ch = self.channels.get(change.game_id)
        if ch is not None:
            self.seats[change.game_id] = change.seats
            ch.deliver(change)

    # ---------------------------------------------------------------- subscribe
    async def subscribe(self, gid: str, sub: Subscriber, seats: dict[str, int | None]) -> Channel:
        self.seats[gid] = seats
        ch = self.channels.get(gid)
        if ch is None:
            ch = self.channels[gid] = Channel(self, gid)
            asyncio.get_running_loop().create_task(ch.init())
        ch.add(sub)
        sub.channel = ch
        self.presence_changed(ch)
        await ch.initialized.wait()
        return ch

    def unsubscribe(self, sub: Subscriber) -> None:
        ch = sub.channel
        if ch is None:
            return
        ch.remove(sub)
        sub.closed = True
        self.presence_changed(ch)
        if not ch.subs and self.channels.get(ch.game_id) is ch:
            # keep the channel until its presence update went out
            pass

    def _maybe_drop(self, ch: Channel) -> None:
        if not ch.subs and self.channels.get(ch.game_id) is ch and not (ch.fill_task and not ch.fill_task.done()):
            del self.channels[ch.game_id]
            self.seats.pop(ch.game_id, None)

    async def start_subscriber(self, sub: Subscriber, snapshot: dict | None, after: int | None) -> None:
        """Send the snapshot (or, on reconnect, only what was missed), then go live."""
        ch = sub.channel
        assert ch is not None
        if after is None:
            assert snapshot is not None
            sub.seq = snapshot["seq"]
            count, online = self.presence_total(ch)
            snapshot["watchers"] = count
            snapshot["online"] = list(online)
            sub.put(json.dumps(snapshot, separators=(",", ":")))
            self._go_live(sub)
        else:
            sub.seq = after
            await self.catch_up(sub, force=True)

    def _go_live(self, sub: Subscriber) -> None:
        pending, sub.pending = sub.pending, []
        sub.ready = True
        for change in pending:
            offer(sub, change)

    async def catch_up(self, sub: Subscriber, force: bool = False) -> None:
        """Send this socket every event after sub.seq (read from the table)."""
        ch = sub.channel
        if ch is None:
            return
        sub.ready = False
        try:
            change = await self.service.call(self.service.load_change, ch.game_id, sub.seq,
                                             sub.want_state, sub.user_id is not None)
        except Exception:
            log.exception("catch-up for a socket of %s failed", ch.game_id)
            sub.closed = True
            sub.end()
            if sub.transport is not None:
                sub.transport.abort()
            return
        if change is not None:
            sub.send_change(change)
        elif force:
            # nothing missed: say so, so the client knows it is live
            msg = {"type": "events", "game_id": ch.game_id, "seq": sub.seq, "events": [], "catch_up": True}
            sub.put(json.dumps(msg, separators=(",", ":")))
        self._go_live(sub)

    # ---------------------------------------------------------------- presence
    def presence_total(self, ch: Channel) -> tuple[int, tuple[str, ...]]:
        count, online = ch.presence()
        now = time.monotonic()
        on = set(online)
        for proc, (n, sides, ts) in (self.remote.get(ch.game_id) or {}).items():
            if now - ts < 75:
                count += n
                on.update(sides)
        return count, tuple(sorted(on))

    def presence_changed(self, ch: Channel) -> None:
        if ch.presence_task is None or ch.presence_task.done():
            ch.presence_task = asyncio.get_running_loop().create_task(self._presence_flush(ch))

    async def _presence_flush(self, ch: Channel) -> None:
        await asyncio.sleep(0.2)  # debounce: 500 spectators arriving make one message, not 500
        local = ch.presence()
        if self.backend == "postgres":
            await self._notify_presence(ch.game_id, *local)
        self._broadcast_watchers(ch)
        if not ch.subs:
            self._maybe_drop(ch)

    def _broadcast_watchers(self, ch: Channel) -> None:
        total = self.presence_total(ch)
        if total == ch.last_presence:
            return
        ch.last_presence = total
        text = json.dumps({"type": "watchers", "game_id": ch.game_id, "count": total[0],
                           "online": list(total[1])}, separators=(",", ":"))
        frame = ws_frame(text)
        for sub in list(ch.subs):
            if sub.ready:
                sub.put(text, frame)

    def watchers(self, gid: str) -> int:
        ch = self.channels.get(gid)
        if ch is not None:
            return self.presence_total(ch)[0]
        now = time.monotonic()
        return sum(n for n, _, ts in (self.remote.get(gid) or {}).values() if now - ts < 75)

    # ---------------------------------------------------------------- postgres
    def _pg_dsn(self) -> str:
        dsn = self.dsn or ""
        return dsn.replace("postgresql+psycopg://", "postgresql://", 1)

    async def _notify_presence(self, gid: str, count: int, online: tuple[str, ...]) -> None:
        payload = f"{gid}:{self.service.proc_id}:{count}:{','.join(online)}"
        await self._pg_notify(PRESENCE_CHANNEL, payload)

    async def _pg_notify(self, channel: str, payload: str) -> None:
        import psycopg
        for _ in range(2):
            try:
                if self._notify_conn is None or self._notify_conn.closed:
                    self._notify_conn = await psycopg.AsyncConnection.connect(self._pg_dsn(), autocommit=True)
                await self._notify_conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
                return
            except Exception:
                log.warning("pg_notify on %s failed; reconnecting", channel, exc_info=True)
                self._notify_conn = None
                await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        import psycopg
        first = True
        while not self._stopping:
            try:
                async with await psycopg.AsyncConnection.connect(self._pg_dsn(), autocommit=True) as conn:
                    await conn.execute("LISTEN hd_events")
                    await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    # ask the other processes who watches what, and catch up anything
                    # committed while we were not listening
                    await self._pg_notify(PRESENCE_CHANNEL, f"?:{self.service.proc_id}")
                    if not first:
                        for ch in list(self.channels.values()):
                            ch.request_fill(1 << 62)
                    first = False
                    async for n in conn.notifies():
                        try:
                            self._on_notify(n.channel, n.payload)
                        except Exception:
                            log.exception("bad notification %r", n.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._stopping:
                    return
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
                await asyncio.sleep(1)

    def notify_threadsafe(self, payload: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self._queue_notify(payload)
        else:
            loop.call_soon_threadsafe(self._queue_notify, payload)

    def _queue_notify(self, payload: str) -> None:
        self._notify_queue.append(payload)
        self._notify_wake.set()

    async def _notify_sender(self) -> None:
        """Send queued event notifications, many in one statement when they pile up."""
        while True:
            await self._notify_wake.wait()
            self._notify_wake.clear()
            batch, self._notify_queue = self._notify_queue, []
            if not batch:
                continue
            import psycopg
            for attempt in range(3):
                try:
                    if self._notify_conn is None or self._notify_conn.closed:
                        self._notify_conn = await psycopg.AsyncConnection.connect(self._pg_dsn(), autocommit=True)
                    await self._notify_conn.execute(
                        "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", ("hd_events", batch))
                    break
                except Exception:
                    log.warning("sending notifications failed; reconnecting", exc_info=True)
                    self._notify_conn = None
                    await asyncio.sleep(0.2)

    async def _sweep(self, every: float = 2.0) -> None:
        """Safety net for lost notifications (a process that died between its commit and
        its NOTIFY, a LISTEN connection that dropped): compare what each watched game
        has delivered with the table."""
        while True:
            await asyncio.sleep(every)
            chans = [ch for ch in self.channels.values() if ch.subs and ch.delivered is not None]
            if not chans:
                continue
            try:
                seqs = await self.service.call(self.service.current_seqs, [ch.game_id for ch in chans])
            except Exception:
                log.warning("sweep failed", exc_info=True)
                continue
            for ch in chans:
                seq = seqs.get(ch.game_id)
                if seq is not None and ch.delivered is not None and seq > ch.delivered:
                    ch.request_fill(seq)

    def _on_notify(self, channel: str, payload: str) -> None:
        if channel == "hd_events":
            gid, seq, proc = payload.split(":")
            if proc == self.service.proc_id:
                return
            ch = self.channels.get(gid)
            if ch is not None and ch.delivered is not None and int(seq) > ch.delivered:
                ch.request_fill(int(seq))
        elif channel == PRESENCE_CHANNEL:
            parts = payload.split(":")
            if parts[0] == "?":
                if parts[1] != self.service.proc_id:
                    for ch in list(self.channels.values()):
                        self.presence_changed(ch)
                return
            gid, proc, count, online = parts[0], parts[1], int(parts[2]), parts[3]
            if proc == self.service.proc_id:
                return
            procs = self.remote.setdefault(gid, {})
            if count == 0:
                procs.pop(proc, None)
                if not procs:
                    self.remote.pop(gid, None)
            else:
                procs[proc] = (count, tuple(s for s in online.split(",") if s), time.monotonic())
            ch = self.channels.get(gid)
            if ch is not None:
                self._broadcast_watchers(ch)

    async def _presence_heartbeat(self) -> None:
        while True:
            await asyncio.sleep(25)
            for ch in list(self.channels.values()):
                if ch.subs:
                    await self._notify_presence(ch.game_id, *ch.presence())
            now = time.monotonic()
            for gid in list(self.remote):
                procs = self.remote[gid]
                for proc in [p for p, (_, _, ts) in procs.items() if now - ts > 75]:
                    del procs[proc]
                if not procs:
                    del self.remote[gid]
