"""A player's login sessions as they see them: each one's last use and, coarsely, where
from; logging out one of them, or all but the one in use."""
from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update

from ..core.clock import aware, iso
from ..core.errors import ApiError
from ..i18n import N_
from ..models import AuthToken, utcnow
from ..store.db import Database

# a session's last use is written at most this often (not on every request)
SESSION_USE_STEP = timedelta(minutes=5)


def coarse_address(address: str) -> str:
    """Where a request came from, only as precisely as a player needs to recognise it
    (their home, their phone's network) and no more: the /24 of an IPv4 address, the /48
    of an IPv6 one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return ""
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def _active_sessions(user_id: int):
    t = AuthToken
    return select(t).where(t.user_id == user_id, t.kind == "session", t.revoked_at.is_(None),
                           or_(t.expires_at.is_(None), t.expires_at > utcnow()))


def list_sessions(db: Database, user_id: int, current_id: int | None) -> list[dict]:
    """The account's login sessions: the one in use first, then the most recently used."""
    with db.session() as s:
        rows = s.execute(_active_sessions(user_id)).scalars().all()
    rows = sorted(rows, key=lambda t: (t.id != current_id, -last_use(t).timestamp()))
    return [{"id": t.id, "created_at": iso(t.created_at), "last_used_at": iso(last_use(t)),
             "where": t.last_address or None, "current": t.id == current_id} for t in rows]


def last_use(t: AuthToken) -> datetime:
    """When a session was last used (its start, if never since)."""
    return aware(t.last_used_at or t.created_at)


def end_session(db: Database, user_id: int, session_id: int) -> None:
    with db.write_session() as s:
        res = s.execute(update(AuthToken).where(AuthToken.id == session_id, AuthToken.user_id == user_id,
                                                AuthToken.kind == "session", AuthToken.revoked_at.is_(None))
                        .values(revoked_at=utcnow()))
        if res.rowcount != 1:
            raise ApiError(404, N_("no such session"), "not_found")
        s.commit()


def end_other_sessions(db: Database, user_id: int, keep_id: int | None) -> int:
    """Log out every session of the account but `keep_id` (None: all); how many ended."""
    q = update(AuthToken).where(AuthToken.user_id == user_id, AuthToken.kind == "session",
                                AuthToken.revoked_at.is_(None))
    if keep_id is not None:
        q = q.where(AuthToken.id != keep_id)
    with db.write_session() as s:
        n = s.execute(q.values(revoked_at=utcnow())).rowcount
        s.commit()
    return n

