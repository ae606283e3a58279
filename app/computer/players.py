"""The computer players of the site (rules_engine.ai) seated in games like people.

Each level (easy, normal, hard, expert: app.computer.levels) is one account of kind
"computer" ("Computer (expert)"): a game against the computer has that account in one
seat. When a published change leaves a game waiting for a computer seat, the move is made
through GameService.act, the same command path as a person's (recorded as that seat's
action, sent to watchers, replayed and exported like any other), at least
`delay_seconds` after the change. The player decides from the public record only
(header and events, never the seed), in a worker process (app.computer.pool): its search
never holds up the event loop, nor other games' commands. A sweep in each process finds
games waiting for the computer after a restart, a missed change or a worker that died.
"""
from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import and_, insert, or_, select
from sqlalchemy.exc import IntegrityError

from ..core.errors import ApiError
from ..games.records import SIDES, Change
from ..games.service import GameService
from ..i18n import N_
from ..models import Game, User, table, utcnow
from .levels import HINT_LEVEL, LEVELS
from .pool import ThinkingPool

log = logging.getLogger("app.computer")

T_USERS, T_GAMES = table(User), table(Game)
__all__ = ["ComputerPlayers", "HINT_LEVEL", "LEVELS", "account_name"]


def account_name(level: str) -> str:
    # a space and brackets: no person can register this name (app.guard.names)
    return f"Computer ({level})"


def player_key(gid: str, level: str, side: str, purpose: str = "seat") -> str:
    """The player object that decides for one seat of one game (its seed, and its place
    in the worker's memory): the same one from decision to decision."""
    return f"{purpose}:{gid}:{level}:{side}"


