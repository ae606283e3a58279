"""Vacation days and the deadline they move (app.playbyturn.vacations): whole days ending
at midnight in the account's time zone, each midnight one day of the allowance, and a
deadline that only vacations begun before it can push back."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from app.playbyturn.vacations import (current, days_charged, deadline_after, running_seconds, vacation_end,
                                      zone_named)

NY = ZoneInfo("America/New_York")
DAY = 86400


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_vacation_ends_at_the_chosen_midnight_in_the_players_zone():
    start = at(2026, 3, 10, 15, 30)
    assert vacation_end(start, 1, UTC) == at(2026, 3, 11)
    assert vacation_end(start, 3, UTC) == at(2026, 3, 13)
    # 15:30 UTC is 11:30 in New York (daylight time from 8 March): midnight there is 04:00 UTC
    assert vacation_end(start, 1, NY) == at(2026, 3, 11, 4)
    # late in the evening in New York it is already the next day in UTC: New York's days count
    assert vacation_end(at(2026, 3, 11, 3, 0), 1, NY) == at(2026, 3, 11, 4)
    # across the change to daylight time the days are still whole local days
    assert vacation_end(at(2026, 3, 7, 12), 2, NY) == datetime(2026, 3, 9, tzinfo=NY)


def test_each_midnight_costs_one_day_and_a_short_vacation_one():
    start = at(2026, 5, 1, 10)
    assert days_charged(start, vacation_end(start, 4, UTC), UTC) == 4
    assert days_charged(start, start + timedelta(days=2, hours=1), UTC) == 2
    assert days_charged(start, start + timedelta(hours=3), UTC) == 1
    # the allowance is per calendar year: a vacation over New Year costs each year its nights
    ny_eve = at(2026, 12, 30, 9)
    end = vacation_end(ny_eve, 4, UTC)
    assert days_charged(ny_eve, end, UTC, 2026) == 2 and days_charged(ny_eve, end, UTC, 2027) == 2


def test_the_deadline_counts_only_the_time_not_on_vacation():
    since = at(2026, 6, 1, 12)
    assert deadline_after(since, 3 * DAY, []) == at(2026, 6, 4, 12)
    away = [(at(2026, 6, 2, 12), at(2026, 6, 4))]  # a day and a half away, during the clock
    assert deadline_after(since, 3 * DAY, away) == at(2026, 6, 6)
    # a vacation already running when the clock starts pauses it from the start
    assert deadline_after(since, DAY, [(at(2026, 5, 30), at(2026, 6, 2))]) == at(2026, 6, 3)
    # overlapping records of the same days do not count twice
    twice = away + [(at(2026, 6, 3), at(2026, 6, 4))]
    assert deadline_after(since, 3 * DAY, twice) == at(2026, 6, 6)


def test_a_vacation_begun_after_the_deadline_does_not_move_it():
    since = at(2026, 6, 1, 12)
    deadline = deadline_after(since, DAY, [])
    later = [(deadline + timedelta(hours=1), deadline + timedelta(days=5))]
    assert deadline_after(since, DAY, later) == deadline
    # and one that begins exactly when the time is up neither
    assert deadline_after(since, DAY, [(deadline, deadline + timedelta(days=5))]) == deadline


def test_running_time_and_the_vacation_now():
    since = at(2026, 6, 1)
    away = [(at(2026, 6, 1, 6), at(2026, 6, 1, 18))]
    assert running_seconds(since, at(2026, 6, 2), away) == 12 * 3600
    assert current(away, at(2026, 6, 1, 7)) == at(2026, 6, 1, 18)
    assert current(away, at(2026, 6, 1, 18)) is None


def test_unknown_zones_are_utc():
    assert zone_named(None) is UTC and zone_named("Mars/Olympus") is UTC and zone_named("../etc") is UTC
    assert zone_named("Europe/Paris") == ZoneInfo("Europe/Paris")
