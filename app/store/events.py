"""The event store: the only code that reads or writes game_events (and the
game_commands rows written with them).

An append is one transaction: a conditional UPDATE of the games row (the seq the writer
expected: optimistic concurrency), the INSERT of the events (primary key (game_id, seq))
and of the command row (unique (game_id, action_id): idempotent retries). A concurrent
writer makes the UPDATE match no row or an INSERT hit a key; the loser gets Stale.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from ..core.clock import iso
from ..core.errors import ApiError
from ..i18n import N_
from ..models import Game, GameCommand, GameEvent, table

log = logging.getLogger("app.store")

T_GAMES, T_EVENTS, T_CMDS = table(Game), table(GameEvent), table(GameCommand)
# the columns of the games row an append rewrites
MUTABLE = ("seq", "updated_at", "to_act", "status", "result", "started_at", "finished_at",
           "union_user_id", "confederate_user_id", "chain_head")
# what a command needs when the replayed state is cached: no header/options/seed to decode
_HOT_COLUMNS = ("id", "status", "private", "invite_code", "mode", "rated") + MUTABLE

# Core statements built once (the hot path runs them thousands of times a second)
_GET_GAME = select(T_GAMES).where(T_GAMES.c.id == bindparam("gid"))
_GET_GAME_HOT = select(*[T_GAMES.c[c] for c in _HOT_COLUMNS]).where(T_GAMES.c.id == bindparam("gid"))
_GET_CMD = select(T_CMDS).where(T_CMDS.c.game_id == bindparam("gid"), T_CMDS.c.action_id == bindparam("aid"))
_EVENTS_RANGE = (select(T_EVENTS).where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq > bindparam("after"),
                                        T_EVENTS.c.seq <= bindparam("upto")).order_by(T_EVENTS.c.seq))
_EVENTS_AFTER = (select(T_EVENTS).where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq > bindparam("after"))
                 .order_by(T_EVENTS.c.seq))
_REPLAY_ROWS = (select(T_EVENTS.c.seq, T_EVENTS.c.source, T_EVENTS.c.type, T_EVENTS.c.payload)
                .where(T_EVENTS.c.game_id == bindparam("gid"), T_EVENTS.c.seq > bindparam("after"),
                       T_EVENTS.c.seq <= bindparam("upto"))
                .order_by(T_EVENTS.c.seq))
_ACTION_CMDS = (select(T_CMDS.c.first_seq, T_CMDS.c.side)
                .where(T_CMDS.c.game_id == bindparam("gid"), T_CMDS.c.kind == "action",
                       T_CMDS.c.first_seq > bindparam("after"), T_CMDS.c.first_seq <= bindparam("upto")))

GameRow = SimpleNamespace  # a games row, as plain attributes


class Stale(Exception):
    """Another writer appended first; rebuild and retry."""


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
        """The event as the API and the websocket send it."""
        return {"seq": self.seq, "source": self.source, "type": self.type, "actor": self.actor,
                "at": iso(self.created_at), "data": self.payload}

    def chained(self) -> dict:
        """The event as the hash chain and the exports see it (time not yet formatted)."""
        return {"seq": self.seq, "source": self.source, "type": self.type, "actor": self.actor,
                "at": self.created_at, "data": self.payload, "prev_hash": self.prev_hash}

    @classmethod
    def from_row(cls, r: Any) -> EventRec:
        return cls(r.seq, r.source, r.type, r.actor, r.payload, r.created_at, getattr(r, "prev_hash", None))


# --------------------------------------------------------------------------- games rows

def load_game(conn: Connection, gid: str, hot: bool = False) -> GameRow | None:
    """The games row. hot=True leaves out header, options and seed (GameService fills
    them in when it has to replay)."""
    row = conn.execute(_GET_GAME_HOT if hot else _GET_GAME, {"gid": gid}).first()
    if row is None:
        return None
    g = SimpleNamespace(**row._mapping)
    g.partial = hot
    return g


# --------------------------------------------------------------------------- reads

def events_after(conn: Connection, gid: str, after: int, limit: int | None = None) -> list[EventRec]:
    q = _EVENTS_AFTER.limit(limit) if limit else _EVENTS_AFTER
    return [EventRec.from_row(r) for r in conn.execute(q, {"gid": gid, "after": after}).all()]


def events_range(conn: Connection, gid: str, after: int, upto: int) -> list[EventRec]:
    """Events with after < seq <= upto, in order."""
    rows = conn.execute(_EVENTS_RANGE, {"gid": gid, "after": after, "upto": upto}).all()
    return [EventRec.from_row(r) for r in rows]


def stored_events(conn: Connection, gid: str, upto: int | None = None) -> list[dict]:
    """Every stored event of a game in the hash chain's form (integrity, replays, exports)."""
    q = select(T_EVENTS).where(T_EVENTS.c.game_id == gid).order_by(T_EVENTS.c.seq)
    if upto is not None:
        q = q.where(T_EVENTS.c.seq <= upto)
    return [EventRec.from_row(r).chained() for r in conn.execute(q).all()]


