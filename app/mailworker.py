"""`python -m app mail-worker`: a process that only sends the outbox (the app process
runs the game timers)."""
from __future__ import annotations

import asyncio
import logging
import signal

from .core.clock import Clock
from .guard.logs import install as redact_secrets_in_logs
from .notices.mailer import Worker
from .notices.outbox import Notices
from .playbyturn.deadlines import Deadlines
from .store.db import Database

log = logging.getLogger("app.mailer")


def main_loop(settings) -> int:
    redact_secrets_in_logs()
    db = Database(settings.sqlalchemy_url, pool_size=2)
    clock = Clock(settings.clock_file)
    notices = Notices.from_settings(settings, clock)
    # reading clocks (the deadline in a webhook's event) works in any process
    clocks = Deadlines(clock, notices, int(settings.vacation_days_per_year), float(settings.reminder_hours))
    w = Worker(db, settings, clock, notices, clocks, timers=(), send=True)
    log.info("mail worker: SMTP %s:%s, polling every %ss", settings.smtp_host, settings.smtp_port, w.interval)

    async def go():
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, w.request_stop)
            except NotImplementedError:
                pass
        await w.run()
    try:
        asyncio.run(go())
    finally:
        db.dispose()
    return 0
