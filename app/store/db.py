"""Engine and sessions. Synchronous SQLAlchemy, used from worker threads."""
from __future__ import annotations

import contextlib
import threading

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker


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
            self.engine = create_engine(url, pool_size=pool_size, max_overflow=20, pool_pre_ping=True,
                                        pool_recycle=1800)
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time; serialising writers of this process avoids
        # "database is locked" between our own threads (busy_timeout covers other processes).
        self._write_lock = threading.Lock() if self.is_sqlite else None

    @contextlib.contextmanager
    def read(self):
        """A Core connection for reading (the hot paths avoid the ORM's overhead)."""
        with self.engine.connect() as conn:
            yield conn

    @contextlib.contextmanager
    def write(self):
        """A Core connection for one write transaction; the caller commits."""
        if self._write_lock is not None:
            with self._write_lock, self.engine.connect() as conn:
                yield conn
        else:
            with self.engine.connect() as conn:
                yield conn

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