def event_at(conn: Connection, gid: str, seq: int) -> EventRec | None:
    row = conn.execute(select(T_EVENTS).where(T_EVENTS.c.game_id == gid, T_EVENTS.c.seq == seq)).first()
    return EventRec.from_row(row) if row is not None else None


def replay_rows(conn: Connection, gid: str, upto: int, after: int = 0) -> list[Any]:
    """(seq, source, type, payload) of every event after `after` up to `upto`: what a
    replay (or bringing a cached replay up to date) needs."""
    return list(conn.execute(_REPLAY_ROWS, {"gid": gid, "after": after, "upto": upto}).all())


def action_sides(conn: Connection, gid: str, upto: int, after: int = 0) -> dict[int, str]:
    """first seq -> side of every player action after `after` up to `upto`."""
    return dict(conn.execute(_ACTION_CMDS, {"gid": gid, "after": after, "upto": upto}).all())


def command_for_action_id(conn: Connection, gid: str, action_id: str) -> Any:
    return conn.execute(_GET_CMD, {"gid": gid, "aid": action_id}).first()


def action_count(conn: Connection, gid: str) -> int:
    return conn.execute(select(func.count()).select_from(T_CMDS).where(
        T_CMDS.c.game_id == gid, T_CMDS.c.kind == "action")).scalar_one()


def answered_after(conn: Connection, gid: str, user_id: int, seq: int) -> bool:
    """Whether the user made a decision in the game after `seq`."""
    return conn.execute(select(T_CMDS.c.first_seq).where(
        T_CMDS.c.game_id == gid, T_CMDS.c.user_id == user_id, T_CMDS.c.first_seq > seq,
        T_CMDS.c.kind == "action").limit(1)).first() is not None


def last_decision_seq(conn: Connection, gid: str, user_id: int) -> int:
    """The last seq of the user's latest own decision (or seat) in the game; 0 if none.
    Answers their standing orders gave are not their decisions: what the orders did is
    news to them, told in the next mail."""
    return conn.execute(select(func.max(T_CMDS.c.last_seq)).where(
        T_CMDS.c.game_id == gid, T_CMDS.c.user_id == user_id,
        T_CMDS.c.kind.in_(("action", "create", "join")))).scalar() or 0


def last_event_of(conn: Connection, gid: str, types: tuple[str, ...], source: str = "server") -> EventRec | None:
    """The game's latest event of one of `types` (server events by default), or None."""
    row = conn.execute(select(T_EVENTS).where(T_EVENTS.c.game_id == gid, T_EVENTS.c.source == source,
                                              T_EVENTS.c.type.in_(types))
                       .order_by(T_EVENTS.c.seq.desc()).limit(1)).first()
    return EventRec.from_row(row) if row is not None else None


