"""What the player commands check first (app.games.commands, app.games.endings): who
sits on which side, whether the game is under way, an action id's form and an earlier
use of it, and whether the last decision may be taken back."""
from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from ..core.errors import ApiError
from ..i18n import N_
from ..models import User
from ..store import events as store
from ..store.events import GameRow
from .records import Entry


class SeatChecks:
    """The checks, as methods of the game service (CommandCore derives from this)."""

    @staticmethod
    def undo_info(g: Any, entry: Entry, sides: list[str]) -> tuple[bool, str]:
        """Whether one of `sides` may take back the last decision now, and if not why."""
        if not entry.stack:
            return False, N_("there is no decision to take back")
        cmd = entry.stack[-1]
        if cmd.side not in sides:
            return False, N_("the last decision was not yours")
        if cmd.ev_index < g.undo_floor():
            return False, N_("a decision cannot be taken back across a die roll or a change of who acts")
        return True, ""

    @staticmethod
    def sides_of(game: GameRow, user_id: int | None) -> list[str]:
        if user_id is None:
            return []
        return [side for side, uid in (("union", game.union_user_id),
                                       ("confederate", game.confederate_user_id)) if uid == user_id]

    def _existing(self, s: Connection, gid: str, action_id: str | None, user: User) -> dict | None:
        if not action_id:
            return None
        cmd = store.command_for_action_id(s, gid, action_id)
        if cmd is None:
            return None
        if cmd.user_id != user.id:
            raise ApiError(409, N_("this action_id was already used by someone else"), "duplicate_action_id")
        recs = store.events_range(s, gid, cmd.first_seq - 1, cmd.last_seq)
        return {"seq": cmd.last_seq, "events": [r.out() for r in recs],
                "duplicate": True, "action_id": action_id}

    @staticmethod
    def _check_action_id(action_id: str | None) -> None:
        if action_id is not None and not (1 <= len(action_id) <= 64):
            raise ApiError(422, N_("action_id must be 1 to 64 characters"), "invalid_request")

    def _require_player(self, game: GameRow, user: User) -> list[str]:
        sides = self.sides_of(game, user.id)
        if not sides:
            raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
        return sides

    @staticmethod
    def _require_active(game: GameRow) -> None:
        if game.status == "open":
            raise ApiError(409, N_("the game has not started: it is waiting for a second player"), "game_not_started")
        if game.status != "active":
            raise ApiError(409, N_("the game is over (aborted)") if game.status == "aborted"
                           else N_("the game is over (finished)"), "game_over")
