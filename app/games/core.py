"""The command pipeline of the game service (see app.games.service for the whole).

Every command runs under a per-game lock (one writer per game per process) and inside one
database transaction: load the replayed state (cache, or a replay of the stored events)
-> the engine validates and produces events -> store.events.append (conditional UPDATE
of games.seq, INSERT of the events and of the command row) -> COMMIT -> publish.

A concurrent writer in another process makes the append raise Stale; the loser rolls
back, rebuilds its state from the table and retries (or answers 409 "stale" when the
client named the seq it expected).
"""
from __future__ import annotations

import asyncio
import collections
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

import rules_engine
from rules_engine.record import TAKE_BACK_TYPES, event_hash
from rules_engine.state import canonical_json

from ..core.errors import ApiError, not_found
from ..i18n import N_
from ..models import utcnow
from ..store import events as store
from ..store.db import Database
from ..store.events import MUTABLE, EventRec, GameRow, Stale, load_game
from .announce import announcement
from .meanwhile import Meanwhile
from .records import SIDES, Change, Cmd, Entry
from .seats import SeatChecks
from .workers import Workers

log = logging.getLogger("app.games")

# one record to append: (source, type, actor, payload)
Rec = tuple[str, str, str | None, dict]


class CommandCore(SeatChecks):
    """Locks, the cache of replayed states, and run_command/append/publish: the public
    command API that every module appending to a game uses."""

    def __init__(self, db: Database, cache_size: int = 500, public_url: str = "", game_seed: str | None = None):
        self.db = db
        # tests: every new game gets this dice seed, so that random play is repeatable
        self.game_seed = game_seed
        # where async code runs the blocking commands and reads: one thread per pooled
        # connection (docs/architecture.md, "Where blocking work runs")
        self.workers = Workers(db.pool_size)
        self.cache_size = cache_size
        self.public_url = public_url.rstrip("/")
        self.proc_id = secrets.token_hex(4)
        self._cache: collections.OrderedDict[str, Entry] = collections.OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        # set by the hub: called (where the command runs, under the game lock, after
        # commit) with each Change, so local delivery happens in commit order
        self.on_change: Callable[[Change], None] | None = None
        # set by the hub: called on the event loop with a change worked out before its
        # commit is known (its channel prepares what it will write; nothing is sent)
        self.prepare_change: Callable[[Change], None] = lambda change: None
        # set by the hub once started: its event loop, which works out a move's change
        # while the move's thread waits for the commit (Postgres: _work_out_meanwhile)
        self.loop: asyncio.AbstractEventLoop | None = None
        # set by the hub (Postgres): announce "game:seq:proc" to the other processes
        self.notify: Callable[[str], None] | None = None
        # set by the hub (Postgres): whether any other process listens (else a move is
        # not announced: nobody would read it)
        self.others_listen: Callable[[], bool] = lambda: True
        # also called with each published Change, after the hub (the computer players
        # watch for games that now wait for them: app.computer)
        self.after_publish: list[Callable[[Change], None]] = []
        # set by the hub: (want_state, want_legal) for a game id
        self.wants: Callable[[str], tuple[bool, bool]] = lambda gid: (False, False)
        # set by the hub: whether the player of a side has a socket on the game here (the
        # legal actions are worked out only for such a player; the others get an empty list)
        self.plays_here: Callable[[GameRow, str], bool] = lambda game, side: True
        self.replays = 0  # number of full rebuilds (for tests and stats)
        # set by create_app (app.notices.pipeline): called in the append transaction, before the
        # commit, with (conn, game row before, new values, events) -> notices, outbox, clocks
        self.on_append: Callable[..., None] | None = None
        # set by create_app (app.playbyturn.orders): (game row, engine) -> records of forced moves
        self.automate: Callable[..., list] | None = None

    # ---------------------------------------------------------------- plumbing
    def new_seed(self) -> str:
        """The secret dice seed of a new game."""
        return self.game_seed or secrets.token_hex(32)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking service method from async code, in a worker thread (app.games.workers)."""
        return await self.workers.run(fn, *args)

    def _lock(self, gid: str) -> threading.Lock:
        """The game's lock: one command at a time per game in this process. Taken in
        threads only: the event loop never waits for it (app.games.remote)."""
        with self._locks_guard:
            lk = self._locks.get(gid)
            if lk is None:
                if len(self._locks) > 4 * self.cache_size + 1000:
                    # forget locks nobody holds (cheap bound on memory)
                    for k in [k for k, v in self._locks.items() if not v.locked()]:
                        del self._locks[k]
                lk = self._locks[gid] = threading.Lock()
            return lk

    def cached_state(self, gid: str) -> Entry | None:
        with self._cache_lock:
            e = self._cache.get(gid)
            if e is not None:
                self._cache.move_to_end(gid)
            return e

    def _cache_put(self, gid: str, e: Entry) -> None:
        with self._cache_lock:
            self._cache[gid] = e
            self._cache.move_to_end(gid)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def drop_cache(self, gid: str | None = None) -> None:
        with self._cache_lock:
            if gid is None:
                self._cache.clear()
            else:
                self._cache.pop(gid, None)

    def state(self, s: Connection, game: GameRow, known: tuple[int, list[EventRec]] | None = None) -> Entry:
        """The replayed state at exactly game.seq: a cache hit, a cached state brought
        forward by the events it has not seen (another process appended them), or a full
        rebuild. Called under the game's lock (the cached game is changed in place).
        known: (after, the stored events after that seq up to game.seq) if the caller
        has read them already."""
        e = self.cached_state(game.id)
        if e is not None and e.seq == game.seq:
            return e
        if e is not None and e.seq < game.seq and self._advance(s, game, e, known):
            e.row = SimpleNamespace(**vars(game))
            return e
        e = self._rebuild(s, game)
        self._cache_put(game.id, e)
        return e

    def _advance(self, s: Connection, game: GameRow, e: Entry, known: tuple[int, list[EventRec]] | None) -> bool:
        """Bring the cached game forward by the stored events after e.seq (read here
        unless the caller has them: known)."""
        if known is not None and known[0] == e.seq:
            rows = [(r.seq, r.source, r.type, r.payload) for r in known[1]]
        else:
            rows = store.replay_rows(s, game.id, game.seq, after=e.seq)
        if not rows or rows[-1][0] != game.seq or rows[0][0] != e.seq + 1:
            return False
        return self.bring_forward(game.id, e, rows, store.action_sides(s, game.id, game.seq, after=e.seq))

    def bring_forward(self, gid: str, e: Entry, rows: list[Any], sides: dict[int, str]) -> bool:
        """Apply to the cached game only these events, the ones right after e.seq
        ((seq, source, type, payload) each; sides: first seq -> side of each player
        action among them), folded in (rules_engine.fold_onto). False (the caller
        rebuilds) when they take something back or do not follow from the cached game;
        the entry is then dropped. Called under the game's lock."""
        g = e.game
        start = len(g.events)
        stored: list[dict] = []
        try:
            for seq, source, typ, payload in rows:
                if source != "engine":
                    if typ in TAKE_BACK_TYPES:
                        raise Stale()
                    continue
                if seq in sides and payload["type"] == "action":
                    e.stack.append(Cmd(seq, sides[seq], start + len(stored)))
                stored.append(payload)
            rules_engine.fold_onto(g, stored)
        except Exception:
            self.drop_cache(gid)
            return False
        e.seq = rows[-1][0]
        return True

    def _rebuild(self, s: Connection, game: GameRow) -> Entry:
        """Replay: engine events minus the spans taken back by undo events."""
        self.replays += 1
        if getattr(game, "partial", False):
            full = load_game(s, game.id)
            if full is None or full.seq != game.seq:
                raise Stale()
            game.header, game.seed = full.header, full.seed
        rows = store.replay_rows(s, game.id, game.seq)
        cmd_sides = store.action_sides(s, game.id, game.seq)
        eff: list[tuple[int, dict]] = []
        stack: list[Cmd] = []
        for seq, source, typ, payload in rows:
            if source == "engine":
                side = cmd_sides.get(seq)
                if side is not None:
                    stack.append(Cmd(seq, side, len(eff)))
                eff.append((seq, payload))
            elif typ in TAKE_BACK_TYPES:  # a player's undo or an administrator's rewind
                k = payload["to_seq"]
                while eff and eff[-1][0] >= k:
                    eff.pop()
                while stack and stack[-1].first_seq >= k:
                    stack.pop()
        g = rules_engine.replay(game.header, [p for _, p in eff], seed=game.seed)
        last = rows[-1][0] if rows else 0
        if last != game.seq:
            raise Stale()
        return Entry(g, game.seq, stack, game.header, game.seed)

    def run_command(self, gid: str, fn: Callable[[Connection, GameRow], Any]) -> Any:
        """Run one write command: fn(conn, games row) under the game's lock, in one
        transaction; fn reads the state (self.state), appends (self.append: commits) and
        publishes (self.publish). Retried on a lost race.

        The first attempt trusts the cached games row: if another process appended in
        the meantime, the conditional UPDATE in append matches no row and we retry with
        a fresh read; a refusal (ApiError) based on the cached row is re-checked too."""
        with self._lock(gid):
            for attempt in range(10):
                entry = self.cached_state(gid)
                cached = attempt == 0 and entry is not None and entry.row is not None
                try:
                    with self.db.write() as s:
                        if cached and entry is not None:
                            game = SimpleNamespace(**vars(entry.row))
                        else:
                            loaded = load_game(s, gid, hot=True)
                            if loaded is None:
                                raise not_found()
                            game = loaded
                        game.from_cache = cached
                        out = fn(s, game)
                    e = self.cached_state(gid)
                    if e is not None and e.seq == game.seq:
                        e.row = game
                    return out
                except ApiError:
                    if cached:
                        continue
                    raise
                except (Stale, IntegrityError) as exc:
                    log.debug("game %s: lost a race (%s), retrying", gid, type(exc).__name__)
                    self.drop_cache(gid)
                    if attempt:
                        time.sleep(random.uniform(0, 0.005 * attempt))
            raise ApiError(503, N_("the game is too busy; try again"), "busy")

    def append(self, s: Connection, game: GameRow, recs: list[Rec], updates: dict | None = None,
               command: dict | None = None, publishing: Entry | None = None) -> list[EventRec]:
        """Append events after game.seq in the caller's transaction and commit.

        The conditional UPDATE of games.seq (expected old seq) and the primary key of
        the event table both refuse a concurrent writer: the loser gets Stale/IntegrityError.
        publishing: the entry the caller publishes the change with once committed (its
        work is then done while the commit is on its way: _work_out_meanwhile)."""
        old = game.seq
        new = old + len(recs)
        now = utcnow()
        values = dict(updates or {}, seq=new, updated_at=now)
        mutable = {c: values[c] if c in values else getattr(game, c) for c in MUTABLE}
        out = [EventRec(old + i + 1, src, typ, actor, payload, now)
               for i, (src, typ, actor, payload) in enumerate(recs)]
        head = getattr(game, "chain_head", None)
        if head is not None and out:  # the hash chain: each event carries the hash of the one before
            for r in out:
                r.prev_hash = head
                head = event_hash(head, {"seq": r.seq, "source": r.source, "type": r.type, "actor": r.actor,
                                         "at": r.created_at, "data": r.payload})
            mutable["chain_head"] = values["chain_head"] = head
        cmd = None
        if command is not None and out:
            cmd = {"game_id": game.id, "first_seq": old + 1, "last_seq": new, "created_at": now, "kind": None,
                   "action_id": None, "body": None, "side": None, "user_id": None}
            cmd.update(command)
        if self.on_append is not None and out:
            self.on_append(s, game, mutable, out)
        if publishing is not None and out and not self.db.is_sqlite and self.loop is not None:
            self._work_out_meanwhile(game, values, publishing, out)
        try:
            store.append(s, self.db.is_sqlite, game.id, old, mutable, out, cmd)
        except BaseException:
            self._early_change(game)  # dropped: nothing committed
            raise
        if not self.db.is_sqlite and out and self.notify is not None and self.others_listen():
            # after the commit, on a separate autocommit connection: a NOTIFY inside
            # the write transaction would make every commit slower (the hub also
            # sweeps for anything a lost notification would have announced); the
            # announcement carries the move itself (app.games.remote)
            self.notify(announcement(game.id, self.proc_id, mutable, out, cmd))
        for k, v in values.items():
            setattr(game, k, v)
        return out

    def _work_out_meanwhile(self, game: GameRow, values: dict, entry: Entry, out: list[EventRec]) -> None:
        """Have the event loop work out the change of this append (its legal actions, its
        state, what the sockets will be sent) while this thread waits for the commit
        (app.games.meanwhile). publish takes it up; nothing of it goes out before the
        commit (a failed append drops it)."""
        assert self.loop is not None
        after = SimpleNamespace(**{**vars(game), **values})  # the games row once committed

        def work() -> Change:
            change = self._change(after, entry, [r.out() for r in out])
            self.prepare_change(change)
            return change

        game.early_change = (out[0].seq, Meanwhile(self.loop, work))

    @staticmethod
    def _early_change(game: GameRow, first_seq: int | None = None) -> Change | None:
        """The change _work_out_meanwhile worked out for the events from first_seq (waited
        for if the loop is at it); None when the loop had not started it (publish works
        it out) or it is not for these events."""
        seq, meanwhile = game.__dict__.pop("early_change", (None, None))
        ready = meanwhile.take() if meanwhile is not None else None
        return ready if seq == first_seq else None

    def publish(self, game: GameRow, entry: Entry | None, recs: list[EventRec]) -> Change | None:
        """Hand the committed events to the hub (every socket of the game); the Change."""
        if not recs:
            return None
        ready = self._early_change(game, recs[0].seq)
        events = ready.events if ready is not None else [r.out() for r in recs]
        try:
            ch = ready if ready is not None else self._change(game, entry, events)
            if self.on_change is not None:
                self.on_change(ch)
            for hook in self.after_publish:
                hook(ch)
        except Exception:  # never let delivery break a committed command: sockets catch up
            log.exception("publishing game %s failed", game.id)
            ch = Change(game.id, events[0]["seq"], game.seq, events, game.status, game.to_act, game.result,
                        {"union": game.union_user_id, "confederate": game.confederate_user_id})
        return ch

    def _change(self, game: GameRow, entry: Entry | None, events: list[dict],
                wants: tuple[bool, bool] | None = None, first: int | None = None) -> Change:
        want_state, want_legal = wants if wants is not None else self.wants(game.id)
        if first is None:
            first = events[0]["seq"] if events else game.seq + 1
        ch = Change(game.id, first, game.seq, events, game.status, game.to_act, game.result,
                    {"union": game.union_user_id, "confederate": game.confederate_user_id})
        if entry is not None:
            if want_state:  # the same text as entry.game.state_json(), and the dict it was made of
                ch.state = entry.game.state()
                ch.state_json = canonical_json(ch.state)
            if want_legal:
                ch.legal = {side: [] for side in SIDES}
                if game.status == "active" and game.to_act in SIDES and self.plays_here(game, game.to_act):
                    ch.legal[game.to_act] = entry.game.legal_actions()
        return ch

    # ---------------------------------------------------------------- reads
    def _read(self, gid: str, fn: Callable[[Connection, GameRow], Any], lock: bool = True) -> Any:
        for _ in range(5):
            try:
                if lock:
                    with self._lock(gid), self.db.read(statements_apart=True) as s:
                        game = load_game(s, gid)
                        if game is None:
                            raise not_found()
                        return fn(s, game)
                with self.db.read() as s:
                    game = load_game(s, gid)
                    if game is None:
                        raise not_found()
                    return fn(s, game)
            except Stale:
                self.drop_cache(gid)
        raise ApiError(503, N_("the game is too busy; try again"), "busy")

