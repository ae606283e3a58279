"""Who is on a game's page: people, not tabs, and whether each player is here or away.

A person is a logged-in user (however many tabs or devices they have open on the game)
or, logged out, one connection. A player is "here" while any socket of theirs is on the
game; once the last one closes they are away since that moment (the game page says
"away", then "gone" after LIVE_ABANDON_MINUTES: static/presence.js). With several processes (Postgres) each one reports
its sockets on a game (app.realtime.pg_fanout): how many people, which user ids (up to
MAX_LISTED, so that a user with tabs on two processes counts once), the seats whose
player is here and when each seat's player last left it. The reports and this process's
own sockets are added up here.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

MAX_LISTED = 200  # user ids a report lists; beyond, its count is added as it is
SIDES = ("union", "confederate")


@dataclass(frozen=True)
class Report:
    """One process's sockets on one game."""
    count: int                              # people: distinct users + logged-out sockets
    sides: tuple[str, ...]                  # seats whose player has a socket there
    anonymous: int = 0                      # logged-out sockets
    users: frozenset[int] | None = None     # the users, or None when too many to list
    left: tuple[tuple[str, float], ...] = ()  # seat -> when its player's last socket closed (epoch s)
    heard: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class Total:
    """Everyone on a game's page, in every process: what the "watchers" message says."""
    count: int
    online: tuple[str, ...]
    left: tuple[tuple[str, float], ...]     # seats not online: when their player left (if known)

    def seats(self, now: float | None = None) -> dict[str, dict]:
        """Per seat: {"here": true} or {"here": false, "away_for": seconds or None}."""
        now = time.time() if now is None else now
        left = dict(self.left)
        return {side: {"here": True} if side in self.online else
                {"here": False, "away_for": int(now - left[side]) if side in left else None}
                for side in SIDES}


def local_report(user_ids: Iterable[int | None], seats: dict[str, int | None],
                 left: dict[str, float]) -> Report:
    """This process's sockets on a game as a report: the user id of each socket (None
    when logged out), the game's seats and when each seat's player left."""
    users: set[int] = set()
    anonymous = 0
    for uid in user_ids:
        if uid is None:
            anonymous += 1
        else:
            users.add(uid)
    sides = tuple(sorted(side for side, uid in seats.items() if uid is not None and uid in users))
    return Report(count=len(users) + anonymous, sides=sides, anonymous=anonymous, users=frozenset(users),
                  left=tuple(sorted((s, t) for s, t in left.items() if s not in sides)))


def add_up(reports: Iterable[Report]) -> Total:
    """The reports of every process (this one's included) as one total: a user listed by
    several counts once; a seat is online if any process has its player; a seat's
    player left at the latest time any process saw them go."""
    listed: set[int] = set()
    count = 0
    online: set[str] = set()
    left: dict[str, float] = {}
    for r in reports:
        if r.users is None:
            count += r.count
        else:
            listed |= r.users
            count += r.anonymous
        online.update(r.sides)
        for side, t in r.left:
            left[side] = max(t, left.get(side, t))
    return Total(count=count + len(listed), online=tuple(sorted(online)),
                 left=tuple(sorted((s, t) for s, t in left.items() if s not in online)))


def encode(gid: str, proc: str, r: Report) -> str:
    """A report on the presence channel: game:proc:count:seats:anonymous:users:left
    (an older process reads only the first four fields)."""
    users = "*" if r.users is None or len(r.users) > MAX_LISTED else ",".join(map(str, sorted(r.users)))
    left = ",".join(f"{side}={t:.1f}" for side, t in r.left)
    return f"{gid}:{proc}:{r.count}:{','.join(r.sides)}:{r.anonymous}:{users}:{left}"


def decode(parts: list[str]) -> Report:
    """A report read from the presence channel (the fields after game and proc; a report
    of an older process, without the last three, counts its sockets as people)."""
    count, sides = int(parts[2]), tuple(s for s in parts[3].split(",") if s)
    if len(parts) < 7:
        return Report(count=count, sides=sides)
    users = None if parts[5] == "*" else frozenset(int(u) for u in parts[5].split(",") if u)
    left = tuple((side, float(t)) for side, _, t in (item.partition("=") for item in parts[6].split(",") if item)
                 if side in SIDES)
    return Report(count=count, sides=sides, anonymous=int(parts[4]), users=users, left=left)
