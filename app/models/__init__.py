"""Every table of the server, in one place: Alembic's env imports this package, and
tests/server/test_migrations.py checks that the migrations build exactly these tables.
Only the store package and the services read or write them."""
from __future__ import annotations

from typing import cast

from sqlalchemy import Table

from .accounts import AuthToken, PasswordReset, User
from .base import Base, utcnow
from .challenges import Challenge
from .community import CHAT_MAX_BODY, DISPUTE_MAX_TEXT, AdminAction, ChatMessage, Dispute
from .games import Game, GameCommand, GameEvent
from .limits import RateCount
from .notices import MailPrefs, MutedGame, Notice, OutboxMessage, Webhook
from .playbyturn import GameClock, StandingOrder, Vacation
from .ratings import PlayerRating, RatingChange

__all__ = ["AdminAction", "AuthToken", "Base", "CHAT_MAX_BODY", "Challenge", "ChatMessage", "DISPUTE_MAX_TEXT",
           "Dispute", "Game", "GameClock", "GameCommand", "GameEvent", "MailPrefs", "MutedGame", "Notice",
           "OutboxMessage", "PasswordReset", "PlayerRating", "RateCount", "RatingChange", "StandingOrder", "User",
           "Vacation", "Webhook", "table", "utcnow"]


def table(model: type[Base]) -> Table:
    """A model's Core table (the hot paths and bulk statements use Core, not the ORM)."""
    return cast(Table, model.__table__)
