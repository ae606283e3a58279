"""Muted games: a player may silence one game. Its notices still appear on the site
(the badge, /notifications); only mail and webhook calls about it stop. Checked when a
notice is queued and again when the worker sends it (the player may mute meanwhile)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select

from ..core.clock import Clock, aware
from ..models import MutedGame, table

T_MUTES = table(MutedGame)


def is_muted(conn: Any, user_id: int, game_id: str | None) -> bool:
    if not game_id:
        return False
    return conn.execute(select(T_MUTES.c.user_id).where(T_MUTES.c.user_id == user_id,
                                                        T_MUTES.c.game_id == game_id)).first() is not None


def muted_game_ids(conn: Any, user_id: int) -> set[str]:
    return set(conn.execute(select(T_MUTES.c.game_id).where(T_MUTES.c.user_id == user_id)).scalars())


def muted_games(conn: Any, user_id: int) -> list[dict]:
    rows = conn.execute(select(T_MUTES).where(T_MUTES.c.user_id == user_id).order_by(T_MUTES.c.created_at)).all()
    return [{"game_id": r.game_id, "url": f"/games/{r.game_id}", "since": aware(r.created_at).isoformat()}
            for r in rows]


def mute(conn: Any, clock: Clock, user_id: int, game_id: str) -> None:
    """Mute (again: a no-op, so the route is idempotent)."""
    if not is_muted(conn, user_id, game_id):
        conn.execute(insert(T_MUTES), dict(user_id=user_id, game_id=game_id, created_at=clock.now()))


def unmute(conn: Any, user_id: int, game_id: str) -> None:
    conn.execute(delete(T_MUTES).where(T_MUTES.c.user_id == user_id, T_MUTES.c.game_id == game_id))
