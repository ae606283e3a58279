"""Browser tests: a real server (python -m app serve, throwaway SQLite database, free port)
driven by Playwright with Debian's Chromium (/usr/bin/chromium; never `playwright install`).

The sync Playwright API runs its own event loop, so these fixtures are module-scoped and
live only here, away from the pytest-asyncio server tests.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.guard.ratelimit import DEFAULT_LIMITS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", Path(__file__).parent / "artifacts"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# one address plays many players here: limits no test meets
# the database of each test server (by its base URL), for tests that need an administrator
DATABASE_OF: dict[str, str] = {}
GENEROUS_RATE_LIMITS = ",".join(f"{name}=1000000/1" for name in DEFAULT_LIMITS)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("e2e")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    DATABASE_OF[base] = f"sqlite:///{tmp / 'hd.sqlite3'}"
    env = dict(os.environ, DATABASE_URL=DATABASE_OF[base], SECRET_KEY="e2e-secret-key-of-at-least-32-bytes",
               PUBLIC_URL=base, LOG_LEVEL="warning", RATE_LIMITS=GENEROUS_RATE_LIMITS,
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=str(ROOT), env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120   # a loaded machine (other test runs) starts it slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited: " + (tmp / "server.log").read_text()[-2000:])
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    else:
        proc.kill()
        raise RuntimeError("server did not start")
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


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
