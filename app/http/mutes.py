"""Muting one game (JSON API; see docs/api.md and docs/notifications.md):

  PUT/DELETE /api/games/{id}/mute     mute / unmute a game of mine (both idempotent)
  GET        /api/me/muted-games      the games I muted

A muted game's notices still appear on the site; no mail or webhook call about it goes
to the player who muted it. Only the game's players may mute it: nobody else is notified.
"""
from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy import or_, select

from ..accounts.auth import current_user
from ..core.errors import ApiError, not_found
from ..i18n import N_
from ..models import User
from ..notices import mutes
from ..store.events import T_GAMES
from . import deps

api = APIRouter(prefix="/api", tags=["play by turn"])


def _check_player(conn, game_id: str, user_id: int) -> None:
    g = conn.execute(select(T_GAMES.c.id, or_(T_GAMES.c.union_user_id == user_id,
                                             T_GAMES.c.confederate_user_id == user_id).label("seated"))
                     .where(T_GAMES.c.id == game_id)).first()
    if g is None:
        raise not_found()
    if not g.seated:
        raise ApiError(403, N_("only the game's players can mute it"), "not_a_player")


@api.put("/games/{game_id}/mute")
def mute_game(game_id: str, request: Request, user: User = Depends(current_user)):
    """No more mail or webhook calls about this game (its notices stay on the site)."""
    with deps.db(request).write() as conn:
        _check_player(conn, game_id, user.id)
        mutes.mute(conn, deps.clock(request), user.id, game_id)
        conn.commit()
    return {"game_id": game_id, "muted": True}


@api.delete("/games/{game_id}/mute")
def unmute_game(game_id: str, request: Request, user: User = Depends(current_user)):
    with deps.db(request).write() as conn:
        _check_player(conn, game_id, user.id)
        mutes.unmute(conn, user.id, game_id)
        conn.commit()
    return {"game_id": game_id, "muted": False}


@api.get("/me/muted-games")
def my_muted_games(request: Request, user: User = Depends(current_user)):
    with deps.db(request).read() as conn:
        return {"games": mutes.muted_games(conn, user.id)}
