"""Passwords (argon2id), login sessions and API tokens (random, stored hashed), CSRF."""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.low_level import Type

# OWASP Password Storage Cheat Sheet: argon2id with at least 19 MiB of memory, 2
# iterations, 1 lane. argon2-cffi's default (RFC 9106 "low memory") takes 64 MiB and 4
# lanes per hash: 40 logins at once took a server process past 2 GB. Hashes made with
# other parameters still verify, and are made again with these at the next login.
ARGON2_MEMORY_KIB = 19 * 1024
ARGON2_TIME_COST = 2
ARGON2_PARALLELISM = 1
_hasher = PasswordHasher(time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB,
                         parallelism=ARGON2_PARALLELISM, hash_len=32, salt_len=16, type=Type.ID)
# a hash computed once so that logins for unknown users take as long as real ones
_DUMMY_HASH = _hasher.hash("not a real password")

SESSION_COOKIE = "hd_session"
CSRF_COOKIE = "hd_csrf"
CSRF_HEADER = "x-csrf-token"

T = TypeVar("T")


class HashingBusy(Exception):
    """Every password-hashing slot of this process stayed taken for the whole wait."""

    def __init__(self, retry_after: int):
        super().__init__(f"the server is busy checking passwords; try again in {retry_after} s")
        self.retry_after = retry_after


class PasswordHashing:
    """At most `slots` password hashes at once in this process, each in one of `slots`
    threads of its own; a request that finds them all taken waits up to `wait_seconds`,
    then is refused (HashingBusy: 503 with Retry-After).

    Why own threads: argon2 allocates its memory with malloc, and the C library keeps
    freed blocks of that size in the allocating thread's arena. Hashing in any of the 40
    request threads would leave up to 40 arenas each holding a hash's memory; in `slots`
    threads at most `slots` do."""

    def __init__(self, slots: int = 2, wait_seconds: float = 2.0):
        self.slots = max(1, slots)
        self.wait_seconds = max(0.0, wait_seconds)
        self._free = threading.BoundedSemaphore(self.slots)
        self._threads = ThreadPoolExecutor(self.slots, thread_name_prefix="password-hash")

    def run(self, work: Callable[[], T]) -> T:
        if not self._free.acquire(timeout=self.wait_seconds):
            raise HashingBusy(max(1, math.ceil(self.wait_seconds)))
        try:
            return self._threads.submit(work).result()
        finally:
            self._free.release()

    def hash(self, password: str) -> str:
        return self.run(lambda: hash_password(password))

    def verify(self, password_hash: str | None, password: str) -> tuple[bool, str | None]:
        """(right?, a new hash when the stored one was made with other parameters)."""
        def check() -> tuple[bool, str | None]:
            if not verify_password(password_hash, password):
                return False, None
            return True, hash_password(password) if needs_rehash(password_hash or "") else None
        return self.run(check)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether a (verified) hash was made with parameters other than today's."""
    try:
        return _hasher.check_needs_rehash(password_hash)
    except (InvalidHashError, ValueError):
        return True


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
