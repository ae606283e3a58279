"""Fan-out across processes (Postgres): LISTEN/NOTIFY.

After each append the process that wrote it sends pg_notify('hd_events', ...) on its
own autocommit connection: the move itself (the new games values and events, see
app.games.announce), or only 'game:seq:proc:seated' when that is too big. Every process
LISTENs; for a game it has subscribers for, it brings its cached game forward by the
announced events and delivers them (app.games.remote), or, when the announcement does
not carry them or the cached game is not just before them, reads them from the table.
Presence (how many sockets watch a game, which players are online) travels on
'hd_presence', and so does each process's own: a hello when it starts listening and
every PRESENCE_BEAT seconds, a goodbye when it stops. A process that has heard from no
other within PRESENCE_TTL announces nothing (one process alone is told of its moves by
nobody, and a NOTIFY costs it and Postgres about a fifth of a move). A periodic sweep
compares each watched game with the table, in case a notification was lost.
`listening` is set once the LISTEN connection is up and the others have been asked who
they are: the readiness check (/api/ready) waits for it.
"""
from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from typing import TYPE_CHECKING, Any

from ..games.announce import Note, announced_by, head_only, parse_note
from ..games.remote import GameBusy
from .presence import Report, decode, encode

if TYPE_CHECKING:
    from ..games.records import Change
    from ..games.service import GameService
    from .channel import Channel
    from .users import UserSockets

log = logging.getLogger("app.hub")
EVENTS_CHANNEL = "hd_events"
PRESENCE_CHANNEL = "hd_presence"
CHAT_CHANNEL = "hd_chat"
PRESENCE_TTL = 75  # seconds a process's presence report counts without a heartbeat
PRESENCE_BEAT = 25  # seconds between a process's presence reports
# the game id of a process's hello and goodbye on the presence channel: never a game's,
# and an older version reads "!:proc:0:" as "no sockets of proc on game '!'" (harmless)
HELLO, GOODBYE = "!", "-"
LISTEN_POLL_S = 1.0  # how often the listener thread looks whether the server is stopping


