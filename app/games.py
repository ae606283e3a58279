"""Game services: lobby, commands and the event store on top of the rules engine.

Every command runs in a worker thread under a per-game lock (one writer per game per
process) and inside one database transaction:

    load state (cache, or replay of the stored events) -> the engine validates and
    produces events -> conditional UPDATE of games.seq (optimistic concurrency: the
    expected seq) + INSERT of the events (primary key (game_id, seq)) + the command row
    (unique (game_id, action_id): idempotent retries) -> COMMIT -> publish.

A concurrent writer in another process makes the UPDATE match no row or the INSERT hit
the primary key; the loser rolls back, rebuilds its state from the table and retries
(or answers 409 "stale" when the client named the seq it expected).
"""
from __future__ import annotations

import asyncio
import collections
import json
import logging
import random
import secrets
import string
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

import rules_engine
from types import SimpleNamespace

from sqlalchemy import bindparam, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from rules_engine.record import TAKE_BACK_TYPES, event_hash, header_hash

from .db import Database
from .errors import ApiError, not_found
from .models import Game, GameCommand, GameEvent, User, utcnow

log = logging.getLogger("app.games")

SIDES = ("union", "confederate")
MODES = ("live", "async")
NOTIFY_CHANNEL = "hd_events"
_ID_ALPHABET = string.ascii_lowercase + string.digits


# Core statements built once (the hot path runs them thousands of times a second)
T_GAMES, T_EVENTS, T_CMDS, T_USERS = Game.__table__, GameEvent.__table__, GameCommand.__table__, User.__table__
_MUTABLE = ("seq", "updated_at", "to_act", "status", "result", "started_at", "finished_at",
            "union_user_id", "confederate_user_id", "chain_head")
_GET_GAME = select(T_GAMES).where(T_GAMES.c.id == bindparam("gid"))
# what a command needs when the replayed state is cached: no header/options/seed to decode
_HOT_COLUMNS = ("id", "status", "private", "invite_code", "mode") + _MUTABLE
_GET_GAME_HOT = select(*[T_GAMES.c[c] for c in _HOT_COLUMNS]).where(T_GAMES.c.id == bindparam("gid"))
_UPD_GAME = (update(T_GAMES).where(T_GAMES.c.id == bindparam("gid"), T_GAMES.c.seq == bindparam("old_seq"))
             .values({c: bindparam("v_" + c, type_=T_GAMES.c[c].type) for c in _MUTABLE}))
_INS_EVENTS = insert(T_EVENTS)
_INS_CMD = insert(T_CMDS)
_GET_CMD = select(T_CMDS).where(T_CMDS.c.game_id == bindparam("gid"), T_CMDS.c.action_id == bindparam("aid"))
_EVENTS_RANGE = (select(T_EVENTS).where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq > bindparam("after"),
                                        T_EVENTS.c.seq <= bindparam("upto")).order_by(T_EVENTS.c.seq))
_EVENTS_AFTER = (select(T_EVENTS).where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq > bindparam("after"))
                 .order_by(T_EVENTS.c.seq))
_REPLAY_ROWS = (select(T_EVENTS.c.seq, T_EVENTS.c.source, T_EVENTS.c.type, T_EVENTS.c.payload)
                .where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq <= bindparam("upto"))
                .order_by(T_EVENTS.c.seq))
_ACTION_CMDS = (select(T_CMDS.c.first_seq, T_CMDS.c.side)
                .where(T_CMDS.c.game_id == bindparam("gid"), T_CMDS.c.kind == "action",
                       T_CMDS.c.first_seq <= bindparam("upto")))
_NOTIFY = text("SELECT pg_notify(:c, :p)")

GameRow = SimpleNamespace  # a games row, as plain attributes


def load_game(conn: Connection, gid: str, hot: bool = False) -> GameRow | None:
    """The games row. hot=True leaves out header, options and seed (see _full)."""
    row = conn.execute(_GET_GAME_HOT if hot else _GET_GAME, {"gid": gid}).first()
    if row is None:
        return None
    g = SimpleNamespace(**row._mapping)
    g.partial = hot
    return g


