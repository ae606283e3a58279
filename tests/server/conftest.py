"""Fixtures for the server tests: each runs on SQLite and, when reachable, on Postgres.

Postgres: TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test) names a
server where the tests may CREATE DATABASE throwaway databases. When it is unreachable the
Postgres variants skip, unless REQUIRE_POSTGRES=1: then they fail.
"""
from __future__ import annotations

import os

import psycopg
import pytest

from tests.isolation import database_name

from .helpers import DEFAULT_PG, TEST_GAME_SEED, ServerProc


def _pg_admin_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", DEFAULT_PG).replace("postgresql+psycopg://", "postgresql://")


_pg_state: dict = {}


def _pg_reachable() -> str | None:
    """None if Postgres answers, else the reason. A server that answers but lacks the
    database TEST_DATABASE_URL names gets it created (through its `postgres` database);
    if even that fails, the reason says the command that makes it."""
    if "err" not in _pg_state:
        try:
            _pg_state["err"] = _connect_or_create()
        except Exception as exc:  # noqa: BLE001
            _pg_state["err"] = f"Postgres at {_pg_admin_url()} unreachable: {exc}"
    return _pg_state["err"]


def _connect_or_create() -> str | None:
    url = _pg_admin_url()
    try:
        with psycopg.connect(url, connect_timeout=3, autocommit=True) as c:
            c.execute("SELECT 1")
        return None
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise
    name = url.rpartition("/")[2].split("?")[0]
    try:
        with psycopg.connect(_swap_db(url, "postgres"), connect_timeout=3, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return None
    except Exception as exc:  # noqa: BLE001
        return (f"the test database {name!r} does not exist and could not be created ({exc}); "
                f"make it with: createdb -h <host> -U <user> {name}")


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
        name = database_name()
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


class SharedServers:
    """One server per backend for the whole session (of this worker), started when first
    asked for and kept running while the tests switch between backends: a test run in
    parallel workers takes the modules in no particular order, and a parametrized session
    fixture would be stopped and started again at every switch."""

    def __init__(self, tmp_path_factory, pg_databases, name: str, **env):
        self.tmp_path_factory, self.pg_databases, self.name, self.env = tmp_path_factory, pg_databases, name, env
        self.running: dict[str, ServerProc] = {}

    def get(self, backend: str) -> ServerProc:
        if backend == "postgres":
            need_postgres()
        if backend not in self.running:
            if backend == "postgres":
                url = self.pg_databases.create()
            else:
                url = f"sqlite:///{self.tmp_path_factory.mktemp('db') / f'{self.name}.sqlite3'}"
            srv = ServerProc(url, log_dir=self.tmp_path_factory.mktemp("logs"), **self.env).start()
            srv.url = url
            srv.backend = backend
            self.running[backend] = srv
        return self.running[backend]

    def stop_all(self) -> None:
        for srv in self.running.values():
            srv.stop()


@pytest.fixture(scope="session")
def shared_servers(tmp_path_factory, pg_databases):
    servers = SharedServers(tmp_path_factory, pg_databases, "hd", game_seed=TEST_GAME_SEED)
    yield servers
    servers.stop_all()


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def server(request, shared_servers):
    """One running server per backend, shared by the tests that do not restart it."""
    return shared_servers.get(request.param)


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
from .mailkit import clock_fixture, play_by_turn_servers, smtp_fixture, srv_fixture  # noqa: E402,F401
