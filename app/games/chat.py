"""Who reads and writes which chat channel of a game (the one place for these rules).

One channel for the two players, one for spectators. Spectators never read the players'
channel; while a game is being played the players do not read the spectators' channel
either (no outside help), and neither does anyone logged out (else a player could read it
by logging out in another window); once it is over both are open to everyone. The HTTP routes
(app.http.chat) refuse with these reasons; the game socket (app.realtime.hub) sends a new
message only to the sockets that may read it.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..i18n import N_

CHANNELS = ("players", "spectators")
PLAYING = ("open", "active")

Seats = Mapping[str, int | None]


def is_player(seats: Seats, user_id: int | None) -> bool:
    return user_id is not None and user_id in (seats.get("union"), seats.get("confederate"))


def why_not_read(seats: Seats, status: str, user_id: int | None, channel: str) -> str | None:
    """None if this user (None: not logged in) may read the channel, else the reason."""
    if status not in PLAYING:
        return None
    player = is_player(seats, user_id)
    if channel == "players" and not player:
        return N_("the players' chat is for the two players (spectators have their own)")
    if channel == "spectators" and player:
        return N_("players do not read the spectators' chat while the game is on")
    if channel == "spectators" and user_id is None:
        return N_("log in to read the spectators' chat while the game is on")
    return None


def why_not_write(seats: Seats, status: str, user_id: int, channel: str) -> str | None:
    """None if this logged-in user may write in the channel, else the reason."""
    player = is_player(seats, user_id)
    if channel == "players" and not player:
        return N_("only the two players write in the players' chat")
    if channel == "spectators" and player and status in PLAYING:
        return N_("players write in the players' chat")
    return None


def may_read(seats: Seats, status: str, user_id: int | None, channel: str) -> bool:
    return why_not_read(seats, status, user_id, channel) is None
