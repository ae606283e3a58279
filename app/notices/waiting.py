"""The "waiting" badge: the games in which it is a user's turn, and their unread notices.

The page asks once (GET /api/me/waiting) and is then told of every change over its user
socket (/ws/me, app.realtime.users)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select

from ..store.events import T_GAMES
from . import outbox


def waits_for(user_id: int) -> Any:
    """The games (a WHERE clause on the games table) in which it is this user's turn."""
    c = T_GAMES.c
    return and_(c.status == "active", or_(and_(c.to_act == "union", c.union_user_id == user_id),
                                          and_(c.to_act == "confederate", c.confederate_user_id == user_id)))


def badge(db: Any, user_id: int) -> dict:
    """{"count": games waiting for the user, "unread": unread notices}."""
    with db.read() as conn:
        count = conn.execute(select(func.count()).select_from(T_GAMES).where(waits_for(user_id))).scalar_one()
        return {"count": count, "unread": outbox.unread_count(conn, user_id)}
