"""The rate limits' counts in the database, so that they hold for all the processes on it.

Each limit's events are counted per key in fixed windows of the limit's length (the
``rate_counts`` table: one row per limit, key and window). A window is judged as a
sliding one: the count of the window before, weighted by how much of it the sliding
window still covers, plus the current window's count (the events of the window before
are taken as spread evenly over it). One statement takes events: an upsert that adds
them only if the total stays within the limit, atomic on SQLite and on Postgres, so
processes taking at the same moment never pass the limit together.

A row counts for two windows (its own, then as the window before); after that it has
expired, and each process deletes the expired rows every PURGE_SECONDS, so that a flood
of distinct keys leaves at most two windows' worth of rows behind.
"""
from __future__ import annotations

import contextlib
import hashlib
import math
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import text

PURGE_SECONDS = 60.0
#: keys longer than the column are stored as their hash (an address or an account is shorter)
MAX_SUBJECT = 128

# the window before, as seen from the same statement (both dialects)
_BEFORE = ("COALESCE((SELECT p.hits FROM rate_counts p WHERE p.limit_name = CAST(:name AS VARCHAR)"
           " AND p.subject = CAST(:subject AS VARCHAR) AND p.slot = CAST(:slot AS BIGINT) - 1), 0)")
_TAKE = text(f"""
INSERT INTO rate_counts (limit_name, subject, slot, hits, expires_at)
SELECT CAST(:name AS VARCHAR), CAST(:subject AS VARCHAR), CAST(:slot AS BIGINT), CAST(:n AS INTEGER),
       CAST(:expires AS FLOAT)
WHERE CAST(:n AS FLOAT) + CAST(:carry AS FLOAT) * {_BEFORE} <= :events
ON CONFLICT (limit_name, subject, slot) DO UPDATE SET hits = rate_counts.hits + excluded.hits
WHERE rate_counts.hits + excluded.hits + CAST(:carry AS FLOAT) * {_BEFORE} <= :events
RETURNING hits""")
_COUNTS = text("SELECT slot, hits FROM rate_counts WHERE limit_name = :name AND subject = :subject"
               " AND slot IN (:slot, :slot - 1)")
_PURGE = text("DELETE FROM rate_counts WHERE expires_at < :now")


@dataclass(frozen=True)
class Window:
    """Where `now` falls among a limit's fixed windows."""
    slot: int          # which window (seconds since the epoch // seconds)
    covered: float     # the share of the window before that the sliding window still covers
    seconds: float

    @classmethod
    def at(cls, now: float, seconds: float) -> Window:
        slot = math.floor(now / seconds)
        return cls(slot, 1.0 - (now - slot * seconds) / seconds, seconds)

    @property
    def expires(self) -> float:
        """When this window's row stops counting (the end of the next window)."""
        return (self.slot + 2) * self.seconds


def retry_after(events: int, before: int, current: int, window: Window) -> int:
    """Seconds until one more event fits: the weight of the window before falls as the
    sliding window leaves it; when the current window alone is full, it must end first."""
    if current + 1 > events:
        # next window: the current one becomes the one before, weighted down to fit
        need = 1.0 - (events - 1) / current if current else 0.0
        wait = window.covered * window.seconds + max(0.0, need) * window.seconds
    elif before:
        over = before * window.covered + current + 1 - events
        wait = window.seconds * over / before
    else:
        wait = 1.0
    return max(1, min(math.ceil(2 * window.seconds), math.ceil(wait)))


def subject_of(key: str) -> str:
    if len(key) <= MAX_SUBJECT:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class Database(Protocol):
    """What the counts need of app.store.db.Database (handed in by app.main)."""
    is_sqlite: bool

    def read(self, statements_apart: bool = False) -> contextlib.AbstractContextManager[Any]: ...

    def write(self) -> contextlib.AbstractContextManager[Any]: ...

    def write_or_join(self) -> contextlib.AbstractContextManager[tuple[Any, bool]]: ...


class TableCounts:
    """The shared counts in the site's own database (SQLite or Postgres)."""

    def __init__(self, db: Database):
        self.db = db
        self._last_purge = -math.inf
        self._purge_lock = threading.Lock()

    def take(self, name: str, key: str, events: int, seconds: float, n: int, now: float) -> bool:
        """Count n events for `key` if they fit within `events` in the sliding window;
        False (nothing counted) if they do not."""
        window = Window.at(now, seconds)
        params = {"name": name, "subject": subject_of(key), "slot": window.slot, "n": n,
                  "expires": window.expires, "carry": window.covered, "events": events}
        with self.db.write_or_join() as (conn, own):
            if own and not self.db.is_sqlite:
                # one statement, atomic on its own: no BEGIN and COMMIT round trips
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            granted = conn.execute(_TAKE, params).first() is not None
            if own:
                conn.commit()
        self._purge_now_and_then(now)
        return granted

    def counts(self, name: str, key: str, seconds: float, now: float) -> tuple[Window, int, int]:
        """(window, events in the window before, events in the current one)."""
        window = Window.at(now, seconds)
        with self.db.read(statements_apart=True) as conn:
            rows = conn.execute(_COUNTS, {"name": name, "subject": subject_of(key), "slot": window.slot}).all()
        hits = {slot: count for slot, count in rows}
        return window, hits.get(window.slot - 1, 0), hits.get(window.slot, 0)

    def purge(self, now: float) -> int:
        """Delete the rows that no longer count; how many."""
        with self.db.write() as conn:
            deleted = conn.execute(_PURGE, {"now": now}).rowcount
            conn.commit()
        return deleted

    def _purge_now_and_then(self, now: float) -> None:
        with self._purge_lock:
            if now - self._last_purge < PURGE_SECONDS:
                return
            self._last_purge = now
        self.purge(now)
