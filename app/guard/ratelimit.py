"""Rate limits: how often one account or one address may do one thing.

Each limit is a number of events in a window of seconds (a sliding window over the
times of the recent events). A refused attempt says after how many seconds to try
again (HTTP 429 with Retry-After). Limits are read from the environment as
``RATE_LIMITS="login=10/60,register=5/3600"``; unnamed ones keep their defaults.
Each process keeps the exact sliding window of its own events (it refuses at once when
that is full). With a shared store (app.guard.shared: the site's database) the limits
hold for all the processes on the database together: an event is counted there too, a
process taking a limit's events in chunks (CHUNK_SHARE of a large limit) so that most
events cost no round trip. Per-socket limits stay in the process (a socket lives in one).
"""
from __future__ import annotations

import bisect
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import ApiError
from ..i18n import N_
from .shared import TableCounts
from .shared import retry_after as shared_retry_after

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
#: limits whose keys mean something in one process only (a socket's number)
PROCESS_LIMITS = frozenset({"ws_message"})
#: a limit of at least CHUNK_FROM events is taken from the shared store in chunks of
#: 1/CHUNK_SHARE of it (a process may leave a chunk unused: the limit is then stricter by
#: at most that much per process, never looser)
CHUNK_FROM, CHUNK_SHARE = 64, 32


def account_key(user_id: int) -> str:
    """The key of an account's limits (addresses are keyed by the address itself)."""
    return f"user:{user_id}"


def client_address(conn: Any) -> str:
    """The address the per-address limits count: what uvicorn reports for a request or a
    socket (the peer, or X-Forwarded-For from a trusted proxy)."""
    return conn.client.host if conn.client else "unknown"


class RateLimited(Exception):
    def __init__(self, name: str, retry_after: int):
        super().__init__(f"too many requests ({name}); try again in {retry_after} s")
        self.name = name
        self.retry_after = retry_after

    def refusal(self) -> ApiError:
        """The refusal as said to the reader (HTTP and sockets)."""
        return ApiError(429, N_("too many requests ({name}); try again in {seconds} s"), "rate_limited",
                        {"name": self.name, "seconds": self.retry_after})


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


class KeyState:
    """What this process knows of one key under one limit."""
    __slots__ = ("times", "slot", "allowance", "blocked_until")

    def __init__(self) -> None:
        # this process's events in the sliding window, oldest first (a list: a deque
        # takes ~600 bytes even when it holds one time, and a flood has many keys)
        self.times: list[float] = []
        self.slot = -1                       # the shared window the allowance was taken in
        self.allowance = 0                   # events taken from the shared store, not used yet
        self.blocked_until = 0.0             # the shared store refused until then (wall clock)


class RateLimiter:
    def __init__(self, limits: Mapping[str, Limit], clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000, shared: TableCounts | None = None,
                 wall: Callable[[], float] = time.time):
        self.limits = dict(limits)
        self._clock = clock
        self._wall = wall
        self._max_keys = max_keys
        self._keys: dict[tuple[str, str], KeyState] = {}
        self._lock = threading.Lock()
        self.shared = shared

    def check(self, name: str, key: str) -> None:
        """Raise RateLimited if ``key`` has no event left, without counting one (for
        limits that count only failures, like wrong passwords)."""
        limit = self.limits[name]
        now = self._clock()
        with self._lock:
            state = self._keys.get((name, key))
            if state is not None:
                self._refuse_if_full(name, limit, state, now, self._wall())
        if self._shares(name):
            self._check_shared(name, key, limit)

    def hit(self, name: str, key: str) -> None:
        """Count one event for ``key`` (an account id or an address) or raise RateLimited.
        With a shared store this may ask the database (call it where blocking is fine)."""
        if self.hit_here(name, key):
            return
        limit = self.limits[name]
        wall = self._wall()
        granted = self._take_shared(name, key, limit, wall)
        with self._lock:
            state = self._state(name, key)
            state.slot, state.allowance = _slot(wall, limit), granted - 1
            state.times.append(self._clock())

    def hit_here(self, name: str, key: str) -> bool:
        """Count one event if this process can decide alone: True when counted, RateLimited
        when refused, False when the shared store must be asked (then call `hit`, off
        the event loop)."""
        limit = self.limits[name]
        now, wall = self._clock(), self._wall()
        with self._lock:
            state = self._state(name, key)
            self._refuse_if_full(name, limit, state, now, wall)
            if self._shares(name):
                if state.slot != _slot(wall, limit) or state.allowance < 1:
                    return False
                state.allowance -= 1
            state.times.append(now)
            return True

    def _shares(self, name: str) -> bool:
        return self.shared is not None and name not in PROCESS_LIMITS

    def _state(self, name: str, key: str) -> KeyState:
        state = self._keys.get((name, key))
        if state is None:
            if len(self._keys) >= self._max_keys:
                self._forget_idle(self._clock(), self._wall())
            state = self._keys[(name, key)] = KeyState()
        return state

    @staticmethod
    def _refuse_if_full(name: str, limit: Limit, state: KeyState, now: float, wall: float) -> None:
        times = state.times
        passed = bisect.bisect_right(times, now - limit.seconds)
        if passed:
            del times[:passed]
        if len(times) >= limit.events:
            raise RateLimited(name, max(1, math.ceil(times[0] + limit.seconds - now)))
        if state.blocked_until > wall:
            raise RateLimited(name, max(1, math.ceil(state.blocked_until - wall)))

    def _take_shared(self, name: str, key: str, limit: Limit, wall: float) -> int:
        """Take a chunk of events (or, near the limit, one) from the shared store: how
        many; RateLimited (remembered until it passes) when not even one fits."""
        assert self.shared is not None
        chunk = limit.events // CHUNK_SHARE if limit.events >= CHUNK_FROM else 1
        for n in dict.fromkeys((chunk, 1)):
            if self.shared.take(name, key, limit.events, limit.seconds, n, wall):
                return n
        self._check_shared(name, key, limit)
        raise RateLimited(name, 1)   # freed meanwhile, and taken again at once: try again

    def _check_shared(self, name: str, key: str, limit: Limit) -> None:
        """Refuse if the shared store has no event left for `key`; the refusal is kept
        here until it passes, so that a flood of refused requests costs no more reads."""
        assert self.shared is not None
        wall = self._wall()
        window, before, current = self.shared.counts(name, key, limit.seconds, wall)
        if before * window.covered + current + 1 <= limit.events:
            return
        wait = shared_retry_after(limit.events, before, current, window)
        with self._lock:
            self._state(name, key).blocked_until = wall + wait
        raise RateLimited(name, wait)

    def _forget_idle(self, now: float, wall: float) -> None:
        """Bound the memory a flood of distinct keys can take: drop the keys idle for
        longer than any window, then, if that was not enough, the oldest tenth (so the
        next sweep is many events away, not on every one). A key forgotten here is still
        counted in the shared store, when there is one."""
        longest = max(limit.seconds for limit in self.limits.values())
        idle = [k for k, s in self._keys.items()
                if (not s.times or s.times[-1] <= now - longest) and s.blocked_until <= wall]
        for k in idle:
            del self._keys[k]
        keep = self._max_keys * 9 // 10
        if len(self._keys) > keep:
            for k in list(self._keys)[: len(self._keys) - keep]:
                del self._keys[k]

    def __len__(self) -> int:
        """How many keys this process keeps."""
        return len(self._keys)


def _slot(wall: float, limit: Limit) -> int:
    return math.floor(wall / limit.seconds)
