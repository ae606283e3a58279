"""Handing a seat its player left to the computer, so that the opponent can finish.

A seat counts as left when its player lets the clock run out: in a by-turn game their
time to move is up (the opponent could claim the win on time), in a live game they have
been the player to act for `live_abandon_minutes` without a decision and do not have the
game open (the game page shows the offer once they have been away that long). The
opponent may then ask for the computer (a level) to take that seat instead of ending the
game. The hand-over is an event of its own ("computer_takeover"), so replays and exports
show it. A game with a computer seat is never rated (app.ratings).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from ..core.clock import aware
from ..core.errors import ApiError
from ..games.records import other_side
from ..i18n import N_
from ..models import User, utcnow
from ..playbyturn.deadlines import Deadlines
from .players import ComputerPlayers


def _require_left(players: ComputerPlayers, deadlines: Deadlines, s, game, me: User, seat: str,
                  abandon_minutes: float, here: Callable[[str, str], bool]) -> None:
    if game.to_act != seat:
        raise ApiError(409, N_("the game is waiting for you, not for your opponent"), "not_abandoned")
    if game.mode != "async" and here(game.id, seat):
        raise ApiError(409, N_("your opponent has the game open: they may still move"), "not_abandoned")
    if game.mode == "async":
        clock = deadlines.clock_view(s, game.id, me.id)
        if not (clock and clock["can_claim"]):
            raise ApiError(409, N_("your opponent's time to move is not up"), "not_abandoned")
        return
    idle = utcnow() - aware(game.updated_at)
    if idle < timedelta(minutes=abandon_minutes):
        wait = timedelta(minutes=abandon_minutes) - idle
        raise ApiError(409, N_("your opponent may still move: ask again in {seconds} s"), "not_abandoned",
                       {"seconds": int(wait.total_seconds()) + 1})


def take_over(players: ComputerPlayers, deadlines: Deadlines, user: User, gid: str, level: str,
              abandon_minutes: float, here: Callable[[str, str], bool] = lambda gid, side: False) -> dict:
    """The opponent of a player who left gives that seat to the computer at `level`.
    `here(game, side)`: whether that side's player has the game open (app.realtime)."""
    computer = players.account(level)
    svc = players.games

    def fn(s, game):
        if game.status != "active":
            raise ApiError(409, N_("the game is not in progress ({status})"), "game_over", {"status": game.status})
        sides = svc.sides_of(game, user.id)
        if not sides:
            raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
        seat = other_side(sides[0])
        left_id = getattr(game, f"{seat}_user_id")
        if players.is_computer(left_id):
            raise ApiError(409, N_("the computer already plays that seat"), "already_computer")
        _require_left(players, deadlines, s, game, user, seat, abandon_minutes, here)
        entry = svc.state(s, game)
        out = svc.append(s, game, [("server", "computer_takeover", sides[0],
                                    {"side": seat, "level": level, "left_user_id": left_id,
                                     "username": computer.username, "by": user.username})],
                         {f"{seat}_user_id": computer.id},
                         {"kind": "takeover", "side": sides[0], "user_id": user.id, "body": {"level": level}})
        entry.seq = game.seq
        svc.publish(game, entry, out)
        return {"seq": game.seq, "status": game.status, "side": seat, "computer": computer.username}
    return svc.run_command(gid, fn)
