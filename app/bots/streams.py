"""The bot API's NDJSON streams: one JSON object per line, an empty line as keep-alive.

The account stream tells an account what concerns it (challenges to and from it, its
games starting, waiting for it, ending); the game stream sends a game's full state once,
then each batch of new events with the situation after them. Both read the database
every POLL seconds (cheap queries of a few rows), so they see changes made by any
process, and they work the same after a restart.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import or_, select

from ..core.errors import ApiError
from ..games.service import GameService
from ..i18n import N_
from ..models import Challenge, Game, User, table, utcnow
from .challenges import challenge_out

T_CHALLENGES, T_GAMES = table(Challenge), table(Game)
KEEP_ALIVE_SECONDS = 6.0


def line(obj: dict) -> bytes:
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode()


class AccountWatch:
    """What changed for one account since the last look (challenges and games)."""

    def __init__(self, games: GameService, user: User):
        self.games, self.user = games, user
        self.since = utcnow()
        self.challenges: dict[int, str] = {}
        self.seen: dict[str, tuple[str, int]] = {}  # game id -> (status, seq)

    def _challenge_messages(self, s) -> list[dict]:
        c, uid = T_CHALLENGES.c, self.user.id
        rows = s.execute(select(T_CHALLENGES).where(or_(c.challenger_id == uid, c.target_id == uid),
                                                    or_(c.status == "open", c.decided_at >= self.since))
                         .order_by(c.id)).all()
        out = []
        for r in rows:
            before = self.challenges.get(r.id)
            if before == r.status or (before is None and r.status == "accepted"):
                self.challenges[r.id] = r.status
                continue  # accepted: the gameStart says it
            kind = {"open": "challenge", "declined": "challengeDeclined",
                    "cancelled": "challengeCanceled", "accepted": "challengeAccepted"}[r.status]
            out.append({"type": kind, "challenge": challenge_out(s, r)})
            self.challenges[r.id] = r.status
        return out

    def _game_messages(self, s) -> list[dict]:
        c, uid = T_GAMES.c, self.user.id
        rows = s.execute(select(c.id, c.status, c.seq, c.to_act, c.union_user_id, c.confederate_user_id, c.result)
                         .where(or_(c.union_user_id == uid, c.confederate_user_id == uid),
                                or_(c.status == "active", c.updated_at >= self.since))).all()
        out: list[dict] = []
        for r in rows:
            before = self.seen.get(r.id)
            if before == (r.status, r.seq):
                continue
            self.seen[r.id] = (r.status, r.seq)
            mine = [sd for sd in ("union", "confederate") if getattr(r, f"{sd}_user_id") == uid]
            if r.status == "active":
                if before is None or before[0] != "active":  # new to us, or an open game that started
                    out.append({"type": "gameStart", "game": {"id": r.id, "sides": mine, "seq": r.seq}})
                if r.to_act in mine:
                    out.append({"type": "yourTurn", "game": {"id": r.id, "side": r.to_act, "seq": r.seq}})
            elif before is not None and before[0] == "active":
                out.append({"type": "gameFinish", "game": {"id": r.id, "status": r.status, "result": r.result}})
        return out

    def changes(self) -> list[dict]:
        with self.games.db.read() as s:
            return self._challenge_messages(s) + self._game_messages(s)


async def account_stream(games: GameService, user: User, poll: float) -> AsyncIterator[bytes]:
    watch = AccountWatch(games, user)
    quiet_since = time.monotonic()
    while True:
        msgs = await games.call(watch.changes)
        for m in msgs:
            yield line(m)
        if msgs:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > KEEP_ALIVE_SECONDS:
            yield b"\n"
            quiet_since = time.monotonic()
        await asyncio.sleep(poll)


def _situation(games: GameService, gid: str, user: User) -> dict[str, Any]:
    lg = games.legal(gid, user)
    return {"seq": lg["seq"], "to_act": lg["to_act"], "your_sides": lg["your_sides"], "legal": lg["actions"]}


def game_full(games: GameService, gid: str, user: User) -> dict:
    # the situation first: a move made in between comes again in the first batch of
    # events, with the legal actions that go with it
    situation = _situation(games, gid, user)
    return {"type": "gameFull", **games.get_game(gid, user), **situation}


def _next_batch(games: GameService, gid: str, user: User, after: int) -> tuple[dict | None, int]:
    seats = games.seats_of(gid)
    if seats is None:
        raise ApiError(404, N_("there is no such game"), "not_found")
    if seats["seq"] <= after:
        return None, after
    # only the events the status was read with: one appended since (the game's last,
    # say) waits for the next batch, which brings its status; sent now under the old
    # status, it would leave the stream waiting for a change that never comes
    evs = [e for e in games.events(gid, after)["events"] if e["seq"] <= seats["seq"]]
    last = evs[-1]["seq"] if evs else after
    return {"type": "events", "events": evs, "status": seats["status"], "result": games.get_game(gid, None)["result"]
            if seats["status"] != "active" else None, **_situation(games, gid, user)}, last


async def game_stream(games: GameService, gid: str, user: User, poll: float) -> AsyncIterator[bytes]:
    full = await games.call(game_full, games, gid, user)
    yield line(full)
    after, status = full["seq"], full["status"]
    quiet_since = time.monotonic()
    while status in ("open", "active"):
        await asyncio.sleep(poll)
        batch, after = await games.call(_next_batch, games, gid, user, after)
        if batch is not None:
            status = batch["status"]
            quiet_since = time.monotonic()
            yield line(batch)
        elif time.monotonic() - quiet_since > KEEP_ALIVE_SECONDS:
            yield b"\n"
            quiet_since = time.monotonic()
