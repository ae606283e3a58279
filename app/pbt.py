"""Play by turn (issue 5): the wiring, the JSON API and the pages.

`install(app)` hooks app.notify into the command pipeline (notices and clocks written in
each append transaction), turns on forced moves for by-turn games (app.orders), creates
the outbox worker (started by the app's lifespan) and adds these routes:

API (JSON; see docs/notifications.md)
  GET/PUT  /api/me/notifications       mail mode (turn | digest | never), email address
  POST     /api/me/email/verify        send the verification mail again
  PUT/DELETE /api/me/webhook, POST /api/me/webhook/test
  GET      /api/me/waiting             games waiting for me (least time left first) + unread count
  GET      /api/me/notices, POST /api/me/notices/read
  GET/POST/DELETE /api/me/vacation
  GET      /api/games/{id}/clock, POST /api/games/{id}/claim, POST /api/games/{id}/extend
  GET/PUT  /api/games/{id}/orders      standing battle orders (mine, in this game)
  GET      /api/admin/outbox, POST /api/admin/outbox/{id}/retry
Pages: /notifications, /admin/outbox, /unsubscribe?t=..., /verify-email?t=...
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import and_, func, or_, select, update

from . import clock, deadlines, notify, orders
from .auth import current_user, get_accounts
from .errors import ApiError, not_found
from .mailer import Worker
from .models import Game, User

api = APIRouter(prefix="/api", tags=["play by turn"])
pages = APIRouter(include_in_schema=False)
T_GAMES = Game.__table__


def install(app) -> None:
    settings = app.state.settings
    notify.configure(settings)
    games = app.state.games
    n = notify.Notifier(games, app.state.hub)
    n.deadline_hook = deadlines.on_append
    games.on_append = n.on_append
    games.automate = orders.automate
    app.state.notifier = n
    app.state.outbox_worker = Worker(app.state.db, settings, games=games, send=settings.mail_worker, timers=True)
    app.include_router(api)
    app.include_router(pages)


def _db(request: Request):
    return request.app.state.db


def _settings(request: Request):
    return request.app.state.settings


def after_create(request: Request, gid: str, days: int | None) -> dict | None:
    with _db(request).write() as conn:
        deadlines.set_days(conn, gid, days)
        conn.commit()
        return deadlines.clock_view(conn, gid)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PrefsIn(Strict):
    mail_mode: str | None = Field(None, description="turn | digest | never")
    email: str | None = Field(None, max_length=254)


class WebhookIn(Strict):
    url: str = Field(..., max_length=1000)
    json_key: str = Field("content", min_length=1, max_length=64)
    prefix: str = Field("", max_length=200)
    enabled: bool = True


class VacationIn(Strict):
    days: float = Field(..., gt=0)


class ExtendIn(Strict):
    days: int = Field(1, ge=1, le=14)


class OrdersIn(Strict):
    orders: dict[str, Any] | None


class ReadIn(Strict):
    ids: list[int] | None = None


# --------------------------------------------------------------------------- account

def _prefs_view(conn, user_id: int, settings) -> dict:
    p = notify._prefs(conn, user_id)
    h = p.get("hook")
    return {"mail_mode": p.get("mode", "turn"), "email": p.get("email"), "email_verified": p.get("verified", False),
            "webhook": None if h is None else {
                "url": h.url, "json_key": h.json_key, "prefix": h.prefix, "enabled": h.enabled,
                "last_error": h.last_error, "last_error_at": _iso(h.last_error_at), "last_ok_at": _iso(h.last_ok_at)},
            "vacation": deadlines.vacation_info(conn, user_id, settings.vacation_days_per_year),
            "unread": notify.unread_count(conn, user_id)}


def _iso(dt) -> str | None:
    return clock.aware(dt).isoformat() if dt is not None else None


def _ensure_prefs(conn, user_id: int) -> None:
    if conn.execute(select(notify.T_PREFS.c.user_id).where(notify.T_PREFS.c.user_id == user_id)).first() is None:
        conn.execute(notify.T_PREFS.insert(), dict(user_id=user_id, mode="turn", verified_email=None,
                                                   verified_at=None, last_digest_at=None))


def _send_verification(conn, user_id: int, email: str) -> None:
    link = f"{notify.CONFIG.public_url}/verify-email?t={notify.verify_token(user_id, email)}"
    body = (f"Someone (we hope you) asked for notices from {notify.CONFIG.site_name} to go to this address.\n\n"
            f"Confirm it with one click (the link works for 7 days):\n{link}\n\n"
            f"If that was not you, ignore this mail: nothing more will be sent.\n")
    notify.queue_email(conn, user_id, email, "verify", notify.SUBJECTS["verify"], body, unsubscribe=False)


@api.get("/me/notifications")
def get_prefs(request: Request, user: User = Depends(current_user)):
    with _db(request).read() as conn:
        return _prefs_view(conn, user.id, _settings(request))


@api.put("/me/notifications")
def put_prefs(body: PrefsIn, request: Request, user: User = Depends(current_user)):
    """Mail mode, and the address (a new address gets a verification mail first)."""
    if body.mail_mode is not None and body.mail_mode not in notify.MAIL_MODES:
        raise ApiError(422, "mail_mode must be turn, digest or never", "invalid_request")
    with _db(request).write() as conn:
        _ensure_prefs(conn, user.id)
        if body.mail_mode is not None:
            vals: dict = {"mode": body.mail_mode}
            if body.mail_mode == "digest":  # the first digest a day from now
                cur_mode = conn.execute(select(notify.T_PREFS.c.mode).where(notify.T_PREFS.c.user_id == user.id)).scalar()
                if cur_mode != "digest":
                    vals["last_digest_at"] = clock.now()
            conn.execute(update(notify.T_PREFS).where(notify.T_PREFS.c.user_id == user.id).values(**vals))
        if body.email is not None:
            email = body.email.strip()
            if email and ("@" not in email or len(email) > 254 or any(c.isspace() for c in email)):
                raise ApiError(422, "that is not an email address", "invalid_email")
            cur = notify._prefs(conn, user.id)
            if (cur.get("email") or "") != email:
                conn.execute(update(notify.T_USERS).where(notify.T_USERS.c.id == user.id).values(email=email or None))
                if email:
                    _send_verification(conn, user.id, email)
        conn.commit()
        return _prefs_view(conn, user.id, _settings(request))


@api.post("/me/email/verify")
def resend_verification(request: Request, user: User = Depends(current_user)):
    with _db(request).write() as conn:
        p = notify._prefs(conn, user.id)
        if not p.get("email"):
            raise ApiError(409, "set an email address first", "no_email")
        if p.get("verified"):
            return {"ok": True, "already_verified": True}
        _send_verification(conn, user.id, p["email"])
        conn.commit()
    return {"ok": True}


@api.put("/me/webhook")
def put_webhook(body: WebhookIn, request: Request, user: User = Depends(current_user)):
    if not body.url.startswith(("http://", "https://")):
        raise ApiError(422, "the webhook URL must start with http:// or https://", "invalid_request")
    with _db(request).write() as conn:
        conn.execute(notify.T_HOOKS.delete().where(notify.T_HOOKS.c.user_id == user.id))
        conn.execute(notify.T_HOOKS.insert(), dict(user_id=user.id, url=body.url, json_key=body.json_key,
                                                   prefix=body.prefix, enabled=body.enabled, last_error=None,
                                                   last_error_at=None, last_ok_at=None))
        conn.commit()
        return _prefs_view(conn, user.id, _settings(request))


@api.delete("/me/webhook")
def delete_webhook(request: Request, user: User = Depends(current_user)):
    with _db(request).write() as conn:
        conn.execute(notify.T_HOOKS.delete().where(notify.T_HOOKS.c.user_id == user.id))
        conn.commit()
    return {"ok": True}


@api.post("/me/webhook/test")
def test_webhook(request: Request, user: User = Depends(current_user)):
    """Queue a test notice to the webhook only (no in-site notice, no mail)."""
    with _db(request).write() as conn:
        h = conn.execute(select(notify.T_HOOKS).where(notify.T_HOOKS.c.user_id == user.id)).first()
        if h is None:
            raise ApiError(409, "register a webhook first", "no_webhook")
        now = clock.now()
        conn.execute(notify.T_OUTBOX.insert(), dict(
            channel="webhook", user_id=user.id, game_id=None, game_seq=None, kind="test", recipient=h.url,
            subject="test", body="test", payload={h.json_key: f"{h.prefix} Test notice from "
                                                             f"{notify.CONFIG.site_name}".strip()},
            status="pending", attempts=0, next_attempt_at=now, created_at=now, dedupe=None))
        conn.commit()
    return {"ok": True}


# --------------------------------------------------------------------------- waiting, notices

def waiting_games(conn, user_id: int) -> list[dict]:
    c = T_GAMES.c
    rows = conn.execute(select(c.id, c.scenario, c.mode, c.to_act, c.updated_at, c.union_user_id,
                               c.confederate_user_id).where(
        c.status == "active", or_(and_(c.to_act == "union", c.union_user_id == user_id),
                                  and_(c.to_act == "confederate", c.confederate_user_id == user_id)))).all()
    out = []
    for r in rows:
        clk = deadlines.clock_view(conn, r.id, user_id)
        left = clk["seconds_left"] if clk and clk.get("seconds_left") is not None else None
        out.append({"id": r.id, "scenario": r.scenario, "mode": r.mode, "side": r.to_act,
                    "url": f"/games/{r.id}", "updated_at": _iso(r.updated_at), "seconds_left": left,
                    "paused": bool(clk and clk.get("paused")), "deadline": clk.get("deadline") if clk else None})
    out.sort(key=lambda g: (g["seconds_left"] is None, g["seconds_left"] or 0, g["updated_at"] or ""))
    return out


@api.get("/me/waiting")
def my_waiting(request: Request, user: User = Depends(current_user)):
    """Games waiting for me (least time left first) and my unread notices: the badge."""
    with _db(request).read() as conn:
        games = waiting_games(conn, user.id)
        return {"count": len(games), "games": games, "unread": notify.unread_count(conn, user.id)}


@api.get("/me/notices")
def my_notices(request: Request, limit: int = Query(50, ge=1, le=500), user: User = Depends(current_user)):
    with _db(request).read() as conn:
        return {"notices": notify.recent_notices(conn, user.id, limit), "unread": notify.unread_count(conn, user.id)}


@api.post("/me/notices/read")
def read_notices(request: Request, body: ReadIn = Body(default_factory=ReadIn), user: User = Depends(current_user)):
    with _db(request).write() as conn:
        notify.mark_read(conn, user.id, body.ids)
        conn.commit()
    return {"ok": True}


# --------------------------------------------------------------------------- vacation

@api.get("/me/vacation")
def get_vacation(request: Request, user: User = Depends(current_user)):
    with _db(request).read() as conn:
        return deadlines.vacation_info(conn, user.id, _settings(request).vacation_days_per_year)


@api.post("/me/vacation")
def post_vacation(body: VacationIn, request: Request, user: User = Depends(current_user)):
    """Start a vacation now: the clocks of all my by-turn games stop for `days` days."""
    with _db(request).write() as conn:
        out = deadlines.start_vacation(conn, user.id, body.days, _settings(request).vacation_days_per_year)
        conn.commit()
        return out


@api.delete("/me/vacation")
def delete_vacation(request: Request, user: User = Depends(current_user)):
    """End the current vacation now (unused days stay in the year's allowance)."""
    with _db(request).write() as conn:
        out = deadlines.end_vacation(conn, user.id, _settings(request).vacation_days_per_year)
        conn.commit()
        return out


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
    with _db(request).read() as conn:
        g, _ = _seat(conn, game_id, uid)
        out = deadlines.clock_view(conn, game_id, uid) or {"days_per_move": None, "side": None}
        if out.get("side"):
            who = getattr(g, f"{out['side']}_user_id")
            vac = deadlines.vacation_info(conn, who, _settings(request).vacation_days_per_year) if who else None
            out["on_vacation_until"] = vac["until"] if vac and vac["on_vacation"] else None
        return out


@api.post("/games/{game_id}/claim")
def claim(game_id: str, request: Request, user: User = Depends(current_user)):
    """Claim the win because the opponent's time is up (the result says: on time)."""
    return deadlines.claim(request.app.state.games, user, game_id)


@api.post("/games/{game_id}/extend")
def extend(game_id: str, request: Request, body: ExtendIn = Body(default_factory=ExtendIn),
           user: User = Depends(current_user)):
    """Give the opponent more days (logged in the game)."""
    return deadlines.extend(request.app.state.games, user, game_id, body.days)


@api.get("/games/{game_id}/orders")
def get_orders(game_id: str, request: Request, user: User = Depends(current_user)):
    with _db(request).read() as conn:
        g, sides = _seat(conn, game_id, user.id)
        if not sides:
            raise ApiError(403, "you have no seat in this game", "not_a_player")
        o = orders.get_orders(conn, game_id, user.id)
        return {"orders": o, "summary": orders.describe_orders(o or {}), "mode": g.mode,
                "grace_minutes": _settings(request).orders_grace_minutes}


@api.put("/games/{game_id}/orders")
def put_orders(game_id: str, body: OrdersIn, request: Request, user: User = Depends(current_user)):
    """Standing battle orders for my side in this by-turn game (null removes them)."""
    o = orders.validate(body.orders) if body.orders is not None else None
    with _db(request).write() as conn:
        g, sides = _seat(conn, game_id, user.id)
        if not sides:
            raise ApiError(403, "you have no seat in this game", "not_a_player")
        if g.mode != "async":
            raise ApiError(409, "standing orders are for by-turn games", "not_by_turn")
        orders.set_orders(conn, game_id, user.id, o)
        conn.commit()
    return {"orders": o, "summary": orders.describe_orders(o or {})}


# --------------------------------------------------------------------------- admin outbox

def _require_admin(user: User) -> None:
    if not user.is_admin:
        raise ApiError(403, "administrators only", "admin_only")


def outbox_rows(conn, status: str | None, limit: int = 200) -> list[dict]:
    t = notify.T_OUTBOX
    q = select(t)
    if status:
        q = q.where(t.c.status.in_(status.split(",")))
    rows = conn.execute(q.order_by(t.c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "channel": r.channel, "kind": r.kind, "user_id": r.user_id, "game_id": r.game_id,
             "recipient": r.recipient, "subject": r.subject, "status": r.status, "attempts": r.attempts,
             "last_error": r.last_error, "created_at": _iso(r.created_at), "sent_at": _iso(r.sent_at),
             "next_attempt_at": _iso(r.next_attempt_at)} for r in rows]


def outbox_counts(conn) -> dict:
    t = notify.T_OUTBOX
    return dict(conn.execute(select(t.c.status, func.count()).group_by(t.c.status)).all())


@api.get("/admin/outbox")
def admin_outbox(request: Request, status: str | None = Query(None, description="e.g. pending,failed"),
                 user: User = Depends(current_user)):
    _require_admin(user)
    with _db(request).read() as conn:
        return {"counts": outbox_counts(conn), "messages": outbox_rows(conn, status)}


@api.post("/admin/outbox/{message_id}/retry")
def admin_retry(message_id: int, request: Request, user: User = Depends(current_user)):
    _require_admin(user)
    t = notify.T_OUTBOX
    with _db(request).write() as conn:
        r = conn.execute(update(t).where(t.c.id == message_id, t.c.status.in_(("failed", "cancelled")))
                         .values(status="pending", next_attempt_at=clock.now(), attempts=0))
        conn.commit()
    if r.rowcount != 1:
        raise ApiError(409, "only failed or cancelled messages can be retried", "not_retryable")
    return {"ok": True}


# --------------------------------------------------------------------------- pages

def _render(request: Request, name: str, status: int = 200, **ctx):
    from .web import render
    return render(request, name, status=status, **ctx)


@pages.get("/notifications", response_class=HTMLResponse)
def notifications_page(request: Request):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        return RedirectResponse("/login?next=/notifications", status_code=303)
    with _db(request).read() as conn:
        games = waiting_games(conn, auth.user.id)
        notes = notify.recent_notices(conn, auth.user.id, 100)
    return _render(request, "notifications.html", waiting=games, notices=notes)


@pages.get("/admin/outbox", response_class=HTMLResponse)
def outbox_page(request: Request):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        return RedirectResponse("/login?next=/admin/outbox", status_code=303)
    if not auth.user.is_admin:
        return _render(request, "error.html", status=403, message="Administrators only.")
    with _db(request).read() as conn:
        return _render(request, "notifications_outbox.html", counts=outbox_counts(conn),
                       open_rows=outbox_rows(conn, "pending,sending,failed"), sent_rows=outbox_rows(conn, "sent,cancelled", 50))


def _unsubscribe(request: Request, t: str) -> int | None:
    uid = notify.read_unsubscribe_token(t)
    if uid is None:
        return None
    with _db(request).write() as conn:
        _ensure_prefs(conn, uid)
        conn.execute(update(notify.T_PREFS).where(notify.T_PREFS.c.user_id == uid).values(mode="never"))
        conn.commit()
    return uid


@pages.get("/unsubscribe", response_class=HTMLResponse)
def unsubscribe_page(request: Request, t: str = ""):
    """The link in every mail: one click and no more mail (the settings page turns it back on)."""
    uid = _unsubscribe(request, t)
    if uid is None:
        return _render(request, "notifications_message.html", status=400, title="Unsubscribe",
                       message="This unsubscribe link is not valid.")
    return _render(request, "notifications_message.html", title="Unsubscribed",
                   message="You will get no more mail from us. You can turn notices back on in your settings.")


@pages.post("/unsubscribe")
def unsubscribe_post(request: Request, t: str = ""):
    """RFC 8058 one-click unsubscribe (List-Unsubscribe-Post) from mail programs."""
    uid = _unsubscribe(request, t)
    if uid is None:
        raise ApiError(400, "invalid unsubscribe link", "invalid_token")
    return {"ok": True}


@pages.get("/verify-email", response_class=HTMLResponse)
def verify_page(request: Request, t: str = ""):
    got = notify.read_verify_token(t)
    if got is None:
        return _render(request, "notifications_message.html", status=400, title="Email address",
                       message="This confirmation link is not valid or has expired.")
    uid, email = got
    with _db(request).write() as conn:
        u = conn.execute(select(notify.T_USERS.c.email).where(notify.T_USERS.c.id == uid)).first()
        if u is None or (u.email or "").lower() != email.lower():
            return _render(request, "notifications_message.html", status=409, title="Email address",
                           message="This link is for an address that is no longer on the account.")
        _ensure_prefs(conn, uid)
        conn.execute(update(notify.T_PREFS).where(notify.T_PREFS.c.user_id == uid)
                     .values(verified_email=email, verified_at=clock.now()))
        conn.commit()
    return _render(request, "notifications_message.html", title="Email address confirmed",
                   message=f"Notices will go to {email}.")
