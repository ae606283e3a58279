"""The daily digest: once a day per user who chose it, at the hour they chose in their
own time zone (mail_prefs.digest_hour, time_zone), one mail listing each of their games
once - those waiting for them first (least time left first), then those with news - each
with its opponent, side, scenario, turn and deadline, and the notices about it since the
last digest. Muted games are left out."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import and_, or_, select, update

from ..core.clock import aware
from ..i18n import translator
from ..models import Game, GameClock, table
from .gamefacts import game_facts
from .mailbody import render_mail
from .mutes import muted_game_ids
from .outbox import T_NOTICES, T_PREFS, T_USERS, Notices, language_of
from .readertime import digest_due
from .words import mail as words

T_GAMES, T_CLOCKS = table(Game), table(GameClock)


class Clocks(Protocol):
    """The by-turn clocks, as the digest reads them (app.playbyturn.deadlines.Deadlines)."""
    notices: Notices
    clock: Any

    def remaining(self, conn: Any, row: Any, now: datetime | None = None) -> tuple[float, bool]: ...

    def clock_view(self, conn: Any, game_id: str) -> dict | None: ...


def digest_tick(db: Any, deadlines: Clocks) -> int:
    """Queue the digests that are due; returns how many."""
    now = deadlines.clock.now()
    with db.read() as conn:
        users = conn.execute(select(T_PREFS.c.user_id, T_PREFS.c.last_digest_at, T_PREFS.c.verified_email,
                                    T_PREFS.c.time_zone, T_PREFS.c.digest_hour, T_USERS.c.email, T_USERS.c.username)
                             .join(T_USERS, T_USERS.c.id == T_PREFS.c.user_id)
                             .where(T_PREFS.c.mode == "digest")).all()
    n = 0
    for u in users:
        last = aware(u.last_digest_at)
        if not digest_due(last, u.digest_hour, u.time_zone, now):
            continue
        if not u.email or (u.verified_email or "").lower() != u.email.lower():
            continue
        with db.write() as conn:
            n += _digest_for(conn, deadlines, u, last, now)
    return n


def _waiting_games(conn: Any, deadlines: Clocks, user_id: int, now: datetime) -> list[str]:
    """The ids of the games waiting for the user, least time left first (games without
    a clock last; muted games left out)."""
    games = conn.execute(select(T_GAMES.c.id).where(
        T_GAMES.c.status == "active",
        or_(and_(T_GAMES.c.to_act == "union", T_GAMES.c.union_user_id == user_id),
            and_(T_GAMES.c.to_act == "confederate", T_GAMES.c.confederate_user_id == user_id)))).scalars().all()
    muted = muted_game_ids(conn, user_id)
    waiting = []
    for gid in (g for g in games if g not in muted):
        c = conn.execute(select(T_CLOCKS).where(T_CLOCKS.c.game_id == gid)).first()
        left = deadlines.remaining(conn, c, now)[0] if c is not None and c.days and c.side else None
        waiting.append((left if left is not None else float("inf"), gid))
    waiting.sort()
    return [gid for _, gid in waiting]


def _entries(conn: Any, deadlines: Clocks, u: Any, game_ids: list[str], notes: list[Any],
             lang: str) -> list[dict]:
    """One entry per game: its link, its facts for this reader and its news."""
    out = []
    for gid in game_ids:
        facts = game_facts(conn, gid, u.user_id, deadlines, u.time_zone, lang=lang)
        news = [n.text.splitlines()[0] for n in notes if n.game_id == gid]
        out.append({"id": gid, "url": deadlines.notices.game_url(gid), "facts": facts, "news": news[-20:]})
    return out


def _digest_bodies(conn: Any, deadlines: Clocks, u: Any, waiting: list[str], notes: list[Any],
                   lang: str) -> tuple[str, str]:
    """The digest mail (text and HTML) from templates/mail/digest.*, in the reader's language."""
    others = list(dict.fromkeys(n.game_id for n in notes if n.game_id and n.game_id not in waiting))
    return render_mail("digest", lang, username=u.username, waiting=_entries(conn, deadlines, u, waiting, notes, lang),
                       waiting_count=len(waiting), others=_entries(conn, deadlines, u, others, notes, lang),
                       notes=[n.text.splitlines()[0] for n in notes if not n.game_id][-50:],
                       **deadlines.notices.mail_context(u.user_id))


def _claim(conn: Any, u: Any, now: datetime) -> bool:
    """The conditional UPDATE of last_digest_at: two processes never both send it."""
    r = conn.execute(update(T_PREFS).where(
        T_PREFS.c.user_id == u.user_id,
        T_PREFS.c.last_digest_at.is_(None) if u.last_digest_at is None
        else T_PREFS.c.last_digest_at == u.last_digest_at).values(last_digest_at=now))
    return r.rowcount == 1


def _digest_for(conn: Any, deadlines: Clocks, u: Any, since: datetime | None, now: datetime) -> int:
    """One user's digest in one transaction; 1 if a mail was queued."""
    since = since or now - timedelta(days=1)
    q = select(T_NOTICES).where(T_NOTICES.c.user_id == u.user_id, T_NOTICES.c.created_at > since) \
        .order_by(T_NOTICES.c.id)
    muted = muted_game_ids(conn, u.user_id)
    notes = [n for n in conn.execute(q).all() if n.game_id not in muted]
    waiting = _waiting_games(conn, deadlines, u.user_id, now)
    if not _claim(conn, u, now):
        conn.rollback()
        return 0
    if not waiting and not notes:
        conn.commit()
        return 0
    lang = language_of(conn, u.user_id)
    body, html = _digest_bodies(conn, deadlines, u, waiting, notes, lang)
    subject = words.digest_subject(translator(lang), len(waiting))
    deadlines.notices.queue_email(conn, u.user_id, u.email, "digest", subject, body,
                                  dedupe=f"digest:{u.user_id}:{now.strftime('%Y%m%d%H%M%S')}", html=html)
    conn.commit()
    return 1
