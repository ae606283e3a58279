"""A player's notices and play-by-turn settings (JSON API; see docs/notifications.md):

  GET/PUT  /api/me/notifications       mail mode (turn | digest | never), email address, time zone,
                                       digest hour
  POST     /api/me/email/verify        send the verification mail again
  PUT/DELETE /api/me/webhook, POST /api/me/webhook/test, POST /api/me/webhook/secret (a new secret)
  GET      /api/me/waiting             games waiting for me (least time left first) + unread count
  GET      /api/me/notices, POST /api/me/notices/read
  GET/POST/DELETE /api/me/vacation
Pages: /notifications, /verify-email?t=... (unsubscribing: app.http.unsubscribe)
"""
from __future__ import annotations

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select, update

from ..accounts.auth import current_user, get_accounts
from ..core.clock import aware
from ..core.errors import ApiError
from ..guard.destinations import BlockedDestination, check_url
from ..guard.emails import checked_email
from ..i18n import N_, translator
from ..models import User
from ..notices import mutes, outbox, waiting
from ..notices.readertime import checked_zone
from ..notices.signing import new_secret
from ..notices.words import mail as mail_words
from ..playbyturn.deadlines import Deadlines
from ..store.events import T_GAMES
from . import deps, limits
from .mailconfirm import send_verification
from .pages import render
from .schemas import PrefsIn, ReadIn, VacationIn, WebhookIn

# the keys of a webhook call's body besides the chat line (outbox.Notices.webhook_body)
RESERVED_WEBHOOK_KEYS = ("delivery", "event")

api = APIRouter(prefix="/api", tags=["play by turn"])
pages = APIRouter(include_in_schema=False)


# --------------------------------------------------------------------------- account

def _prefs_view(conn, user_id: int, dl: Deadlines) -> dict:
    p = outbox.prefs(conn, user_id)
    h = p.get("hook")
    return {"mail_mode": p.get("mode", "turn"), "email": p.get("email"), "email_verified": p.get("verified", False),
            "time_zone": p.get("time_zone", "UTC"), "digest_hour": p.get("digest_hour", 8),
            "webhook": None if h is None else {
                "url": h.url, "json_key": h.json_key, "prefix": h.prefix, "enabled": h.enabled,
                "last_error": h.last_error, "last_error_at": _iso(h.last_error_at), "last_ok_at": _iso(h.last_ok_at)},
            "vacation": dl.vacation_info(conn, user_id),
            "unread": outbox.unread_count(conn, user_id)}


def _iso(dt) -> str | None:
    return aware(dt).isoformat() if dt is not None else None


@api.get("/me/notifications")
def get_prefs(request: Request, user: User = Depends(current_user)):
    with deps.db(request).read() as conn:
        return _prefs_view(conn, user.id, deps.deadlines(request))


@api.put("/me/notifications")
def put_prefs(body: PrefsIn, request: Request, user: User = Depends(current_user)):
    """Mail mode, time zone, digest hour and the address (a new address gets a
    verification mail first). Every field is checked before anything changes."""
    if body.mail_mode is not None and body.mail_mode not in outbox.MAIL_MODES:
        raise ApiError(422, N_("mail_mode must be turn, digest or never"), "invalid_request")
    if body.time_zone is not None:
        checked_zone(body.time_zone)
    if body.digest_hour is not None and not 0 <= body.digest_hour <= 23:
        raise ApiError(422, N_("digest_hour is an hour of the day, 0 to 23"), "invalid_request")
    email = None
    if body.email is not None:
        email = checked_email(body.email) if body.email.strip() else ""  # empty: no address
    with deps.db(request).write() as conn:
        outbox.ensure_prefs(conn, user.id)
        vals: dict = {k: v for k, v in (("time_zone", body.time_zone), ("digest_hour", body.digest_hour))
                      if v is not None}
        if body.mail_mode is not None:
            vals["mode"] = body.mail_mode
            cur_mode = conn.execute(select(outbox.T_PREFS.c.mode).where(outbox.T_PREFS.c.user_id == user.id)).scalar()
            if body.mail_mode == "digest" and cur_mode != "digest":  # the first digest at the next chosen hour
                vals["last_digest_at"] = deps.clock(request).now()
        if vals:
            conn.execute(update(outbox.T_PREFS).where(outbox.T_PREFS.c.user_id == user.id).values(**vals))
        if email is not None:
            cur = outbox.prefs(conn, user.id)
            if (cur.get("email") or "") != email:
                conn.execute(update(outbox.T_USERS).where(outbox.T_USERS.c.id == user.id).values(email=email or None))
                if email:
                    send_verification(request, conn, user.id, email)
        conn.commit()
        return _prefs_view(conn, user.id, deps.deadlines(request))


