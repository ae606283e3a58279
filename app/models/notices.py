"""In-site notices, the mail/webhook outbox and each account's notice settings."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class Notice(Base):
    """An in-site notification (the badge and /notifications)."""
    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(24))
    text: Mapped[str] = mapped_column(Text)
    seq: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class OutboxMessage(Base):
    """One message to deliver (email or webhook). Written in the transaction of the event
    that caused it; the worker claims it (pending -> sending), delivers it and marks it
    sent, or puts it back with a later next_attempt_at, or marks it failed."""
    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(8))          # email | webhook
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(16))
    game_seq: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    recipient: Mapped[str] = mapped_column(String(1000))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    status: Mapped[str] = mapped_column(String(10), index=True)  # held | pending | sending | sent | failed | cancelled
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    dedupe: Mapped[str | None] = mapped_column(String(120), unique=True)


class MailPrefs(Base):
    """Per account: how often to mail (turn | digest | never), which address is verified,
    the reader's time zone and the hour of the digest."""
    __tablename__ = "mail_prefs"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), default="turn")
    verified_email: Mapped[str | None] = mapped_column(String(254))
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # deadlines in mails are given in this zone (IANA name); the digest comes at digest_hour there
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    digest_hour: Mapped[int] = mapped_column(Integer, default=8, server_default="8")


class Webhook(Base):
    """Per account: a URL that receives the same notices as signed JSON ({json_key: prefix +
    text, "delivery": id, "event": {...}})."""
    __tablename__ = "webhooks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    url: Mapped[str] = mapped_column(String(1000))
    json_key: Mapped[str] = mapped_column(String(64), default="content")
    prefix: Mapped[str] = mapped_column(String(200), default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    secret: Mapped[str] = mapped_column(String(64))  # signs each delivery (app.notices.signing)
    last_error: Mapped[str | None] = mapped_column(String(1000))
    last_error_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_ok_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MutedGame(Base):
    """A game one player muted: its notices stay on the site, but no mail or webhook
    call about it goes to that player."""
    __tablename__ = "muted_games"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
