"""Alembic owns the schema: the migrations must build exactly what the models describe."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

import importlib
import pkgutil

import app
from app.config import normalize_database_url
from app.migrate import downgrade, upgrade
from app.models import Base

# every module of the app that may define a model registers it on Base when imported
for _m in pkgutil.iter_modules(app.__path__):
    if _m.name not in ("main", "__main__"):
        importlib.import_module(f"app.{_m.name}")


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


def test_url_forms_people_write():
    assert normalize_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgres://u@h:5433/db") == "postgresql+psycopg://u@h:5433/db"
    assert normalize_database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalize_database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
