"""One game's sockets in this process (Channel; one socket: app.realtime.subscriber).

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
from typing import TYPE_CHECKING

from ..games.records import Change, state_delta
from .presence import Report, Total, local_report
from .subscriber import Subscriber, offer

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
        self.last_presence: Total | None = None
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

    def prepare(self, change: Change) -> None:
        """Work out ahead what deliver will write of a change: its delta from the state
        kept (v2), the frames of the players' sockets and of each kind of watcher. Called
        while the command that made the change waits for its commit, which leaves the
        loop idle; nothing is sent and nothing kept changes."""
        if self.n_deltas and change.state_json is not None and self._follows_kept_state(change):
            change.delta_json = self._delta(_state_of(change))
            change.delta_of = self.last_state
        for sub in list(self.seated):
            if sub.transport is not None and not sub.closed:
                sub.frame_of(change)
        for deltas, want_state in list(self.watching):
            change.changes_frame() if deltas and change.delta_json is not None else change.frame(want_state)

    def note_state(self, change: Change) -> None:
        """Keep the state after this change, and give the change its delta from the state
        kept before it (once for all v2 sockets). Without v2 sockets nothing is kept."""
        if not self.n_deltas or change.state_json is None:
            self.last_state, self.last_state_seq = None, -1
            return
        state = _state_of(change)
        if not self._follows_kept_state(change):
            change.delta_json = None
        elif change.delta_json is None or change.delta_of is not self.last_state:  # not worked out ahead
            change.delta_json = self._delta(state)
        self.last_state, self.last_state_seq = state, change.last_seq

    def _follows_kept_state(self, change: Change) -> bool:
        return self.last_state is not None and self.last_state_seq == change.first_seq - 1

    def _delta(self, state: dict) -> str:
        """A change's state delta from the state kept (the same for every v2 socket)."""
        assert self.last_state is not None
        return json.dumps(state_delta(self.last_state, state), separators=(",", ":"))

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

    def presence(self) -> Report:
        """This process's sockets on the game: people (not tabs), the seats whose player
        is here, and when the others left (app.realtime.presence)."""
        return local_report((s.user_id for s in self.subs), self.hub.seats.get(self.game_id) or {},
                            self.hub.left_at.get(self.game_id) or {})


def _state_of(change: Change) -> dict:
    """The state after a change that carries it (as the engine gave it, or parsed)."""
    assert change.state_json is not None
    return change.state if change.state is not None else json.loads(change.state_json)


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
