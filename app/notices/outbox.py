"""Notices: in-site notifications, and the transactional outbox for mail and webhooks.

    notices.notify(conn, user_ids, kind, game_id, text)

writes, on the caller's connection and so inside the caller's transaction, one in-site
notice per user (the notices table: what /notifications, the badge and
/api/site-notices show) and, for each user who wants them, one outbox row per channel
(an email to a verified address when the user chose "every turn"; a webhook call when
one is registered). Nothing is sent here: the worker (app.notices.mailer) reads the
outbox after the commit, so a notice exists exactly when the event that caused it does.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any
from uuid import uuid4

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from sqlalchemy import func, insert, or_, select, update

from ..core.clock import Clock, aware
from ..i18n import N_, translator
from ..models import Game, MailPrefs, Notice, OutboxMessage, User, Webhook, table
from .gamefacts import game_facts
from .mailbody import blocks, render_mail
from .mutes import is_muted
from .words import mail as words

T_NOTICES, T_OUTBOX, T_PREFS, T_HOOKS = (table(Notice), table(OutboxMessage), table(MailPrefs),
                                         table(Webhook))
T_USERS, T_GAMES = table(User), table(Game)

SITE_NAME = "A House Divided"
MAIL_MODES = ("turn", "digest", "never")
# notices that say "the game waits for you": the mail is dropped if the player has
# already answered by the time the worker gets to it
WAITING_KINDS = ("turn", "battle", "choice", "reminder")
# such a notice to a player who has the game open is "held": the page shows it, and the
# worker looks again this often; once the player has left without answering, it goes out
# after the mail delay (app.notices.mailer)
HELD_RECHECK_SECONDS = 60.0
# in English; each mail says its subject in its reader's language
SUBJECTS = {
    "turn": N_("Your turn"), "battle": N_("A battle decision waits for you"), "choice": N_("Retreat or reinforce?"),
    "game_over": N_("Game over"), "resigned": N_("Your opponent resigned"), "aborted": N_("Game aborted"),
    "reminder": N_("Reminder: your time is running out"), "timeout": N_("Your opponent's time is up"),
    "time_up": N_("Your time is up"), "lost_on_time": N_("Game lost on time"), "extended": N_("More time"),
    "draw_offer": N_("Your opponent offers a draw"), "rematch": N_("A rematch for you"),
    "verify": N_("Confirm your email address"), "password_reset": N_("Reset your password"),
    "digest": N_("Games waiting for you"), "test": N_("Test notice"),
    "vacation": N_("Your opponent is on vacation"),
    "admin_rewind": N_("An administrator rewound the game"),
    "admin_adjudicate": N_("An administrator decided the game's result"),
    "admin_annul": N_("An administrator annulled the game"),
    "dispute_opened": N_("A dispute was opened"), "dispute_dismissed": N_("A dispute was dismissed"),
}
# a notice's text: as written, or said in the recipient's language (a function of it)
NoticeText = str | Callable[[str], str]
# the notices /api/site-notices lists: what administrators' decisions and disputes say
SITE_NOTICE_PREFIXES = ("admin_", "dispute_")


class Notices:
    """Writes notices and outbox rows; built from the settings (public URL, secret key,
    mail delay) and the clock, and handed to whoever needs to notify."""

    def __init__(self, public_url: str, secret_key: str, clock: Clock, mail_delay_seconds: float = 0.0):
        self.public_url = public_url.rstrip("/")
        self.secret_key = secret_key
        self.clock = clock
        self.mail_delay_seconds = float(mail_delay_seconds or 0)
        self.site_name = SITE_NAME
        # set by the app (app.main): the by-turn clocks (deadlines in mails) and whether a
        # side of a game has it open in some process (the realtime presence)
        self.clocks: Any = None
        self.online: Callable[[str, str], bool] | None = None

    @classmethod
    def from_settings(cls, settings: Any, clock: Clock) -> Notices:
        return cls(settings.public_url, settings.secret_key, clock, settings.mail_delay_seconds)

    # ---------------------------------------------------------------- links and tokens
    def game_url(self, game_id: str) -> str:
        return f"{self.public_url}/games/{game_id}"

    def unsubscribe_token(self, user_id: int) -> str:
        return URLSafeSerializer(self.secret_key, salt="unsubscribe").dumps(user_id)

    def read_unsubscribe_token(self, token: str) -> int | None:
        try:
            return int(URLSafeSerializer(self.secret_key, salt="unsubscribe").loads(token))
        except (BadSignature, ValueError, TypeError):
            return None

    def unsubscribe_url(self, user_id: int) -> str:
        return f"{self.public_url}/unsubscribe?t={self.unsubscribe_token(user_id)}"

    def verify_token(self, user_id: int, email: str) -> str:
        return URLSafeTimedSerializer(self.secret_key, salt="verify-email").dumps([user_id, email])

    def read_verify_token(self, token: str, max_age: int = 7 * 86400) -> tuple[int, str] | None:
        try:
            uid, email = URLSafeTimedSerializer(self.secret_key, salt="verify-email").loads(token, max_age=max_age)
            return int(uid), str(email)
        except (BadSignature, ValueError, TypeError):
            return None

    # ---------------------------------------------------------------- queueing
    def mail_context(self, user_id: int) -> dict:
        """What every mail's footer needs."""
        return {"site_name": self.site_name, "public_url": self.public_url,
                "unsubscribe_url": self.unsubscribe_url(user_id)}

    def mail_bodies(self, text: str, user_id: int, game_id: str | None, game: dict | None = None,
                    lang: str | None = None) -> tuple[str, str]:
        """A notice's text as a mail (text and HTML) in the reader's language: its first
        paragraph, the game's facts (app.notices.gamefacts), the rest (what happened), the
        link to the game and the unsubscribe footer."""
        head, _, news = text.strip().partition("\n\n")
        return render_mail("notice", lang, head=head, news=news.strip(), head_blocks=blocks(head),
                           news_blocks=blocks(news), game=game, game_url=self.game_url(game_id) if game_id else None,
                           **self.mail_context(user_id))

    def watching(self, conn: Any, user_id: int, game_id: str | None) -> bool:
        """Whether the user has the game open as its player (a websocket to it, in any
        process): the one rule for "no mail and no webhook call, the page shows it"."""
        side = seat_of(conn, game_id, user_id)
        if side is None or game_id is None or self.online is None:
            return False
        return self.online(game_id, side)

    def queue_email(self, conn: Any, user_id: int, address: str, kind: str, subject: str, body: str,
                    game_id: str | None = None, seq: int | None = None, dedupe: str | None = None,
                    delay: float = 0.0, unsubscribe: bool = True, html: str | None = None,
                    status: str = "pending") -> None:
        """One mail in the outbox: `body` its text part, `html` (if any) its HTML part;
        `status` "held" while its reader has the game open."""
        now = self.clock.now()
        headers = {}
        if unsubscribe:
            u = self.unsubscribe_url(user_id)
            headers = {"List-Unsubscribe": f"<{u}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        conn.execute(insert(T_OUTBOX), dict(
            channel="email", user_id=user_id, game_id=game_id, game_seq=seq, kind=kind, recipient=address,
            subject=f"[{self.site_name}] {subject}", body=body, payload={"headers": headers, "html": html},
            status=status, attempts=0, next_attempt_at=now + timedelta(seconds=delay), created_at=now, dedupe=dedupe))

    def webhook_body(self, hook: Any, kind: str, line: str, game_id: str | None = None,
                     side: str | None = None) -> dict:
        """What a webhook receives: the chat-friendly line under the hook's JSON key (what
        Discord or Slack show), the delivery id, and the structured `event` for programs
        (its `deadline` is filled in when it is sent: app.notices.mailer)."""
        link = self.game_url(game_id) if game_id else None
        msg = " ".join(x for x in (hook.prefix, line, link) if x)
        return {hook.json_key or "content": msg, "delivery": uuid4().hex,
                "event": {"game": game_id, "kind": kind, "side": side, "deadline": None, "link": link}}

    def queue_webhook(self, conn: Any, user_id: int, hook: Any, kind: str, subject: str, text: str,
                      game_id: str | None, seq: int | None, delay: float = 0.0, status: str = "pending") -> None:
        line = text.strip().splitlines()[0] if text.strip() else kind
        payload = self.webhook_body(hook, kind, line, game_id, seat_of(conn, game_id, user_id))
        now = self.clock.now()
        conn.execute(insert(T_OUTBOX), dict(
            channel="webhook", user_id=user_id, game_id=game_id, game_seq=seq, kind=kind, recipient=hook.url,
            subject=subject, body=text, payload=payload, status=status, attempts=0,
            next_attempt_at=now + timedelta(seconds=delay), created_at=now, dedupe=None))

    def subject(self, kind: str, game_id: str | None, lang: str | None, subject: str | None = None) -> str:
        """A mail's (and webhook's) subject in the reader's language."""
        t = translator(lang)
        said = t(subject or SUBJECTS.get(kind, kind.replace("_", " ").capitalize()))
        return t(words.SUBJECT_OF_GAME, subject=said, game=game_id) if game_id else said

    def notify(self, conn: Any, user_ids: Iterable[int | None], kind: str, game_id: str | None, text: NoticeText, *,
               seq: int | None = None, subject: str | None = None, mail: bool = True,
               pending: Iterable[dict] = (), current: dict | None = None) -> int:
        """Queue an in-site notice and the outbox rows (mail, webhook) for each user, on
        `conn` (a SQLAlchemy Connection or Session): they commit or roll back with the
        caller's transaction. A player who has the game open gets the notice only (the
        page shows it); a "the game waits for you" mail or call is held for them until
        they leave without answering. `text` may be a function of a language: each recipient's notice,
        mail and webhook text is then in their account's language. `pending`,
        `current`: the events being appended with it and the games row's new values
        (app.notices.gamefacts).
        Returns the number of users notified."""
        pending = list(pending)
        n = 0
        for uid in dict.fromkeys(u for u in user_ids if u is not None):
            n += 1
            lang = language_of(conn, uid)
            said = text(lang) if callable(text) else text
            conn.execute(insert(T_NOTICES), dict(user_id=uid, game_id=game_id, kind=kind, text=said, seq=seq,
                                                 created_at=self.clock.now(), read_at=None))
            # a muted game: the notice above, but no mail and no webhook call; nor for one
            # the player is looking at, unless it waits for them (held until they leave)
            if not mail or is_muted(conn, uid, game_id):
                continue
            watched = self.watching(conn, uid, game_id)
            p = {} if watched and kind not in WAITING_KINDS else prefs(conn, uid)
            if not p:
                continue
            subj = self.subject(kind, game_id, lang, subject)
            delay = HELD_RECHECK_SECONDS if watched else self.mail_delay_seconds if kind in WAITING_KINDS else 0.0
            status = "held" if watched else "pending"
            if p["verified"] and p["mode"] == "turn":
                facts = (game_facts(conn, game_id, uid, self.clocks, p["time_zone"], pending, current, lang)
                         if game_id else None)
                body, html = self.mail_bodies(said, uid, game_id, facts, lang)
                self.queue_email(conn, uid, p["email"], kind, subj, body, game_id, seq, delay=delay, html=html,
                                 status=status)
            h = p["hook"]
            if h is not None and h.enabled:
                self.queue_webhook(conn, uid, h, kind, subj, said, game_id, seq, delay, status)
        return n


