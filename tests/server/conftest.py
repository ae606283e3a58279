"""Fixtures for the server tests: each runs on SQLite and, when reachable, on Postgres.

Postgres: TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test) names a
server where the tests may CREATE DATABASE throwaway databases. When it is unreachable the
Postgres variants skip, unless REQUIRE_POSTGRES=1: then they fail.
"""
from __future__ import annotations

import os
import uuid

import psycopg
import pytest

from .helpers import DEFAULT_PG, TEST_GAME_SEED, ServerProc


def _pg_admin_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", DEFAULT_PG).replace("postgresql+psycopg://", "postgresql://")


_pg_state: dict = {}


def _pg_reachable() -> str | None:
    """None if Postgres answers, else the reason."""
    if "err" not in _pg_state:
        try:
            with psycopg.connect(_pg_admin_url(), connect_timeout=3, autocommit=True) as c:
                c.execute("SELECT 1")
            _pg_state["err"] = None
        except Exception as exc:  # noqa: BLE001
            _pg_state["err"] = f"Postgres at {_pg_admin_url()} unreachable: {exc}"
    return _pg_state["err"]


def need_postgres():
    err = _pg_reachable()
    if err:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(err + " (REQUIRE_POSTGRES=1)")
        pytest.skip(err)


def _swap_db(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


class PgDatabases:
    def __init__(self):
        self.created: list[str] = []

    def create(self) -> str:
        name = f"hd_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(_pg_admin_url(), autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        self.created.append(name)
        return _swap_db(_pg_admin_url(), name)

    def drop_all(self):
        for name in self.created:
            try:
                with psycopg.connect(_pg_admin_url(), autocommit=True) as c:
                    c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except Exception:
                pass
        self.created.clear()


@pytest.fixture(scope="session")
def pg_databases():
    dbs = PgDatabases()
    yield dbs
    dbs.drop_all()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path, pg_databases):
    """A fresh, empty database (not migrated) on each backend."""
    if request.param == "postgres":
        need_postgres()
        return pg_databases.create()
    return f"sqlite:///{tmp_path / 'hd.sqlite3'}"


@pytest.fixture
def pg_url(pg_databases):
    """A fresh Postgres database (for the Postgres-only tests)."""
    need_postgres()
    return pg_databases.create()


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def server(request, tmp_path_factory, pg_databases):
    """One running server per backend, shared by the tests that do not restart it."""
    if request.param == "postgres":
        need_postgres()
        url = pg_databases.create()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'hd.sqlite3'}"
    srv = ServerProc(url, log_dir=tmp_path_factory.mktemp("logs"), game_seed=TEST_GAME_SEED).start()
    srv.backend = request.param
    yield srv
    srv.stop()


@pytest.fixture
def make_server(tmp_path):
    """Start extra servers (restarts, several processes); all stopped at the end."""
    started: list[ServerProc] = []

    def make(url: str, **env) -> ServerProc:
        srv = ServerProc(url, log_dir=tmp_path, **env).start()
        started.append(srv)
        return srv

    yield make
    for s in started:
        s.stop()


# the play-by-turn tests share one SMTP server, clock and app server per backend
from .mailkit import clock_fixture, smtp_fixture, srv_fixture  # noqa: E402,F401
