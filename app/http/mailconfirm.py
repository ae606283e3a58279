"""The mail that confirms an address: sent when an account registers with one and
when a player sets or changes it in the settings (the only place that wording lives), in
the account's language."""
from __future__ import annotations

from fastapi import Request
from sqlalchemy import select

from ..notices import outbox
from ..notices.mailbody import render_mail
from . import deps, limits


def send_verification(request: Request, conn, user_id: int, email: str) -> None:
    """Queue the confirmation mail on `conn` (the caller commits). The mail names the
    account, so whoever receives it can tell whose request it was."""
    limits.per_account(request, "mail", user_id)
    notices = deps.notices(request)
    username = conn.execute(select(outbox.T_USERS.c.username)
                            .where(outbox.T_USERS.c.id == user_id)).scalar_one()
    link = f"{notices.public_url}/verify-email?t={notices.verify_token(user_id, email)}"
    lang = outbox.language_of(conn, user_id)
    body, html = render_mail("verify", lang, link=link, site_name=notices.site_name, username=username)
    notices.queue_email(conn, user_id, email, "verify", notices.subject("verify", None, lang), body,
                        unsubscribe=False, html=html)
