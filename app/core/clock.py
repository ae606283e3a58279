"""The clock of the play-by-turn features (deadlines, reminders, vacations, digests,
retry back-off, standing-order grace time).

`Clock.now()` is the real UTC time plus an offset. Tests (and a curious administrator)
can move it forward without sleeping for days: with CLOCK_FILE=/path set, the file holds
the offset in seconds (a float); every process that shares the file shares the clock. An
in-process test can call `set_offset()` instead.
"""
from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from typing import overload


class Clock:
    def __init__(self, clock_file: str | None = None):
        self.file = clock_file or None
        self.offset = 0.0
        self._file_key: tuple | None = None
        self._file_offset = 0.0

    def set_offset(self, seconds: float) -> None:
        self.offset = float(seconds)

    def _offset_from_file(self) -> float:
        """The file's offset, read again only when the file changed."""
        if not self.file:
            return 0.0
        try:
            st = os.stat(self.file)
        except OSError:
            return 0.0
        key = (st.st_mtime_ns, st.st_ino, st.st_size)
        if key != self._file_key:
            try:
                with open(self.file) as f:
                    self._file_offset = float(f.read().strip() or 0)
                self._file_key = key
            except (OSError, ValueError):
                pass
        return self._file_offset

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset + self._offset_from_file())


@overload
def aware(dt: datetime) -> datetime: ...
@overload
def aware(dt: None) -> None: ...
def aware(dt: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without their zone: they are UTC."""
    if dt is not None and dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    return dt


def iso(dt: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands datetimes back without their zone)."""
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()


def write_offset(path: str, seconds: float) -> None:
    """For tests: move the shared clock (atomic replace, so readers never see half a file)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(repr(float(seconds)))
    os.replace(tmp, path)
