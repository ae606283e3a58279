"""Notices: in-site notifications, and the transactional outbox for mail and webhooks.

    notify(conn, user_ids, kind, game_id, text)

writes, on the caller's connection and so inside the caller's transaction, one in-site
notice per user and, for each user who wants them, one outbox row per channel (an email
to a verified address when the user chose "every turn"; a webhook call when one is
registered). Nothing is sent here: the worker (app/mailer.py) reads the outbox after the
commit, so a notice exists exactly when the event that caused it does.

`Notifier.on_append` is the hook the command pipeline (app/games.py `_append`) calls in
the append transaction: it turns a hand-over ("the game now waits for you"), the end of a
game and a resignation into notices, with what happened since the player's last decision
in words and a link to the game. In live games a player who has the game open is not
notified (RTT's rule); by-turn games always notify.
"""
from __future__ import annotations

import functools
import logging
from datetime import datetime, timedelta
from typing import Any, Iterable

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, func, insert, select,
                        update)
from sqlalchemy.orm import Mapped, mapped_column

from . import clock
from .models import Base, GameCommand, GameEvent, User

log = logging.getLogger("app.notify")


# --------------------------------------------------------------------------- models

class Notice(Base):
    """An in-site notification (the badge and /notifications)."""
    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(24))
    text: Mapped[str] = mapped_column(Text)
    seq: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class OutboxMessage(Base):
    """One message to deliver (email or webhook). Written in the transaction of the event
    that caused it; the worker claims it (pending -> sending), delivers it and marks it
    sent, or puts it back with a later next_attempt_at, or marks it failed."""
    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(8))          # email | webhook
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(16))
    game_seq: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    recipient: Mapped[str] = mapped_column(String(1000))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    status: Mapped[str] = mapped_column(String(10), index=True)  # pending | sending | sent | failed | cancelled
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    dedupe: Mapped[str | None] = mapped_column(String(120), unique=True)


