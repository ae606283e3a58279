"""Times as the reader reads them: the time zone each player chose for their mails
(mail_prefs.time_zone, an IANA name) and the hour their daily digest comes."""
from __future__ import annotations

import functools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.dates import format_datetime

from ..core.errors import ApiError
from ..i18n import N_, translator
from .words import mail as words


def checked_zone(name: str) -> ZoneInfo:
    """The zone of an IANA name, or a 422 `invalid_time_zone`."""
    try:
        if not name or name.startswith(("/", ".")) or ".." in name:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ApiError(422, N_("unknown time zone {name}: use a name like Europe/Paris, America/New_York or UTC"),
                       "invalid_time_zone", {"name": repr(name)}) from None


@functools.cache
def time_zone_names() -> list[str]:
    """The zones the settings page suggests (regions and cities, and UTC); any other
    name the system knows is accepted too."""
    names = {z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/", "US/"))}
    return ["UTC", *sorted(names)]


def zone_or_utc(name: str | None) -> ZoneInfo:
    """A stored zone (checked when saved); UTC should the system no longer know it."""
    try:
        return checked_zone(name or "UTC")
    except ApiError:
        return ZoneInfo("UTC")


def local_when(moment: datetime, zone_name: str | None, lang: str | None = None) -> str:
    """A moment in the reader's zone and language, in words (app.notices.words.mail.WHEN):
    Babel's month and weekday names of that language."""
    zone = zone_or_utc(zone_name)
    t = moment.astimezone(zone)
    say = translator(lang)
    date = format_datetime(t, say(words.WHEN_PATTERN), tzinfo=zone, locale=say.lang)
    return say(words.WHEN, date=date, abbrev=t.tzname() or "", zone=zone.key)


def short_when(moment: datetime, zone_name: str | None, lang: str | None = None) -> str:
    """A moment on a page, in the reader's zone and language: the date pattern of the
    mails with the zone's abbreviation ("Thu 3 Dec 2026, 09:00 CET")."""
    zone = zone_or_utc(zone_name)
    t = moment.astimezone(zone)
    say = translator(lang)
    return f"{format_datetime(t, say(words.WHEN_PATTERN), tzinfo=zone, locale=say.lang)} {t.tzname() or ''}".strip()


def digest_due(last: datetime | None, hour: int, zone_name: str | None, now: datetime) -> bool:
    """Whether the digest is due: the chosen hour has come (in the reader's zone) since
    the last digest. The first digest after choosing "digest" waits for that hour too."""
    zone = zone_or_utc(zone_name)
    local_now = now.astimezone(zone)
    latest = local_now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if latest > local_now:
        latest -= timedelta(days=1)
    # the wall-clock hour may not exist on a DST day: normalise through UTC
    latest_utc = latest.astimezone(ZoneInfo("UTC"))
    return last is None or last < latest_utc
