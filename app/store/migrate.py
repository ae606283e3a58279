"""Apply the Alembic migrations (used by `python -m app serve` and the tests)."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]


def _migrations_dir() -> Path:
    for base in (ROOT, Path.cwd()):
        if (base / "migrations" / "env.py").exists():
            return base / "migrations"
    raise RuntimeError("migrations/ not found next to the app package or in the working directory")


def alembic_config(database_url: str | None = None) -> Config:
    script_location = _migrations_dir()
    ini = script_location.parent / "alembic.ini"
    cfg = Config(str(ini)) if ini.exists() else Config()
    cfg.set_main_option("script_location", str(script_location))
    if database_url:
        cfg.attributes["database_url"] = database_url
    return cfg


def upgrade(database_url: str | None = None, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str | None = None, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)
