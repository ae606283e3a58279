"""Password hashing under a flood of logins: a server process hashes only a few
passwords at once (PASSWORD_HASH_SLOTS, each argon2id at 19 MiB), so 40 logins arriving
together cannot take its memory past a bound; the ones that find no free slot in time
are told to come back (503, Retry-After), never answered 500. Hashes made with older
parameters still verify and are made again with today's at the next login."""
from __future__ import annotations

import sqlite3
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from app.accounts.security import ARGON2_MEMORY_KIB

from .helpers import Player

LOGINS = 40
SLOTS = 2
# what the flood may add to the process's resident memory: the hashing threads' argon2
# memory (SLOTS x 19 MiB, which their malloc arenas keep for the next hash) plus 80 MiB
# for 40 request threads, their buffers and the database work. Unbounded, the same flood
# added 1.7-2.4 GB (bench/login_flood.py, 64 MiB and 4 lanes per hash, all 40 at once).
ALLOWED_GROWTH_KIB = SLOTS * ARGON2_MEMORY_KIB + 80 * 1024


def kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def run_sql(db_url: str, statement: str, *params) -> list:
    if db_url.startswith("sqlite"):
        c = sqlite3.connect(db_url.split("sqlite:///", 1)[1])
        try:
            rows = c.execute(statement.replace("%s", "?"), params).fetchall()
            c.commit()
            return rows
        finally:
            c.close()
    with psycopg.connect(db_url, autocommit=True) as c:
        cur = c.execute(statement, params)
        return cur.fetchall() if cur.description else []


def login(base: str, username: str, password: str) -> httpx.Response:
    return httpx.post(base + "/api/auth/login", json={"username": username, "password": password}, timeout=120)


def test_forty_logins_at_once_keep_the_memory_bounded_and_get_clear_answers(db_url, make_server):
    srv = make_server(db_url, password_hash_slots=SLOTS, password_hash_wait_seconds=2)
    players = [Player(srv.base) for _ in range(4)]
    pid = srv.proc.pid
    before = kib(pid, "VmRSS")
    Path(f"/proc/{pid}/clear_refs").write_text("5")   # VmHWM: the peak from now on
    start = threading.Barrier(LOGINS)

    def one(i: int) -> httpx.Response:
        p = players[i % len(players)]
        start.wait()
        return login(srv.base, p.username, p.password if i % 2 else f"wrong-{i}")

    with ThreadPoolExecutor(LOGINS) as pool:
        answers = list(pool.map(one, range(LOGINS)))
    growth = kib(pid, "VmHWM") - before
    assert growth < ALLOWED_GROWTH_KIB, f"peak RSS grew by {growth} KiB"
    statuses = [r.status_code for r in answers]
    assert set(statuses) <= {200, 401, 429, 503}, statuses
    assert 200 in statuses and 401 in statuses      # some got through to the check
    for r in answers:
        if r.status_code == 503:
            assert r.json()["code"] == "busy" and "busy checking passwords" in r.json()["detail"]
            assert 1 <= int(r.headers["retry-after"]) <= 2
    # the flood over, every owner logs in again
    for p in players:
        assert login(srv.base, p.username, p.password).status_code == 200


def test_a_hash_of_older_parameters_still_logs_in_and_is_made_again(server):
    from argon2 import PasswordHasher
    url = server.database_url
    name, password = f"o{uuid.uuid4().hex[:10]}", "an old password"
    Player(server.base, name, password)
    # argon2-cffi's own defaults (RFC 9106 "low memory"): what the site hashed with before
    old = PasswordHasher(memory_cost=65536, time_cost=3, parallelism=4).hash(password)
    run_sql(url, "UPDATE users SET password_hash = %s WHERE username = %s", old, name)
    assert login(server.base, name, "not it at all").status_code == 401
    assert run_sql(url, "SELECT password_hash FROM users WHERE username = %s", name)[0][0] == old
    assert login(server.base, name, password).status_code == 200
    [(new,)] = run_sql(url, "SELECT password_hash FROM users WHERE username = %s", name)
    assert new.startswith(f"$argon2id$v=19$m={ARGON2_MEMORY_KIB},t=2,p=1$") and new != old
    assert login(server.base, name, password).status_code == 200


@pytest.mark.parametrize("garbage", ["$argon2id$v=19$m=65536", "", "plain text"])
def test_a_broken_stored_hash_is_a_wrong_password_not_a_500(server, garbage):
    name = f"g{uuid.uuid4().hex[:10]}"
    Player(server.base, name)
    run_sql(server.database_url, "UPDATE users SET password_hash = %s WHERE username = %s", garbage, name)
    r = login(server.base, name, "password123")
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
