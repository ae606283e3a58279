"""Challenges: a person or a bot asks a named account for a game (scenario, options,
side, live or by turn, rated or casual); the account accepts (the game starts at once,
both seated) or declines; the challenger may cancel while it is open."""
from __future__ import annotations

from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Connection

import rules_engine

from ..core.clock import iso
from ..core.errors import ApiError, engine_refusal
from ..games.service import GameService
from ..guard.names import username_key
from ..i18n import N_
from ..models import Challenge, User, table, utcnow

T_CHALLENGES, T_USERS = table(Challenge), table(User)


def find_user(s: Connection, username: str) -> Any:
    row = s.execute(select(T_USERS).where(T_USERS.c.username_key == username_key(username[:64]))).first()
    if row is None:
        raise ApiError(404, N_("there is no player called {name}"), "not_found", {"name": repr(username[:64])})
    return row


def challenge_out(s: Connection, row: Any) -> dict:
    names = dict(s.execute(select(T_USERS.c.id, T_USERS.c.username)
                           .where(T_USERS.c.id.in_((row.challenger_id, row.target_id)))).all())
    return {"id": row.id, "challenger": names.get(row.challenger_id), "target": names.get(row.target_id),
            "scenario": row.scenario, "options": row.options, "side": row.side, "mode": row.mode,
            "rated": row.rated, "status": row.status, "reason": row.reason, "game_id": row.game_id,
            "created_at": iso(row.created_at), "decided_at": iso(row.decided_at)}


class Challenges:
    def __init__(self, games: GameService):
        self.games = games
        self.db = games.db

    def create(self, user: User, username: str, scenario: str, options: list[str], side: str, mode: str,
               rated: bool) -> dict:
        self.games.check_new_game(side, mode, options)
        try:  # refuse a game that could never start now, not when it is accepted
            rules_engine.new_game(scenario=scenario, options=list(options), seed="check")
        except ValueError as exc:
            raise engine_refusal(exc.args[0] if exc.args else exc) from None
        with self.db.write() as s:
            target = find_user(s, username)
            if target.id == user.id:
                raise ApiError(422, N_("you cannot challenge yourself"), "invalid_request")
            if target.kind == "computer":
                raise ApiError(422, N_("to play the computer, create a game with an opponent"), "invalid_request")
            cid = s.execute(insert(T_CHALLENGES).values(
                challenger_id=user.id, target_id=target.id, scenario=scenario, options=list(options), side=side,
                mode=mode, rated=bool(rated), status="open", reason=None, game_id=None,
                created_at=utcnow(), decided_at=None).returning(T_CHALLENGES.c.id)).scalar_one()
            s.commit()
            return challenge_out(s, self._row(s, cid))

    @staticmethod
    def _row(s: Connection, cid: int) -> Any:
        row = s.execute(select(T_CHALLENGES).where(T_CHALLENGES.c.id == cid)).first()
        if row is None:
            raise ApiError(404, N_("there is no such challenge"), "not_found")
        return row

    def _decide(self, cid: int, user: User, who: str, status: str, reason: str | None = None) -> Any:
        """Close an open challenge (only the target accepts or declines, only the
        challenger cancels); a conditional update, so it is decided once."""
        with self.db.write() as s:
            row = self._row(s, cid)
            if getattr(row, f"{who}_id") != user.id:
                raise ApiError(403, N_("only the challenged player may do that") if who == "target"
                               else N_("only the challenger may do that"), "not_yours")
            res = s.execute(update(T_CHALLENGES).where(T_CHALLENGES.c.id == cid, T_CHALLENGES.c.status == "open")
                            .values(status=status, reason=reason, decided_at=utcnow()))
            if res.rowcount != 1:
                raise ApiError(409, N_("this challenge is already {status}"), "challenge_closed",
                               {"status": row.status})
            s.commit()
            return self._row(s, cid)

    def accept(self, user: User, cid: int) -> dict:
        row = self._decide(cid, user, "target", "accepted")
        with self.db.read() as s:
            challenger = s.execute(select(T_USERS).where(T_USERS.c.id == row.challenger_id)).first()
        creator = User(id=challenger.id, username=challenger.username, kind=challenger.kind)
        try:
            game = self.games.create_game(creator, row.scenario, list(row.options), row.side, row.mode, False,
                                          rated=row.rated, opponent=user)
        except ApiError:  # the engine refuses it now (changed since): the challenge stays open
            with self.db.write() as s:
                s.execute(update(T_CHALLENGES).where(T_CHALLENGES.c.id == cid)
                          .values(status="open", decided_at=None))
                s.commit()
            raise
        with self.db.write() as s:
            s.execute(update(T_CHALLENGES).where(T_CHALLENGES.c.id == cid).values(game_id=game["id"]))
            s.commit()
            return {**challenge_out(s, self._row(s, cid)), "game": game}

    def decline(self, user: User, cid: int, reason: str | None) -> dict:
        row = self._decide(cid, user, "target", "declined", reason or "declined")
        with self.db.read() as s:
            return challenge_out(s, row)

    def cancel(self, user: User, cid: int) -> dict:
        row = self._decide(cid, user, "challenger", "cancelled")
        with self.db.read() as s:
            return challenge_out(s, row)

    def mine(self, user: User, status: str | None = "open") -> list[dict]:
        c = T_CHALLENGES.c
        with self.db.read() as s:
            q = select(T_CHALLENGES).where(or_(c.challenger_id == user.id, c.target_id == user.id))
            if status is not None:
                q = q.where(c.status == status)
            return [challenge_out(s, r) for r in s.execute(q.order_by(c.id)).all()]
