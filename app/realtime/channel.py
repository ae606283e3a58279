"""One game's sockets in this process (Channel) and one socket (Subscriber).

A committed change is serialised once (Change.text), framed once (Change.frame) and the
same bytes are written to every subscriber's socket; sockets of protocol v2 get the
"changes" frame instead (the state's delta, worked out once per change from the last
state the channel kept). The players' sockets get each change at once; the watchers'
sockets get the changes of a burst together (WATCHER_WINDOW_S): the frames are joined
once and that one buffer is written to every watcher. A slow socket never delays the
others (it is dropped when its unsent output grows too large, and reconnects with
?after=N). Changes reach each socket in seq order; a gap is filled from the table.
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from ..games.records import Change, state_delta, ws_frame

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("app.hub")

# After writing to the watchers' sockets the channel holds the next changes for them at
# least this long, or as long as that write took if longer (so writing to the watchers
# takes at most about half of the event loop's time), then writes them all in one go. A
# write to a socket costs a system call (on loopback about 10 us of kernel time, whatever
# its size), so a write to 500 watchers costs milliseconds: when moves come faster than
# the window, one write carries several of them. A change after a quieter spell goes out
# at once, so an isolated move is not delayed. Players' sockets are written to at once.
WATCHER_WINDOW_S = 0.004


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
                 "close_reason", "channel", "transport", "max_buffer", "presence", "deltas", "batched")

    def __init__(self, user_id: int | None, want_state: bool, limit: int, transport: Any = None,
                 max_buffer: int = 4 << 20, deltas: bool = False, batched: bool = False):
        self.transport = transport
        # a watcher (no seat in the game when it connected): it gets the changes of a
        # burst together (Channel.flush_watchers)
        self.batched = batched
        # protocol v2: "changes" (the state's delta) instead of "events" with the whole state
        self.deltas = deltas
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
        # the watcher count (and players online) this socket knows: as it arrived, then as told
        self.presence: tuple[int, tuple[str, ...]] | None = None

    def too_slow(self) -> None:
        self.closed = True
        self.close_reason = "too slow: reconnect with ?after=<last seq>"

    def _write(self, frame: bytes) -> None:
        t = self.transport
        if t.is_closing():
            self.closed = True
            return
        if t.get_write_buffer_size() > self.max_buffer:
            self.too_slow()
            t.abort()
            return
        t.write(frame)

    def put(self, text: str, frame: bytes | None = None) -> None:
        """Send a message that is not a change (a reply, the watcher count, chat)."""
        if self.batched and self.channel is not None and self.channel.held and not self.closed:
            # the changes held for the watchers happened before this message: they go first
            self.channel.send_held(self)
        self._send(text, frame)

    def _send(self, text: str, frame: bytes | None = None) -> None:
        if self.closed:
            return
        if self.transport is not None:
            self._write(frame if frame is not None else ws_frame(text))
            return
        queue = self.queue
        assert queue is not None  # a subscriber without a transport always has its queue
        try:
            queue.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow()
            try:  # wake the writer so it closes the socket
                queue.get_nowait()
                queue.put_nowait(None)
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
        # a v2 socket gets the delta when it has the state the delta starts from, else the whole state
        delta = self.deltas and change.delta_json is not None and change.first_seq == self.seq + 1
        if self.transport is not None:
            frame = change.changes_frame() if delta else change.frame(self.want_state)
            for side in sides:  # a player's socket: the events and its legal actions in one write
                frame += change.legal_frame(side) or b""
            if not self.closed:
                self._write(frame)
        else:
            self._send(change.changes_text() if delta else change.text(self.want_state))
            for side in sides:
                t = change.legal_text(side)
                if t:
                    self._send(t)
        self.seq = change.last_seq


class HeldChanges:
    """The changes held for the watchers, as the bytes each kind of watcher gets: joined
    once per kind, then the same buffer is written to every watcher of that kind."""
    __slots__ = ("changes", "base", "last_seq", "seated")

    def __init__(self, changes: list[Change]):
        self.changes = changes
        self.base = changes[0].first_seq - 1  # the seq a watcher has before them
        self.last_seq = changes[-1].last_seq
        # users with a seat: a watcher among them gets its side's legal actions as well
        self.seated = {uid for ch in changes for uid in ch.seats.values() if uid is not None}

    def joined(self, kind: tuple[bool, bool]) -> bytes:
        """What Subscriber.send_change writes, change after change, to a watcher of this
        kind (deltas, want_state) at seq `base` (v2: each change's delta from the one before)."""
        deltas, want_state = kind
        return b"".join(ch.changes_frame() if deltas and ch.delta_json is not None else ch.frame(want_state)
                        for ch in self.changes)


class Channel:
    def __init__(self, hub: Hub, game_id: str):
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
        self.n_deltas = 0
        # the state after seq last_state_seq (parsed once per change), for the v2 deltas
        self.last_state: dict | None = None
        self.last_state_seq = -1
        # the players' sockets, and the watchers' (Subscriber.batched) by the kind of
        # message they get (deltas, want_state); subs holds them all
        self.seated: set[Subscriber] = set()
        self.watching: dict[tuple[bool, bool], set[Subscriber]] = {}
        # changes not yet written to the watchers, and when they may next be written to
        self.held: list[Change] = []
        self.flush_timer: asyncio.TimerHandle | None = None
        self.quiet_until = 0.0

    def add(self, sub: Subscriber) -> None:
        if sub not in self.subs:
            self.subs.add(sub)
            if sub.batched:
                self.watching.setdefault((sub.deltas, sub.want_state), set()).add(sub)
            else:
                self.seated.add(sub)
            self.n_state += sub.want_state
            self.n_users += sub.user_id is not None
            self.n_deltas += sub.deltas

    def remove(self, sub: Subscriber) -> None:
        if sub in self.subs:
            self.subs.discard(sub)
            self.seated.discard(sub)
            kind = (sub.deltas, sub.want_state)
            watchers = self.watching.get(kind)
            if watchers is not None:
                watchers.discard(sub)
                if not watchers:
                    del self.watching[kind]
            self.n_state -= sub.want_state
            self.n_users -= sub.user_id is not None
            self.n_deltas -= sub.deltas

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
        self.note_state(change)
        self.hub.seats[self.game_id] = change.seats
        # the players at once: their next decision waits for this change, a watcher's does not
        for sub in list(self.seated):
            offer(sub, change)
        if self.watching:
            self.hold(change)

    # -- the watchers' sockets: the changes of a burst in one write
    def hold(self, change: Change) -> None:
        """Keep a change for the watchers: written at once after a quiet spell, else with
        whatever else comes before the window ends."""
        self.held.append(change)
        if self.flush_timer is not None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() >= self.quiet_until:
            self.flush_watchers()
        else:
            self.flush_timer = loop.call_at(self.quiet_until, self.flush_watchers)

    def flush_watchers(self) -> None:
        """Write the held changes to every watcher: one buffer per kind of watcher (v1 with
        or without the state, v2), the same bytes to each socket."""
        if self.flush_timer is not None:  # written early (release_held): the timer has nothing left to do
            self.flush_timer.cancel()
            self.flush_timer = None
        held, self.held = self.held, []
        if not held:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        batch = HeldChanges(held)
        for kind, watchers in list(self.watching.items()):
            write_to_all(list(watchers), batch, batch.joined(kind))
        now = loop.time()
        self.quiet_until = now + max(WATCHER_WINDOW_S, now - started)

    def release_held(self) -> None:
        """Write the held changes to the watchers now, because a message to all of them
        follows (the watcher count, chat): one shared buffer per kind of watcher, where
        each watcher getting them before that message (send_held) would cost a write per
        held change per watcher."""
        if self.held:
            self.flush_watchers()

    def send_held(self, sub: Subscriber) -> None:
        """Give one watcher the held changes now (a message that comes after them is about
        to be written to it); the others still get them at the end of the window."""
        for change in self.held:
            offer(sub, change)

    def note_state(self, change: Change) -> None:
        """Keep the state after this change, and give the change its delta from the state
        kept before it (once for all v2 sockets). Without v2 sockets nothing is kept."""
        if not self.n_deltas or change.state_json is None:
            self.last_state, self.last_state_seq = None, -1
            return
        state = change.state if change.state is not None else json.loads(change.state_json)
        if self.last_state is not None and self.last_state_seq == change.first_seq - 1:
            change.delta_json = json.dumps(state_delta(self.last_state, state), separators=(",", ":"))
        self.last_state, self.last_state_seq = state, change.last_seq

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


def write_to_all(watchers: list[Subscriber], batch: HeldChanges, data: bytes) -> None:
    """Write `data` (the held changes) to each of these watchers' sockets: the loop that
    runs for every watcher on every burst, so it does only what a socket at seq
    batch.base needs. Any other watcher (not live yet, behind or ahead, queued, or one
    that has since taken a seat) gets the changes one by one (offer)."""
    base, last_seq, seated = batch.base, batch.last_seq, batch.seated
    for sub in watchers:
        t = sub.transport
        if sub.seq != base or not sub.ready or sub.closed or t is None or sub.user_id in seated:
            for change in batch.changes:
                offer(sub, change)
        elif t.is_closing():
            sub.closed = True
        elif t.get_write_buffer_size() > sub.max_buffer:
            sub.too_slow()
            t.abort()
        else:
            t.write(data)
            sub.seq = last_seq


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
        if sub.channel is not None:
            asyncio.get_running_loop().create_task(sub.channel.hub.catch_up(sub))

