"""A flood of logins against one server process (not a test): how much memory the
password hashing takes when many logins arrive at once.

Starts a server (one process, SQLite, the rate limits out of the way so that every
attempt reaches the password check), registers a few accounts, then fires the logins all
at once, half with the right password and half with a wrong one, and prints

- the server process's resident memory before the flood and its peak during it (VmHWM
  from /proc, the peak reset just before the flood; also sampled every 10 ms),
- how the logins were answered (status counts; 503 carries Retry-After),
- the wall time of the flood and the load average of the machine.

    .venv/bin/python bench/login_flood.py [--logins 40] [--database-url sqlite:///... or postgresql://...]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import GENEROUS_RATE_LIMITS, ServerProc  # noqa: E402


def status_kib(pid: int, field: str) -> int:
    """A memory figure of /proc/<pid>/status, in KiB (VmRSS: now, VmHWM: the peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def reset_peak(pid: int) -> bool:
    """Start VmHWM again from the current RSS (Linux: clear_refs 5); False if refused."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


class PeakSampler:
    """The largest VmRSS seen while it runs (for systems that refuse reset_peak)."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, status_kib(self.pid, "VmRSS"))
            time.sleep(0.01)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def register(base: str, n: int) -> list[str]:
    names = [f"f{uuid.uuid4().hex[:10]}" for _ in range(n)]
    for name in names:
        r = httpx.post(base + "/api/auth/register", json={"username": name, "password": "password123"}, timeout=60)
        r.raise_for_status()
    return names


def flood(base: str, pid: int, names: list[str], logins: int) -> dict:
    """Fire `logins` logins at once; the answers and the memory of the server process."""
    start = threading.Barrier(logins)

    def one(i: int) -> httpx.Response:
        body = {"username": names[i % len(names)], "password": "password123" if i % 2 == 0 else f"wrong{i}"}
        with httpx.Client(timeout=120) as c:
            start.wait()
            return c.post(base + "/api/auth/login", json=body)

    before = status_kib(pid, "VmRSS")
    exact_peak = reset_peak(pid)
    t0 = time.monotonic()
    with PeakSampler(pid) as sampler, ThreadPoolExecutor(logins) as pool:
        answers = list(pool.map(one, range(logins)))
    seconds = time.monotonic() - t0
    peak = max(sampler.peak, status_kib(pid, "VmHWM") if exact_peak else 0)
    busy = [r for r in answers if r.status_code == 503]
    return {"logins": logins, "rss_before_mib": round(before / 1024, 1), "rss_peak_mib": round(peak / 1024, 1),
            "rss_after_mib": round(status_kib(pid, "VmRSS") / 1024, 1),
            "statuses": dict(sorted(Counter(r.status_code for r in answers).items())),
            "retry_after_on_503": sorted({r.headers.get("retry-after") for r in busy}),
            "reason_on_503": busy[0].json()["detail"] if busy else None,
            "seconds": round(seconds, 2), "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logins", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=1, help="floods one after the other (peak over all)")
    ap.add_argument("--database-url", default=None, help="an empty database (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="login_flood_"))
    url = args.database_url or f"sqlite:///{tmp / 'hd.sqlite3'}"
    srv = ServerProc(url, log_dir=tmp, rate_limits=GENEROUS_RATE_LIMITS).start()
    try:
        assert srv.proc is not None
        names = register(srv.base, 8)
        rounds = [flood(srv.base, srv.proc.pid, names, args.logins) for _ in range(args.rounds)]
        print(json.dumps({"rounds": rounds}, indent=1))
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
