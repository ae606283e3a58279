"""The clock of the play-by-turn features (deadlines, reminders, vacations, digests,
retry back-off, standing-order grace time).

`now()` is the real UTC time plus an offset. Tests (and a curious administrator) can move
it forward without sleeping for days: with CLOCK_FILE=/path set, the file holds the
offset in seconds (a float); every process that shares the file shares the clock. An
in-process test can call `set_offset()` instead.
"""
from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone

_state = {"offset": 0.0, "file": None, "mtime": None, "file_offset": 0.0}


def configure(clock_file: str | None) -> None:
    _state["file"] = clock_file or None
    _state["mtime"] = None


def set_offset(seconds: float) -> None:
    _state["offset"] = float(seconds)


def _file_offset() -> float:
    path = _state["file"]
    if not path:
        return 0.0
    try:
        st = os.stat(path)
    except OSError:
        return 0.0
    key = (st.st_mtime_ns, st.st_ino, st.st_size)
    if key != _state["mtime"]:
        try:
            with open(path) as f:
                _state["file_offset"] = float(f.read().strip() or 0)
            _state["mtime"] = key
        except (OSError, ValueError):
            pass
    return _state["file_offset"]


def now() -> datetime:
    return datetime.now(timezone.utc) + timedelta(seconds=_state["offset"] + _file_offset())


def aware(dt: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without their zone: they are UTC."""
    if dt is not None and dt.tzinfo is None:
        return dt.replace(tzinfo=timezone.utc)
    return dt


def write_offset(path: str, seconds: float) -> None:
    """For tests: move the shared clock (atomic replace, so readers never see half a file)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(repr(float(seconds)))
    os.replace(tmp, path)
