"""Play by turn, per game, and the outbox for administrators (JSON API; see
docs/notifications.md):

  GET      /api/games/{id}/clock, POST /api/games/{id}/claim, POST /api/games/{id}/extend
  GET/PUT  /api/games/{id}/orders      standing battle orders (mine, in this game)
  GET      /api/admin/outbox, POST /api/admin/outbox/{id}/retry
Page: /admin/outbox
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import func, select, update

from ..accounts.auth import current_user, get_accounts
from ..core.clock import iso
from ..core.errors import ApiError, not_found
from ..i18n import N_
from ..models import User
from ..notices import outbox
from ..playbyturn import orders
from ..store.events import T_GAMES
from . import deps
from .pages import render
from .schemas import ExtendIn, OrdersIn

api = APIRouter(prefix="/api", tags=["play by turn"])
pages = APIRouter(include_in_schema=False)


def create_game_clock(request: Request, gid: str, days: int | None) -> dict | None:
    """The clock of a new by-turn game (days None: no time limit)."""
    dl = deps.deadlines(request)
    with deps.db(request).write() as conn:
        dl.set_days(conn, gid, days)
        conn.commit()
        return dl.clock_view(conn, gid)


def rematch_clock(request: Request, old_id: str, new_id: str) -> dict | None:
    """The clock of a by-turn rematch: the time per move of the game it replays."""
    with deps.db(request).read() as conn:
        old = deps.deadlines(request).clock_view(conn, old_id)
    return create_game_clock(request, new_id, old["days_per_move"] if old else None)


# --------------------------------------------------------------------------- per game

def _seat(conn, gid: str, user_id: int | None) -> tuple[Any, list[str]]:
    g = conn.execute(select(T_GAMES.c.id, T_GAMES.c.mode, T_GAMES.c.status, T_GAMES.c.union_user_id,
                            T_GAMES.c.confederate_user_id).where(T_GAMES.c.id == gid)).first()
    if g is None:
        raise not_found()
    sides = [sd for sd in ("union", "confederate") if user_id is not None and getattr(g, f"{sd}_user_id") == user_id]
    return g, sides


@api.get("/games/{game_id}/clock")
def game_clock(game_id: str, request: Request):
    auth = get_accounts(request).from_request(request)
    uid = auth.user.id if auth.user else None
    with deps.db(request).read() as conn:
        g, _ = _seat(conn, game_id, uid)
        out = deps.deadlines(request).clock_view(conn, game_id, uid) or {"days_per_move": None, "side": None}
        if out.get("side"):
            who = getattr(g, f"{out['side']}_user_id")
            vac = deps.deadlines(request).vacation_info(conn, who) if who else None
            out["on_vacation_until"] = vac["until"] if vac and vac["on_vacation"] else None
        return out


@api.post("/games/{game_id}/claim")
def claim(game_id: str, request: Request, user: User = Depends(current_user)):
    """Claim the win because the opponent's time is up (the result says: on time)."""
    return deps.deadlines(request).claim(request.app.state.games, user, game_id)


@api.post("/games/{game_id}/extend")
def extend(game_id: str, request: Request, body: ExtendIn = Body(default_factory=ExtendIn),
           user: User = Depends(current_user)):
    """Give the opponent more days (logged in the game)."""
    return deps.deadlines(request).extend(request.app.state.games, user, game_id, body.days)


@api.get("/games/{game_id}/orders")
def get_orders(game_id: str, request: Request, user: User = Depends(current_user)):
    with deps.db(request).read() as conn:
        g, sides = _seat(conn, game_id, user.id)
        if not sides:
            raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
        o = orders.get_orders(conn, game_id, user.id)
        return {"orders": o, "summary": orders.describe_orders(o or {}), "mode": g.mode,
                "grace_minutes": deps.settings(request).orders_grace_minutes}


@api.put("/games/{game_id}/orders")
def put_orders(game_id: str, body: OrdersIn, request: Request, user: User = Depends(current_user)):
    """Standing battle orders for my side in this by-turn game (null removes them)."""
    o = orders.validate(body.orders) if body.orders is not None else None
    with deps.db(request).write() as conn:
        g, sides = _seat(conn, game_id, user.id)
        if not sides:
            raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
        if g.mode != "async":
            raise ApiError(409, N_("standing orders are for by-turn games"), "not_by_turn")
        orders.set_orders(conn, game_id, user.id, o, deps.clock(request).now())
        conn.commit()
    return {"orders": o, "summary": orders.describe_orders(o or {})}


# --------------------------------------------------------------------------- admin outbox

def _require_admin(user: User) -> None:
    if not user.is_admin:
        raise ApiError(403, N_("administrators only"), "admin_only")


def outbox_rows(conn, status: str | None, limit: int = 200) -> list[dict]:
    t = outbox.T_OUTBOX
    q = select(t)
    if status:
        q = q.where(t.c.status.in_(status.split(",")))
    rows = conn.execute(q.order_by(t.c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "channel": r.channel, "kind": r.kind, "user_id": r.user_id, "game_id": r.game_id,
             "game_seq": r.game_seq, "recipient": r.recipient, "subject": r.subject, "status": r.status,
             "attempts": r.attempts,
             "last_error": r.last_error, "created_at": iso(r.created_at), "sent_at": iso(r.sent_at),
             "next_attempt_at": iso(r.next_attempt_at)} for r in rows]


def outbox_counts(conn) -> dict:
    t = outbox.T_OUTBOX
    return dict(conn.execute(select(t.c.status, func.count()).group_by(t.c.status)).all())


@api.get("/admin/outbox")
def admin_outbox(request: Request, status: str | None = Query(None, description="e.g. pending,failed"),
                 user: User = Depends(current_user)):
    _require_admin(user)
    with deps.db(request).read() as conn:
        return {"counts": outbox_counts(conn), "messages": outbox_rows(conn, status)}


@api.post("/admin/outbox/{message_id}/retry")
def admin_retry(message_id: int, request: Request, user: User = Depends(current_user)):
    _require_admin(user)
    t = outbox.T_OUTBOX
    with deps.db(request).write() as conn:
        r = conn.execute(update(t).where(t.c.id == message_id, t.c.status.in_(("failed", "cancelled")))
                         .values(status="pending", next_attempt_at=deps.clock(request).now(), attempts=0))
        conn.commit()
    if r.rowcount != 1:
        raise ApiError(409, N_("only failed or cancelled messages can be retried"), "not_retryable")
    return {"ok": True}


# --------------------------------------------------------------------------- page

@pages.get("/admin/outbox", response_class=HTMLResponse)
def outbox_page(request: Request):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        return RedirectResponse("/login?next=/admin/outbox", status_code=303)
    if not auth.user.is_admin:
        return render(request, "error.html", status=403, message=N_("Administrators only."))
    with deps.db(request).read() as conn:
        return render(request, "notifications_outbox.html", counts=outbox_counts(conn),
                      open_rows=outbox_rows(conn, "held,pending,sending,failed"),
                      sent_rows=outbox_rows(conn, "sent,cancelled", 50))


