"""Signed webhook deliveries. Each webhook has a secret (shown to its owner once, when
the webhook is created or the secret replaced). Every delivery carries

    X-HD-Delivery:  the delivery's id (the same on retries: receivers drop repeats)
    X-HD-Timestamp: Unix seconds when it was sent
    X-HD-Signature: hex HMAC-SHA256 of "<timestamp>.<body>" under the secret

so a receiver can check that a call came from this site, unaltered, and recently
(docs/notifications.md shows how)."""
from __future__ import annotations

import hashlib
import hmac
import secrets

SECRET_BYTES = 32  # 64 hex characters


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def signed_headers(secret: str, delivery: str, timestamp: int, body: bytes) -> dict[str, str]:
    ts = str(timestamp)
    return {"X-HD-Delivery": delivery, "X-HD-Timestamp": ts, "X-HD-Signature": signature(secret, ts, body)}