class MailPrefs(Base):
    """Per account: how often to mail (turn | digest | never) and which address is verified."""
    __tablename__ = "mail_prefs"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), default="turn")
    verified_email: Mapped[str | None] = mapped_column(String(254))
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Webhook(Base):
    """Per account: a URL that receives the same notices as JSON ({json_key: prefix + text})."""
    __tablename__ = "webhooks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    url: Mapped[str] = mapped_column(String(1000))
    json_key: Mapped[str] = mapped_column(String(64), default="content")
    prefix: Mapped[str] = mapped_column(String(200), default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    last_error: Mapped[str | None] = mapped_column(String(1000))
    last_error_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_ok_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


T_NOTICES, T_OUTBOX, T_PREFS, T_HOOKS = (Notice.__table__, OutboxMessage.__table__, MailPrefs.__table__,
                                         Webhook.__table__)
T_USERS, T_EVENTS, T_CMDS = User.__table__, GameEvent.__table__, GameCommand.__table__

MAIL_MODES = ("turn", "digest", "never")
# notices that say "the game waits for you": the mail is dropped if the player has
# already answered by the time the worker gets to it
WAITING_KINDS = ("turn", "battle", "choice", "reminder")
SUBJECTS = {
    "turn": "Your turn", "battle": "A battle decision waits for you", "choice": "Retreat or reinforce?",
    "game_over": "Game over", "resigned": "Your opponent resigned", "aborted": "Game aborted",
    "reminder": "Reminder: your time is running out", "timeout": "Your opponent's time is up",
    "time_up": "Your time is up", "lost_on_time": "Game lost on time", "extended": "More time",
    "verify": "Confirm your email address", "digest": "Games waiting for you", "test": "Test notice",
}


# --------------------------------------------------------------------------- config

class _Config:
    public_url = "http://localhost:8000"
    secret_key = "insecure-development-key-change-me"
    mail_delay_seconds = 0.0
    site_name = "A House Divided"


CONFIG = _Config()


def configure(settings: Any) -> None:
    CONFIG.public_url = str(getattr(settings, "public_url", CONFIG.public_url)).rstrip("/")
    CONFIG.secret_key = getattr(settings, "secret_key", CONFIG.secret_key)
    CONFIG.mail_delay_seconds = float(getattr(settings, "mail_delay_seconds", 0) or 0)
    clock.configure(getattr(settings, "clock_file", None))


def game_url(game_id: str) -> str:
    return f"{CONFIG.public_url}/games/{game_id}"


def unsubscribe_token(user_id: int) -> str:
    return URLSafeSerializer(CONFIG.secret_key, salt="unsubscribe").dumps(user_id)


def read_unsubscribe_token(token: str) -> int | None:
    try:
        return int(URLSafeSerializer(CONFIG.secret_key, salt="unsubscribe").loads(token))
    except (BadSignature, ValueError, TypeError):
        return None


def unsubscribe_url(user_id: int) -> str:
    return f"{CONFIG.public_url}/unsubscribe?t={unsubscribe_token(user_id)}"


def verify_token(user_id: int, email: str) -> str:
    return URLSafeTimedSerializer(CONFIG.secret_key, salt="verify-email").dumps([user_id, email])


def read_verify_token(token: str, max_age: int = 7 * 86400) -> tuple[int, str] | None:
    try:
        uid, email = URLSafeTimedSerializer(CONFIG.secret_key, salt="verify-email").loads(token, max_age=max_age)
        return int(uid), str(email)
    except (BadSignature, ValueError, TypeError):
        return None


# --------------------------------------------------------------------------- queueing

def _prefs(conn, user_id: int) -> dict:
    """Address, mode, verification and webhook of one user."""
    u = conn.execute(select(T_USERS.c.id, T_USERS.c.username, T_USERS.c.email).where(T_USERS.c.id == user_id)).first()
    if u is None:
        return {}
    p = conn.execute(select(T_PREFS).where(T_PREFS.c.user_id == user_id)).first()
    h = conn.execute(select(T_HOOKS).where(T_HOOKS.c.user_id == user_id)).first()
    email = u.email
    verified = bool(email and p is not None and p.verified_email and p.verified_email.lower() == email.lower())
    return {"username": u.username, "email": email, "verified": verified,
            "mode": p.mode if p is not None else "turn", "hook": h}


def _mail_text(text: str, user_id: int, game_id: str | None) -> str:
    parts = [text.rstrip()]
    if game_id:
        parts.append(f"Open the game: {game_url(game_id)}")
    parts.append("-- \n"
                 f"Notices from {CONFIG.site_name} ({CONFIG.public_url}). How often: {CONFIG.public_url}/settings\n"
                 f"Unsubscribe from all mail with one click: {unsubscribe_url(user_id)}")
    return "\n\n".join(parts) + "\n"


def queue_email(conn, user_id: int, address: str, kind: str, subject: str, body: str,
                game_id: str | None = None, seq: int | None = None, dedupe: str | None = None,
                delay: float = 0.0, unsubscribe: bool = True) -> None:
    now = clock.now()
    headers = {}
    if unsubscribe:
        u = unsubscribe_url(user_id)
        headers = {"List-Unsubscribe": f"<{u}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    conn.execute(insert(T_OUTBOX), dict(
        channel="email", user_id=user_id, game_id=game_id, game_seq=seq, kind=kind, recipient=address,
        subject=f"[{CONFIG.site_name}] {subject}", body=body, payload={"headers": headers}, status="pending",
        attempts=0, next_attempt_at=now + timedelta(seconds=delay), created_at=now, dedupe=dedupe))


