"""Secrets never reach the log: tokens in query strings (?token= of the game socket,
?t= of the unsubscribe and verification links, ?invite= of private games) are blanked
in every record of uvicorn's access and connection logs, and so is the path of every
full URL the mailer logs (a webhook's address carries its secret in the path, as
chat services' incoming webhooks do)."""
from __future__ import annotations

import logging
import re

SECRET_QUERY_KEYS = ("token", "t", "invite")
_SECRET_PARAM = re.compile(r"([?&](?:" + "|".join(SECRET_QUERY_KEYS) + r")=)[^&#\s\"]*")
REDACTED = "[redacted]"


_URL_PATH = re.compile(r"(https?://[^/\s\"'<>()]+)/[^\s\"'<>()]*")


def redact(text: str) -> str:
    return _URL_PATH.sub(r"\1/" + REDACTED, _SECRET_PARAM.sub(r"\1" + REDACTED, text))


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install(logger_names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error", "app.mailer")) -> None:
    for name in logger_names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
