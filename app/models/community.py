"""Chat, disputes and the administrators' audit log."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow

CHAT_MAX_BODY = 500
DISPUTE_MAX_TEXT = 2000


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    username: Mapped[str] = mapped_column(String(32))
    body: Mapped[str] = mapped_column(String(CHAT_MAX_BODY))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Dispute(Base):
    __tablename__ = "disputes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    username: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(DISPUTE_MAX_TEXT))
    status: Mapped[str] = mapped_column(String(12), index=True)  # open | resolved | dismissed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    decision: Mapped[str | None] = mapped_column(String(16))       # rewind | adjudicate | annul | dismiss
    decision_seq: Mapped[int | None] = mapped_column(Integer)
    resolution: Mapped[str | None] = mapped_column(String(DISPUTE_MAX_TEXT))


class AdminAction(Base):
    """The audit log: every administrator action, with who, when and why."""
    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    admin_username: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(16), index=True)
    dispute_id: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(DISPUTE_MAX_TEXT))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