def seat_of(conn: Any, game_id: str | None, user_id: int) -> str | None:
    """The side the user plays in the game (None: not a player, or no game)."""
    if not game_id:
        return None
    g = conn.execute(select(T_GAMES.c.union_user_id, T_GAMES.c.confederate_user_id)
                     .where(T_GAMES.c.id == game_id)).first()
    if g is None:
        return None
    return "union" if g.union_user_id == user_id else "confederate" if g.confederate_user_id == user_id else None


def language_of(conn: Any, user_id: int | None) -> str:
    """The language the account reads (users.language; English when unset)."""
    saved = conn.execute(select(T_USERS.c.language).where(T_USERS.c.id == user_id)).scalar() \
        if user_id is not None else None
    return translator(saved).lang


def prefs(conn: Any, user_id: int) -> dict:
    """Address, mode, verification and webhook of one user ({} if there is no such user)."""
    u = conn.execute(select(T_USERS.c.id, T_USERS.c.username, T_USERS.c.email).where(T_USERS.c.id == user_id)).first()
    if u is None:
        return {}
    p = conn.execute(select(T_PREFS).where(T_PREFS.c.user_id == user_id)).first()
    h = conn.execute(select(T_HOOKS).where(T_HOOKS.c.user_id == user_id)).first()
    email = u.email
    verified = bool(email and p is not None and p.verified_email and p.verified_email.lower() == email.lower())
    return {"username": u.username, "email": email, "verified": verified,
            "mode": p.mode if p is not None else "turn", "hook": h,
            "time_zone": p.time_zone if p is not None else "UTC",
            "digest_hour": p.digest_hour if p is not None else 8}


