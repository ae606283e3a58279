"""Alembic owns the schema: the migrations must build exactly what the models describe,
from an empty database and from a database at every earlier revision (with rows in it),
and they must not depend on code that changes after them."""
from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from app.core.config import normalize_database_url
from app.models import Base
from app.store.migrate import alembic_config, downgrade, upgrade

VERSIONS = Path(__file__).resolve().parents[2] / "migrations" / "versions"


def _revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def _diff(url: str):
    engine = create_engine(normalize_database_url(url))
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": False})
            return compare_metadata(ctx, Base.metadata)
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = create_engine(normalize_database_url(url))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _execute(url: str, sql: str, **params) -> list:
    engine = create_engine(normalize_database_url(url))
    try:
        with engine.begin() as conn:
            res = conn.execute(text(sql), params)
            return res.all() if res.returns_rows else []
    finally:
        engine.dispose()


def test_models_and_migrations_agree(db_url):
    upgrade(db_url)
    assert _diff(db_url) == []
    assert {"users", "auth_tokens", "games", "game_events", "game_commands"} <= _tables(db_url)


def test_downgrade_and_upgrade_again(db_url):
    upgrade(db_url)
    downgrade(db_url, "base")
    assert _tables(db_url) <= {"alembic_version"}
    upgrade(db_url)
    assert _diff(db_url) == []


@pytest.mark.parametrize("revision", _revisions()[:-1])
def test_upgrade_from_each_earlier_revision(db_url, revision):
    upgrade(db_url, revision)
    _execute(db_url, "INSERT INTO users (id, username, username_key, password_hash, is_admin, created_at) "
                     "VALUES (1, 'ann', 'ann', 'x', false, :t)", t=datetime(2026, 1, 1, tzinfo=timezone.utc))
    upgrade(db_url)
    assert _diff(db_url) == []
    assert _execute(db_url, "SELECT username FROM users") == [("ann",)]


def test_site_notices_move_into_the_one_notices_table(db_url):
    revisions = _revisions()
    upgrade(db_url, revisions[revisions.index("0005") - 1])
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    _execute(db_url, "INSERT INTO users (id, username, username_key, password_hash, is_admin, created_at) "
                     "VALUES (1, 'ann', 'ann', 'x', false, :t)", t=t)
    # a dispute notice written twice (site_notices and notices), and one only in site_notices
    for table in ("site_notices", "notices"):
        _execute(db_url, f"INSERT INTO {table} (user_id, kind, text, created_at, read_at) "
                         "VALUES (1, 'dispute_opened', 'twice', :t, :r)", t=t, r=t if table == "site_notices" else None)
    _execute(db_url, "INSERT INTO site_notices (user_id, kind, text, created_at) VALUES (1, 'admin_annul', 'once', :t)",
             t=t)
    _execute(db_url, "INSERT INTO notices (user_id, kind, text, created_at) VALUES (1, 'turn', 'your turn', :t)", t=t)
    upgrade(db_url)
    assert "site_notices" not in _tables(db_url)
    rows = _execute(db_url, "SELECT kind, text, read_at IS NOT NULL FROM notices ORDER BY id")
    assert sorted(rows) == sorted([("dispute_opened", "twice", True), ("turn", "your turn", False),
                                   ("admin_annul", "once", False)])


def test_webhooks_saved_before_signing_get_a_secret_each(db_url):
    upgrade(db_url, "0008")
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for uid, name in ((1, "ann"), (2, "bob")):
        _execute(db_url, "INSERT INTO users (id, username, username_key, password_hash, is_admin, created_at) "
                         "VALUES (:i, :n, :n, 'x', false, :t)", i=uid, n=name, t=t)
        _execute(db_url, "INSERT INTO webhooks (user_id, url, json_key, prefix, enabled) "
                         "VALUES (:i, 'https://chat.example/hook', 'content', '', true)", i=uid)
    upgrade(db_url)
    secrets = [r[0] for r in _execute(db_url, "SELECT secret FROM webhooks ORDER BY user_id")]
    assert len(secrets) == 2 and len(set(secrets)) == 2
    assert all(len(s) == 64 and int(s, 16) >= 0 for s in secrets)


def test_migrations_import_no_code_that_changes_after_them():
    for path in sorted(VERSIONS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] not in ("app", "rules_engine"), f"{path.name} imports {name}"


def test_url_forms_people_write():
    assert normalize_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgres://u@h:5433/db") == "postgresql+psycopg://u@h:5433/db"
    assert normalize_database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalize_database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
