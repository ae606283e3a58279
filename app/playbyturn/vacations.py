"""Vacations: whole days, and the play-by-turn deadline they move.

A vacation is taken in whole days: it starts when it is declared and ends at midnight in
the account's time zone, `days` midnights later (so a player can say "back on Monday"
and the site agrees on when Monday starts). Each midnight a vacation passes counts as
one day of the yearly allowance (a vacation ended before its first midnight still costs
one day, so that pausing every clock for a few hours is never free).

A clock that runs while its player is on vacation does not run: the deadline is the
moment the player has used up their time, counting only the time they were not away.
A vacation that begins after that moment cannot move it, which is what makes a deadline
that has passed stay where it was.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import insert, or_, select, update

from ..core.clock import Clock, aware
from ..core.errors import ApiError
from ..i18n import N_
from ..models import Game, MailPrefs, User, Vacation, table
from ..notices.outbox import Notices
from ..notices.words import notice_words

T_VAC, T_PREFS, T_GAMES, T_USERS = table(Vacation), table(MailPrefs), table(Game), table(User)

Period = tuple[datetime, datetime]


# ----------------------------------------------------------------------------- pure rules
def zone_named(name: str | None) -> tzinfo:
    """The time zone of that name; UTC for none or an unknown name."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def local_midnight(day: date, zone: tzinfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def vacation_end(start: datetime, days: int, zone: tzinfo) -> datetime:
    """The `days`-th midnight (in `zone`) after `start`."""
    return local_midnight(start.astimezone(zone).date() + timedelta(days=days), zone)


def days_charged(start: datetime, end: datetime, zone: tzinfo, year: int | None = None) -> int:
    """Days of the allowance a vacation from `start` to `end` costs: one for each
    midnight it passes, that is for each day it lasts until that day's end (the days of
    `year` only, when given); at least one."""
    first, last = start.astimezone(zone).date(), end.astimezone(zone).date()
    days = [first + timedelta(days=i) for i in range((last - first).days)] or [first]
    return sum(1 for d in days if year is None or d.year == year)


def merged(periods: Iterable[Period]) -> list[Period]:
    out: list[Period] = []
    for a, b in sorted(p for p in periods if p[1] > p[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def deadline_after(since: datetime, budget_seconds: float, periods: Iterable[Period]) -> datetime:
    """When a clock started at `since` with `budget_seconds` runs out, if it stops
    during each of `periods`."""
    cursor, left = since, budget_seconds
    for a, b in merged(periods):
        if b <= cursor:
            continue
        if a > cursor:
            running = (a - cursor).total_seconds()
            if left <= running:
                break
            left -= running
        cursor = max(cursor, b)
    return cursor + timedelta(seconds=left)


def running_seconds(since: datetime, now: datetime, periods: Iterable[Period]) -> float:
    """Seconds a clock started at `since` has run until `now` (periods stop it)."""
    paused = 0.0
    for a, b in merged(periods):
        lo, hi = max(a, since), min(b, now)
        if hi > lo:
            paused += (hi - lo).total_seconds()
    return max(0.0, (now - since).total_seconds() - paused)


def current(periods: Iterable[Period], now: datetime) -> datetime | None:
    """The end of the vacation `now` falls in, if any."""
    return next((b for a, b in periods if a <= now < b), None)


# ----------------------------------------------------------------------------- the store
def account_zone(conn: Any, user_id: int) -> tzinfo:
    """The account's time zone for its vacation days (UTC while it has chosen none)."""
    row = conn.execute(select(T_PREFS).where(T_PREFS.c.user_id == user_id)).first()
    return zone_named(getattr(row, "time_zone", None) if row is not None else None)


def periods_of(conn: Any, user_id: int) -> list[Period]:
    rows = conn.execute(select(T_VAC.c.starts_at, T_VAC.c.ends_at).where(T_VAC.c.user_id == user_id)).all()
    # in UTC whatever the database session's zone: `until` is shown as UTC
    return [(aware(a).astimezone(UTC), aware(b).astimezone(UTC)) for a, b in rows]


class Vacations:
    """Declaring and ending vacations, the yearly allowance, and telling opponents."""

    def __init__(self, clock: Clock, notices: Notices, days_per_year: int = 30):
        self.clock = clock
        self.notices = notices
        self.per_year = days_per_year

    def info(self, conn: Any, user_id: int) -> dict:
        now = self.clock.now()
        zone = account_zone(conn, user_id)
        periods = periods_of(conn, user_id)
        year = now.astimezone(zone).year
        used = sum(days_charged(a, b, zone, year) for a, b in periods)
        until = current(periods, now)
        return {"on_vacation": until is not None, "until": until.isoformat() if until else None,
                "days_per_year": self.per_year, "days_used": used, "days_left": max(0, self.per_year - used),
                "time_zone": str(zone)}

    def start(self, conn: Any, user_id: int, days: int) -> dict:
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= self.per_year:
            raise ApiError(422, N_("a vacation is a whole number of days, 1 to {most}"), "invalid_request",
                           {"most": self.per_year})
        info = self.info(conn, user_id)
        if info["on_vacation"]:
            raise ApiError(409, N_("you are already on vacation"), "already_on_vacation")
        if days > info["days_left"]:
            raise ApiError(409, N_("only {n} vacation days are left this year"), "no_vacation_left",
                           {"n": info["days_left"]})
        now = self.clock.now()
        ends = vacation_end(now, days, account_zone(conn, user_id))
        conn.execute(insert(T_VAC), dict(user_id=user_id, starts_at=now, ends_at=ends))
        self.tell_opponents(conn, user_id, ends)
        return self.info(conn, user_id)

    def end(self, conn: Any, user_id: int) -> dict:
        now = self.clock.now()
        conn.execute(update(T_VAC).where(T_VAC.c.user_id == user_id, T_VAC.c.starts_at <= now,
                                         T_VAC.c.ends_at > now).values(ends_at=now))
        return self.info(conn, user_id)

    def tell_opponents(self, conn: Any, user_id: int, ends: datetime) -> None:
        """A `vacation` notice to the opponent in each of the player's by-turn games in play."""
        username = conn.execute(select(T_USERS.c.username).where(T_USERS.c.id == user_id)).scalar()
        c = T_GAMES.c
        games = conn.execute(select(c.id, c.union_user_id, c.confederate_user_id).where(
            c.status == "active", c.mode == "async",
            or_(c.union_user_id == user_id, c.confederate_user_id == user_id))).all()
        for g in games:
            other = g.confederate_user_id if g.union_user_id == user_id else g.union_user_id
            if other is None or other == user_id:
                continue
            local = ends.astimezone(account_zone(conn, other))
            until = f"{local:%Y-%m-%d %H:%M} ({local.tzname()})"
            self.notices.notify(conn, [other], "vacation", g.id,
                                notice_words("vacation", game=g.id, who=username, until=until))
