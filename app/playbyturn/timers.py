"""The play-by-turn timers the outbox worker (app.notices.mailer.Worker) runs at each
tick: reminders and time-up notices (deadlines), standing orders and forced moves once
their grace time is over (orders), and the daily digests (app.notices.digest)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.clock import Clock
from ..notices.digest import digest_tick
from . import orders
from .deadlines import Deadlines


def timer_jobs(db: Any, clock: Clock, deadlines: Deadlines, games: Any,
               orders_grace_seconds: float) -> list[Callable[[], int]]:
    """Each job returns how much it did."""
    def clocks() -> int:
        return deadlines.tick(db)

    def standing_orders() -> int:
        return orders.tick(games, clock, orders_grace_seconds)

    def digests() -> int:
        return digest_tick(db, deadlines)
    return [clocks, standing_orders, digests]