@api.post("/me/email/verify")
def resend_verification(request: Request, user: User = Depends(current_user)):
    with deps.db(request).write() as conn:
        p = outbox.prefs(conn, user.id)
        if not p.get("email"):
            raise ApiError(409, N_("set an email address first"), "no_email")
        if p.get("verified"):
            return {"ok": True, "already_verified": True}
        send_verification(request, conn, user.id, p["email"])
        conn.commit()
    return {"ok": True}


@api.put("/me/webhook")
def put_webhook(body: WebhookIn, request: Request, user: User = Depends(current_user)):
    """Create or change my webhook. A new webhook gets a signing secret, in this answer
    only (`webhook.secret`); changing one keeps its secret."""
    if not body.url.startswith(("http://", "https://")):
        raise ApiError(422, N_("the webhook URL must start with http:// or https://"), "invalid_request")
    if body.json_key in RESERVED_WEBHOOK_KEYS:
        raise ApiError(422, N_("the JSON key cannot be {key}: the structured part of each call uses it"),
                       "invalid_request", {"key": repr(body.json_key)})
    _check_destination(request, body.url)
    fields = dict(url=body.url, json_key=body.json_key, prefix=body.prefix, enabled=body.enabled, last_error=None,
                  last_error_at=None, last_ok_at=None)
    with deps.db(request).write() as conn:
        secret = None
        changed = conn.execute(update(outbox.T_HOOKS).where(outbox.T_HOOKS.c.user_id == user.id).values(**fields))
        if changed.rowcount == 0:
            secret = new_secret()
            conn.execute(outbox.T_HOOKS.insert(), dict(user_id=user.id, secret=secret, **fields))
        conn.commit()
        return _with_secret(_prefs_view(conn, user.id, deps.deadlines(request)), secret)


@api.post("/me/webhook/secret")
def rotate_webhook_secret(request: Request, user: User = Depends(current_user)):
    """A new signing secret, shown in this answer only; the old one stops at once."""
    secret = new_secret()
    with deps.db(request).write() as conn:
        if conn.execute(update(outbox.T_HOOKS).where(outbox.T_HOOKS.c.user_id == user.id)
                        .values(secret=secret)).rowcount == 0:
            raise ApiError(409, N_("register a webhook first"), "no_webhook")
        conn.commit()
        return _with_secret(_prefs_view(conn, user.id, deps.deadlines(request)), secret)


def _with_secret(view: dict, secret: str | None) -> dict:
    if secret is not None:
        view["webhook"]["secret"] = secret
    return view


def _check_destination(request: Request, url: str) -> None:
    """Webhooks reach only public addresses (or hosts the operator allowed)."""
    try:
        check_url(url, deps.settings(request).webhook_allowed_hosts)
    except BlockedDestination as exc:
        raise ApiError(422, N_("this webhook address cannot be used: {reason}"), "blocked_destination",
                       {"reason": exc.reason}) from None


@api.delete("/me/webhook")
def delete_webhook(request: Request, user: User = Depends(current_user)):
    with deps.db(request).write() as conn:
        conn.execute(outbox.T_HOOKS.delete().where(outbox.T_HOOKS.c.user_id == user.id))
        conn.commit()
    return {"ok": True}


@api.post("/me/webhook/test")
def test_webhook(request: Request, user: User = Depends(current_user)):
    """Queue a test notice to the webhook only (no in-site notice, no mail)."""
    with deps.db(request).write() as conn:
        h = conn.execute(select(outbox.T_HOOKS).where(outbox.T_HOOKS.c.user_id == user.id)).first()
        if h is None:
            raise ApiError(409, N_("register a webhook first"), "no_webhook")
        _check_destination(request, h.url)  # the name may resolve elsewhere by now
        limits.per_account(request, "mail", user.id)
        now = deps.clock(request).now()
        notices = deps.notices(request)
        said = translator(outbox.language_of(conn, user.id))(mail_words.TEST_NOTICE, site=notices.site_name)
        payload = notices.webhook_body(h, "test", said)
        conn.execute(outbox.T_OUTBOX.insert(), dict(
            channel="webhook", user_id=user.id, game_id=None, game_seq=None, kind="test", recipient=h.url,
            subject="test", body="test", payload=payload,
            status="pending", attempts=0, next_attempt_at=now, created_at=now, dedupe=None))
        conn.commit()
    return {"ok": True}


