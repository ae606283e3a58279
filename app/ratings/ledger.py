"""Ratings of rated games: Glicko-2 (app.ratings.glicko2), one rating period per game.

The hook runs in the append transaction that finishes a game (GameService.on_append),
so a result changes the ratings exactly once and together with the game: a win scores
1, a draw (no winner: agreement, or an administrator's adjudication) 0.5 each, a
resignation or a loss on time counts as a loss. A result an administrator replaces
(adjudicate) or annuls first has the game's earlier changes reversed: the rating moves
back by what the game gave, deviation and volatility return to their values before it.
Games against the computer, casual games and annulled games change nothing.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from ..core.clock import iso
from ..models import PlayerRating, RatingChange, User, table, utcnow
from .glicko2 import NEW_PLAYER, Rating, Result, rate, rating_view

T_RATINGS, T_CHANGES, T_USERS = table(PlayerRating), table(RatingChange), table(User)
SIDES = ("union", "confederate")
RATED_KINDS = ("person", "bot")  # the computer accounts play casual games only


def scores(result: dict | None) -> dict[str, float] | None:
    """Each side's score for a finished game's result, or None if it must not count."""
    if not result or result.get("annulled"):
        return None
    winner = result.get("winner")
    if winner is None:
        return {"union": 0.5, "confederate": 0.5}
    if winner not in SIDES:
        return None
    return {side: 1.0 if side == winner else 0.0 for side in SIDES}


def current(s: Connection, user_id: int) -> tuple[Rating, int, bool]:
    """(rating, rated games, has a row) of a player; the row is locked until commit."""
    row = s.execute(select(T_RATINGS).where(T_RATINGS.c.user_id == user_id).with_for_update()).first()
    if row is None:
        return Rating(*NEW_PLAYER), 0, False
    return Rating(row.rating, row.deviation, row.volatility), row.games, True


def _store(s: Connection, user_id: int, r: Rating, games: int, exists: bool) -> None:
    values = dict(rating=r.rating, deviation=r.deviation, volatility=r.volatility, games=games, updated_at=utcnow())
    if exists:
        s.execute(update(T_RATINGS).where(T_RATINGS.c.user_id == user_id).values(**values))
    else:  # a concurrent first game of the same player hits the key: the command is retried
        s.execute(insert(T_RATINGS).values(user_id=user_id, **values))


def reverse_game(s: Connection, game_id: str) -> None:
    """Take back what a game did to its players' ratings (a replaced or annulled result)."""
    changes = s.execute(select(T_CHANGES).where(T_CHANGES.c.game_id == game_id,
                                                T_CHANGES.c.reversed_at.is_(None))).all()
    for ch in changes:
        r, games, exists = current(s, ch.user_id)
        back = Rating(r.rating - (ch.rating_after - ch.rating_before), ch.deviation_before, ch.volatility_before)
        _store(s, ch.user_id, back, max(0, games - 1), exists)
    if changes:
        s.execute(update(T_CHANGES).where(T_CHANGES.c.game_id == game_id, T_CHANGES.c.reversed_at.is_(None))
                  .values(reversed_at=utcnow()))


def rate_game(s: Connection, game_id: str, seats: dict[str, int], score: dict[str, float]) -> None:
    before = {side: current(s, uid) for side, uid in seats.items()}
    now = utcnow()
    for side, uid in seats.items():
        other = "confederate" if side == "union" else "union"
        old, games, exists = before[side]
        new = rate(old, [Result(before[other][0], score[side])])
        _store(s, uid, new, games + 1, exists)
        s.execute(insert(T_CHANGES).values(
            user_id=uid, game_id=game_id, opponent_id=seats[other], side=side, score=score[side],
            rating_before=old.rating, deviation_before=old.deviation, volatility_before=old.volatility,
            rating_after=new.rating, deviation_after=new.deviation, volatility_after=new.volatility,
            created_at=now, reversed_at=None))


def on_append(s: Connection, game: Any, new: dict, out: list) -> None:
    """GameService.on_append: rate a rated game when it finishes (or its result changes)."""
    if not out or new["status"] != "finished":
        return
    if game.status == "finished" and new["result"] == game.result:
        return
    if game.status == "finished":
        reverse_game(s, game.id)
    score = scores(new["result"])
    seats = {side: new[f"{side}_user_id"] for side in SIDES}
    if not getattr(game, "rated", False) or score is None or None in seats.values():
        return
    players = s.execute(select(func.count()).select_from(T_USERS)
                        .where(T_USERS.c.id.in_(list(seats.values())), T_USERS.c.kind.in_(RATED_KINDS))).scalar_one()
    if players == 2:
        rate_game(s, game.id, seats, score)


def history(s: Connection, user_id: int, limit: int = 100) -> list[dict]:
    """A player's rating changes, newest first."""
    rows = s.execute(select(T_CHANGES, T_USERS.c.username.label("opponent"))
                     .join(T_USERS, T_USERS.c.id == T_CHANGES.c.opponent_id)
                     .where(T_CHANGES.c.user_id == user_id)
                     .order_by(T_CHANGES.c.id.desc()).limit(limit)).all()
    return [{"game_id": r.game_id, "opponent": r.opponent, "side": r.side, "score": r.score,
             "rating_before": round(r.rating_before), "rating_after": round(r.rating_after),
             "change": round(r.rating_after - r.rating_before), "at": iso(r.created_at),
             "reversed": r.reversed_at is not None} for r in rows]


def rating_of(s: Connection, user_id: int) -> dict | None:
    row = s.execute(select(T_RATINGS).where(T_RATINGS.c.user_id == user_id)).first()
    if row is None:
        return None
    return {**(rating_view(row.rating, row.deviation) or {}), "games": row.games}
