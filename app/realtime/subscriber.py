"""One socket of a game (Subscriber), and how a change is offered to it (offer): in seq
order, a gap filled from the table first. The game's sockets together are its Channel
(app.realtime.channel)."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..games.records import Change, ws_frame

if TYPE_CHECKING:
    from .channel import Channel


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
        self.presence: Any = None  # the presence.Total this socket was last told

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

    def _gets_delta(self, change: Change) -> bool:
        """A v2 socket gets the state's delta when it has the state the delta starts from,
        else the whole state."""
        return self.deltas and change.delta_json is not None and change.first_seq == self.seq + 1

    def _legal_sides(self, change: Change) -> list[str]:
        """The sides whose legal actions this socket gets with a change (a player's)."""
        return self.sides(change.seats) if change.legal is not None and self.user_id is not None else []

    def frame_of(self, change: Change) -> bytes:
        """What this socket (written to straight) is sent of a change: the events, and on
        a player's socket its legal actions, in one write."""
        frame = change.changes_frame() if self._gets_delta(change) else change.frame(self.want_state)
        for side in self._legal_sides(change):
            frame += change.legal_frame(side) or b""
        return frame

    def send_change(self, change: Change) -> None:
        if self.transport is not None:
            frame = self.frame_of(change)
            if not self.closed:
                self._write(frame)
        else:
            self._send(change.changes_text() if self._gets_delta(change) else change.text(self.want_state))
            for side in self._legal_sides(change):
                t = change.legal_text(side)
                if t:
                    self._send(t)
        self.seq = change.last_seq


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
