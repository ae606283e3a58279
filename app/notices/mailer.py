"""The outbox worker: delivers email (SMTP) and webhook calls written by app.notices.outbox,
and runs the timer jobs it is given (the play-by-turn timers: reminders, time-up notices,
standing orders, digests; app.main hands them in, so this package does not depend on
app.playbyturn).

Delivery, per outbox row:
  1. claim: UPDATE outbox SET status='sending' WHERE id=? AND status='pending' (and the
     row is due) -> only one worker, in any process, gets it; committed before sending;
  2. send (SMTP or HTTP POST);
  3. mark 'sent' - or, on a temporary failure (server down, 4xx, timeout), put it back
     to 'pending' with next_attempt_at = now + back-off (MAIL_RETRY_SECONDS doubling,
     at most an hour) until MAIL_MAX_ATTEMPTS; a permanent failure (5xx refusal) or too
     many attempts make it 'failed' (the admin outbox page shows it; "retry" requeues).
A row left in 'sending' by a worker that died mid-send is never sent again
automatically (it may have gone out): after 10 minutes it becomes 'failed' with
"delivery unknown", for an administrator to decide. So nothing is ever sent twice.

Started with the app (MAIL_WORKER=true, the default) or alone: `python -m app mail-worker`.
"""
from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections.abc import Callable, Sequence
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any

from sqlalchemy import select, update

from ..core.clock import Clock
from ..guard.outbound import DeliveryFailed, RefusedDestination, json_bytes, post_body
from ..store import events as store
from .mutes import is_muted
from .outbox import HELD_RECHECK_SECONDS, T_HOOKS, T_OUTBOX, T_PREFS, T_USERS, WAITING_KINDS, Notices
from .signing import signed_headers

log = logging.getLogger("app.mailer")
STALE_SENDING = timedelta(minutes=10)


class Permanent(Exception):
    """Delivery refused for good: do not retry."""