# --------------------------------------------------------------------------- waiting, notices

def waiting_games(conn, dl: Deadlines, user_id: int) -> list[dict]:
    c = T_GAMES.c
    rows = conn.execute(select(c.id, c.scenario, c.mode, c.to_act, c.updated_at, c.union_user_id,
                               c.confederate_user_id).where(
        waiting.waits_for(user_id))).all()
    out = []
    for r in rows:
        clk = dl.clock_view(conn, r.id, user_id)
        left = clk["seconds_left"] if clk and clk.get("seconds_left") is not None else None
        out.append({"id": r.id, "scenario": r.scenario, "mode": r.mode, "side": r.to_act,
                    "url": f"/games/{r.id}", "updated_at": _iso(r.updated_at), "seconds_left": left,
                    "paused": bool(clk and clk.get("paused")), "deadline": clk.get("deadline") if clk else None})
    out.sort(key=lambda g: (g["seconds_left"] is None, g["seconds_left"] or 0, g["updated_at"] or ""))
    return out


@api.get("/me/waiting")
def my_waiting(request: Request, user: User = Depends(current_user)):
    """Games waiting for me (least time left first) and my unread notices: the badge."""
    with deps.db(request).read() as conn:
        games = waiting_games(conn, deps.deadlines(request), user.id)
        return {"count": len(games), "games": games, "unread": outbox.unread_count(conn, user.id)}


@api.get("/me/notices")
def my_notices(request: Request, limit: int = Query(50, ge=1, le=500), user: User = Depends(current_user)):
    with deps.db(request).read() as conn:
        return {"notices": outbox.recent_notices(conn, user.id, limit), "unread": outbox.unread_count(conn, user.id)}


@api.post("/me/notices/read")
def read_notices(request: Request, body: ReadIn = Body(default_factory=ReadIn), user: User = Depends(current_user)):
    with deps.db(request).write() as conn:
        outbox.mark_read(conn, deps.clock(request), user.id, body.ids)
        conn.commit()
    return {"ok": True}


# --------------------------------------------------------------------------- vacation

@api.get("/me/vacation")
def get_vacation(request: Request, user: User = Depends(current_user)):
    with deps.db(request).read() as conn:
        return deps.deadlines(request).vacation_info(conn, user.id)


@api.post("/me/vacation")
def post_vacation(body: VacationIn, request: Request, user: User = Depends(current_user)):
    """Start a vacation now: the clocks of all my by-turn games stop for `days` days."""
    with deps.db(request).write() as conn:
        out = deps.deadlines(request).start_vacation(conn, user.id, body.days)
        conn.commit()
        return out


@api.delete("/me/vacation")
def delete_vacation(request: Request, user: User = Depends(current_user)):
    """End the current vacation now (unused days stay in the year's allowance)."""
    with deps.db(request).write() as conn:
        out = deps.deadlines(request).end_vacation(conn, user.id)
        conn.commit()
        return out


# --------------------------------------------------------------------------- pages

@pages.get("/notifications", response_class=HTMLResponse)
def notifications_page(request: Request):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        return RedirectResponse("/login?next=/notifications", status_code=303)
    with deps.db(request).read() as conn:
        games = waiting_games(conn, deps.deadlines(request), auth.user.id)
        notes = outbox.recent_notices(conn, auth.user.id, 100)
        muted = mutes.muted_games(conn, auth.user.id)
    return render(request, "notifications.html", waiting=games, notices=notes, muted=muted,
                  muted_ids={m["game_id"] for m in muted})


@pages.get("/verify-email", response_class=HTMLResponse)
def verify_page(request: Request, t: str = ""):
    got = deps.notices(request).read_verify_token(t)
    if got is None:
        return render(request, "notifications_message.html", status=400, title=N_("Email address"),
                      message=N_("This confirmation link is not valid or has expired."))
    uid, email = got
    with deps.db(request).write() as conn:
        u = conn.execute(select(outbox.T_USERS.c.email).where(outbox.T_USERS.c.id == uid)).first()
        if u is None or (u.email or "").lower() != email.lower():
            return render(request, "notifications_message.html", status=409, title=N_("Email address"),
                          message=N_("This link is for an address that is no longer on the account."))
        outbox.ensure_prefs(conn, uid)
        conn.execute(update(outbox.T_PREFS).where(outbox.T_PREFS.c.user_id == uid)
                     .values(verified_email=email, verified_at=deps.clock(request).now()))
        conn.commit()
    return render(request, "notifications_message.html", title=N_("Email address confirmed"),
                  message=N_("Notices will go to {email}."), values={"email": email})
