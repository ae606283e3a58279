"""Browser tests: a real server (python -m app serve, throwaway SQLite database, free port)
driven by Playwright with Debian's Chromium (/usr/bin/chromium; never `playwright install`).

The sync Playwright API runs its own event loop, so these fixtures are module-scoped and
live only here, away from the pytest-asyncio server tests.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.guard.ratelimit import DEFAULT_LIMITS
from tests.isolation import free_port, worker_name

ROOT = Path(__file__).resolve().parents[2]
# screenshots and figures; in a parallel run each worker writes under a folder of its own
# (artifacts/gw0, artifacts/gw1, ...), as some files are read, added to and written back
ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", Path(__file__).parent / "artifacts"))
if "PYTEST_XDIST_WORKER" in os.environ:
    ARTIFACTS = ARTIFACTS / worker_name()
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# one address plays many players here: limits no test meets
# the database of each test server (by its base URL), for tests that need an administrator
DATABASE_OF: dict[str, str] = {}
GENEROUS_RATE_LIMITS = ",".join(f"{name}=1000000/1" for name in DEFAULT_LIMITS)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("e2e")
    database = f"sqlite:///{tmp / 'hd.sqlite3'}"
    log = open(tmp / "server.log", "wb")
    proc, base = _start_server(database, log, tmp / "server.log")
    while proc is None:   # the port was taken between choosing and binding it: another process
        proc, base = _start_server(database, log, tmp / "server.log")
    DATABASE_OF[base] = database
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _start_server(database: str, log, log_path: Path) -> tuple[subprocess.Popen | None, str]:
    """A server on a free port of this worker's, ready; (None, base) if the port turned out taken."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, DATABASE_URL=database, SECRET_KEY="e2e-secret-key-of-at-least-32-bytes",
               PUBLIC_URL=base, LOG_LEVEL="warning", RATE_LIMITS=GENEROUS_RATE_LIMITS,
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    written_before = log_path.stat().st_size
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=str(ROOT), env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120   # a loaded machine (other test runs) starts it slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if "address already in use" in log_path.read_text(errors="replace")[written_before:]:
                return None, base
            raise RuntimeError("server exited: " + log_path.read_text()[-2000:])
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing (REQUIRE_BROWSER=1)")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
