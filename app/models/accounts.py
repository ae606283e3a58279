"""Accounts and their login sessions and API tokens."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    # lower-cased username: uniqueness is case-insensitive
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # "person"; "bot": a program playing through the bot API (docs/bot-api.md); "computer":
    # a seat the server's own computer player fills (its level in the name, e.g.
    # "Computer (hard)"; nobody logs in as it)
    kind: Mapped[str] = mapped_column(String(12), default="person", server_default="person")
    # the language the site and its mails speak to this account ("en", "hu", "de"); None:
    # the browser's choice (docs/i18n.md)
    language: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuthToken(Base):
    """Login sessions (cookie) and personal API tokens (bearer). Only a hash is stored."""
    __tablename__ = "auth_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "session" | "api"
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(64))
    scope: Mapped[str | None] = mapped_column(String(16))  # "bot": may use the bot API (bot accounts only)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # when and from where (a coarse address: app.accounts.sessions) it was last used, for
    # the owner's list of sessions; updated at most every few minutes
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_address: Mapped[str | None] = mapped_column(String(64))


class PasswordReset(Base):
    """A password-reset link sent by mail: single use, short-lived, only its hash stored."""
    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
