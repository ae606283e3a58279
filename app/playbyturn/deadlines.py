"""Time limits of by-turn games, reminders, claims on time and extensions.

A by-turn game may have a limit chosen at creation (1 to 14 days, e.g. 1, 3 or 7): when
the game starts waiting for a player (a hand-over), that player's clock starts and they
have that long to make their next decision (the clock restarts at every hand-over, like
"days per move" on correspondence sites, and when an administrator rewinds the game). A
reminder goes out when a fifth of the time is left (at most 24 hours before). Time spent
on vacation does not count (app.playbyturn.vacations): the deadline is the clock's start
plus the time per move, the extensions and the vacation days within it, and once it has
passed it never moves. When the time is up, the opponent is told and may claim the win
(the result says it was decided on time; before the game's first move the claim aborts
the game instead) or give more days, counted from the moment they are given.

All times come from the Clock the app was built with, so that tests can move it.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update

from ..core.clock import Clock, aware, iso
from ..core.errors import ApiError, Term
from ..games.service import GameService
from ..i18n import N_
from ..models import Game, GameClock, User, table
from ..notices.outbox import Notices
from ..notices.words import SIDE
from ..notices.words import clock as said
from ..store import events as store
from .vacations import Vacations, current, deadline_after, periods_of, running_seconds

log = logging.getLogger("app.deadlines")

ALLOWED_DAYS = tuple(range(1, 15))

T_CLOCKS, T_GAMES = table(GameClock), table(Game)


def _opponent_side(game, user) -> str:
    sides = [sd for sd in ("union", "confederate") if getattr(game, f"{sd}_user_id") == user.id]
    if not sides:
        raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
    return sides[0]


def _budget(row: Any) -> float:
    """The seconds a running clock allows: the time per move plus the extensions."""
    return row.days * 86400 + (row.extra_seconds or 0)


class Deadlines:
    """Clocks of by-turn games, vacations, reminders and claims, on the given clock;
    notices go through `notices`."""

    def __init__(self, clock: Clock, notices: Notices, vacation_days_per_year: int = 30,
                 reminder_hours: float = 24.0):
        self.clock = clock
        self.notices = notices
        self.per_year = vacation_days_per_year
        self.reminder_hours = reminder_hours
        self.vacations = Vacations(clock, notices, vacation_days_per_year)

    def set_days(self, conn, game_id: str, days: int | None) -> None:
        """At creation of a by-turn game (days None: no time limit)."""
        if days is not None and days not in ALLOWED_DAYS:
            raise ApiError(422, N_("days_per_move must be 1 to 14"), "invalid_request")
        conn.execute(insert(T_CLOCKS), dict(game_id=game_id, days=days, side=None, user_id=None, since=None,
                                            extra_seconds=0, reminded_at=None, expired_at=None))

    def on_append(self, s, game: Any, new: dict, out: list) -> None:
        """In the append transaction of a by-turn game: start the clock of the player the
        game now waits for (a hand-over, or an administrator's rewind), or stop it when
        the game ends."""
        status, act = new["status"], new["to_act"]
        rewound = any(e.source == "server" and e.type == "rewind" for e in out)
        if status == "active" and act:
            if game.status == "active" and game.to_act == act and not rewound:
                return  # same player still deciding: their clock keeps running
            s.execute(update(T_CLOCKS).where(T_CLOCKS.c.game_id == game.id).values(
                side=act, user_id=new[f"{act}_user_id"], since=self.clock.now(), extra_seconds=0, reminded_at=None,
                expired_at=None))
        elif game.status == "active" and status != "active":
            s.execute(update(T_CLOCKS).where(T_CLOCKS.c.game_id == game.id).values(side=None, user_id=None))

    # ---------------------------------------------------------------- vacations
    def vacation_info(self, conn, user_id: int) -> dict:
        return self.vacations.info(conn, user_id)

    def start_vacation(self, conn, user_id: int, days: int) -> dict:
        return self.vacations.start(conn, user_id, days)

    def end_vacation(self, conn, user_id: int) -> dict:
        return self.vacations.end(conn, user_id)

    # ---------------------------------------------------------------- a running clock
    def deadline(self, conn, row: Any) -> datetime:
        """When the running clock's time is up: fixed once it has passed."""
        periods = periods_of(conn, row.user_id) if row.user_id else []
        return deadline_after(aware(row.since), _budget(row), periods)

    def remaining(self, conn, row: Any, now: datetime | None = None) -> tuple[float, bool]:
        """(seconds left, paused by vacation) of a running clock."""
        now = now or self.clock.now()
        periods = periods_of(conn, row.user_id) if row.user_id else []
        left = _budget(row) - running_seconds(aware(row.since), now, periods)
        return left, left > 0 and current(periods, now) is not None

    def extend_refusal(self, game: Any, row: Any, user_id: int | None) -> str | None:
        """Why `user_id` may not give the player to act more time now (None: they may).
        What the clock reports as `can_extend` and what POST extend refuses."""
        if game is None or game.status != "active":
            return N_("the game is not in progress")
        if row is None or not row.days:
            return N_("this game has no time limit")
        if user_id is None or user_id not in (game.union_user_id, game.confederate_user_id):
            return N_("only the players of a game give more time")
        if row.side is None or row.since is None or getattr(game, f"{row.side}_user_id") == user_id:
            return N_("the game is waiting for you, not for your opponent")
        return None

    def clock_view(self, conn, game_id: str, user_id: int | None = None) -> dict | None:
        row = conn.execute(select(T_CLOCKS).where(T_CLOCKS.c.game_id == game_id)).first()
        if row is None:
            return None
        out = {"days_per_move": row.days, "waiting_since": iso(row.since), "side": row.side, "deadline": None,
               "seconds_left": None, "paused": False, "expired": False, "can_claim": False, "can_extend": False}
        if row.days and row.side and row.since is not None:
            left, paused = self.remaining(conn, row)
            out.update(seconds_left=max(0, int(left)), paused=paused, expired=left <= 0,
                       deadline=self.deadline(conn, row).isoformat())
            g = conn.execute(select(T_GAMES.c.status, T_GAMES.c.union_user_id, T_GAMES.c.confederate_user_id)
                             .where(T_GAMES.c.id == game_id)).first()
            if user_id is not None and self.extend_refusal(g, row, user_id) is None:
                out["can_claim"] = left <= 0
                out["can_extend"] = True
        return out

    def tick(self, db) -> int:
        """Reminders and "time is up" notices; returns how many notices it queued. Every
        step is a conditional UPDATE plus its notices in one transaction, so two processes
        running it never notify twice."""
        n = 0
        now = self.clock.now()
        with db.read() as conn:
            rows = conn.execute(select(T_CLOCKS).where(T_CLOCKS.c.side.is_not(None), T_CLOCKS.c.days.is_not(None),
                                                       T_CLOCKS.c.expired_at.is_(None))).all()
        for row in rows:
            with db.write() as conn:
                left, paused = self.remaining(conn, row, now)
                total = _budget(row)
                if left <= 0:
                    r = conn.execute(update(T_CLOCKS).where(T_CLOCKS.c.game_id == row.game_id,
                                                            T_CLOCKS.c.since == row.since,
                                                            T_CLOCKS.c.expired_at.is_(None)).values(expired_at=now))
                    if r.rowcount == 1:
                        g = conn.execute(select(T_GAMES).where(T_GAMES.c.id == row.game_id)).first()
                        opp = "confederate" if row.side == "union" else "union"
                        self.notices.notify(conn, [row.user_id], "time_up", row.game_id,
                                            said.time_up(row.game_id, row.days))
                        self.notices.notify(conn, [getattr(g, f"{opp}_user_id")], "timeout", row.game_id,
                                            said.opponent_timed_out(row.game_id, row.side, row.days))
                        n += 2
                elif row.reminded_at is None and not paused and left <= min(self.reminder_hours * 3600, total / 5):
                    r = conn.execute(update(T_CLOCKS).where(T_CLOCKS.c.game_id == row.game_id,
                                                            T_CLOCKS.c.since == row.since,
                                                            T_CLOCKS.c.reminded_at.is_(None)).values(reminded_at=now))
                    if r.rowcount == 1:
                        hours = max(1, round(left / 3600))
                        self.notices.notify(conn, [row.user_id], "reminder", row.game_id,
                                            said.reminder(row.game_id, row.side, hours))
                        n += 1
                conn.commit()
        return n

    def claim(self, svc: GameService, user: User, gid: str) -> dict:
        """The waiting player claims the win because the other's time is up; before the
        game's first move there is nothing to win, and the claim aborts the game."""
        def fn(s, game):
            if game.status != "active":
                raise ApiError(409, N_("the game is not in progress"), "game_over")
            me = _opponent_side(game, user)
            row = s.execute(select(T_CLOCKS).where(T_CLOCKS.c.game_id == gid)).first()
            if row is None or not row.days:
                raise ApiError(409, N_("this game has no time limit"), "no_clock")
            if row.side is None or row.side == me:
                raise ApiError(409, N_("the game is waiting for you, not for your opponent"), "not_expired")
            left, _ = self.remaining(s, row)
            if left > 0:
                raise ApiError(409, N_("your opponent still has {hours} h {minutes} min"), "not_expired",
                               {"hours": int(left // 3600), "minutes": int(left % 3600 // 60)})
            if not store.action_count(s, gid):
                return self._abort_on_time(svc, s, game, user, me, row)
            return self._win_on_time(svc, s, game, user, me, row)
        return svc.run_command(gid, fn)

    def _win_on_time(self, svc: GameService, s, game, user: User, me: str, row: Any) -> dict:
        late = row.side
        reason = (f"on time: the {SIDE[late]} player did not move within {row.days} "
                  f"day{'s' if row.days != 1 else ''}")
        result = {"winner": me, "reason": reason, "on_time": True}
        text = f"{user.username} ({SIDE[me]}) claims the win on time: the {SIDE[late]} player did not move in time."
        entry = svc.state(s, game)
        # the late player hears it (the hook leaves timeout results to us); same transaction,
        # written before the games row is finished, so its mail is told the game is over
        # (no deadline in it)
        self.notices.notify(s, [row.user_id], "lost_on_time", game.id,
                            said.lost_on_time(game.id, user.username, me, late),
                            current={"status": "finished", "result": result})
        return self._end_on_time(svc, s, game, entry, user, me, ("server", "timeout", me, {
            "side": late, "winner": me, "days": row.days, "by": user.username, "text": text}), "finished", result)

    def _abort_on_time(self, svc: GameService, s, game, user: User, me: str, row: Any) -> dict:
        """Nobody moved yet: the game is aborted (no winner, no rating change); the late
        player is told by the notice hook, as for any abort."""
        reason = (f"aborted on time: the {SIDE[row.side]} player did not make the first move within {row.days} "
                  f"day{'s' if row.days != 1 else ''}")
        result = {"winner": None, "reason": reason, "aborted": True, "on_time": True}
        entry = svc.state(s, game)
        return self._end_on_time(svc, s, game, entry, user, me, ("server", "abort", me, {
            "by": user.username, "side": row.side, "days": row.days, "on_time": True}), "aborted", result)

    def _end_on_time(self, svc: GameService, s, game, entry, user: User, me: str, record: tuple,
                     status: str, result: dict) -> dict:
        """Append the claim's one server event, end the game with `status` and `result`,
        and tell every socket: what a won claim and an aborting claim share."""
        out = svc.append(s, game, [record],
                         {"status": status, "result": result, "to_act": None, "finished_at": self.clock.now()},
                         {"kind": "claim", "side": me, "user_id": user.id})
        entry.seq = game.seq
        svc.publish(game, entry, out)
        return {"seq": game.seq, "status": game.status, "result": result}

    def extend(self, svc: GameService, user: User, gid: str, days: int) -> dict:
        """The waiting player gives the other more time (logged in the game): added to
        the time left, or, when that time is already up, counted from now."""
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 14:
            raise ApiError(422, N_("give 1 to 14 days"), "invalid_request")

        def fn(s, game):
            me = _opponent_side(game, user)
            row = s.execute(select(T_CLOCKS).where(T_CLOCKS.c.game_id == gid)).first()
            refusal = self.extend_refusal(game, row, user.id)
            if refusal is not None:
                raise ApiError(409, N_("you cannot give more time: {reason}"), "cannot_extend",
                               {"reason": Term(refusal)})
            now = self.clock.now()
            left, _ = self.remaining(s, row, now)
            # late: the budget becomes the time already used plus the days given, so the
            # new deadline is `days` from now (plus any vacation after now)
            extra = (row.extra_seconds or 0) + days * 86400 + (int(-left) if left < 0 else 0)
            text = (f"{user.username} ({SIDE[me]}) gives the {SIDE[row.side]} player {days} more "
                    f"day{'s' if days != 1 else ''}.")
            s.execute(update(T_CLOCKS).where(T_CLOCKS.c.game_id == gid).values(
                extra_seconds=extra, expired_at=None, reminded_at=None))
            self.notices.notify(s, [row.user_id], "extended", gid,
                                said.extended(gid, user.username, me, row.side, days))
            entry = svc.state(s, game)
            out = svc.append(s, game, [("server", "time_extended", me, {"side": row.side, "days": days,
                                                                         "from_now": left < 0, "by": user.username,
                                                                         "text": text})],
                             None, {"kind": "extend", "side": me, "user_id": user.id})
            entry.seq = game.seq
            svc.publish(game, entry, out)
            return {"seq": game.seq, "clock": self.clock_view(s, gid, user.id)}
        return svc.run_command(gid, fn)
