"""The rate limits' counts shared by every process on one database (app.guard.shared)."""
from __future__ import annotations

from sqlalchemy import BigInteger, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class RateCount(Base):
    """How many events one key (an account or an address) had under one limit in one
    fixed window of that limit (slot = seconds since the epoch // the window's seconds).
    A row is kept while it can still count, as the window before the current one, and
    purged after expires_at (seconds since the epoch)."""
    __tablename__ = "rate_counts"

    limit_name: Mapped[str] = mapped_column(String(32), primary_key=True)
    subject: Mapped[str] = mapped_column(String(128), primary_key=True)
    slot: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
