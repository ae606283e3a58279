"""The unsubscribe link of every mail (`/unsubscribe?t=<signed user id>`).

Opening it (GET) only asks: mail scanners and link previews open links, and must not
unsubscribe anybody. The page's button POSTs to the same address, and so do mail
programs for RFC 8058 one-click unsubscribing (the List-Unsubscribe-Post header of every
mail): a POST with a valid token unsubscribes at once. The page also links to the login,
coming back to the page afterwards (`next=` keeps the token).
"""
from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import select

from ..i18n import N_
from ..notices import outbox
from . import deps
from .pages import render

pages = APIRouter(include_in_schema=False)

INVALID_LINK = N_("This unsubscribe link is not valid.")


def _invalid(request: Request) -> HTMLResponse:
    return render(request, "notifications_message.html", status=400, title=N_("Unsubscribe"), message=INVALID_LINK)


@pages.get("/unsubscribe", response_class=HTMLResponse)
def unsubscribe_page(request: Request, t: str = ""):
    """Ask, change nothing."""
    uid = deps.notices(request).read_unsubscribe_token(t)
    if uid is None:
        return _invalid(request)
    with deps.db(request).read() as conn:
        username = conn.execute(select(outbox.T_USERS.c.username).where(outbox.T_USERS.c.id == uid)).scalar()
    if username is None:
        return _invalid(request)
    login_url = "/login?next=" + quote(f"/unsubscribe?t={t}", safe="")
    return render(request, "unsubscribe.html", token=t, username=username, login_url=login_url)


@pages.post("/unsubscribe", response_class=HTMLResponse)
def unsubscribe(request: Request, t: str = ""):
    """The page's button, and RFC 8058 one-click POSTs from mail programs."""
    uid = deps.notices(request).read_unsubscribe_token(t)
    if uid is None:
        return _invalid(request)
    with deps.db(request).write() as conn:
        if conn.execute(select(outbox.T_USERS.c.id).where(outbox.T_USERS.c.id == uid)).first() is None:
            return _invalid(request)
        outbox.unsubscribe(conn, uid)
        conn.commit()
    return render(request, "notifications_message.html", title=N_("Unsubscribed"),
                  message=N_("You will get no more mail from us. You can turn notices back on in your settings."))
