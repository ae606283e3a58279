"""Passwords and login sessions of one's own account (app.accounts.passwords and
.sessions do the work; docs/api.md lists the endpoints):

  POST /api/auth/password                    change it (the current one needed); other sessions end
  POST /api/auth/password-reset              mail a reset link to a confirmed address
  POST /api/auth/password-reset/confirm      a new password with the link's token
  GET  /api/auth/sessions                    my login sessions: last use, where from (coarse)
  DELETE /api/auth/sessions/{id}, POST /api/auth/sessions/{id}/logout, POST /api/auth/sessions/logout-others
Pages: /password-reset (ask for the mail), /reset-password?t=... (choose the new password)
"""
from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from ..accounts import passwords, sessions
from ..accounts.auth import current_user, get_accounts
from ..core.errors import ApiError
from ..guard.emails import checked_email
from ..guard.names import username_key
from ..guard.ratelimit import RateLimited
from ..i18n import N_, translator
from ..models import User
from ..notices import outbox
from ..notices.mailbody import render_mail
from . import deps, limits, refusals
from .pages import render
from .schemas import PasswordChangeIn, ResetConfirmIn, ResetRequestIn

api = APIRouter(prefix="/api/auth", tags=["auth"])
pages = APIRouter(include_in_schema=False)

# the answer to every reset request, whether or not an account has the address
RESET_REQUESTED = N_("If an account has this confirmed address, a mail with a link to choose a new password is "
                     "on its way. The link works for one hour, once.")


@api.post("/password")
def change_password(body: PasswordChangeIn, request: Request, user: User = Depends(current_user)):
    """A new password, given the current one. Every other login session of the account
    ends (this one stays); API tokens stay valid."""
    # wrong current passwords count as wrong logins from this address: no guessing here either
    key = f"name:{username_key(user.username)}@{limits.client_address(request)}"
    limits.limiter(request).check("login_account", key)
    auth = get_accounts(request).from_request(request)
    try:
        ended = passwords.change_password(get_accounts(request), user, body.current_password, body.new_password,
                                          auth.token_id)
    except ApiError as exc:
        if exc.code == "wrong_password":
            limits.limiter(request).hit("login_account", key)
        raise
    return {"ok": True, "sessions_ended": ended}


@api.post("/password-reset", status_code=202)
def request_reset(body: ResetRequestIn, request: Request):
    """Mail a reset link to each account whose confirmed address this is. The answer is
    the same whether or not there is one."""
    limits.per_address(request, "password_reset")
    email = checked_email(body.email)
    notices = deps.notices(request)
    links = passwords.start_reset(get_accounts(request), email, deps.clock(request).now())
    with deps.db(request).write() as conn:
        for link in links:
            try:   # an account's mail allowance used up: no mail, and the answer does not say so
                limits.per_account(request, "mail", link.user_id)
            except RateLimited:
                continue
            lang = outbox.language_of(conn, link.user_id)
            text, html = render_mail("password_reset", lang, link=f"{notices.public_url}/reset-password?t={link.token}",
                                     site_name=notices.site_name, username=link.username)
            notices.queue_email(conn, link.user_id, link.email, "password_reset",
                                notices.subject("password_reset", None, lang), text, unsubscribe=False, html=html)
        conn.commit()
    return {"ok": True, "detail": _said(request, RESET_REQUESTED)}


@api.post("/password-reset/confirm")
def confirm_reset(body: ResetConfirmIn, request: Request):
    """Set the new password with the token of a reset link; every session of the account
    ends (log in again with the new password)."""
    limits.per_address(request, "login_address")
    username = passwords.finish_reset(get_accounts(request), body.token, body.new_password, deps.clock(request).now())
    return {"ok": True, "username": username}


@api.get("/sessions")
def list_sessions(request: Request, user: User = Depends(current_user)):
    auth = get_accounts(request).from_request(request)
    return {"sessions": sessions.list_sessions(deps.db(request), user.id, auth.token_id)}


@api.delete("/sessions/{session_id}")
def end_session(session_id: int, request: Request, user: User = Depends(current_user)):
    sessions.end_session(deps.db(request), user.id, session_id)
    return {"ok": True}


@api.post("/sessions/{session_id}/logout")
def end_session_by_form(session_id: int, request: Request, user: User = Depends(current_user)):
    """The same as DELETE (for the settings page's forms)."""
    return end_session(session_id, request, user)


@api.post("/sessions/logout-others")
def end_other_sessions(request: Request, user: User = Depends(current_user)):
    auth = get_accounts(request).from_request(request)
    return {"ok": True, "ended": sessions.end_other_sessions(deps.db(request), user.id, auth.token_id)}


def _said(request: Request, sentence: str) -> str:
    return translator(refusals.reader_language(request))(sentence)


# --------------------------------------------------------------------------- pages

@pages.get("/password-reset", response_class=HTMLResponse)
def reset_request_page(request: Request, sent: int = 0):
    return render(request, "password_reset.html", mode="sent" if sent else "ask", message=RESET_REQUESTED)


@pages.get("/reset-password", response_class=HTMLResponse)
def reset_page(request: Request, t: str = ""):
    return render(request, "password_reset.html", mode="choose", token=t[:200])
