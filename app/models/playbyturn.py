"""Time limits of by-turn games, vacations and standing battle orders."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class GameClock(Base):
    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    days: Mapped[int | None] = mapped_column(Integer)                # None: no limit (the row still
    # records since when the game waits for whom: standing orders use it)
    side: Mapped[str | None] = mapped_column(String(16))           # whose clock runs (None: nobody's)
    user_id: Mapped[int | None] = mapped_column(Integer)
    since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    extra_seconds: Mapped[int] = mapped_column(Integer, default=0)  # extensions given by the opponent
    reminded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Vacation(Base):
    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class StandingOrder(Base):
    __tablename__ = "standing_orders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    orders: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
