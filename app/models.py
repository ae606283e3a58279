"""SQLAlchemy models. Alembic (migrations/) owns the schema; these must agree with it
(tests/server/test_migrations.py checks that)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, MetaData, String,
                        UniqueConstraint, false)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    # lower-cased username: uniqueness is case-insensitive
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuthToken(Base):
    """Login sessions (cookie) and personal API tokens (bearer). Only a hash is stored."""
    __tablename__ = "auth_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "session" | "api"
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(32))
    options: Mapped[list[str]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(8))  # "live" | "async"
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(12), index=True)  # open | active | finished | aborted
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    union_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    confederate_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    # the dice seed: secret, never sent to a client (issue 6 will publish a commitment)
    seed: Mapped[str] = mapped_column(String(128))
    header: Mapped[dict[str, Any]] = mapped_column(JSON)
    # denormalised from the event log (kept in the same transaction as each append)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    to_act: Mapped[str | None] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # head of the event hash chain: h(last seq), or the header hash before any event
    # (rules_engine/record.py; issue 6)
    chain_head: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameEvent(Base):
    """The append-only event store. Rows are never updated or deleted.

    source "engine": an event produced by rules_engine (payload is the engine's dict);
    source "server": create, join, start, undo ("take back to seq K"), resign, abort.
    """
    __tablename__ = "game_events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str] = mapped_column(String(8))
    type: Mapped[str] = mapped_column(String(64))
    actor: Mapped[str | None] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # hash of the event before (the chain from the game's header hash; rules_engine/record.py)
    prev_hash: Mapped[str | None] = mapped_column(String(64))


class GameCommand(Base):
    """One row per accepted request that appended events: which seqs it produced, the
    action as the player sent it, and the client's action id (unique per game) so that a
    retry returns the first result instead of applying twice."""
    __tablename__ = "game_commands"
    __table_args__ = (UniqueConstraint("game_id", "action_id", name="uq_game_commands_game_id_action_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    first_seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # action | undo | join | resign | abort | create
    action_id: Mapped[str | None] = mapped_column(String(64))
    body: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    side: Mapped[str | None] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
