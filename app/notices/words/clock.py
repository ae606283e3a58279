"""What the by-turn clocks and vacations tell a player (notices, mails, webhooks), as
functions of the reader's language: Notices.notify says each in its recipient's
language. The events' own sentences are in catalog.EVENTS."""
from __future__ import annotations

from collections.abc import Callable

from ...i18n import translator
from .catalog import words_data

Said = Callable[[str], str]


def side_name(lang: str, side: str) -> str:
    return str(words_data(translator(lang).lang)["sides"].get(side, side))


def time_up(game: str, days: int) -> Said:
    """To the player whose time ran out."""
    def say(lang: str) -> str:
        ngettext = translator(lang).plural
        return ngettext("Game {game}: your time to move ({n} day) is up. Your opponent may now claim the win or "
                        "give you more time; moving now still counts until they do.",
                        "Game {game}: your time to move ({n} days) is up. Your opponent may now claim the win or "
                        "give you more time; moving now still counts until they do.", days, game=game)
    return say


def opponent_timed_out(game: str, side: str, days: int) -> Said:
    """To the waiting player, when the other's time ran out."""
    def say(lang: str) -> str:
        ngettext = translator(lang).plural
        return ngettext("Game {game}: the {side} player did not move within {n} day. You may claim the win on "
                        "time, or give more time, on the game page.",
                        "Game {game}: the {side} player did not move within {n} days. You may claim the win on "
                        "time, or give more time, on the game page.", days, game=game, side=side_name(lang, side))
    return say


def reminder(game: str, side: str, hours: int) -> Said:
    """To the player whose time is running out."""
    def say(lang: str) -> str:
        ngettext = translator(lang).plural
        return ngettext("Game {game}: about {n} hour left to make your move ({side}). After that your opponent "
                        "may claim the win on time.",
                        "Game {game}: about {n} hours left to make your move ({side}). After that your opponent "
                        "may claim the win on time.", hours, game=game, side=side_name(lang, side))
    return say


def lost_on_time(game: str, winner: str, winner_side: str, late_side: str) -> Said:
    """To the player who lost on time."""
    def say(lang: str) -> str:
        _ = translator(lang)
        return _("Game {game}: you lost on time. {who} ({side}) claims the win on time: the {late} player did not "
                 "move in time.", game=game, who=winner, side=side_name(lang, winner_side),
                 late=side_name(lang, late_side))
    return say


def extended(game: str, by: str, by_side: str, side: str, days: int) -> Said:
    """To the player who was given more time."""
    def say(lang: str) -> str:
        ngettext = translator(lang).plural
        return ngettext("Game {game}: {who} ({by_side}) gives the {side} player {n} more day.",
                        "Game {game}: {who} ({by_side}) gives the {side} player {n} more days.", days, game=game,
                        who=by, by_side=side_name(lang, by_side), side=side_name(lang, side))
    return say
