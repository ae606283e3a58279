"""The whole suite: which tests are slow, and the order the parallel workers take them in.

`slow`: every server test (each starts or talks to real server processes) and every
browser test, plus the engine tests marked by hand (whole games of the computer player,
the compiled engine against the pure one). `pytest -m "not slow"` is the quick run of the
README, for an edit loop.

The workers (pytest-xdist, --dist loadscope) are handed one module at a time in the
order of collection; the modules that take longest go first, so that neither worker is
left with a long one at the end while the other has nothing to do.
"""
from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
SLOW_FOLDERS = ("server", "e2e")
# the longest modules (seconds of one worker's time in a parallel run), longest first
LONGEST_FIRST = (
    "server/test_computer_expert.py",
    "engine/test_native.py",
    "server/test_computer.py",
    "server/test_bots.py",
    "server/test_multiprocess.py",
    "server/test_push.py",
    "server/test_presence.py",
    "server/test_login_flood.py",
    "server/test_disputes.py",
    "server/test_hardening.py",
    "engine/test_ai_expert.py",
    "server/test_replay.py",
    "server/test_restart.py",
    "e2e/test_play.py",
    "e2e/test_transport.py",
    "e2e/test_board.py",
)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of the quick run (pytest -m 'not slow')")


def _under_tests(item) -> Path:
    path = Path(str(item.fspath))
    return path.relative_to(HERE) if path.is_relative_to(HERE) else path


def _place(item) -> int:
    path = _under_tests(item).as_posix()
    return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _under_tests(item).parts[0] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
    items.sort(key=_place)   # stable: within a module, and among the rest, the order stays