def notify(conn, user_ids: Iterable[int | None], kind: str, game_id: str | None, text: str, *,
           seq: int | None = None, subject: str | None = None, mail: bool = True) -> int:
    """Queue an in-site notice and the outbox rows (mail, webhook) for each user, on
    `conn` (a SQLAlchemy Connection or Session): they commit or roll back with the
    caller's transaction. Returns the number of users notified."""
    now = clock.now()
    n = 0
    for uid in dict.fromkeys(u for u in user_ids if u is not None):
        n += 1
        conn.execute(insert(T_NOTICES), dict(user_id=uid, game_id=game_id, kind=kind, text=text, seq=seq,
                                             created_at=now, read_at=None))
        if not mail:
            continue
        p = _prefs(conn, uid)
        if not p:
            continue
        subj = subject or SUBJECTS.get(kind, kind.replace("_", " ").capitalize())
        if game_id:
            subj = f"{subj} (game {game_id})"
        delay = CONFIG.mail_delay_seconds if kind in WAITING_KINDS else 0.0
        if p["verified"] and p["mode"] == "turn":
            queue_email(conn, uid, p["email"], kind, subj, _mail_text(text, uid, game_id), game_id, seq,
                        delay=delay)
        h = p["hook"]
        if h is not None and h.enabled:
            line = text.strip().splitlines()[0] if text.strip() else kind
            msg = f"{h.prefix} {line}".strip()
            if game_id:
                msg += f" {game_url(game_id)}"
            conn.execute(insert(T_OUTBOX), dict(
                channel="webhook", user_id=uid, game_id=game_id, game_seq=seq, kind=kind, recipient=h.url,
                subject=subj, body=text, payload={h.json_key or "content": msg}, status="pending", attempts=0,
                next_attempt_at=now + timedelta(seconds=delay), created_at=now, dedupe=None))
    return n


# --------------------------------------------------------------------------- events in words

@functools.lru_cache(maxsize=1)
def _names() -> tuple[dict, dict]:
    import rules_engine
    from rules_engine.data import pieces
    # every version's boxes, so the events of games on an older map keep their names
    boxes = {box.id: box.name for version in sorted(rules_engine.DATA_VERSIONS)
             for box in rules_engine.load_map(version).boxes.values()}
    types = {k: v["name"] for k, v in pieces()["types"].items()}
    return boxes, types


SIDE = {"union": "Union", "confederate": "Confederate"}


def _box(b: Any) -> str:
    return _names()[0].get(b, str(b))


def _unit(u: Any) -> str:
    parts = str(u).split("-")
    side = {"U": "Union", "C": "Confederate"}.get(parts[0], "")
    t = _names()[1].get(parts[1]) if len(parts) >= 3 else None
    return f"{side} {t or u}".strip()