def side_decided_after(conn: Connection, gid: str, side: str, seq: int) -> bool:
    """Whether the player of `side` made a decision (an action or an undo) after `seq`."""
    return conn.execute(select(T_CMDS.c.first_seq).where(
        T_CMDS.c.game_id == gid, T_CMDS.c.side == side, T_CMDS.c.first_seq > seq,
        T_CMDS.c.kind.in_(("action", "undo"))).limit(1)).first() is not None


def last_event_at(conn: Connection, gid: str) -> datetime | None:
    return conn.execute(select(func.max(T_EVENTS.c.created_at)).where(T_EVENTS.c.game_id == gid)).scalar()


# --------------------------------------------------------------------------- append

# Postgres: the whole append is ONE statement. The guarded UPDATE moves the games row
# from the seq the writer expected; the INSERTs take their rows from it, so they write
# nothing when it moved no row; the final SELECT divides by the number of rows moved,
# so a stale version (another writer got there first) is an error that leaves nothing
# written, and aborts a COMMIT sent behind it too. The events travel as one JSON array
# (one parameter, any number of events): psycopg would pass arrays of texts through an
# escaping pass per element, the most costly part of a move's append on the client.
_PG_CASTS = {"result": "::json"}
_PG_MOVED = ("moved AS (UPDATE games SET " + ", ".join(f"{c} = %s{_PG_CASTS.get(c, '')}" for c in MUTABLE)
             + " WHERE id = %s AND seq = %s RETURNING id)")
_PG_EVENTS = ("events AS (INSERT INTO game_events (game_id, seq, source, type, actor, payload, created_at, "
              "prev_hash) SELECT moved.id, e.seq, e.source, e.type, e.actor, e.payload, e.created_at, e.prev_hash "
              "FROM moved, json_to_recordset(%s::json) AS e(seq int, source text, type text, actor text, "
              "payload json, created_at timestamptz, prev_hash text))")
_PG_COMMAND = ("command AS (INSERT INTO game_commands (game_id, first_seq, last_seq, kind, action_id, body, side, "
               "user_id, created_at) SELECT moved.id, %s, %s, %s, %s, %s::json, %s, %s, %s FROM moved)")
