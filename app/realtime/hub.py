"""Fan-out of game events to websockets: the Hub.

One Channel per game per process holds that process's subscribers (app.realtime.channel).
The game service hands every committed change to the hub (publish_threadsafe), which
delivers it on the event loop. Across processes (Postgres) app.realtime.pg_fanout
announces and picks up changes; with SQLite (one process) the in-memory path alone is
used.
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time

from ..games import chat
from ..games.records import Change, ws_frame
from ..games.service import GameService
from ..store.events import GameRow
from . import protocol
from .channel import Channel
from .pg_fanout import PRESENCE_TTL, PostgresFanout
from .presence import Report, Total, add_up
from .subscriber import Subscriber, offer
from .users import UserSockets

log = logging.getLogger("app.hub")


class Hub(PostgresFanout):
    def __init__(self, service: GameService, backend: str, dsn: str | None = None,
                 queue_limit: int = 1000):
        self.service = service
        self.backend = backend
        self.dsn = dsn
        self.queue_limit = queue_limit
        self.channels: dict[str, Channel] = {}
        self.seats: dict[str, dict[str, int | None]] = {}
        # other processes' presence reports: game -> proc -> Report
        self.remote: dict[str, dict[str, Report]] = {}
        # game -> seat -> when its player's last socket closed (epoch s; here or, by the
        # reports, in another process): how long a player has been away
        self.left_at: dict[str, dict[str, float]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread: int | None = None
        self.users = UserSockets(service.call)
        self.init_fanout()
        service.on_change = self.publish_threadsafe
        service.prepare_change = self.prepare_change
        service.wants = self.wants
        service.plays_here = self.plays_here
        if backend == "postgres":
            service.notify = self.notify_threadsafe
            service.others_listen = self.others_listen

    # ---------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self.service.loop = self.loop
        if self.backend == "postgres":
            self.start_fanout(self.loop)

    @property
    def ready(self) -> bool:
        """Whether changes made by other processes reach this one's sockets yet."""
        return self.backend != "postgres" or self.listening.is_set()

    async def stop(self) -> None:
        if self.backend == "postgres":
            await self.stop_fanout()

    # ---------------------------------------------------------------- publish
    def wants(self, gid: str) -> tuple[bool, bool]:
        ch = self.channels.get(gid)
        if ch is None:
            return False, False
        return ch.want_state(), ch.want_legal()

    def plays_here(self, game: GameRow, side: str) -> bool:
        """Whether the player of this side has a socket on the game in this process: asked
        of this process's moves (in worker threads: a copy of the sockets, taken at once
        under the GIL) and of other processes' moves (app.games.remote). With several
        processes the player to act is often on another one: its legal actions are
        worked out there, not here."""
        ch = self.channels.get(game.id)
        uid = getattr(game, f"{side}_user_id", None)
        if ch is None or uid is None:
            return False
        if any(sub.user_id == uid for sub in list(ch.seated)):
            return True
        # a watcher who has taken a seat since it connected (rare): look at every socket
        return ch.n_users > len(ch.seated) and any(sub.user_id == uid for sub in list(ch.subs))

    def prepare_change(self, change: Change) -> None:
        """On the loop, before the change's commit is known: its channel works out what
        it will write (GameService publishes the change once committed)."""
        ch = self.channels.get(change.game_id)
        if ch is not None:
            ch.prepare(change)

    def publish_threadsafe(self, change: Change) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self.loop_thread:
            self._deliver_local(change)  # called on the loop itself (a command a test runs there)
        else:
            loop.call_soon_threadsafe(self._deliver_local, change)

    def _deliver_local(self, change: Change) -> None:
        ch = self.channels.get(change.game_id)
        if ch is not None:
            self.seats[change.game_id] = change.seats
            ch.deliver(change)
        self.users.game_changed(change.seats.values())

    # ---------------------------------------------------------------- chat
    def publish_chat_threadsafe(self, gid: str, message: dict, game: dict) -> None:
        """A chat message was stored (`game`: its seats and status): push it to the sockets
        of the game that may read it, here and (Postgres) in the other processes."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self.deliver_chat, gid, message, game["status"])
        if self.backend == "postgres":
            loop.call_soon_threadsafe(self.announce_chat, gid, message, game["status"])

    def deliver_chat(self, gid: str, message: dict, status: str) -> None:
        ch = self.channels.get(gid)
        if ch is None:
            return
        seats = self.seats.get(gid) or {}
        text = protocol.dump(protocol.ChatMsg(game_id=gid, message=protocol.ChatLine(**message)))
        frame = ws_frame(text)
        ch.release_held()
        for sub in list(ch.subs):
            if chat.may_read(seats, status, sub.user_id, message["channel"]):
                sub.put(text, frame)

    # ---------------------------------------------------------------- subscribe
    async def subscribe(self, gid: str, sub: Subscriber, seats: dict[str, int | None]) -> Channel:
        self.seats[gid] = seats
        ch = self.channels.get(gid)
        if ch is None:
            ch = self.channels[gid] = Channel(self, gid)
            asyncio.get_running_loop().create_task(ch.init())
            self._not_seen_since_now(gid, seats)
        ch.add(sub)
        sub.channel = ch
        sub.presence = self.presence_total(ch)
        self.presence_changed(ch)
        await ch.initialized.wait()
        return ch

    def unsubscribe(self, sub: Subscriber) -> None:
        ch = sub.channel
        if ch is None:
            return
        ch.remove(sub)
        sub.closed = True
        self._note_leaving(ch, sub.user_id)
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
            if sub.deltas and ch.delivered == sub.seq and ch.last_state_seq != sub.seq:
                # the next change's delta can start from this state
                ch.last_state, ch.last_state_seq = snapshot["state"], sub.seq
            total = self.presence_total(ch)
            snapshot["watchers"] = total.count
            snapshot["online"] = list(total.online)
            snapshot["presence"] = total.seats()
            # built by hand like the events after it (a whole state: no second pass through
            # the model on every connect); tests check it obeys protocol.SnapshotMsg
            sub.put(json.dumps(snapshot, separators=(",", ":")))
            self._go_live(sub)
        else:
            sub.seq = after
            await self.catch_up(sub, force=True)

    def _go_live(self, sub: Subscriber) -> None:
        pending, sub.pending = sub.pending, []
        sub.ready = True
        ch = sub.channel
        if ch is not None and sub.presence is not None and self.presence_total(ch) != sub.presence:
            # the watcher count changed between this socket's arrival and its going live
            # (a slow snapshot): it missed that broadcast, so tell it now
            self._send_watchers(sub, ch)
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
            sub.put(protocol.dump(protocol.EventsMsg(game_id=ch.game_id, seq=sub.seq, events=[], catch_up=True)))
        self._go_live(sub)

    # ---------------------------------------------------------------- presence
    def presence_total(self, ch: Channel) -> Total:
        """Everyone on the game's page: this process's sockets and the others' reports."""
        now = time.monotonic()
        fresh = [r for r in (self.remote.get(ch.game_id) or {}).values() if now - r.heard < PRESENCE_TTL]
        return add_up([ch.presence(), *fresh])

    def _note_leaving(self, ch: Channel, uid: int | None) -> None:
        """A socket closed: if it was its seated player's last one here, they left now."""
        if uid is None or any(s.user_id == uid for s in ch.subs):
            return
        for side, seated in (self.seats.get(ch.game_id) or {}).items():
            if seated == uid:
                self.left_at.setdefault(ch.game_id, {})[side] = time.time()
        self._forget_old_departures()

    def _not_seen_since_now(self, gid: str, seats: dict[str, int | None]) -> None:
        """A game this process starts watching: a player of whom it knows nothing has
        at least not been here since now (a later report may say since when)."""
        known = self.left_at.setdefault(gid, {})
        for side, uid in seats.items():
            if uid is not None:
                known.setdefault(side, time.time())

    def note_departures(self, gid: str, left: tuple[tuple[str, float], ...]) -> None:
        """Another process's report of when players left (the latest time counts)."""
        if left:
            known = self.left_at.setdefault(gid, {})
            for side, t in left:
                known[side] = max(t, known.get(side, t))

    def _forget_old_departures(self, keep_s: float = 86400, limit: int = 10000) -> None:
        """Departures are kept a day (a player away longer is simply gone), and only
        looked through when there are many."""
        if len(self.left_at) <= limit:
            return
        cutoff = time.time() - keep_s
        for gid in [g for g, sides in self.left_at.items() if max(sides.values(), default=0) < cutoff]:
            del self.left_at[gid]

    def presence_changed(self, ch: Channel) -> None:
        if ch.presence_task is None or ch.presence_task.done():
            ch.presence_task = asyncio.get_running_loop().create_task(self._presence_flush(ch))

    async def _presence_flush(self, ch: Channel) -> None:
        await asyncio.sleep(0.2)  # debounce: 500 spectators arriving make one message, not 500
        local = ch.presence()
        if self.backend == "postgres":
            await self.notify_presence(ch.game_id, local)
        self.broadcast_watchers(ch)
        if not ch.subs:
            self._maybe_drop(ch)

    def broadcast_watchers(self, ch: Channel) -> None:
        total = self.presence_total(ch)
        if total == ch.last_presence:
            return
        ch.last_presence = total
        text = self._watchers_text(ch.game_id, total)
        frame = ws_frame(text)
        ch.release_held()
        for sub in list(ch.subs):
            if sub.ready:
                sub.put(text, frame)
                sub.presence = total

    def _send_watchers(self, sub: Subscriber, ch: Channel) -> None:
        total = self.presence_total(ch)
        sub.put(self._watchers_text(ch.game_id, total))
        sub.presence = total

    @staticmethod
    def _watchers_text(gid: str, total: Total) -> str:
        return protocol.dump(protocol.WatchersMsg(game_id=gid, count=total.count, online=list(total.online),
                                                  presence=total.seats()))

    def watchers(self, gid: str) -> int:
        """How many people have the game's page open (the lobby's figure)."""
        ch = self.channels.get(gid)
        if ch is not None:
            return self.presence_total(ch).count
        now = time.monotonic()
        return add_up(r for r in (self.remote.get(gid) or {}).values() if now - r.heard < PRESENCE_TTL).count

    def side_online(self, gid: str, side: str) -> bool:
        """Whether the player of `side` has the game open (a websocket to it, in this
        process or, by the presence other processes announce, in another): such a player
        gets no mail (app.notices) and is not replaced by the computer."""
        try:
            ch = self.channels.get(gid)
            if ch is not None:
                return side in self.presence_total(ch).online
            now = time.monotonic()
            return any(side in r.sides and now - r.heard < PRESENCE_TTL for r in (self.remote.get(gid) or {}).values())
        except Exception:  # read from a worker thread while the loop changes it: be conservative
            return False
