"""In-site notices (issue 6): what the players of a disputed game are told, readable
through GET /api/site-notices (POST /api/site-notices/read marks them read). Email and
other channels come from app.notify (issue 5): when that module exists, notify_users() also calls
app.notify.notify(conn, user_ids, kind, game_id, text) in the same transaction.
"""
from __future__ import annotations

import logging
from datetime import datetime

from fastapi import APIRouter, Depends, Request
from sqlalchemy import DateTime, ForeignKey, Integer, String, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from .auth import current_user
from .games import iso
from .models import Base, User, utcnow

log = logging.getLogger("app.notices")

try:  # issue 5's outbox (email etc.); optional
    from . import notify as _notify_mod  # type: ignore[attr-defined]
    _NOTIFY = getattr(_notify_mod, "notify", None)
except Exception:  # noqa: BLE001 - the module is not there (yet)
    _NOTIFY = None


class SiteNotice(Base):
    __tablename__ = "site_notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


T_NOTICES = SiteNotice.__table__
router = APIRouter(prefix="/api", tags=["notices"])


def notify_users(conn, user_ids, kind: str, game_id: str | None, text: str) -> None:
    """Write one notice per user in the caller's transaction (the caller commits)."""
    ids = sorted({u for u in user_ids if u is not None})
    if not ids:
        return
    now = utcnow()
    conn.execute(insert(T_NOTICES), [{"user_id": u, "game_id": game_id, "kind": kind, "text": text[:1000],
                                      "created_at": now, "read_at": None} for u in ids])
    if _NOTIFY is not None:
        try:
            _NOTIFY(conn, ids, kind, game_id, text)
        except Exception:  # noqa: BLE001 - a notice must never undo an admin decision
            log.exception("app.notify.notify failed for %s on game %s", kind, game_id)


def _out(r) -> dict:
    return {"id": r.id, "game_id": r.game_id, "kind": r.kind, "text": r.text, "at": iso(r.created_at),
            "read": r.read_at is not None}


@router.get("/site-notices")
def list_notices(request: Request, user: User = Depends(current_user)):
    c = T_NOTICES.c
    with request.app.state.db.read() as s:
        rows = s.execute(select(T_NOTICES).where(c.user_id == user.id).order_by(c.id.desc()).limit(200)).all()
    return {"notices": [_out(r) for r in rows], "unread": sum(1 for r in rows if r.read_at is None)}


@router.post("/site-notices/read")
def mark_read(request: Request, user: User = Depends(current_user)):
    c = T_NOTICES.c
    with request.app.state.db.write() as s:
        s.execute(update(T_NOTICES).where(c.user_id == user.id, c.read_at.is_(None)).values(read_at=utcnow()))
        s.commit()
    return {"ok": True}
