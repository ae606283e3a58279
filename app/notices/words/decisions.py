"""What administrators' decisions and disputes tell the players and administrators
(notices, mails, webhooks), as functions of the reader's language (Notices.notify says
each in its recipient's language). What the players and administrators typed (a
dispute, a reason) is quoted as written."""
from __future__ import annotations

from collections.abc import Callable

from ...i18n import N_, translator

Said = Callable[[str], str]
OUTCOMES = {"union": N_("the Union wins"), "confederate": N_("the Confederacy wins"), None: N_("a draw")}


def rewound(game: str, admin: str, back_to: int, reason: str) -> Said:
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("An administrator ({admin}) rewound game {game} to seq {seq}: {reason}. Play resumes from there; "
                 "the later events are kept as superseded history.", admin=admin, game=game, seq=back_to,
                 reason=reason)
    return say


def adjudicated(game: str, admin: str, winner: str | None, reason: str) -> Said:
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("An administrator ({admin}) adjudicated game {game}: {outcome}. Reason: {reason}", admin=admin,
                 game=game, outcome=_(OUTCOMES.get(winner, OUTCOMES[None])), reason=reason)
    return say


def annulled(game: str, admin: str, reason: str) -> Said:
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("An administrator ({admin}) annulled game {game}. Reason: {reason}", admin=admin, game=game,
                 reason=reason)
    return say


def dispute_opened(game: str, who: str, seq: int, text: str) -> Said:
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("{who} opened a dispute on game {game} about seq {seq}: {text}", who=who, game=game, seq=seq,
                 text=text)
    return say


def dispute_dismissed(game: str, admin: str, dispute: int, reason: str) -> Said:
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("An administrator ({admin}) dismissed the dispute #{dispute} on game {game}: {reason}",
                 admin=admin, dispute=dispute, game=game, reason=reason)
    return say
