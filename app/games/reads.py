"""What the game service answers without changing a game: views, legal actions,
events, the websocket snapshot and catch-up changes, the lobby."""
from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from ..core.clock import iso
from ..core.errors import ApiError
from ..models import PlayerRating, User, table
from ..ratings.glicko2 import rating_view
from ..store import events as store
from ..store.events import T_GAMES, GameRow, load_game
from .core import CommandCore
from .records import Change, Entry

T_USERS, T_RATINGS = table(User), table(PlayerRating)


class GameReads(CommandCore):
    def _players(self, s: Connection, ids: Iterable[int | None]) -> dict[int, dict]:
        """Who sits in the seats: name, whether it is the computer, and the rating
        (None for the computer and for a player who has not finished a rated game)."""
        ids = {i for i in ids if i is not None}
        if not ids:
            return {}
        rows = s.execute(select(T_USERS.c.id, T_USERS.c.username, T_USERS.c.kind, T_RATINGS.c.rating,
                                T_RATINGS.c.deviation)
                         .outerjoin(T_RATINGS, T_RATINGS.c.user_id == T_USERS.c.id)
                         .where(T_USERS.c.id.in_(ids))).all()
        return {r.id: {"username": r.username, "computer": r.kind == "computer", "bot": r.kind == "bot",
                       "rating": rating_view(r.rating, r.deviation)} for r in rows}

    def _seats(self, game: GameRow, players: dict[int, dict]) -> dict:
        return {side: ({"user_id": uid, **players.get(uid, {"username": None})} if uid is not None else None)
                for side, uid in (("union", game.union_user_id), ("confederate", game.confederate_user_id))}

    def summary(self, game: GameRow, names: dict[int, dict], user: User | None = None) -> dict:
        sides = self.sides_of(game, user.id) if user else []
        return {"id": game.id, "scenario": game.scenario, "options": game.options, "mode": game.mode,
                "private": game.private, "rated": bool(getattr(game, "rated", False)), "status": game.status,
                "seats": self._seats(game, names),
                "seq": game.seq, "to_act": game.to_act if game.status == "active" else None,
                "result": game.result, "your_sides": sides,
                "your_turn": bool(game.status == "active" and game.to_act in sides),
                "created_at": iso(game.created_at), "updated_at": iso(game.updated_at)}

    def _view(self, s: Connection, game: GameRow, entry: Entry | None, user: User | None, with_state: bool) -> dict:
        names = self._players(s, (game.union_user_id, game.confederate_user_id))
        v = self.summary(game, names, user)
        if with_state and entry is not None:
            v["state"] = entry.game.state()
            v["engine_result"] = entry.game.result
        if user is not None and v["your_sides"]:
            if game.private:
                v["invite_code"] = game.invite_code
                v["invite_url"] = f"{self.public_url}/games/{game.id}?invite={game.invite_code}"
            if entry is not None and game.status == "active":
                v["can_undo"] = self.undo_info(entry.game, entry, v["your_sides"])[0]
        v["header"] = game.header
        return v

    def get_game(self, gid: str, user: User | None) -> dict:
        return self._read(gid, lambda s, game: self._view(s, game, self.state(s, game), user, with_state=True))

    def public_record(self, gid: str) -> SimpleNamespace:
        """What a computer player may see of a game: its row (situation and seats), the
        header and the effective engine events. Never the dice seed: a replay of this
        record cannot roll."""
        def fn(s: Connection, game: GameRow):
            entry = self.state(s, game)
            return SimpleNamespace(game=game, header=entry.header, events=list(entry.game.events))
        return self._read(gid, fn)

    def legal(self, gid: str, user: User | None) -> dict:
        def fn(s: Connection, game: GameRow):
            sides = self.sides_of(game, user.id if user else None)
            actions: list = []
            if game.status == "active" and game.to_act in sides:
                actions = self.state(s, game).game.legal_actions()
            return {"seq": game.seq, "to_act": game.to_act if game.status == "active" else None,
                    "your_sides": sides, "actions": actions}
        return self._read(gid, fn)

    def events(self, gid: str, after: int = 0, limit: int | None = None) -> dict:
        def fn(s: Connection, game: GameRow):
            recs = store.events_after(s, gid, after, limit)
            return {"game_id": gid, "seq": game.seq, "events": [r.out() for r in recs]}
        return self._read(gid, fn, lock=False)

    def snapshot(self, gid: str, user_id: int | None) -> dict:
        """What a socket gets on connect."""
        def fn(s: Connection, game: GameRow):
            entry = self.state(s, game)
            names = self._players(s, (game.union_user_id, game.confederate_user_id))
            sides = self.sides_of(game, user_id)
            legal: list = []
            if game.status == "active" and game.to_act in sides:
                legal = entry.game.legal_actions()
            return {"type": "snapshot", "game_id": gid, "seq": game.seq, "status": game.status,
                    "to_act": game.to_act if game.status == "active" else None, "result": game.result,
                    "scenario": game.scenario, "options": game.options, "mode": game.mode,
                    "seats": self._seats(game, names), "your_sides": sides,
                    "state": entry.game.state(), "legal": legal,
                    "_seats_ids": {"union": game.union_user_id, "confederate": game.confederate_user_id}}
        return self._read(gid, fn)

    def load_change(self, gid: str, after: int, want_state: bool, want_legal: bool) -> Change | None:
        """Every event after `after` as one Change (catch-up after a gap, or events
        appended by another process)."""
        def fn(s: Connection, game: GameRow):
            if game.seq <= after:
                return None
            entry = self.state(s, game) if (want_state or want_legal) else None
            events = [r.out() for r in store.events_range(s, gid, after, game.seq)]
            return self._change(game, entry, events, (want_state, want_legal), first=after + 1)
        return self._read(gid, fn)

    def current_seqs(self, gids: list[str]) -> dict[str, int]:
        with self.db.read() as s:
            return dict(s.execute(select(T_GAMES.c.id, T_GAMES.c.seq).where(T_GAMES.c.id.in_(gids))).all())

    def seats_of(self, gid: str) -> dict | None:
        with self.db.read() as s:
            game = load_game(s, gid)
            if game is None:
                return None
            return {"union": game.union_user_id, "confederate": game.confederate_user_id,
                    "status": game.status, "seq": game.seq}

    def games_of(self, user_id: int, viewer: User | None = None, limit: int = 50) -> list[dict]:
        """A player's public games (started or finished), newest first: their profile."""
        c = T_GAMES.c
        with self.db.read() as s:
            q = (select(T_GAMES).where(or_(c.union_user_id == user_id, c.confederate_user_id == user_id),
                                       c.status.in_(("active", "finished")), c.private.is_(False))
                 .order_by(c.updated_at.desc()).limit(limit))
            games = [SimpleNamespace(**r._mapping) for r in s.execute(q).all()]
            names = self._players(s, [g.union_user_id for g in games] + [g.confederate_user_id for g in games])
            return [self.summary(g, names, viewer) for g in games]

    def lobby(self, user: User | None, view: str, limit: int = 100) -> list[dict]:
        c = T_GAMES.c
        with self.db.read() as s:
            q = select(T_GAMES)
            if view == "open":
                q = q.where(c.status == "open", c.private.is_(False)).order_by(c.created_at.desc())
            elif view == "live":
                q = q.where(c.status == "active", c.private.is_(False)).order_by(c.updated_at.desc())
            elif view == "finished":
                q = q.where(c.status == "finished", c.private.is_(False)).order_by(c.updated_at.desc())
            elif view == "mine":
                if user is None:
                    return []
                q = q.where(or_(c.union_user_id == user.id, c.confederate_user_id == user.id),
                            c.status.in_(("open", "active", "finished"))).order_by(c.updated_at.desc())
            else:
                raise ApiError(422, "view must be open, mine, live or finished", "invalid_request")
            games = [SimpleNamespace(**r._mapping) for r in s.execute(q.limit(limit)).all()]
            names = self._players(s, [g.union_user_id for g in games] + [g.confederate_user_id for g in games])
            out = [self.summary(g, names, user) for g in games]
            if view == "mine":
                rank = {"active": 1, "open": 2, "finished": 3}
                out.sort(key=lambda v: (not v["your_turn"], rank.get(v["status"], 9)))
            return out
