"""Integrity checks of the stored games.

- check_chain_all(): the hash chain of every game (rules_engine/record.py), from the
  header hash through each event's prev_hash to games.chain_head. Run periodically by
  the server (the setting INTEGRITY_CHECK_SECONDS, default 3600; 0 turns it off), on demand by
  GET /api/admin/integrity, and by `python -m app recheck`.
- recheck(): `python -m app recheck [GAME...]` replays stored games through the CURRENT
  rules engine, deciding every action again (legality, dice against the seed, the
  events each action produces) and compares the outcome with what the server stored, so
  that a rules fix can be applied to live games knowingly.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import select

import rules_engine
from rules_engine.record import check_chain, fold
from rules_engine.verify import verify_export

from ..core.clock import iso
from ..models import User, utcnow
from ..store.db import Database
from ..store.events import T_GAMES, stored_events
from .disputes import admin_user

log = logging.getLogger("app.integrity")
#: Server events that end a game with a result of their own, not the engine's: a
#: resignation, an administrator's verdict, an abort, an accepted draw, a loss on time.
ENDED_BY_THE_SERVER = ("resign", "adjudicate", "annul", "abort", "accept_draw", "timeout")
router = APIRouter(prefix="/api/admin", tags=["admin"])


def _game_ids(conn, gids: list[str] | None) -> list[str]:
    if gids:
        return list(gids)
    return [r[0] for r in conn.execute(select(T_GAMES.c.id).order_by(T_GAMES.c.created_at)).all()]


def check_chain_all(db: Database, gids: list[str] | None = None) -> dict[str, Any]:
    """{"checked", "broken": [{game_id, problems}], "at", "ms"}"""
    t0 = time.perf_counter()
    broken = []
    with db.read() as s:
        ids = _game_ids(s, gids)
        for gid in ids:
            g = s.execute(select(T_GAMES.c.header, T_GAMES.c.chain_head).where(T_GAMES.c.id == gid)).first()
            if g is None:
                broken.append({"game_id": gid, "problems": ["no such game"]})
                continue
            problems = check_chain(gid, g.header, stored_events(s, gid), g.chain_head)
            if g.chain_head is None:
                problems.append("the game has no chain head")
            if problems:
                broken.append({"game_id": gid, "problems": problems})
    return {"checked": len(ids), "broken": broken, "at": iso(utcnow()),
            "ms": round((time.perf_counter() - t0) * 1000, 1)}


def recheck_game(conn, gid: str) -> dict[str, Any]:
    g = conn.execute(select(T_GAMES).where(T_GAMES.c.id == gid)).first()
    if g is None:
        return {"game_id": gid, "ok": False, "problems": ["no such game"]}
    evs = stored_events(conn, gid)
    problems = verify_export({"game_id": gid, "header": g.header, "events": evs, "seed": g.seed,
                              "chain_head": g.chain_head})
    if not problems:
        f = fold(evs)
        try:
            again = rules_engine.replay(g.header, f.effective)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"the applying path cannot replay the log: {exc}")
        else:
            if g.status == "active":
                if again.result is not None:
                    problems.append(f"the engine now ends the game ({again.result.get('reason')}) but it is in play")
                elif again.to_act != g.to_act:
                    problems.append(f"the engine now has {again.to_act} to act, the server has {g.to_act}")
            server_ended = any(e["source"] == "server" and e["type"] in ENDED_BY_THE_SERVER
                               and f.status.get(e["seq"]) == "effective" for e in evs)
            if g.status == "finished" and not server_ended and again.result != g.result:
                problems.append(f"the engine's result is now {again.result}, the stored one {g.result}")
    return {"game_id": gid, "status": g.status, "seq": g.seq, "ok": not problems, "problems": problems}


def recheck(db: Database, gids: list[str] | None = None) -> list[dict[str, Any]]:
    with db.read() as s:
        return [recheck_game(s, gid) for gid in _game_ids(s, gids)]


# ----------------------------------------------------------------------------- periodic
class PeriodicCheck:
    def __init__(self, db: Database, interval: float):
        self.db = db
        self.interval = interval  # seconds; 0: never
        self.last: dict[str, Any] | None = None
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self.interval > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
            self._task = None

    async def run_once(self) -> dict[str, Any]:
        rep = await asyncio.to_thread(check_chain_all, self.db)
        self.last = rep
        for b in rep["broken"]:
            log.error("INTEGRITY: game %s: %s", b["game_id"], "; ".join(b["problems"]))
        return rep

    async def _loop(self) -> None:
        await asyncio.sleep(min(self.interval, 30))
        while True:
            try:
                await self.run_once()
            except Exception:  # noqa: BLE001
                log.exception("the integrity check failed")
            await asyncio.sleep(self.interval)


@router.get("/integrity")
async def integrity(request: Request, run: bool = Query(False, description="check every game now"),
                    admin: User = Depends(admin_user)):
    pc: PeriodicCheck = request.app.state.integrity
    if run or pc.last is None:
        return await pc.run_once()
    return pc.last


@router.get("/games/{game_id}/recheck")
def recheck_one(game_id: str, request: Request, admin: User = Depends(admin_user)):
    with request.app.state.db.read() as s:
        return recheck_game(s, game_id)