def describe(ev: dict) -> str | None:
    """One event (as GameEvent.out() gives it) in words, or None for the minor ones."""
    d = ev.get("data") or {}
    t = ev.get("type")
    if ev.get("source") == "server":
        if d.get("text"):
            return d["text"]
        return {"join": lambda: f"{d.get('username')} takes the {SIDE.get(d.get('side'), '')} seat.",
                "start": lambda: f"The game begins: the {SIDE.get(d.get('to_act'), '')} player moves first.",
                "undo": lambda: f"The {SIDE.get(d.get('side'), '')} player took back a decision.",
                "resign": lambda: f"{d.get('username')} ({SIDE.get(d.get('side'), '')}) resigned.",
                "abort": lambda: f"{d.get('by')} aborted the game."}.get(t, lambda: None)()
    s = SIDE.get(d.get("side"), "")
    if t == "player_turn":
        return f"Turn {d.get('turn')} ({d.get('date')}): {s} player turn."
    if t == "action":
        a = d.get("action") or {}
        at = a.get("type")
        if at == "activate":
            return f"{s} activates {_box(a.get('box'))}."
        if at == "move":
            return f"{s}: {_unit(a.get('unit'))} moves to {' -> '.join(_box(b) for b in a.get('path') or [])}."
        if at == "sea_move":
            return f"{s}: {_unit(a.get('unit'))} moves by sea to {_box(a.get('to'))}."
        if at == "invade":
            return f"{s}: {_unit(a.get('unit'))} makes a naval invasion of {_box(a.get('to'))}."
        if at == "reinforce":
            return f"{s}: {_unit(a.get('unit'))} reinforces the battle."
        if at == "stand":
            return f"{s}: the cavalry stands and fights."
        return None
    if t == "roll":
        p = d.get("purpose")
        if p == "marches":
            v = d.get("value")
            return f"{s} rolls {v}: {2 if v == 1 else v} marches."
        if p == "recruits":
            v = d.get("value")
            return f"{s} rolls {v}: {2 if v == 1 else v} recruitment points."
        if p == "fire":
            hit = d.get("value", 7) <= d.get("need", 0)
            return (f"{_unit(d.get('unit'))} fires at {_unit(d.get('target'))}: {d.get('value')} "
                    f"({'hit' if hit else 'miss'}, needs {d.get('need')} or less).")
        return f"{s} rolls {d.get('value')} ({p})."
    simple = {
        "battle": lambda: f"Battle at {_box(d.get('box'))}: the {SIDE.get(d.get('attacker'), '')} attacks.",
        "reduced": lambda: f"{_unit(d.get('unit'))} is reduced.",
        "eliminated": lambda: f"{_unit(d.get('unit'))} is eliminated.",
        "retreated": lambda: f"The {s} retreats from {_box(d.get('box'))} to {_box(d.get('to'))}.",
        "withdrew": lambda: f"The defending cavalry withdraws from {_box(d.get('box'))} to {_box(d.get('to'))}.",
        "battle_won": lambda: f"The {SIDE.get(d.get('winner'), '')} wins the battle of {_box(d.get('box'))}.",
        "promoted": lambda: f"{_unit(d.get('unit'))} at {_box(d.get('box'))} is promoted.",
        "recruited": lambda: f"{_unit(d.get('unit'))} recruited at {_box(d.get('box'))}.",
        "captured": lambda: f"The {s} captures {_box(d.get('box'))}.",
        "control_reverts": lambda: f"{_box(d.get('box'))} reverts to its original owner.",
        "kentucky_entered": lambda: "Kentucky's neutrality is violated.",
        "game_over": lambda: f"Game over: {SIDE.get(d.get('winner'), 'nobody')} wins. {d.get('reason') or ''}".strip(),
    }
    f = simple.get(t)
    return f() if f else None


def events_in_words(events: list[dict], limit: int = 40) -> list[str]:
    lines = [x for x in (describe(e) for e in events) if x]
    if len(lines) > limit:
        lines = [f"... ({len(lines) - limit} earlier entries in the game log)"] + lines[-limit:]
    return lines


def since_last_move(conn, game_id: str, user_id: int, upto: int, pending: list[dict] = ()) -> list[str]:
    """What happened in the game since this user's last decision (events up to `upto`
    from the table, plus those being appended in this transaction)."""
    last = conn.execute(select(func.max(T_CMDS.c.last_seq)).where(
        T_CMDS.c.game_id == game_id, T_CMDS.c.user_id == user_id,
        T_CMDS.c.kind.in_(("action", "orders", "create", "join")))).scalar() or 0
    start = max(last, upto - 400)
    rows = conn.execute(select(T_EVENTS.c.seq, T_EVENTS.c.source, T_EVENTS.c.type, T_EVENTS.c.actor,
                               T_EVENTS.c.payload).where(T_EVENTS.c.game_id == game_id, T_EVENTS.c.seq > start,
                                                         T_EVENTS.c.seq <= upto).order_by(T_EVENTS.c.seq)).all()
    evs = [{"seq": r.seq, "source": r.source, "type": r.type, "actor": r.actor, "data": r.payload} for r in rows]
    evs += [e for e in pending if e["seq"] > max(start, upto)]
    return events_in_words(evs)


# --------------------------------------------------------------------------- the pipeline hook