def ws_frame(text: str) -> bytes:
    """An unmasked, uncompressed websocket text frame (RFC 6455 5.2), as a server sends it."""
    data = text.encode("utf-8")
    n = len(data)
    if n < 126:
        return b"\x81" + bytes((n,)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


_PG_UPD = ("UPDATE games SET " + ", ".join(f"{c} = %s" for c in _MUTABLE) + " WHERE id = %s AND seq = %s")
_PG_INS_EVENT = ("INSERT INTO game_events (game_id, seq, source, type, actor, payload, created_at, prev_hash) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)")
_PG_INS_CMD = ("INSERT INTO game_commands (game_id, first_seq, last_seq, kind, action_id, body, side, user_id, "
               "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)")


_SQ_UPD = "UPDATE games SET " + ", ".join(f"{c} = ?" for c in _MUTABLE) + " WHERE id = ? AND seq = ?"
_SQ_INS_EVENT = ("INSERT INTO game_events (game_id, seq, source, type, actor, payload, created_at, prev_hash) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_SQ_INS_CMD = ("INSERT INTO game_commands (game_id, first_seq, last_seq, kind, action_id, body, side, user_id, "
               "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _sq(v: Any) -> Any:
    """A value as SQLAlchemy's SQLite types store it (DateTime as text, JSON as json.dumps)."""
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return v


def _append_sqlite(s: Connection, gid: str, old: int, mutable: dict, out: list, cmd: dict | None) -> None:
    """SQLite: the append through the sqlite3 connection itself (the statements are
    cached by sqlite3; SQLAlchemy's per-statement work would double the cost). The values
    are stored exactly as the models' types store them."""
    import sqlite3

    raw = s.connection.dbapi_connection
    try:
        cur = raw.cursor()
        cur.execute(_SQ_UPD, [_sq(v) for v in mutable.values()] + [gid, old])
        if cur.rowcount != 1:
            raise Stale()
        if out:
            cur.executemany(_SQ_INS_EVENT, [(gid, r.seq, r.source, r.type, r.actor, json.dumps(r.payload),
                                             _sq(r.created_at), r.prev_hash) for r in out])
        if cmd is not None:
            cur.execute(_SQ_INS_CMD, (gid, cmd["first_seq"], cmd["last_seq"], cmd["kind"], cmd["action_id"],
                                      json.dumps(cmd["body"]) if cmd["body"] is not None else None, cmd["side"],
                                      cmd["user_id"], _sq(cmd["created_at"])))
        raw.commit()
    except Stale:
        raw.rollback()
        raise
    except sqlite3.IntegrityError:
        raw.rollback()
        raise Stale() from None
    except sqlite3.Error as exc:
        raw.rollback()
        log.warning("append to game %s failed: %s", gid, exc)
        raise ApiError(503, "the database is busy; retry (with the same action_id)", "db_unavailable") from None


def _append_pg(s: Connection, gid: str, old: int, mutable: dict, out: list, cmd: dict | None) -> None:
    """Postgres: the whole append (UPDATE and INSERTs) in one pipelined round trip on the
    psycopg connection, then COMMIT."""
    import psycopg
    from psycopg.types.json import Json

    raw = s.connection.dbapi_connection
    try:
        with raw.pipeline():
            upd = raw.cursor()
            upd.execute(_PG_UPD, [Json(v) if c == "result" and v is not None else v for c, v in mutable.items()]
                        + [gid, old])
            cur = raw.cursor()
            if out:
                cur.executemany(_PG_INS_EVENT, [(gid, r.seq, r.source, r.type, r.actor, Json(r.payload),
                                                 r.created_at, r.prev_hash) for r in out])
            if cmd is not None:
                cur.execute(_PG_INS_CMD, (gid, cmd["first_seq"], cmd["last_seq"], cmd["kind"], cmd["action_id"],
                                          Json(cmd["body"]) if cmd["body"] is not None else None, cmd["side"],
                                          cmd["user_id"], cmd["created_at"]))
        if upd.rowcount != 1:
            raise Stale()
        raw.commit()
    except Stale:
        raw.rollback()
        raise
    except psycopg.errors.IntegrityError:
        raw.rollback()
        raise Stale() from None
    except psycopg.Error as exc:
        # e.g. the connection broke: whether the commit happened is unknown; a retry with
        # the same action_id finds out (idempotency), so say "try again"
        log.warning("append to game %s failed: %s", gid, exc)
        try:
            s.invalidate()
        except Exception:
            pass
        raise ApiError(503, "the database did not answer; retry (with the same action_id)", "db_unavailable") \
            from None


def iso(dt: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands datetimes back without their zone)."""
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.isoformat()


def other_side(side: str) -> str:
    return "confederate" if side == "union" else "union"


def side_name(side: str | None) -> str:
    return {"union": "Union", "confederate": "Confederate"}.get(side or "", "nobody")


class Stale(Exception):
    """Another writer appended first; rebuild and retry."""


# --------------------------------------------------------------------------- records

@dataclass(slots=True)
class EventRec:
    seq: int
    source: str
    type: str
    actor: str | None
    payload: dict
    created_at: datetime
    prev_hash: str | None = None  # the hash chain (rules_engine/record.py)

    def out(self) -> dict:
        return {"seq": self.seq, "source": self.source, "type": self.type, "actor": self.actor,
                "at": iso(self.created_at), "data": self.payload}

    @classmethod
    def from_row(cls, r: GameEvent) -> "EventRec":
        return cls(r.seq, r.source, r.type, r.actor, r.payload, r.created_at, getattr(r, "prev_hash", None))


@dataclass(slots=True)
class Cmd:
    """An effective (not taken back) player decision: where its events start."""
    first_seq: int
    side: str
    ev_index: int  # index of its first event in game.events


@dataclass
class Entry:
    """A game's replayed state, cached per process, valid for exactly `seq`."""
    game: Any
    seq: int
    stack: list[Cmd]
    header: dict
    seed: str
    row: Any = None  # the games row as of `seq` (lets a command skip reading it)


@dataclass
class Change:
    """What one committed command (or a catch-up read) adds to a game: the new events
    and the game's situation after them. Serialised once per change, not per socket."""
    game_id: str
    first_seq: int
    last_seq: int
    events: list[dict]
    status: str
    to_act: str | None
    result: dict | None
    seats: dict[str, int | None]
    state_json: str | None = None
    legal: dict[str, list] | None = None
    _texts: dict = field(default_factory=dict)

    def text(self, with_state: bool) -> str:
        key = bool(with_state and self.state_json is not None)
        t = self._texts.get(key)
        if t is None:
            head = json.dumps({"type": "events", "game_id": self.game_id, "seq": self.last_seq,
                               "status": self.status, "to_act": self.to_act, "result": self.result,
                               "events": self.events}, separators=(",", ":"))
            t = head[:-1] + ',"state":' + self.state_json + "}" if key else head
            self._texts[key] = t
        return t

    def frame(self, with_state: bool) -> bytes:
        """The websocket frame for text(with_state): built once, written to every socket."""
        key = ("frame", bool(with_state and self.state_json is not None))
        f = self._texts.get(key)
        if f is None:
            f = self._texts[key] = ws_frame(self.text(with_state))
        return f

    def legal_text(self, side: str) -> str | None:
        if self.legal is None:
            return None
        key = ("legal", side)
        t = self._texts.get(key)
        if t is None:
            t = json.dumps({"type": "legal", "game_id": self.game_id, "seq": self.last_seq, "side": side,
                            "to_act": self.to_act, "actions": self.legal.get(side, [])},
                           separators=(",", ":"))
            self._texts[key] = t
        return t

    def legal_frame(self, side: str) -> bytes | None:
        t = self.legal_text(side)
        if t is None:
            return None
        key = ("legal-frame", side)
        f = self._texts.get(key)
        if f is None:
            f = self._texts[key] = ws_frame(t)
        return f

    def after(self, seq: int) -> "Change":
        """The same change without the events a subscriber already has."""
        return Change(self.game_id, seq + 1, self.last_seq, [e for e in self.events if e["seq"] > seq],
                      self.status, self.to_act, self.result, self.seats, self.state_json, self.legal)


# --------------------------------------------------------------------------- service

class GameService:
    def __init__(self, db: Database, cache_size: int = 500, public_url: str = "", inline: bool = False):
        self.db = db
        # inline: run commands on the event loop itself instead of a worker thread (SQLite:
        # a local file answers in microseconds, and the thread hop would cost more)
        self.inline = inline
        self.cache_size = cache_size
        self.public_url = public_url.rstrip("/")
        self.proc_id = secrets.token_hex(4)
        self._cache: collections.OrderedDict[str, Entry] = collections.OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        # set by the hub: called (in the worker thread, under the game lock, after
        # commit) with each Change, so local delivery happens in commit order
        self.on_change: Callable[[Change], None] | None = None
        # set by the hub (Postgres): announce "game:seq:proc" to the other processes
        self.notify: Callable[[str], None] | None = None
        # set by the hub: (want_state, want_legal) for a game id
        self.wants: Callable[[str], tuple[bool, bool]] = lambda gid: (False, False)
        self.replays = 0  # number of full rebuilds (for tests and stats)
        # set by create_app (app/notify.py): called in the append transaction, before the
        # commit, with (conn, game row before, new values, events) -> notices, outbox, clocks
        self.on_append: Callable[..., None] | None = None
        # set by create_app (app/orders.py): (game row, engine) -> records of forced moves
        self.automate: Callable[..., list] | None = None

    # ---------------------------------------------------------------- plumbing
    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking service method from async code (inline or in a worker thread)."""
        if self.inline:
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    def _lock(self, gid: str) -> threading.Lock:
        with self._locks_guard:
            lk = self._locks.get(gid)
            if lk is None:
                if len(self._locks) > 4 * self.cache_size + 1000:
                    # forget locks nobody holds (cheap bound on memory)
                    for k in [k for k, v in self._locks.items() if not v.locked()]:
                        del self._locks[k]
                lk = self._locks[gid] = threading.Lock()
            return lk

    def _cache_get(self, gid: str) -> Entry | None:
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

    def _entry(self, s: Connection, game: GameRow) -> Entry:
        """The replayed state at exactly game.seq (cache hit or full rebuild)."""
        e = self._cache_get(game.id)
        if e is not None and e.seq == game.seq:
            return e
        e = self._rebuild(s, game)
        self._cache_put(game.id, e)
        return e

    def _rebuild(self, s: Connection, game: GameRow) -> Entry:
        """Replay: engine events minus the spans taken back by undo events."""
        self.replays += 1
        if getattr(game, "partial", False):
            full = load_game(s, game.id)
            if full is None or full.seq != game.seq:
                raise Stale()
            game.header, game.seed = full.header, full.seed
        rows = s.execute(_REPLAY_ROWS, {"gid": game.id, "upto": game.seq}).all()
        cmd_sides = dict(s.execute(_ACTION_CMDS, {"gid": game.id, "upto": game.seq}).all())
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

    def _run(self, gid: str, fn: Callable[[Connection, GameRow], Any]) -> Any:
        """Run one write command with retries on lost races; publish after commit.

        The first attempt trusts the cached games row: if another process appended in
        the meantime, the conditional UPDATE in _append matches no row and we retry with
        a fresh read; a refusal (ApiError) based on the cached row is re-checked too."""
        with self._lock(gid):
            for attempt in range(10):
                entry = self._cache_get(gid)
                cached = attempt == 0 and entry is not None and entry.row is not None
                try:
                    with self.db.write() as s:
                        if cached:
                            game = SimpleNamespace(**vars(entry.row))
                        else:
                            game = load_game(s, gid, hot=True)
                            if game is None:
                                raise not_found()
                        out = fn(s, game)
                    e = self._cache_get(gid)
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
            raise ApiError(503, "the game is too busy; try again", "busy")

    def _append(self, s: Connection, game: GameRow, recs: list[tuple[str, str, str | None, dict]],
                updates: dict | None = None, command: dict | None = None) -> list[EventRec]:
        """Append events after game.seq in the caller's transaction and commit.

        The conditional UPDATE of games.seq (expected old seq) and the primary key of
        game_events both refuse a concurrent writer: the loser gets Stale/IntegrityError."""
        old = game.seq
        new = old + len(recs)
        now = utcnow()
        values = dict(updates or {}, seq=new, updated_at=now)
        mutable = {c: values[c] if c in values else getattr(game, c) for c in _MUTABLE}
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
        if self.db.is_sqlite:
            _append_sqlite(s, game.id, old, mutable, out, cmd)
        else:
            _append_pg(s, game.id, old, mutable, out, cmd)
            if out and self.notify is not None:
                # after the commit, on a separate autocommit connection: a NOTIFY inside
                # the write transaction would make every commit slower (the hub also
                # sweeps for anything a lost notification would have announced)
                self.notify(f"{game.id}:{new}:{self.proc_id}")
        for k, v in values.items():
            setattr(game, k, v)
        return out

    def _publish(self, game: GameRow, entry: Entry | None, recs: list[EventRec]) -> Change | None:
        if not recs:
            return None
        events = [r.out() for r in recs]
        try:
            ch = self._change(game, entry, events)
            if self.on_change is not None:
                self.on_change(ch)
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
            if want_state:
                ch.state_json = entry.game.state_json()
            if want_legal:
                ch.legal = {side: [] for side in SIDES}
                if game.status == "active" and game.to_act in SIDES:
                    ch.legal[game.to_act] = entry.game.legal_actions()
        return ch

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def sides_of(game: GameRow, user_id: int | None) -> list[str]:
        if user_id is None:
            return []
        return [side for side, uid in (("union", game.union_user_id),
                                       ("confederate", game.confederate_user_id)) if uid == user_id]

    def _existing(self, s: Connection, gid: str, action_id: str | None, user: User) -> dict | None:
        if not action_id:
            return None
        cmd = s.execute(_GET_CMD, {"gid": gid, "aid": action_id}).first()
        if cmd is None:
            return None
        if cmd.user_id != user.id:
            raise ApiError(409, "this action_id was already used by someone else", "duplicate_action_id")
        rows = s.execute(_EVENTS_RANGE, {"gid": gid, "after": cmd.first_seq - 1, "upto": cmd.last_seq}).all()
        return {"seq": cmd.last_seq, "events": [EventRec.from_row(r).out() for r in rows],
                "duplicate": True, "action_id": action_id}

    @staticmethod
    def _check_action_id(action_id: str | None) -> None:
        if action_id is not None and not (1 <= len(action_id) <= 64):
            raise ApiError(422, "action_id must be 1 to 64 characters", "invalid_request")

    # ---------------------------------------------------------------- lobby
    def create_game(self, user: User, scenario: str, options: list[str], side: str, mode: str,
                    private: bool) -> dict:
        if side not in (*SIDES, "random"):
            raise ApiError(422, "side must be union, confederate or random", "invalid_request")
        if mode not in MODES:
            raise ApiError(422, "mode must be live or async", "invalid_request")
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise ApiError(422, "options must be a list of option ids", "invalid_request")
        if len(set(options)) != len(options):
            raise ApiError(422, "an option is listed twice", "invalid_request")
        seed = secrets.token_hex(32)
        try:
            g = rules_engine.new_game(scenario=scenario, options=list(options), seed=seed)
        except ValueError as exc:
            raise ApiError(422, str(exc), "invalid_request") from None
        if side == "random":
            side = secrets.choice(SIDES)
        gid = "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))
        now = utcnow()
        header = dict(g.header)
        with self._lock(gid), self.db.write() as s:
            row = dict(id=gid, scenario=scenario, options=list(options), mode=mode, private=bool(private),
                       invite_code=secrets.token_urlsafe(12) if private else None, status="open",
                       creator_id=user.id, seed=seed, header=header, seq=0, to_act=None, result=None,
                       created_at=now, updated_at=now, started_at=None, finished_at=None,
                       union_user_id=None, confederate_user_id=None, chain_head=header_hash(gid, header))
            row[f"{side}_user_id"] = user.id
            s.execute(insert(T_GAMES), row)
            game = SimpleNamespace(**row)
            recs = [("server", "create", side, {"scenario": scenario, "options": list(options), "mode": mode,
                                                "private": bool(private), "header": header,
                                                "by": user.username})]
            recs += [("engine", ev["type"], None, ev) for ev in g.events]
            recs.append(("server", "join", side, {"side": side, "user_id": user.id, "username": user.username}))
            out = self._append(s, game, recs, command={"kind": "create", "side": side, "user_id": user.id,
                                                       "body": {"scenario": scenario, "options": options,
                                                                "mode": mode, "private": bool(private)}})
            entry = Entry(g, game.seq, [], header, seed)
            self._cache_put(gid, entry)
            self._publish(game, entry, out)
            return self._view(s, game, entry, user, with_state=False)

    def join(self, user: User, gid: str, side: str | None = None, invite: str | None = None) -> dict:
        if side not in (None, *SIDES):
            raise ApiError(422, "side must be union or confederate", "invalid_request")

        def fn(s: Connection, game: GameRow):
            if game.status != "open":
                raise ApiError(409, "this game is not open for joining", "game_not_open")
            if self.sides_of(game, user.id):
                raise ApiError(409, "you already have a seat in this game", "already_seated")
            if game.private and not (invite and game.invite_code
                                     and secrets.compare_digest(invite, game.invite_code)):
                raise ApiError(403, "this game is private: join it with its invitation link", "invite_required")
            free = [sd for sd in SIDES if getattr(game, f"{sd}_user_id") is None]
            chosen = side or (free[0] if free else None)
            if chosen is None or chosen not in free:
                raise ApiError(409, f"the {side_name(chosen)} seat is taken", "seat_taken")
            entry = self._entry(s, game)
            updates: dict[str, Any] = {f"{chosen}_user_id": user.id}
            recs = [("server", "join", chosen, {"side": chosen, "user_id": user.id, "username": user.username})]
            if len(free) == 1:
                updates.update(status="active", started_at=utcnow(), to_act=entry.game.to_act)
                recs.append(("server", "start", None, {"to_act": entry.game.to_act}))
                if entry.game.result is not None:  # a scenario that is over at once (never, but be exact)
                    updates.update(status="finished", result=entry.game.result, to_act=None)
            out = self._append(s, game, recs, updates, {"kind": "join", "side": chosen, "user_id": user.id})
            entry.seq = game.seq
            self._publish(game, entry, out)
            return self._view(s, load_game(s, gid), entry, user, with_state=False)
        return self._run(gid, fn)

    # ---------------------------------------------------------------- commands
    def _command_start(self, s: Connection, game: GameRow, gid: str, user: User,
                       action_id: str | None, expected_seq: int | None):
        """What every player command checks first: a retried action id returns its first
        result; only a seated player of an active game, at the expected seq, goes on."""
        dup = self._existing(s, gid, action_id, user)
        if dup is not None:
            return dup, None, None
        sides = self._require_player(game, user)
        self._require_active(game)
        entry = self._entry(s, game)
        if expected_seq is not None and expected_seq != game.seq:
            raise ApiError(409, f"stale: the game is at seq {game.seq}, not {expected_seq}", "stale")
        return None, sides, entry

    def act(self, user: User, gid: str, action: Any, expected_seq: int | None = None,
            action_id: str | None = None) -> dict:
        self._check_action_id(action_id)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ApiError(422, 'an action is a JSON object with a "type" (one of the legal actions)',
                           "invalid_action")

        def fn(s: Connection, game: GameRow):
            dup, sides, entry = self._command_start(s, game, gid, user, action_id, expected_seq)
            if dup is not None:
                return dup
            g = entry.game
            if g.to_act not in sides:
                raise ApiError(409, f"it is not your turn: the {side_name(g.to_act)} player is to act",
                               "not_your_turn")
            side = g.to_act
            before = len(g.events)
            try:
                new = g.apply(action)
            except rules_engine.IllegalAction as exc:
                raise ApiError(422, f"illegal action: {getattr(exc, 'reason', None) or exc}",
                               "illegal_action") from None
            recs = [("engine", ev["type"], side, ev) for ev in new]
            if self.automate is not None:
                try:
                    recs += self.automate(game, g)  # forced moves, logged as automatic (app/orders.py)
                except BaseException:
                    self.drop_cache(gid)
                    raise
            updates: dict[str, Any] = {"to_act": g.to_act}
            if g.result is not None:
                updates.update(status="finished", result=g.result, finished_at=utcnow(), to_act=None)
            try:
                out = self._append(s, game, recs, updates,
                                   {"kind": "action", "side": side, "user_id": user.id,
                                    "action_id": action_id, "body": action})
            except BaseException:
                self.drop_cache(gid)  # the engine already moved on; rebuild from the table
                raise
            entry.seq = game.seq
            if out:
                entry.stack.append(Cmd(out[0].seq, side, before))
            ch = self._publish(game, entry, out)
            return {"seq": game.seq, "events": ch.events if ch else [], "action_id": action_id,
                    "to_act": game.to_act, "status": game.status, "result": game.result}
        return self._run(gid, fn)

    def undo_info(self, g: Any, entry: Entry, sides: list[str]) -> tuple[bool, str]:
        if not entry.stack:
            return False, "there is no decision to take back"
        cmd = entry.stack[-1]
        if cmd.side not in sides:
            return False, "the last decision was not yours"
        if cmd.ev_index < g.undo_floor():
            return False, "a decision cannot be taken back across a die roll or a change of who acts"
        return True, ""

    def undo(self, user: User, gid: str, expected_seq: int | None = None, action_id: str | None = None) -> dict:
        """Take back the caller's last decision (never across a die roll or a change of
        who acts). Appends an "undo" event {to_seq: K}: events from K on no longer count."""
        self._check_action_id(action_id)

        def fn(s: Connection, game: GameRow):
            dup, sides, entry = self._command_start(s, game, gid, user, action_id, expected_seq)
            if dup is not None:
                return dup
            ok, why = self.undo_info(entry.game, entry, sides)
            if not ok:
                raise ApiError(409, why, "undo_refused")
            cmd = entry.stack[-1]
            g2 = rules_engine.replay(entry.header, entry.game.events[:cmd.ev_index], seed=entry.seed)
            rec = ("server", "undo", cmd.side, {"to_seq": cmd.first_seq, "through_seq": game.seq,
                                                "side": cmd.side})
            out = self._append(s, game, [rec], {"to_act": g2.to_act},
                               {"kind": "undo", "side": cmd.side, "user_id": user.id, "action_id": action_id,
                                "body": {"to_seq": cmd.first_seq}})
            new_entry = Entry(g2, game.seq, entry.stack[:-1], entry.header, entry.seed)
            self._cache_put(gid, new_entry)
            ch = self._publish(game, new_entry, out)
            return {"seq": game.seq, "events": ch.events if ch else [], "action_id": action_id,
                    "to_act": game.to_act, "status": game.status, "result": game.result}
        return self._run(gid, fn)

    def resign(self, user: User, gid: str) -> dict:
        def fn(s: Connection, game: GameRow):
            sides = self._require_player(game, user)
            self._require_active(game)
            side = sides[0]
            result = {"winner": other_side(side), "reason": "resignation"}
            entry = self._entry(s, game)
            out = self._append(s, game, [("server", "resign", side, {"side": side, "username": user.username})],
                               {"status": "finished", "result": result, "to_act": None,
                                "finished_at": utcnow()},
                               {"kind": "resign", "side": side, "user_id": user.id})
            entry.seq = game.seq
            self._publish(game, entry, out)
            return {"seq": game.seq, "status": game.status, "result": result}
        return self._run(gid, fn)

    def abort(self, user: User, gid: str) -> dict:
        """Abort a game before its first move (either seated player)."""
        def fn(s: Connection, game: GameRow):
            sides = self._require_player(game, user)
            if game.status not in ("open", "active"):
                raise ApiError(409, "this game is already over", "game_over")
            moved = s.execute(select(func.count()).select_from(T_CMDS).where(
                T_CMDS.c.game_id == gid, T_CMDS.c.kind == "action")).scalar_one()
            if moved:
                raise ApiError(409, "a game can only be aborted before the first move; resign instead",
                               "already_started")
            entry = self._entry(s, game)
            out = self._append(s, game, [("server", "abort", sides[0], {"by": user.username})],
                               {"status": "aborted", "to_act": None, "finished_at": utcnow()},
                               {"kind": "abort", "side": sides[0], "user_id": user.id})
            entry.seq = game.seq
            self._publish(game, entry, out)
            return {"seq": game.seq, "status": game.status}
        return self._run(gid, fn)

    def _require_player(self, game: GameRow, user: User) -> list[str]:
        sides = self.sides_of(game, user.id)
        if not sides:
            raise ApiError(403, "you have no seat in this game", "not_a_player")
        return sides

    @staticmethod
    def _require_active(game: GameRow) -> None:
        if game.status == "open":
            raise ApiError(409, "the game has not started: it is waiting for a second player", "game_not_started")
        if game.status != "active":
            raise ApiError(409, f"the game is over ({game.status})", "game_over")

    # ---------------------------------------------------------------- reads
    def _read(self, gid: str, fn: Callable[[Connection, GameRow], Any], lock: bool = True) -> Any:
        for _ in range(5):
            try:
                if lock:
                    with self._lock(gid), self.db.read() as s:
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
        raise ApiError(503, "the game is too busy; try again", "busy")

    def _usernames(self, s: Connection, ids: Iterable[int | None]) -> dict[int, str]:
        ids = {i for i in ids if i is not None}
        if not ids:
            return {}
        return dict(s.execute(select(T_USERS.c.id, T_USERS.c.username).where(T_USERS.c.id.in_(ids))).all())

    def _seats(self, game: GameRow, names: dict[int, str]) -> dict:
        return {side: ({"user_id": uid, "username": names.get(uid)} if uid is not None else None)
                for side, uid in (("union", game.union_user_id), ("confederate", game.confederate_user_id))}

    def summary(self, game: GameRow, names: dict[int, str], user: User | None = None) -> dict:
        sides = self.sides_of(game, user.id) if user else []
        return {"id": game.id, "scenario": game.scenario, "options": game.options, "mode": game.mode,
                "private": game.private, "status": game.status, "seats": self._seats(game, names),
                "seq": game.seq, "to_act": game.to_act if game.status == "active" else None,
                "result": game.result, "your_sides": sides,
                "your_turn": bool(game.status == "active" and game.to_act in sides),
                "created_at": iso(game.created_at), "updated_at": iso(game.updated_at)}

    def _view(self, s: Connection, game: GameRow, entry: Entry | None, user: User | None, with_state: bool) -> dict:
        names = self._usernames(s, (game.union_user_id, game.confederate_user_id))
        v = self.summary(game, names, user)
        if with_state and entry is not None:
            v["state"] = entry.game.state()
            v["engine_result"] = entry.game.result
        if user is not None and v["your_sides"]:
            if game.private:
                v["invite_code"] = game.invite_code
                v["invite_url"] = f"{self.public_url}/games/{game.id}?invite={game.invite_code}"
            if entry is not None and game.status == "active":
                v["can_undo"] = self.undo_info(entry.game, entry, v["your_sides"])[0]
        v["header"] = game.header
        return v

    def get_game(self, gid: str, user: User | None) -> dict:
        return self._read(gid, lambda s, game: self._view(s, game, self._entry(s, game), user, with_state=True))

    def legal(self, gid: str, user: User | None) -> dict:
        def fn(s: Connection, game: GameRow):
            sides = self.sides_of(game, user.id if user else None)
            actions: list = []
            if game.status == "active" and game.to_act in sides:
                actions = self._entry(s, game).game.legal_actions()
            return {"seq": game.seq, "to_act": game.to_act if game.status == "active" else None,
                    "your_sides": sides, "actions": actions}
        return self._read(gid, fn)

    def events(self, gid: str, after: int = 0, limit: int | None = None) -> dict:
        def fn(s: Connection, game: GameRow):
            q = _EVENTS_AFTER
            if limit:
                q = q.limit(limit)
            rows = s.execute(q, {"gid": gid, "after": after}).all()
            return {"game_id": gid, "seq": game.seq, "events": [EventRec.from_row(r).out() for r in rows]}
        return self._read(gid, fn, lock=False)

    def snapshot(self, gid: str, user_id: int | None) -> dict:
        """What a socket gets on connect."""
        def fn(s: Connection, game: GameRow):
            entry = self._entry(s, game)
            names = self._usernames(s, (game.union_user_id, game.confederate_user_id))
            sides = self.sides_of(game, user_id)
            legal: list = []
            if game.status == "active" and game.to_act in sides:
                legal = entry.game.legal_actions()
            return {"type": "snapshot", "game_id": gid, "seq": game.seq, "status": game.status,
                    "to_act": game.to_act if game.status == "active" else None, "result": game.result,
                    "scenario": game.scenario, "options": game.options, "mode": game.mode,
                    "seats": self._seats(game, names), "your_sides": sides,
                    "state": entry.game.state(), "legal": legal,
                    "_seats_ids": {"union": game.union_user_id, "confederate": game.confederate_user_id}}
        return self._read(gid, fn)

    def load_change(self, gid: str, after: int, want_state: bool, want_legal: bool) -> Change | None:
        """Every event after `after` as one Change (catch-up after a gap, or events
        appended by another process)."""
        def fn(s: Connection, game: GameRow):
            if game.seq <= after:
                return None
            entry = self._entry(s, game) if (want_state or want_legal) else None
            rows = s.execute(_EVENTS_RANGE, {"gid": gid, "after": after, "upto": game.seq}).all()
            events = [EventRec.from_row(r).out() for r in rows]
            return self._change(game, entry, events, (want_state, want_legal), first=after + 1)
        return self._read(gid, fn)

    def current_seqs(self, gids: list[str]) -> dict[str, int]:
        with self.db.read() as s:
            return dict(s.execute(select(T_GAMES.c.id, T_GAMES.c.seq).where(T_GAMES.c.id.in_(gids))).all())

    def seats_of(self, gid: str) -> dict | None:
        with self.db.read() as s:
            game = load_game(s, gid)
            if game is None:
                return None
            return {"union": game.union_user_id, "confederate": game.confederate_user_id,
                    "status": game.status, "seq": game.seq}

    def lobby(self, user: User | None, view: str, limit: int = 100) -> list[dict]:
        c = T_GAMES.c
        with self.db.read() as s:
            q = select(T_GAMES)
            if view == "open":
                q = q.where(c.status == "open", c.private.is_(False)).order_by(c.created_at.desc())
            elif view == "live":
                q = q.where(c.status == "active", c.private.is_(False)).order_by(c.updated_at.desc())
            elif view == "finished":
                q = q.where(c.status == "finished", c.private.is_(False)).order_by(c.updated_at.desc())
            elif view == "mine":
                if user is None:
                    return []
                q = q.where(or_(c.union_user_id == user.id, c.confederate_user_id == user.id),
                            c.status.in_(("open", "active", "finished"))).order_by(c.updated_at.desc())
            else:
                raise ApiError(422, "view must be open, mine, live or finished", "invalid_request")
            games = [SimpleNamespace(**r._mapping) for r in s.execute(q.limit(limit)).all()]
            names = self._usernames(s, [g.union_user_id for g in games] + [g.confederate_user_id for g in games])
            out = [self.summary(g, names, user) for g in games]
            if view == "mine":
                rank = {"active": 1, "open": 2, "finished": 3}
                out.sort(key=lambda v: (not v["your_turn"], rank.get(v["status"], 9)))
            return out