class PostgresFanout:
    """The Postgres half of the Hub (a mixin: Hub provides the attributes below)."""

    service: GameService
    dsn: str | None
    channels: dict[str, Channel]
    users: UserSockets
    remote: dict[str, dict[str, Report]]
    loop: asyncio.AbstractEventLoop | None
    loop_thread: int | None

    def init_fanout(self) -> None:
        self._notify_conn: Any = None
        self._stopping = False
        # announcements of this process's moves, sent by their own thread (_send_announcements)
        self._announcements: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._announcer: threading.Thread | None = None
        # LISTENs on its own connection and hands the event loop what concerns it (_listen)
        self._listener: threading.Thread | None = None
        # announced moves of a game waiting to be delivered, in order (one task per game)
        self._remote_moves: dict[str, list[Note]] = {}
        self.listening = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        # the other processes on this database: proc id -> when last heard (monotonic)
        self.peers: dict[str, float] = {}

    def start_fanout(self, loop: asyncio.AbstractEventLoop) -> None:
        self._tasks = [loop.create_task(self._presence_heartbeat()), loop.create_task(self._sweep())]
        self._listener = threading.Thread(target=self._listen, args=(loop,), name="hd-listen", daemon=True)
        self._listener.start()
        self._announcer = threading.Thread(target=self._send_announcements, name="hd-announce", daemon=True)
        self._announcer.start()

    async def stop_fanout(self) -> None:
        self._stopping = True
        if self.listening.is_set():
            await self._pg_notify(PRESENCE_CHANNEL, f"{GOODBYE}:{self.service.proc_id}:0:")
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except BaseException:
                pass
        if self._announcer is not None:
            self._announcements.put(None)
            await asyncio.to_thread(self._announcer.join, 5)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, LISTEN_POLL_S + 5)
        if self._notify_conn is not None:
            try:
                await self._notify_conn.close()
            except Exception:
                pass

    # provided by Hub
    def presence_changed(self, ch: Channel) -> None:
        raise NotImplementedError

    def broadcast_watchers(self, ch: Channel) -> None:
        raise NotImplementedError

    def note_departures(self, gid: str, left: tuple[tuple[str, float], ...]) -> None:
        raise NotImplementedError

    def deliver_chat(self, gid: str, message: dict, status: str) -> None:
        raise NotImplementedError

    def _pg_dsn(self) -> str:
        dsn = self.dsn or ""
        return dsn.replace("postgresql+psycopg://", "postgresql://", 1)

    async def notify_presence(self, gid: str, report: Report) -> None:
        await self._pg_notify(PRESENCE_CHANNEL, encode(gid, self.service.proc_id, report))

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

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """The listener thread: LISTEN on a plain connection and hand every notification
        to the event loop, except this process's own announcements (one per move it
        made): dropped here, they no longer wake the loop (an asyncio connection cost the
        loop a reader's registration and a future for every notification)."""
        import psycopg
        first = True
        while not self._stopping:
            try:
                with psycopg.connect(self._pg_dsn(), autocommit=True) as conn:
                    for channel in (EVENTS_CHANNEL, PRESENCE_CHANNEL, CHAT_CHANNEL):
                        conn.execute(f"LISTEN {channel}")
                    loop.call_soon_threadsafe(self._listening_up, first)
                    first = False
                    while not self._stopping:  # a timeout, to notice a stop
                        for n in conn.notifies(timeout=LISTEN_POLL_S):
                            if not self._own_announcement(n.channel, n.payload):
                                loop.call_soon_threadsafe(self._on_notify_logged, n.channel, n.payload)
            except RuntimeError:  # the event loop is closed: the server is stopping
                return
            except Exception:
                if self._stopping:
                    return
                try:
                    loop.call_soon_threadsafe(self.listening.clear)
                except RuntimeError:
                    return
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
                time.sleep(1)

    def _listening_up(self, first: bool) -> None:
        """On the loop, once the listener listens: ask the other processes who they are
        and who watches what, then count as ready, and (after a reconnect) catch up
        anything committed while we did not listen."""
        asyncio.get_running_loop().create_task(self._say_hello(first))

    async def _say_hello(self, first: bool) -> None:
        # ready only once the others have been asked: a move another process makes
        # before it has heard of this one is not announced to it (the sweep finds it)
        await self._pg_notify(PRESENCE_CHANNEL, f"?:{self.service.proc_id}")
        self.listening.set()
        if not first:
            for ch in list(self.channels.values()):
                ch.request_fill(1 << 62)

    def others_listen(self) -> bool:
        """Whether another process has been heard from lately (any thread may ask): if
        not, nobody needs this process's announcements."""
        now = time.monotonic()
        return any(now - ts < PRESENCE_TTL for ts in list(self.peers.values()))

    def _own_announcement(self, channel: str, payload: str) -> bool:
        """Whether this is the announcement of a move this process made (its head is
        game:seq:proc:seated)."""
        return channel == EVENTS_CHANNEL and announced_by(payload) == self.service.proc_id

    def _on_notify_logged(self, channel: str, payload: str) -> None:
        try:
            self._on_notify(channel, payload)
        except Exception:
            log.exception("bad notification %r", payload)

    def notify_threadsafe(self, payload: str) -> None:
        """Announce a committed move (called from any thread). The move itself goes along
        only when another process has sockets on the game (its presence reports say so):
        the others need the head alone (the seated players, for their badges), and a
        process that has just opened the game reads the move from the table."""
        if self._announcer is None:
            return
        if payload.partition(":")[0] not in self.remote:
            payload = head_only(payload)
        self._announcements.put(payload)

    def _send_announcements(self) -> None:
        """The announcer thread: send queued announcements, many in one statement when
        they pile up, on its own autocommit connection. A thread with a plain connection
        costs the event loop nothing per move (an asyncio connection's round trip cost it
        about as much CPU as the move itself)."""
        import psycopg
        conn: Any = None
        while True:
            batch = [self._announcements.get()]
            while not self._announcements.empty():
                batch.append(self._announcements.get())
            texts = [t for t in batch if t is not None]
            for _ in range(3 if texts else 0):
                try:
                    if conn is None or conn.closed:
                        conn = psycopg.connect(self._pg_dsn(), autocommit=True)
                    _send_notifications(conn, texts)
                    break
                except Exception:
                    log.warning("sending announcements failed; reconnecting", exc_info=True)
                    conn = None
                    time.sleep(0.2)
            if None in batch:
                if conn is not None:
                    conn.close()
                return

    async def _sweep(self, every: float = 2.0) -> None:
        """Safety net for lost notifications (a process that died between its commit and
        its NOTIFY, a LISTEN connection that dropped): compare what each watched game
        has delivered with the table. A game is read from the table only when a seq the
        previous sweep saw is still not delivered: a move committed a moment ago is
        usually still on its way (announced, not yet folded), and reading it would only
        duplicate that work."""
        seen: dict[str, int] = {}  # the table's seq of each watched game at the previous sweep
        while True:
            await asyncio.sleep(every)
            chans = [ch for ch in self.channels.values() if ch.subs and ch.delivered is not None]
            for ch in chans:
                earlier = seen.get(ch.game_id)
                if earlier is not None and ch.delivered is not None and earlier > ch.delivered:
                    ch.request_fill(earlier)
            if not chans:
                seen = {}
                continue
            try:
                seen = await self.service.call(self.service.current_seqs, [ch.game_id for ch in chans])
            except Exception:
                log.warning("sweep failed", exc_info=True)

    def announce_chat(self, gid: str, message: dict, status: str) -> None:
        """Tell the other processes of a chat message (in UTF-8 the whole of it fits in the
        8000 bytes of a notification: its body is at most 500 characters)."""
        payload = json.dumps({"proc": self.service.proc_id, "game_id": gid, "status": status, "message": message},
                             ensure_ascii=False)
        asyncio.get_running_loop().create_task(self._pg_notify(CHAT_CHANNEL, payload))

    def _on_notify(self, channel: str, payload: str) -> None:
        if channel == EVENTS_CHANNEL:
            note = parse_note(payload)  # never this process's own: the listener drops those
            self._remote_move(note)
            if note.seated:
                self.users.game_changed(note.seated)
        elif channel == CHAT_CHANNEL:
            msg = json.loads(payload)
            if msg["proc"] != self.service.proc_id:
                self.deliver_chat(msg["game_id"], msg["message"], msg["status"])
        elif channel == PRESENCE_CHANNEL:
            self._on_presence(payload.split(":"))

    def _on_presence(self, parts: list[str]) -> None:
        """A presence report: "?:proc" (a process asks who is there), a process's hello
        or goodbye, or "game:proc:count:online" (its sockets on a game)."""
        gid, proc = parts[0], parts[1]
        if proc == self.service.proc_id:
            return
        if gid == GOODBYE:  # its sockets are gone with it
            self.peers.pop(proc, None)
            for game_id in [g for g, procs in self.remote.items() if proc in procs]:
                self._remote_sockets(game_id, proc, Report(count=0, sides=()))
            return
        self.peers[proc] = time.monotonic()
        if gid == "?":
            asyncio.get_running_loop().create_task(self._pg_notify(PRESENCE_CHANNEL, self._hello()))
            for ch in list(self.channels.values()):
                self.presence_changed(ch)
            return
        if gid != HELLO:
            self._remote_sockets(gid, proc, decode(parts))

    def _remote_sockets(self, gid: str, proc: str, report: Report) -> None:
        """Another process's sockets on a game: how many people, the players among
        them, and when the players who left its sockets did."""
        self.note_departures(gid, report.left)
        procs = self.remote.setdefault(gid, {})
        if report.count == 0:
            procs.pop(proc, None)
            if not procs:
                self.remote.pop(gid, None)
        else:
            procs[proc] = report
        watched = self.channels.get(gid)
        if watched is not None:
            self.broadcast_watchers(watched)

    def _remote_move(self, note: Note) -> None:
        """Queue an announced move of a game this process has sockets for."""
        ch = self.channels.get(note.game_id)
        if ch is None or ch.delivered is None or note.seq <= ch.delivered:
            return
        queue = self._remote_moves.get(note.game_id)
        if queue is not None:
            queue.append(note)
            return
        self._remote_moves[note.game_id] = [note]
        asyncio.get_running_loop().create_task(self._deliver_remote(ch, note.game_id))

    async def _deliver_remote(self, ch: Channel, gid: str) -> None:
        """Deliver a game's announced moves in order: from the announcement when it
        carries the move and follows what the channel delivered, else from the table."""
        queue = self._remote_moves[gid]
        try:
            while queue:
                note = queue.pop(0)
                if ch.delivered is None or note.seq <= ch.delivered:
                    continue
                change = await self._fold_remote(ch, note) if note.body else None  # else read it
                if change is None:
                    ch.request_fill(note.seq)
                else:
                    ch.deliver(change)
        except Exception:
            log.exception("delivering an announced move of %s failed", gid)
            ch.request_fill(1 << 62)
        finally:
            del self._remote_moves[gid]

    async def _fold_remote(self, ch: Channel, note: Note) -> Change | None:
        """The announced move as a Change for this channel's sockets (app.games.remote).
        Folded here and now on the event loop: the work is a little CPU and no I/O (and
        the move would otherwise queue behind the commands waiting for the database);
        only when a command of this process holds the game's lock does it wait for it,
        through GameService.call."""
        want_state, want_legal = ch.want_state(), ch.want_legal()
        try:
            return self.service.remote_change(note, want_state, want_legal, wait=False)
        except GameBusy:
            return await self.service.call(self.service.remote_change, note, want_state, want_legal)

    def _hello(self) -> str:
        return f"{HELLO}:{self.service.proc_id}:0:"

    async def _presence_heartbeat(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_BEAT)
            await self._pg_notify(PRESENCE_CHANNEL, self._hello())
            for ch in list(self.channels.values()):
                if ch.subs:
                    await self.notify_presence(ch.game_id, ch.presence())
            now = time.monotonic()
            for gid in list(self.remote):
                procs = self.remote[gid]
                for proc in [p for p, r in procs.items() if now - r.heard > PRESENCE_TTL]:
                    del procs[proc]
                if not procs:
                    del self.remote[gid]
            for proc in [p for p, ts in self.peers.items() if now - ts > PRESENCE_TTL]:
                del self.peers[proc]


def _send_notifications(conn: Any, texts: list[str]) -> None:
    """NOTIFY each text on the events channel, in one statement. Several travel as one
    JSON array: as an array of texts psycopg would escape each announcement (JSON, full
    of quotes) character by character, most of the announcer's time."""
    if len(texts) == 1:
        conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, texts[0]))
    else:
        conn.execute("SELECT pg_notify(%s, p) FROM json_array_elements_text(%s::json) AS p",
                     (EVENTS_CHANNEL, json.dumps(texts)))