_PG_CHECK = " SELECT 1 / (SELECT count(*)::int FROM moved)"
_PG_APPEND = "WITH " + ", ".join((_PG_MOVED, _PG_EVENTS)) + _PG_CHECK
_PG_APPEND_CMD = "WITH " + ", ".join((_PG_MOVED, _PG_EVENTS, _PG_COMMAND)) + _PG_CHECK
_INS_EVENT = ("INSERT INTO game_events (game_id, seq, source, type, actor, payload, created_at, prev_hash) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_INS_CMD = ("INSERT INTO game_commands (game_id, first_seq, last_seq, kind, action_id, body, side, user_id, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
_SQ_UPD = "UPDATE games SET " + ", ".join(f"{c} = ?" for c in MUTABLE) + " WHERE id = ? AND seq = ?"


def append(conn: Connection, is_sqlite: bool, gid: str, old_seq: int, mutable: dict, out: list[EventRec],
           cmd: dict | None) -> None:
    """Write the new games values, the events and the command row, and COMMIT; raise
    Stale when another writer got there first."""
    if is_sqlite:
        _append_sqlite(conn, gid, old_seq, mutable, out, cmd)
    else:
        _append_pg(conn, gid, old_seq, mutable, out, cmd)


def _sq(v: Any) -> Any:
    """A value as SQLAlchemy's SQLite types store it (DateTime as text, JSON as json.dumps)."""
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return v


def _append_sqlite(s: Connection, gid: str, old: int, mutable: dict, out: list[EventRec], cmd: dict | None) -> None:
    """SQLite: the append through the sqlite3 connection itself (the statements are
    cached by sqlite3; SQLAlchemy's per-statement work would double the cost). The values
    are stored exactly as the models' types store them."""
    import sqlite3

    raw: Any = s.connection.dbapi_connection
    try:
        cur = raw.cursor()
        cur.execute(_SQ_UPD, [_sq(v) for v in mutable.values()] + [gid, old])
        if cur.rowcount != 1:
            raise Stale()
        if out:
            cur.executemany(_INS_EVENT, [(gid, r.seq, r.source, r.type, r.actor, json.dumps(r.payload),
                                          _sq(r.created_at), r.prev_hash) for r in out])
        if cmd is not None:
            cur.execute(_INS_CMD, (gid, cmd["first_seq"], cmd["last_seq"], cmd["kind"], cmd["action_id"],
                                   _json_text(cmd["body"]), cmd["side"], cmd["user_id"], _sq(cmd["created_at"])))
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
        raise ApiError(503, N_("the database is busy; retry (with the same action_id)"), "db_unavailable") from None


def _json_text(v: Any) -> str | None:
    return None if v is None else json.dumps(v)


def _pg_params(gid: str, old: int, mutable: dict, out: list[EventRec], cmd: dict | None) -> list[Any]:
    """The parameters of _PG_APPEND(_CMD), in the statement's order."""
    params = [_json_text(v) if c == "result" else v for c, v in mutable.items()] + [gid, old]
    # a payload is stored as the same text json.dumps(payload) gives (the default
    # separators apply at every depth, and json_to_recordset keeps a json value's text)
    params.append(json.dumps([{"seq": r.seq, "source": r.source, "type": r.type, "actor": r.actor,
                               "payload": r.payload, "created_at": r.created_at.isoformat(),
                               "prev_hash": r.prev_hash} for r in out]))
    if cmd is not None:
        params += [cmd["first_seq"], cmd["last_seq"], cmd["kind"], cmd["action_id"], _json_text(cmd["body"]),
                   cmd["side"], cmd["user_id"], cmd["created_at"]]
    return params


def _pg_one_round_trip(raw: Any, gid: str, old: int, mutable: dict, out: list[EventRec], cmd: dict | None) -> None:
    """Send the append and its commit so that the server answers once, and return only
    after the COMMIT's answer (Postgres's synchronous commit: the move is on disk).

    Usually nothing else was written in this transaction: the statement then runs on its
    own (autocommit), which makes it its own transaction, committed before it answers.
    When the notice hook wrote rows first, the statement and a COMMIT go together in one
    pipeline; a stale version fails the statement and with it the COMMIT."""
    from psycopg.pq import TransactionStatus

    sql = _PG_APPEND if cmd is None else _PG_APPEND_CMD
    params = _pg_params(gid, old, mutable, out, cmd)
    if raw.info.transaction_status == TransactionStatus.IDLE:
        raw.autocommit = True
        try:
            raw.execute(sql, params)
        finally:
            if not raw.closed:
                raw.autocommit = False
        return
    try:
        with raw.pipeline():
            raw.execute(sql, params)
            raw.execute("COMMIT")
    except BaseException:
        if not raw.closed and raw.info.transaction_status != TransactionStatus.IDLE:
            raw.rollback()
        raise


def _append_pg(s: Connection, gid: str, old: int, mutable: dict, out: list[EventRec], cmd: dict | None) -> None:
    """Postgres: the whole append, commit included, in one round trip on the psycopg
    connection (see _pg_one_round_trip)."""
    import psycopg

    raw: Any = s.connection.dbapi_connection
    try:
        _pg_one_round_trip(raw, gid, old, mutable, out, cmd)
    except (psycopg.errors.DivisionByZero, psycopg.errors.IntegrityError):
        raise Stale() from None
    except psycopg.Error as exc:
        # e.g. the connection broke: whether the commit happened is unknown; a retry with
        # the same action_id finds out (idempotency), so say "try again"
        log.warning("append to game %s failed: %s", gid, exc)
        try:
            s.invalidate()
        except Exception:
            pass
        raise ApiError(503, N_("the database did not answer; retry (with the same action_id)"),
                       "db_unavailable") from None
