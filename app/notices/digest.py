"""The daily digest: once a day per user who chose it, one mail listing the games
waiting for them (least time left first) and the notices since the last digest; muted
games are left out of both."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update

from ..core.clock import aware
from ..models import Game, GameClock, table
from ..playbyturn.deadlines import Deadlines
from .mailbody import render_mail
from .mutes import muted_game_ids
from .outbox import T_NOTICES, T_PREFS, T_USERS

T_GAMES, T_CLOCKS = table(Game), table(GameClock)


def digest_tick(db: Any, deadlines: Deadlines, period: timedelta = timedelta(days=1)) -> int:
    """Queue the digests that are due; returns how many."""
    now = deadlines.clock.now()
    with db.read() as conn:
        users = conn.execute(select(T_PREFS.c.user_id, T_PREFS.c.last_digest_at, T_PREFS.c.verified_email,
                                    T_USERS.c.email, T_USERS.c.username)
                             .join(T_USERS, T_USERS.c.id == T_PREFS.c.user_id)
                             .where(T_PREFS.c.mode == "digest")).all()
    n = 0
    for u in users:
        last = aware(u.last_digest_at)
        if last is not None and now - last < period:
            continue
        if not u.email or (u.verified_email or "").lower() != u.email.lower():
            continue
        with db.write() as conn:
            n += _digest_for(conn, deadlines, u, last or (now - period), now)
    return n


def _waiting_games(conn: Any, deadlines: Deadlines, user_id: int, now: datetime) -> list[tuple]:
    """(sort key, game id, seconds left or None) of the games waiting for the user
    (muted games left out)."""
    games = conn.execute(select(T_GAMES).where(
        T_GAMES.c.status == "active",
        or_(and_(T_GAMES.c.to_act == "union", T_GAMES.c.union_user_id == user_id),
            and_(T_GAMES.c.to_act == "confederate", T_GAMES.c.confederate_user_id == user_id)))).all()
    muted = muted_game_ids(conn, user_id)
    waiting = []
    for g in (g for g in games if g.id not in muted):
        c = conn.execute(select(T_CLOCKS).where(T_CLOCKS.c.game_id == g.id)).first()
        left = deadlines.remaining(conn, c, now)[0] if c is not None and c.days and c.side else None
        waiting.append((left if left is not None else float("inf"), g.id, left))
    waiting.sort()
    return waiting


def _time_left(left: float | None) -> str:
    if left is None:
        return ""
    return f"{max(0, int(left // 3600))} h left" if left > 0 else "time is up"


def _digest_bodies(deadlines: Deadlines, u: Any, waiting: list[tuple], notes: list[Any]) -> tuple[str, str]:
    """The digest mail (text and HTML) from templates/mail/digest.*."""
    notices = deadlines.notices
    games = [{"url": notices.game_url(gid), "left": _time_left(left)} for _, gid, left in waiting]
    return render_mail("digest", username=u.username, waiting=games, waiting_count=len(games),
                       notes=[x.text.splitlines()[0] for x in notes[-50:]], **notices.mail_context(u.user_id))


def _digest_for(conn: Any, deadlines: Deadlines, u: Any, since: datetime, now: datetime) -> int:
    """One user's digest in one transaction (the conditional UPDATE of last_digest_at
    makes sure two processes never both send it); 1 if a mail was queued."""
    notes = conn.execute(select(T_NOTICES).where(T_NOTICES.c.user_id == u.user_id, T_NOTICES.c.created_at > since)
                         .order_by(T_NOTICES.c.id)).all()
    muted = muted_game_ids(conn, u.user_id)
    notes = [n for n in notes if n.game_id not in muted]
    waiting = _waiting_games(conn, deadlines, u.user_id, now)
    if not waiting and not notes:
        conn.execute(update(T_PREFS).where(T_PREFS.c.user_id == u.user_id).values(last_digest_at=now))
        conn.commit()
        return 0
    r = conn.execute(update(T_PREFS).where(
        T_PREFS.c.user_id == u.user_id,
        T_PREFS.c.last_digest_at.is_(None) if u.last_digest_at is None
        else T_PREFS.c.last_digest_at == u.last_digest_at).values(last_digest_at=now))
    if r.rowcount != 1:
        conn.rollback()
        return 0
    notices = deadlines.notices
    body, html = _digest_bodies(deadlines, u, waiting, notes)
    notices.queue_email(conn, u.user_id, u.email, "digest",
                        f"{len(waiting)} game{'s' if len(waiting) != 1 else ''} waiting for you", body,
                        dedupe=f"digest:{u.user_id}:{now.strftime('%Y%m%d%H%M%S')}", html=html)
    conn.commit()
    return 1
