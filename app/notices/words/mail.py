"""The words of the mails that are not sentences about game events: dates and times
in the reader's time zone and language, game turns, subjects of the digest. The
sentences around them are in templates/mail/."""
from __future__ import annotations

from ...i18n import N_, Translator

# i18n: a date pattern of Babel (CLDR): EEE weekday, d day, MMM month, y year, HH:mm the
# time; write it as the reader's language writes a date, e.g. "EEE, d. MMM y, HH:mm"
WHEN_PATTERN = N_("EEE d MMM y, HH:mm")
# a moment in the reader's zone, e.g. "Thu 3 Dec 2026, 09:00 CET (Europe/Paris)"
WHEN = N_("{date} {abbrev} ({zone})")
# a game turn, e.g. "Turn 3 (Sep/Oct 1861)"
GAME_TURN = N_("Turn {turn} ({date})")
NOTHING_WAITING_SUBJECT = N_("Your games today")
# the game's number after a mail's subject, e.g. "Your turn (game 12)"
SUBJECT_OF_GAME = N_("{subject} (game {game})")
# what the settings page's "test the webhook" button sends
TEST_NOTICE = N_("Test notice from {site}")
# who wins when nobody does (a game over without a winner)
NOBODY = N_("nobody")


def digest_subject(t: Translator, waiting: int) -> str:
    """The digest's subject: how many games wait for the reader."""
    ngettext = t.plural
    if not waiting:
        return t(NOTHING_WAITING_SUBJECT)
    return ngettext("{n} game waiting for you", "{n} games waiting for you", waiting)
