"""Games, their append-only event log and the commands that appended to it."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(32))
    options: Mapped[list[str]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(8))  # "live" | "async"
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    # a rated game changes both players' ratings when it ends (app.ratings)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    invite_code: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(12), index=True)  # open | active | finished | aborted
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    union_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    confederate_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    # the dice seed: secret until the game ends (the header carries a commitment to it)
    seed: Mapped[str] = mapped_column(String(128))
    header: Mapped[dict[str, Any]] = mapped_column(JSON)
    # denormalised from the event log (kept in the same transaction as each append)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    to_act: Mapped[str | None] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # head of the event hash chain: h(last seq), or the header hash before any event
    # (rules_engine/record.py)
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