def ensure_prefs(conn: Any, user_id: int) -> None:
    """The settings row of an account, with the defaults, if it has none yet."""
    if conn.execute(select(T_PREFS.c.user_id).where(T_PREFS.c.user_id == user_id)).first() is None:
        conn.execute(insert(T_PREFS), dict(user_id=user_id, mode="turn", verified_email=None, verified_at=None,
                                           last_digest_at=None, time_zone="UTC", digest_hour=8))


def unsubscribe(conn: Any, user_id: int) -> None:
    """No more mail of any kind (mode "never"); the settings page turns it back on."""
    ensure_prefs(conn, user_id)
    conn.execute(update(T_PREFS).where(T_PREFS.c.user_id == user_id).values(mode="never"))


# --------------------------------------------------------------------------- reads

def unread_count(conn: Any, user_id: int) -> int:
    return conn.execute(select(func.count()).select_from(T_NOTICES).where(
        T_NOTICES.c.user_id == user_id, T_NOTICES.c.read_at.is_(None))).scalar_one()


def recent_notices(conn: Any, user_id: int, limit: int = 50) -> list[dict]:
    rows = conn.execute(select(T_NOTICES).where(T_NOTICES.c.user_id == user_id)
                        .order_by(T_NOTICES.c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "game_id": r.game_id, "kind": r.kind, "text": r.text, "seq": r.seq,
             "at": aware(r.created_at).isoformat(), "read": r.read_at is not None} for r in rows]


