"""After the game: the expert's evaluation of a finished game, turn by turn, as the
Union's chance to win (rules_engine.ai.analysis.evaluation_curve), for the graph
beside the move list on the game and replay pages.

Never during play: it would help a player (409 until the game is over, for everyone).
The curve is worked out on demand in the computer's worker processes (app.computer.pool:
a replay plus one evaluation per Player Turn, off the event loop) and kept in this
process, least recently used first out, by game id and seq: a finished game's curve
never changes (an administrator's decision after the end appends events, and so gets a
new seq). One computation per game at a time: concurrent requests for a game wait for
the first and share its curve.
"""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

from rules_engine.record import fold

from ..core.errors import ApiError, not_found
from ..i18n import N_
from ..store.events import load_game, stored_events
from .players import ComputerPlayers

#: Game statuses whose evaluation may be shown (the game is over).
OVER = ("finished", "aborted")


class Analyses:
    def __init__(self, players: ComputerPlayers, size: int = 128):
        self.players = players
        self.size = size
        self.computed = 0                                  # curves worked out (tests, stats)
        self._curves: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}   # game id -> (lock, callers)

    # ------------------------------------------------------------ reading
    def _row(self, gid: str) -> Any:
        with self.players.games.db.read() as s:
            game = load_game(s, gid, hot=True)
        return self._over(gid, game)

    @staticmethod
    def _over(gid: str, game: Any) -> Any:
        if game is None:
            raise not_found()
        if game.status not in OVER:
            raise ApiError(409, N_("the evaluation of a game is shown once it is over: during play it would help "
                                   "a player ({status})"), "game_in_progress", {"status": game.status})
        return game

    def _record(self, gid: str) -> SimpleNamespace:
        """The game's row, public header and effective engine events with their seqs."""
        with self.players.games.db.read() as s:
            game = self._over(gid, load_game(s, gid))
            folded = fold(stored_events(s, gid))
        return SimpleNamespace(game=game, events=folded.effective, seqs=folded.effective_seqs)

    # ------------------------------------------------------------ the curve
    def _cached(self, key: tuple[str, int]) -> dict[str, Any] | None:
        hit = self._curves.get(key)
        if hit is not None:
            self._curves.move_to_end(key)
        return hit

    def _keep(self, key: tuple[str, int], curve: dict[str, Any]) -> None:
        self._curves[key] = curve
        while len(self._curves) > self.size:
            self._curves.popitem(last=False)

    async def curve(self, gid: str) -> dict[str, Any]:
        """{game_id, seq, level, points: [{at, seq, turn, side, union}], cached}."""
        game = await self.players.games.call(self._row, gid)
        hit = self._cached((gid, game.seq))
        if hit is not None:
            return {**hit, "cached": True}
        lock, callers = self._locks.get(gid, (asyncio.Lock(), 0))
        self._locks[gid] = (lock, callers + 1)
        try:
            async with lock:
                hit = self._cached((gid, game.seq))
                if hit is not None:
                    return {**hit, "cached": True}
                curve = await self._work_out(gid)
                return {**curve, "cached": False}
        finally:
            lock, callers = self._locks[gid]
            if callers <= 1:
                del self._locks[gid]
            else:
                self._locks[gid] = (lock, callers - 1)

    async def _work_out(self, gid: str) -> dict[str, Any]:
        rec = await self.players.games.call(self._record, gid)
        started = time.perf_counter()
        points = await self.players.pool.analyse(gid, rec.game.header, rec.events)
        seqs = rec.seqs
        for p in points:
            # the position's place in the stored log: the event that starts the Player
            # Turn (the replay page shows the position after the command it belongs to)
            p["seq"] = seqs[min(p["at"], len(seqs) - 1)] if seqs else 0
        curve = {"game_id": gid, "seq": rec.game.seq, "status": rec.game.status, "level": "expert",
                 "points": points, "ms": round((time.perf_counter() - started) * 1000, 1)}
        self.computed += 1
        self._keep((gid, rec.game.seq), curve)
        return curve
