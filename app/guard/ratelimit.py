"""Rate limits: how often one account or one address may do one thing.

Each limit is a number of events in a window of seconds (a sliding window over the
times of the recent events). A refused attempt says after how many seconds to try
again (HTTP 429 with Retry-After). Limits are read from the environment as
``RATE_LIMITS="login=10/60,register=5/3600"``; unnamed ones keep their defaults.
State is per process: with several workers each enforces the limit on its own share.
"""
from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

#: name -> (events, seconds). Generous enough that two people playing a game never
#: meet them; tight enough that a script cannot guess passwords or flood a game.
DEFAULT_LIMITS: dict[str, tuple[int, float]] = {
    "login_account": (10, 300.0),     # wrong passwords for one account from one address
    "login_address": (30, 300.0),     # login attempts from one address, any account
    "register": (5, 3600.0),          # new accounts from one address
    "password_reset": (5, 3600.0),    # password-reset mails asked for from one address
    "mail": (5, 3600.0),              # verification and webhook-test messages per account
    "chat": (20, 60.0),               # chat posts per account
    "create_game": (20, 3600.0),      # games and challenges created per account
    "hint": (30, 60.0),               # the computer's suggested moves per account (CPU)
    "analysis": (60, 60.0),           # evaluations of finished games per address (CPU when not kept)
    # a computer player moving as fast as the server answers makes ~5-15 a second:
    "action": (1800, 60.0),           # game actions per account (HTTP and websocket)
    "ws_message": (3600, 60.0),       # websocket messages per socket
    "socket": (30, 60.0),             # websockets and bot streams opened per address
}


def account_key(user_id: int) -> str:
    """The key of an account's limits (addresses are keyed by the address itself)."""
    return f"user:{user_id}"


class RateLimited(Exception):
    def __init__(self, name: str, retry_after: int):
        super().__init__(f"too many requests ({name}); try again in {retry_after} s")
        self.name = name
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limit:
    events: int
    seconds: float


def parse_limits(text: str | None) -> dict[str, Limit]:
    """``"login_account=10/300,chat=20/60"`` over the defaults; ValueError names a bad entry."""
    limits = {name: Limit(n, s) for name, (n, s) in DEFAULT_LIMITS.items()}
    for item in filter(None, (part.strip() for part in (text or "").split(","))):
        name, _, value = item.partition("=")
        events, _, seconds = value.partition("/")
        try:
            limit = Limit(int(events), float(seconds))
        except ValueError:
            raise ValueError(f"RATE_LIMITS: {item!r} is not name=events/seconds") from None
        if name.strip() not in DEFAULT_LIMITS or limit.events < 1 or not 0 < limit.seconds < math.inf:
            raise ValueError(f"RATE_LIMITS: {item!r}: known limits are {', '.join(DEFAULT_LIMITS)}")
        limits[name.strip()] = limit
    return limits


class RateLimiter:
    def __init__(self, limits: Mapping[str, Limit], clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000):
        self.limits = dict(limits)
        self._clock = clock
        self._max_keys = max_keys
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, name: str, key: str) -> None:
        """Raise RateLimited if ``key`` has no event left, without counting one (for
        limits that count only failures, like wrong passwords)."""
        limit = self.limits[name]
        now = self._clock()
        with self._lock:
            times = self._hits.get((name, key))
            if times:
                self._refuse_if_full(name, limit, times, now)

    def hit(self, name: str, key: str) -> None:
        """Count one event for ``key`` (an account id or an address) or raise RateLimited."""
        limit = self.limits[name]
        now = self._clock()
        with self._lock:
            times = self._hits.setdefault((name, key), deque())
            self._refuse_if_full(name, limit, times, now)
            times.append(now)
            if len(self._hits) > self._max_keys:
                self._forget_idle(now)

    @staticmethod
    def _refuse_if_full(name: str, limit: Limit, times: deque[float], now: float) -> None:
        while times and times[0] <= now - limit.seconds:
            times.popleft()
        if len(times) >= limit.events:
            raise RateLimited(name, max(1, math.ceil(times[0] + limit.seconds - now)))

    def _forget_idle(self, now: float) -> None:
        """Bound the memory a flood of distinct keys can take: drop the keys idle for
        longer than any window, then, if that was not enough, the oldest tenth (so the
        next sweep is many events away, not on every one)."""
        longest = max(limit.seconds for limit in self.limits.values())
        for k in [k for k, t in self._hits.items() if not t or t[-1] <= now - longest]:
            del self._hits[k]
        if len(self._hits) > self._max_keys * 9 // 10:
            for k in list(self._hits)[: len(self._hits) - self._max_keys * 9 // 10]:
                del self._hits[k]