class Worker:
    """`timers`: jobs run at each tick (each returns how much it did); `clocks`: what
    reads a game's clock (`clock_view(conn, game_id)`: the deadline in a webhook's
    event), app.playbyturn.deadlines.Deadlines."""

    def __init__(self, db: Any, settings: Any, clock: Clock, notices: Notices, clocks: Any,
                 timers: Sequence[Callable[[], int]] = (), send: bool = True):
        self.db = db
        self.settings = settings
        self.clock = clock
        self.notices = notices
        self.clocks = clocks
        self.timers = tuple(timers)
        self.send_enabled = send
        self.interval = float(settings.mail_poll_seconds)
        self._task: asyncio.Task | None = None
        self._stop = asyncio.Event()
        self.sent = 0

    # ---------------------------------------------------------------- loop
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    def request_stop(self) -> None:
        self._stop.set()

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 15)
            except Exception:
                self._task.cancel()

    async def run(self) -> None:
        while not self._stop.is_set():
            try:
                await asyncio.to_thread(self.tick)
            except Exception:
                log.exception("outbox worker tick failed")
            try:
                await asyncio.wait_for(self._stop.wait(), self.interval)
            except TimeoutError:
                pass

    def tick(self) -> int:
        n = 0
        for job in self.timers:
            try:
                n += job()
            except Exception:
                log.exception("timer job %s failed", getattr(job, "__name__", job))
        if self.send_enabled:
            self.release_held()
            n += self.deliver_due()
        return n

    # ---------------------------------------------------------------- delivery
    def release_held(self, limit: int = 200) -> None:
        """Mail and calls held while their reader had the game open (app.notices.outbox):
        dropped once the reader answered; looked at again later while they still have it
        open; else, the reader has left without answering, sent after the mail delay."""
        now = self.clock.now()
        c = T_OUTBOX.c
        with self.db.write() as conn:
            rows = conn.execute(select(c.id, c.user_id, c.game_id, c.game_seq)
                                .where(c.status == "held", c.next_attempt_at <= now).order_by(c.id).limit(limit)).all()
            for r in rows:
                if r.game_seq is not None and store.answered_after(conn, r.game_id, r.user_id, r.game_seq):
                    values: dict = dict(status="cancelled", last_error="the player answered before the notice went out")
                elif self.notices.watching(conn, r.user_id, r.game_id):
                    values = dict(next_attempt_at=now + timedelta(seconds=HELD_RECHECK_SECONDS))
                else:
                    values = dict(status="pending", next_attempt_at=now + timedelta(
                        seconds=self.notices.mail_delay_seconds))
                conn.execute(update(T_OUTBOX).where(c.id == r.id, c.status == "held").values(**values))
            conn.commit()

    def deliver_due(self, limit: int = 50) -> int:
        now = self.clock.now()
        with self.db.write() as conn:
            # a worker that died while sending: delivery unknown, never resend on our own
            conn.execute(update(T_OUTBOX).where(T_OUTBOX.c.status == "sending",
                                                T_OUTBOX.c.claimed_at < now - STALE_SENDING)
                         .values(status="failed",
                                 last_error="delivery unknown: the worker stopped while sending (retry from "
                                            "the outbox page if it did not arrive)"))
            conn.commit()
        with self.db.read() as conn:
            q = select(T_OUTBOX.c.id).where(T_OUTBOX.c.status == "pending", T_OUTBOX.c.next_attempt_at <= now)
            if not (self.settings.smtp_host or ""):
                q = q.where(T_OUTBOX.c.channel != "email")
            ids = [r[0] for r in conn.execute(q.order_by(T_OUTBOX.c.id).limit(limit)).all()]
        done = 0
        for mid in ids:
            done += self.deliver_one(mid)
        return done

    def deliver_one(self, mid: int) -> int:
        now = self.clock.now()
        with self.db.write() as conn:
            r = conn.execute(update(T_OUTBOX).where(T_OUTBOX.c.id == mid, T_OUTBOX.c.status == "pending")
                             .values(status="sending", claimed_at=now, attempts=T_OUTBOX.c.attempts + 1))
            if r.rowcount != 1:
                conn.rollback()
                return 0
            row = conn.execute(select(T_OUTBOX).where(T_OUTBOX.c.id == mid)).first()
            moot = self._moot(conn, row)
            if moot:
                conn.execute(update(T_OUTBOX).where(T_OUTBOX.c.id == mid).values(status="cancelled",
                                                                                   last_error=moot))
            conn.commit()
        if moot:
            return 0
        try:
            if row.channel == "email":
                self._send_email(row)
            else:
                self._send_webhook(row)
        except Permanent as exc:
            self._failed(row, str(exc), final=True)
            return 0
        except Exception as exc:  # temporary: back off and retry
            self._failed(row, f"{type(exc).__name__}: {exc}", final=False)
            return 0
        with self.db.write() as conn:
            conn.execute(update(T_OUTBOX).where(T_OUTBOX.c.id == mid).values(status="sent", sent_at=self.clock.now(),
                                                                               last_error=None))
            if row.channel == "webhook" and row.user_id:
                conn.execute(update(T_HOOKS).where(T_HOOKS.c.user_id == row.user_id)
                             .values(last_ok_at=self.clock.now()))
            conn.commit()
        self.sent += 1
        return 1

    def _moot(self, conn, row) -> str | None:
        """An email to an address that is no longer the verified one, or (only with
        MAIL_DELAY_SECONDS > 0, whose point this is) a "the game waits for you" mail whose
        reader answered during the delay, anything about a game its reader muted since,
        or a webhook call to an address its owner removed or replaced: not sent. Otherwise every notice goes out, even
        late (e.g. after the mail server was down)."""
        if row.channel == "email" and row.kind != "verify" and row.user_id:
            u = conn.execute(select(T_USERS.c.email).where(T_USERS.c.id == row.user_id)).first()
            p = conn.execute(select(T_PREFS).where(T_PREFS.c.user_id == row.user_id)).first()
            if u is None or not u.email or u.email.lower() != row.recipient.lower() or p is None \
                    or (p.verified_email or "").lower() != row.recipient.lower():
                return "the address is no longer verified"
            if p.mode == "never":
                return "unsubscribed"
        if row.channel == "webhook" and row.user_id and conn.execute(
                select(T_HOOKS.c.url).where(T_HOOKS.c.user_id == row.user_id)).scalar() != row.recipient:
            return "the webhook was removed or its address changed"
        if row.user_id and is_muted(conn, row.user_id, row.game_id):
            return "the player muted the game"
        if (float(getattr(self.settings, "mail_delay_seconds", 0) or 0) > 0 and row.kind in WAITING_KINDS
                and row.game_id and row.game_seq is not None and row.user_id):
            if store.answered_after(conn, row.game_id, row.user_id, row.game_seq):
                return "the player answered before the notice went out"
        return None

    def _failed(self, row, error: str, final: bool) -> None:
        attempts = row.attempts or 1          # counted when the message was claimed for this try
        final, delay = retry_plan(attempts, float(getattr(self.settings, "mail_retry_seconds", 30)),
                                  int(getattr(self.settings, "mail_max_attempts", 20)), final)
        log.warning("outbox %s (%s to %s) attempt %s failed: %s", row.id, row.channel, row.recipient, attempts, error)
        with self.db.write() as conn:
            conn.execute(update(T_OUTBOX).where(T_OUTBOX.c.id == row.id).values(
                status="failed" if final else "pending", last_error=error[:1000],
                next_attempt_at=self.clock.now() + timedelta(seconds=delay)))
            if row.channel == "webhook" and row.user_id:
                conn.execute(update(T_HOOKS).where(T_HOOKS.c.user_id == row.user_id).values(
                    last_error=error[:1000], last_error_at=self.clock.now()))
            conn.commit()

    # ---------------------------------------------------------------- transports
    def _send_email(self, row) -> None:
        st = self.settings
        msg = EmailMessage()
        msg["From"] = st.mail_from
        msg["To"] = row.recipient
        msg["Subject"] = row.subject
        msg["Date"] = formatdate(localtime=False)
        for k, v in thread_headers(row, st.mail_from).items():
            msg[k] = v
        msg["X-HD-Outbox-Id"] = str(row.id)
        for k, v in ((row.payload or {}).get("headers") or {}).items():
            msg[k] = v
        msg.set_content(row.body)
        html = (row.payload or {}).get("html")
        if html:
            msg.add_alternative(html, subtype="html")
        tls = str(st.smtp_tls).lower()
        try:
            smtp: smtplib.SMTP
            if tls in ("ssl", "tls", "implicit"):
                smtp = smtplib.SMTP_SSL(st.smtp_host, st.smtp_port, timeout=15, context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(st.smtp_host, st.smtp_port, timeout=15)
            try:
                if tls in ("starttls", "true", "1", "yes"):
                    smtp.starttls(context=ssl.create_default_context())
                if st.smtp_user:
                    smtp.login(st.smtp_user, st.smtp_password or "")
                smtp.send_message(msg)
            finally:
                _hang_up(smtp)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [c for c, _ in exc.recipients.values()]
            if all(500 <= c < 600 for c in codes):
                raise Permanent(f"recipient refused: {exc.recipients}") from None
            raise
        except smtplib.SMTPResponseException as exc:
            if 500 <= exc.smtp_code < 600 and exc.smtp_code != 530:
                raise Permanent(f"SMTP {exc.smtp_code}: {exc.smtp_error!r}") from None
            raise

    def _send_webhook(self, row) -> None:
        """POST to a checked public address (each redirect checked again), signed with
        the hook's current secret. Only the status or the kind of failure is kept: the
        far side's answer is never stored, so a webhook cannot be used to read pages the
        server can reach."""
        with self.db.read() as conn:
            secret = conn.execute(select(T_HOOKS.c.secret).where(T_HOOKS.c.user_id == row.user_id)).scalar()
            payload = self._with_deadline(conn, row.payload or {})
        if secret is None:
            raise Permanent("the webhook was removed")
        body = json_bytes(payload)
        # rows queued before deliveries had ids keep their body; the row id names them
        delivery = str(payload.get("delivery") or f"outbox-{row.id}")
        headers = signed_headers(secret, delivery, int(self.clock.now().timestamp()), body)
        try:
            got = post_body(row.recipient, body, headers=headers, allow_hosts=self.settings.webhook_allowed_hosts)
        except RefusedDestination as exc:
            raise Permanent(str(exc)) from None
        except DeliveryFailed as exc:
            raise RuntimeError(str(exc)) from None
        if 200 <= got.status < 300:
            return
        err = f"HTTP {got.status}"
        if 400 <= got.status < 500 and got.status not in (408, 429):
            raise Permanent(err)
        raise RuntimeError(err)

    def _with_deadline(self, conn, payload: dict) -> dict:
        """The structured event's deadline, as it stands when the call is sent: when the
        recipient's clock runs in that game, until when they may answer."""
        event = payload.get("event")
        if not isinstance(event, dict) or not event.get("game") or not event.get("side"):
            return payload
        view = self.clocks.clock_view(conn, event["game"])
        deadline = view["deadline"] if view and view["side"] == event["side"] else None
        return {**payload, "event": {**event, "deadline": deadline}}


def thread_headers(row, mail_from: str) -> dict[str, str]:
    """Message-ID of one outbox mail (the same on every attempt, so a resend is
    recognised as the same mail) and, for a mail about a game, In-Reply-To/References
    naming the game's thread root: mail programs show a game's mails as one thread."""
    domain = (mail_from.rpartition("@")[2] or "localhost").strip(">").strip() or "localhost"
    created = int(row.created_at.timestamp()) if row.created_at else 0
    headers = {"Message-ID": f"<outbox-{row.id}.{created}@{domain}>"}
    if row.game_id:
        root = f"<game-{row.game_id}@{domain}>"
        headers.update({"In-Reply-To": root, "References": root})
    return headers


def _hang_up(smtp: smtplib.SMTP) -> None:
    """Say QUIT and close. Once the server has accepted the message it is sent: a
    server that then fails or drops the connection on QUIT must not make us send the
    same mail again, so nothing after the message may count as a failure."""
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        pass
    finally:
        smtp.close()


def retry_plan(attempts: int, first_delay: float, max_attempts: int, final: bool = False) -> tuple[bool, float]:
    """After the ``attempts``-th failed try: whether the message has failed for good
    (MAIL_MAX_ATTEMPTS tries made, or a permanent error), and the seconds until the next
    try: MAIL_RETRY_SECONDS after the first, doubling each time, at most an hour."""
    return final or attempts >= max_attempts, min(first_delay * (2 ** (attempts - 1)), 3600.0)
