"""Fuzz the whole HTTP API with Schemathesis, as a stranger, a player and an admin.

    .venv/bin/pip install -e '.[fuzz]'
    .venv/bin/python tools/fuzz_api.py [--examples 60] [--database-url postgresql://...]

Starts a server of its own (a throwaway SQLite file unless --database-url names an empty
database), makes two players with a game under way and an administrator, then runs
Schemathesis over every operation of /openapi.json once per role, with the ids of
that game, and the check that no answer is a server error (5xx). Prints the requests
made and the server errors found per role, and exits 1 if there was any.
Rate limits are raised for this server only: the point is to reach the code behind them.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.guard.ratelimit import DEFAULT_LIMITS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
SETUP_TIMEOUT = 60  # the players and the game are made on a machine that may be busy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database_url: str, workdir: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT),
           "SECRET_KEY": "fuzz-" + os.urandom(16).hex(),
           "RATE_LIMITS": ",".join(f"{name}=100000/1" for name in DEFAULT_LIMITS)}
    log = open(workdir / "server.log", "w")
    proc = subprocess.Popen([PYTHON, "-m", "app", "serve", "--port", str(port)], env=env, cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    proc.kill()
    raise SystemExit(f"the server did not start; see {workdir / 'server.log'}")


def register(base: str, name: str) -> str:
    r = httpx.post(base + "/api/auth/register", json={"username": name, "password": "fuzz-password-1"},
                   timeout=SETUP_TIMEOUT)
    r.raise_for_status()
    return r.json()["token"]


def make_admin(database_url: str, name: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    subprocess.run([PYTHON, "-m", "app", "make-admin", name], env=env, cwd=ROOT, check=True,
                   capture_output=True)


def game_under_way(base: str, union: str, confederate: str) -> str:
    """A live 1861 game, a few decisions in, for the ids the operations need."""
    u = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {union}"}, timeout=SETUP_TIMEOUT)
    c = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {confederate}"},
                     timeout=SETUP_TIMEOUT)
    gid = u.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live"}).json()["id"]
    c.post(f"/api/games/{gid}/join", json={})
    for _ in range(4):
        legal = u.get(f"/api/games/{gid}/legal").json()
        if not legal.get("actions"):
            break
        u.post(f"/api/games/{gid}/actions", json={"action": legal["actions"][0], "expected_seq": legal["seq"]})
    return gid


def run_schemathesis(base: str, role: str, token: str | None, params: dict, examples: int,
                     workdir: Path) -> tuple[int, int, str]:
    config = workdir / f"{role}.toml"
    lines = ["[parameters]"] + [f'"path.{k}" = {json.dumps(v)}' for k, v in params.items()]
    config.write_text("\n".join(lines) + "\n")
    # logging out (or revoking the token) would turn the rest of the run anonymous
    auth = ["--header", f"Authorization: Bearer {token}", "--exclude-path", "/api/auth/logout",
            "--exclude-path-regex", "^/api/auth/tokens/"] if token else []
    cmd = [str(Path(PYTHON).parent / "schemathesis"), "--config-file", str(config), "run",
           base + "/openapi.json", "--checks", "not_a_server_error", "--max-examples", str(examples),
           "--phases", "examples,coverage,fuzzing", "--workers", "2", "--no-color",
           "--suppress-health-check", "all", *auth]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    (workdir / f"{role}.out").write_text(out)
    made = sum(int(n) for n in re.findall(r"(\d+) generated", out))
    errors = len(re.findall(r"^- ST101 Server error", out, flags=re.M))
    return made, errors, str(workdir / f"{role}.out")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=60, help="examples per operation and phase")
    ap.add_argument("--database-url", help="an empty database (default: a throwaway SQLite file)")
    args = ap.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fuzz-api-"))
    url = args.database_url or f"sqlite:///{workdir / 'fuzz.sqlite3'}"
    proc, base = start_server(url, workdir)
    try:
        union, confederate = register(base, "fuzzunion"), register(base, "fuzzconfed")
        register(base, "fuzzadmin")
        make_admin(url, "fuzzadmin")
        admin = httpx.post(base + "/api/auth/login", timeout=SETUP_TIMEOUT,
                           json={"username": "fuzzadmin", "password": "fuzz-password-1"}).json()["token"]
        gid = game_under_way(base, union, confederate)
        params = {"game_id": gid, "username": "fuzzunion"}
        total_made = total_errors = 0
        for role, token in (("anonymous", None), ("player", union), ("admin", admin)):
            made, errors, report = run_schemathesis(base, role, token, params, args.examples, workdir)
            print(f"{role:10} {made:7d} requests {errors:4d} server errors  ({report})")
            total_made += made
            total_errors += errors
        print(f"{'all':10} {total_made:7d} requests {total_errors:4d} server errors")
        return 1 if total_errors else 0
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