class ComputerPlayers:
    def __init__(self, games: GameService, delay_seconds: float = 0.6, sweep_seconds: float = 5.0,
                 threads: int = 2, pool: ThinkingPool | None = None):
        self.games = games
        # reading a game and making the move run in the game service's worker threads,
        # at most `threads` of them at once (the others stay free for people's sockets);
        # the thinking runs in the worker processes of `pool`
        self._io = asyncio.Semaphore(threads)
        self.pool = pool or ThinkingPool()
        self.delay = delay_seconds
        self.sweep_seconds = sweep_seconds
        self.users: dict[str, User] = {}     # level -> its account
        self.levels: dict[int, str] = {}     # account id -> level
        self._tasks: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task | None = None
        games.after_publish.append(self.on_change)

    # ------------------------------------------------------------ accounts
    def ensure_accounts(self) -> None:
        """The computer accounts exist (created on first start; several processes may race)."""
        for level in LEVELS:
            name = account_name(level)
            for _ in range(2):
                with self.games.db.write() as s:
                    row = s.execute(select(T_USERS).where(T_USERS.c.username_key == name.casefold())).first()
                    if row is None:
                        try:
                            s.execute(insert(T_USERS), dict(username=name, username_key=name.casefold(),
                                                            email=None, password_hash="!", is_admin=False,
                                                            kind="computer", created_at=utcnow()))
                            s.commit()
                        except IntegrityError:
                            s.rollback()
                        continue
                user = User(id=row.id, username=row.username, username_key=row.username_key, kind="computer",
                            is_admin=False, email=None, password_hash="!")
                self.users[level], self.levels[row.id] = user, level
                break

    def account(self, level: str) -> User:
        if level not in self.users:
            raise ApiError(422, N_("the computer plays at level {levels}"), "invalid_request",
                           {"levels": ", ".join(LEVELS)})
        return self.users[level]

    def is_computer(self, user_id: int | None) -> bool:
        return user_id in self.levels

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.games.call(self.ensure_accounts)
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        tasks = [t for t in [self._sweeper, *self._tasks.values()] if t is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown()
        self._loop = None

    async def _in_thread(self, fn: Any, *args: Any) -> Any:
        async with self._io:
            return await self.games.call(fn, *args)

    # ------------------------------------------------------------ moving
    def on_change(self, ch: Change) -> None:
        """GameService.after_publish (any thread): wake the computer if it is to act."""
        loop = self._loop
        if loop is None or ch.status != "active" or ch.to_act not in SIDES:
            return
        if self.is_computer(ch.seats.get(ch.to_act)):
            loop.call_soon_threadsafe(self._wake, ch.game_id)

    def _wake(self, gid: str) -> None:
        if gid in self._tasks:
            self._again.add(gid)  # the running task looks once more before it ends
        else:
            self._tasks[gid] = asyncio.create_task(self._play(gid))

    async def _play(self, gid: str) -> None:
        try:
            while True:
                self._again.discard(gid)
                moved = await self.move_once(gid)
                if not moved and gid not in self._again:
                    break
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:  # the worker is started again; the sweep tries again
            log.warning("the computer's worker died while thinking in game %s", gid)
        except Exception:  # the sweep tries again later
            log.exception("the computer player failed in game %s", gid)
        finally:
            self._tasks.pop(gid, None)

    async def move_once(self, gid: str) -> bool:
        """One decision if the game waits for a computer seat; whether it moved. The
        move is made no sooner than `delay` after the game came to wait for it (the
        thinking counts towards it), so that people can follow."""
        started = time.monotonic()
        rec = await self._in_thread(self.games.public_record, gid)
        game = rec.game
        if game.status != "active" or game.to_act not in SIDES:
            return False
        level = self.levels.get(getattr(game, f"{game.to_act}_user_id"))
        if level is None:
            return False
        action = await self.pool.decide(gid, level, player_key(gid, level, game.to_act), rec.header, rec.events)
        await asyncio.sleep(max(0.0, self.delay - (time.monotonic() - started)))
        try:
            await self._in_thread(lambda: self.games.act(self.users[level], gid, action, expected_seq=game.seq,
                                                         action_id=f"computer-{game.seq}"))
        except ApiError as exc:
            if exc.code != "stale":  # stale: someone moved first (an undo, another process); look again
                raise
        return True

    def waiting_games(self) -> list[str]:
        """Active games whose player to act is a computer."""
        ids = list(self.levels)
        if not ids:
            return []
        c = T_GAMES.c
        with self.games.db.read() as s:
            return list(s.execute(select(c.id).where(c.status == "active", or_(
                and_(c.to_act == "union", c.union_user_id.in_(ids)),
                and_(c.to_act == "confederate", c.confederate_user_id.in_(ids))))).scalars())

    async def sweep(self) -> None:
        for gid in await self._in_thread(self.waiting_games):
            if gid not in self._tasks:
                self._tasks[gid] = asyncio.create_task(self._play(gid))

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking for games waiting for the computer failed")
            await asyncio.sleep(self.sweep_seconds)

    # ------------------------------------------------------------ hints
    def _hint_record(self, user: User, gid: str) -> Any:
        rec = self.games.public_record(gid)
        game = rec.game
        sides = self.games.sides_of(game, user.id)
        if not sides:
            raise ApiError(403, N_("you have no seat in this game"), "not_a_player")
        other = "confederate" if sides[0] == "union" else "union"
        if not self.is_computer(getattr(game, f"{other}_user_id")):
            raise ApiError(403, N_("hints are only given in games against the computer"), "hint_refused")
        if game.status != "active":
            raise ApiError(409, N_("the game is over ({status})"), "game_over", {"status": game.status})
        if game.to_act not in sides:
            raise ApiError(409, N_("it is not your turn"), "not_your_turn")
        return rec

    async def hint(self, user: User, gid: str) -> dict[str, Any]:
        """The move the expert level would make for the caller's own seat, in a game
        against the computer (never in a game between people)."""
        rec = await self._in_thread(self._hint_record, user, gid)
        game = rec.game
        try:
            action = await self.pool.decide(gid, HINT_LEVEL, player_key(gid, HINT_LEVEL, game.to_act, "hint"),
                                            rec.header, rec.events)
        except BrokenProcessPool:
            raise ApiError(503, N_("the computer could not think just now: ask again"), "computer_unavailable") \
                from None
        return {"seq": game.seq, "side": game.to_act, "level": HINT_LEVEL, "action": action}
