"""Engine and sessions. Synchronous SQLAlchemy, used from threads only, never on the event
loop (docs/architecture.md, "Where blocking work runs")."""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

from sqlalchemy import create_engine, event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker

# A pooled Postgres connection idle this long is pinged before use. A ping on every
# checkout (pool_pre_ping) would add a round trip to every move; a connection in steady
# use has just proved itself, and one that broke since is caught by its next statement
# (the append answers 503 "retry with the same action_id").
PING_AFTER_IDLE_S = 10.0


class Database:
    def __init__(self, url: str, pool_size: int = 10):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=pool_size,
                max_overflow=20)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_size=pool_size, max_overflow=20, pool_recycle=1800)
            event.listen(self.engine, "checkin", _note_checkin)
            event.listen(self.engine, "checkout", _ping_if_idle)
        self.pool_size = pool_size
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time; serialising writers of this process avoids
        # "database is locked" between our own threads (busy_timeout covers other processes).
        self._write_lock = threading.Lock() if self.is_sqlite else None
        self._writing = threading.local()   # SQLite: the write connection this thread holds open

    @contextlib.contextmanager
    def read(self, statements_apart: bool = False):
        """A Core connection for reading (the hot paths avoid the ORM's overhead).

        statements_apart (Postgres): no transaction around the statements, so no BEGIN
        and ROLLBACK round trips; each statement sees what was committed when it ran, as
        it would inside a READ COMMITTED transaction anyway. For reads that check what
        they read (the games row's seq bounds the events read after it)."""
        with self.engine.connect() as conn:
            if statements_apart and not self.is_sqlite:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            yield conn

    @contextlib.contextmanager
    def write(self):
        """A Core connection for one write transaction; the caller commits."""
        if self._write_lock is not None:
            with self._write_lock, self.engine.connect() as conn:
                self._writing.conn = conn
                try:
                    yield conn
                finally:
                    self._writing.conn = None
        else:
            with self.engine.connect() as conn:
                yield conn

    @contextlib.contextmanager
    def write_or_join(self):
        """(connection, whether the caller commits it) for a small write that may come
        from inside another write of this thread (a rate limit counted in the middle of
        a route's transaction). On SQLite that write's open connection is joined, and
        commits or rolls back with it: a second connection would wait for the file's one
        writer, this very thread, forever. Otherwise a connection of its own."""
        joined = getattr(self._writing, "conn", None)
        if joined is not None:
            yield joined, False
            return
        with self.write() as conn:
            yield conn, True

    @contextlib.contextmanager
    def session(self):
        """An ORM session (accounts and other cold paths)."""
        with self.Session() as s:
            yield s

    @contextlib.contextmanager
    def write_session(self):
        if self._write_lock is not None:
            with self._write_lock, self.Session() as s:
                yield s
        else:
            with self.Session() as s:
                yield s

    def dispose(self):
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn, _record):
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def _note_checkin(_dbapi_conn: Any, record: Any) -> None:
    record.info["idle_since"] = time.monotonic()


def _ping_if_idle(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
    """Ping a connection that sat idle in the pool for PING_AFTER_IDLE_S or more; a dead
    one is replaced (DisconnectionError makes the pool connect afresh)."""
    since = record.info.get("idle_since")
    if since is None or time.monotonic() - since < PING_AFTER_IDLE_S:
        return
    try:
        dbapi_conn.execute("SELECT 1")
        dbapi_conn.rollback()
    except Exception as error:
        raise exc.DisconnectionError() from error
