"""Passwords (argon2), login sessions and API tokens (random, stored hashed), CSRF."""
from __future__ import annotations

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
# a hash computed once so that logins for unknown users take as long as real ones
_DUMMY_HASH = _hasher.hash("not a real password")

SESSION_COOKIE = "hd_session"
CSRF_COOKIE = "hd_csrf"
CSRF_HEADER = "x-csrf-token"


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token_for(secret_key: str, session_token: str) -> str:
    """Double-submit token bound to the session: the page echoes it in a header or form field."""
    return hmac.new(secret_key.encode(), b"csrf:" + session_token.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret_key: str, session_token: str, presented: str | None) -> bool:
    # compared as bytes: compare_digest refuses str with non-ASCII characters
    # (a TypeError, so a 500) and a forged token may hold any
    return presented is not None and presented != "" and \
        hmac.compare_digest(csrf_token_for(secret_key, session_token).encode(), presented.encode())