def mark_read(conn: Any, clock: Clock, user_id: int, ids: list[int] | None = None) -> None:
    q = update(T_NOTICES).where(T_NOTICES.c.user_id == user_id, T_NOTICES.c.read_at.is_(None))
    if ids:
        q = q.where(T_NOTICES.c.id.in_(ids))
    conn.execute(q.values(read_at=clock.now()))


def _is_site_notice() -> Any:
    return or_(*[T_NOTICES.c.kind.startswith(p, autoescape=True) for p in SITE_NOTICE_PREFIXES])


def site_notices(conn: Any, user_id: int, limit: int = 200) -> list[dict]:
    """What administrators' decisions and disputes told the user (newest first)."""
    c = T_NOTICES.c
    rows = conn.execute(select(T_NOTICES).where(c.user_id == user_id, _is_site_notice())
                        .order_by(c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "game_id": r.game_id, "kind": r.kind, "text": r.text, "at": aware(r.created_at).isoformat(),
             "read": r.read_at is not None} for r in rows]


def mark_site_notices_read(conn: Any, clock: Clock, user_id: int) -> None:
    c = T_NOTICES.c
    conn.execute(update(T_NOTICES).where(c.user_id == user_id, c.read_at.is_(None), _is_site_notice())
                 .values(read_at=clock.now()))
