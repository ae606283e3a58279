"""The words of the mails that are not sentences about game events: dates and times
in the reader's time zone, subjects of the digest. The sentences around them are in
templates/mail/ (one place per sentence: a later step translates both)."""
from __future__ import annotations

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# a moment in the reader's zone, e.g. "Thu 3 Dec 2026, 09:00 CET (Europe/Paris)"
WHEN = "{weekday} {day} {month} {year}, {hour:02d}:{minute:02d} {abbrev} ({zone})"
# a game turn, e.g. "Turn 3 (Sep/Oct 1861)"
GAME_TURN = "Turn {turn} ({date})"
DIGEST_SUBJECT = {1: "1 game waiting for you", "other": "{count} games waiting for you"}
NOTHING_WAITING_SUBJECT = "Your games today"
