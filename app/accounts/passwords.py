"""Changing a password (knowing the current one) and resetting it through a link sent
by mail (knowing the mailbox). Either way the account's other login sessions end: whoever
knew the old password is logged out.

A reset link holds a random token; only its SHA-256 is stored, it works once, for
RESET_LINK_LIFETIME, and only the newest unused link of an account works. Links go only
to a confirmed address (an unconfirmed one may be a typo: a stranger's mailbox)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, insert, select, update

from ..core.clock import aware
from ..core.errors import ApiError
from ..i18n import N_
from ..models import MailPrefs, PasswordReset, User, table
from . import security, sessions
from .auth import Accounts, checked_new_password

RESET_LINK_LIFETIME = timedelta(hours=1)
T_RESETS, T_USERS, T_PREFS = table(PasswordReset), table(User), table(MailPrefs)


def change_password(accounts: Accounts, user: User, current: str, new: str, keep_session: int | None) -> int:
    """Set a new password if `current` is right; end the account's other sessions (all
    but `keep_session`). How many sessions ended."""
    checked_new_password(new)
    right, _ = accounts.hashing.verify(user.password_hash, str(current))
    if not right:
        raise ApiError(403, N_("the current password is not right"), "wrong_password")
    _set_password(accounts, user.id, accounts.hashing.hash(new))
    return sessions.end_other_sessions(accounts.db, user.id, keep_session)


@dataclass
class ResetLink:
    user_id: int
    username: str
    email: str
    token: str


def start_reset(accounts: Accounts, email: str, now: datetime) -> list[ResetLink]:
    """A new reset token for each person's account whose confirmed address is `email`
    (none: an empty list, and nothing tells the caller so). Older unused links of those
    accounts stop working."""
    u, p = T_USERS.c, T_PREFS.c
    address = email.strip().lower()
    links = []
    with accounts.db.write() as conn:
        rows = conn.execute(select(u.id, u.username, u.email).join(T_PREFS, p.user_id == u.id).where(
            func.lower(u.email) == address, func.lower(p.verified_email) == address, u.kind == "person")).all()
        for row in rows:
            conn.execute(update(T_RESETS).where(T_RESETS.c.user_id == row.id, T_RESETS.c.used_at.is_(None))
                         .values(used_at=now))
            token = security.new_token()
            conn.execute(insert(T_RESETS), dict(user_id=row.id, token_hash=security.token_hash(token),
                                                created_at=now, expires_at=now + RESET_LINK_LIFETIME))
            links.append(ResetLink(row.id, row.username, row.email, token))
        conn.commit()
    return links


def finish_reset(accounts: Accounts, token: str, new: str, now: datetime) -> str:
    """Set the password of the link's account and log out all its sessions; the username.
    A link that is unknown, used or expired changes nothing."""
    checked_new_password(new)
    if not isinstance(token, str) or not 0 < len(token) <= 200:
        raise _bad_link()
    r = T_RESETS.c
    with accounts.db.session() as s:
        row = s.execute(select(T_RESETS).where(r.token_hash == security.token_hash(token))).first()
    if row is None or row.used_at is not None or aware(row.expires_at) <= now:
        raise _bad_link()
    new_hash = accounts.hashing.hash(new)
    with accounts.db.write() as conn:   # used once: of two at once, one wins
        if conn.execute(update(T_RESETS).where(r.id == row.id, r.used_at.is_(None)).values(used_at=now)).rowcount != 1:
            raise _bad_link()
        conn.execute(update(T_USERS).where(T_USERS.c.id == row.user_id).values(password_hash=new_hash))
        username = conn.execute(select(T_USERS.c.username).where(T_USERS.c.id == row.user_id)).scalar_one()
        conn.commit()
    sessions.end_other_sessions(accounts.db, row.user_id, None)
    return username


def _set_password(accounts: Accounts, user_id: int, new_hash: str) -> None:
    with accounts.db.write() as conn:
        conn.execute(update(T_USERS).where(T_USERS.c.id == user_id).values(password_hash=new_hash))
        conn.commit()


def _bad_link() -> ApiError:
    return ApiError(400, N_("this password reset link is not valid: it was used already, has expired or was "
                            "replaced by a newer one"), "reset_link_invalid")