class Notifier:
    """Called by GameService._append inside the append transaction (see module doc)."""

    def __init__(self, games: Any = None, hub: Any = None):
        self.games = games
        self.hub = hub
        self.deadline_hook = None  # app.deadlines.on_append (set in create_app)

    def connected(self, gid: str, side: str) -> bool:
        hub = self.hub
        if hub is None:
            return False
        try:
            ch = hub.channels.get(gid)
            if ch is not None:
                return side in hub.presence_total(ch)[1]
            import time as _t
            now = _t.monotonic()
            return any(side in sides and now - ts < 75 for _, sides, ts in (hub.remote.get(gid) or {}).values())
        except Exception:  # read from a worker thread while the loop changes it: be conservative
            return False

    def _waiting_kind(self, gid: str, side: str) -> str:
        e = self.games._cache_get(gid) if self.games is not None else None
        g = e.game if e is not None else None
        if g is None or g.to_act != side:
            return "turn"
        if g.phase == "battle":
            step = (g.battle or {}).get("step")
            return "choice" if step == "prepare" else "battle"
        if g.phase == "battle_choice":
            return "battle"
        return "turn"

    def on_append(self, s, game: Any, new: dict, out: list) -> None:
        if not out:
            return
        if self.deadline_hook is not None and game.mode == "async":
            self.deadline_hook(s, game, new, out)
        old_status, status = game.status, new["status"]
        old_act, act = game.to_act, new["to_act"]
        seats = {"union": new["union_user_id"], "confederate": new["confederate_user_id"]}
        live = game.mode != "async"
        gid = game.id
        if status == "active" and act in seats and (old_status != "active" or old_act != act):
            uid = seats[act]
            if uid is None or (live and self.connected(gid, act)):
                return
            kind = self._waiting_kind(gid, act)
            head = {"turn": f"Game {gid}: your turn ({SIDE[act]}).",
                    "battle": f"Game {gid}: a battle decision waits for you ({SIDE[act]}).",
                    "choice": f"Game {gid}: retreat, reinforce or fire on? ({SIDE[act]})"}[kind]
            self._notify(s, game, [(uid, act)], kind, head, new, out)
        elif status in ("finished", "aborted") and old_status not in ("finished", "aborted"):
            types = {e.type for e in out if e.source == "server"}
            first = out[0]
            personal = first.actor if first.source != "server" or first.type in ("resign", "abort") else None
            if "timeout" in types:  # app.deadlines notifies about its own result
                return
            result = new.get("result") or {}
            targets = [(uid, side) for side, uid in seats.items() if uid is not None and side != personal]
            if live:
                targets = [(u, sd) for u, sd in targets if not self.connected(gid, sd)]
            if not targets:
                return
            if "resign" in types:
                kind, head = "resigned", f"Game {gid}: your opponent resigned. You win."
            elif status == "aborted":
                kind, head = "aborted", f"Game {gid} was aborted."
            else:
                w = result.get("winner")
                kind = "game_over"
                head = f"Game {gid} is over: {SIDE.get(w, 'nobody')} wins. {result.get('reason') or ''}".strip()
            self._notify(s, game, targets, kind, head, new, out)

    def _notify(self, s, game, targets, kind, head, new, out) -> None:
        pending = [e.out() for e in out]
        for uid, _side in targets:
            lines = since_last_move(s, game.id, uid, game.seq, pending)
            text = head
            if lines:
                text += "\n\nSince your last move:\n" + "\n".join("- " + x for x in lines)
            notify(s, [uid], kind, game.id, text, seq=new["seq"])


# --------------------------------------------------------------------------- reads

def unread_count(conn, user_id: int) -> int:
    return conn.execute(select(func.count()).select_from(T_NOTICES).where(
        T_NOTICES.c.user_id == user_id, T_NOTICES.c.read_at.is_(None))).scalar_one()


def recent_notices(conn, user_id: int, limit: int = 50) -> list[dict]:
    rows = conn.execute(select(T_NOTICES).where(T_NOTICES.c.user_id == user_id)
                        .order_by(T_NOTICES.c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "game_id": r.game_id, "kind": r.kind, "text": r.text, "seq": r.seq,
             "at": clock.aware(r.created_at).isoformat(), "read": r.read_at is not None} for r in rows]


def mark_read(conn, user_id: int, ids: list[int] | None = None) -> None:
    q = update(T_NOTICES).where(T_NOTICES.c.user_id == user_id, T_NOTICES.c.read_at.is_(None))
    if ids:
        q = q.where(T_NOTICES.c.id.in_(ids))
    conn.execute(q.values(read_at=clock.now()))
