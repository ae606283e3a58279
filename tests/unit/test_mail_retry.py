"""The outbox's retries of a message that could not be delivered (README: MAIL_RETRY_SECONDS,
MAIL_MAX_ATTEMPTS)."""
from __future__ import annotations

from app.notices.mailer import retry_plan


def test_a_failed_mail_is_retried_after_the_set_delay_and_given_up_after_the_set_tries():
    # MAIL_RETRY_SECONDS=30, MAIL_MAX_ATTEMPTS=3: retries after 30 s and 60 s, failed at the third
    assert retry_plan(1, 30.0, 3) == (False, 30.0)
    assert retry_plan(2, 30.0, 3) == (False, 60.0)
    assert retry_plan(3, 30.0, 3)[0] is True
    assert retry_plan(1, 30.0, 3, final=True)[0] is True          # a permanent error
    assert retry_plan(20, 30.0, 99)[1] == 3600.0                   # never more than an hour
