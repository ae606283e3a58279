"""Alembic environment: the URL comes from the caller (app.store.migrate) or the settings.

It imports app.models, every table of the server, for autogenerate and for the test
that the migrations and the models agree. The migrations themselves import no app code:
each keeps the schema and data steps of its time."""
from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine, pool, text

from app.core.config import Settings, normalize_database_url
from app.models import Base

config = context.config
if config.config_file_name is not None and not config.attributes.get("database_url"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("database_url") or Settings().database_url
    return normalize_database_url(url)


def run_migrations_offline() -> None:
    url = _url()
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = _url()
    connect_args = {"timeout": 30} if url.startswith("sqlite") else {}
    engine = create_engine(url, poolclass=pool.NullPool, connect_args=connect_args)
    with engine.connect() as connection:
        is_pg = connection.dialect.name == "postgresql"
        if is_pg:
            # two app processes starting at once must not migrate concurrently
            connection.execute(text("SELECT pg_advisory_lock(74612001)"))
            connection.commit()
        try:
            context.configure(connection=connection, target_metadata=target_metadata,
                              render_as_batch=not is_pg, compare_type=True)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            if is_pg:
                connection.execute(text("SELECT pg_advisory_unlock(74612001)"))
                connection.commit()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
