"""The administrators' page, and the in-site notices of disputes and decisions:
GET /api/site-notices (POST /api/site-notices/read marks them read). They are rows of
the one notices table (app.notices.outbox), the same that /api/me/notices lists."""
from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from ..accounts.auth import current_user, optional_user
from ..i18n import N_
from ..models import User
from ..notices import outbox
from .pages import render

router = APIRouter(prefix="/api", tags=["notices"])
pages = APIRouter(include_in_schema=False)


@router.get("/site-notices")
def list_notices(request: Request, user: User = Depends(current_user)):
    with request.app.state.db.read() as s:
        notes = outbox.site_notices(s, user.id)
    return {"notices": notes, "unread": sum(1 for n in notes if not n["read"])}


@router.post("/site-notices/read")
def mark_read(request: Request, user: User = Depends(current_user)):
    with request.app.state.db.write() as s:
        outbox.mark_site_notices_read(s, request.app.state.clock, user.id)
        s.commit()
    return {"ok": True}


@pages.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request):
    user = optional_user(request)
    if user is None:
        return render(request, "error.html", status=401, message=N_("Log in as an administrator."))
    if not user.is_admin:
        return render(request, "error.html", status=403, message=N_("Administrators only."))
    return render(request, "admin.html")
