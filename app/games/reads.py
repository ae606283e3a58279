"""What the game service answers without changing a game: views, legal actions,
events, the websocket snapshot and catch-up changes, the lobby."""
from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from ..core.clock import iso
from ..core.errors import ApiError
from ..i18n import N_
from ..models import PlayerRating, User, table
from ..ratings.glicko2 import rating_view
from ..store import events as store
from ..store.events import T_EVENTS, T_GAMES, GameRow, load_game
from .records import SIDES, Change, Entry, other_side
from .remote import RemoteMoves

# the server events of a draw offer and its answer (app.games.endings appends them)
DRAW_EVENTS = ("offer_draw", "accept_draw", "decline_draw")
# the opponent's answer to a rematch (app.games.endings): declined, on the finished game
# and on the rematch it aborts; accepted, on the finished game
REMATCH_DECLINED = "decline_rematch"
REMATCH_ACCEPTED = "accept_rematch"

T_USERS, T_RATINGS = table(User), table(PlayerRating)


class GameReads(RemoteMoves):
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
        v["draw_offer"] = self.draw_offer(s, game)
        v["rematch"] = self.rematch_of(s, game)
        v["header"] = game.header
        return v

    # ---------------------------------------------------------------- draws and rematches
    @staticmethod
    def draw_offer(s: Connection, game: GameRow) -> dict | None:
        """The open draw offer of an active game, or None. An offer is open until the
        opponent answers it or the offering side makes its next decision (an action or an
        undo): playing on withdraws it."""
        if game.status != "active":
            return None
        last = store.last_event_of(s, game.id, DRAW_EVENTS)
        if last is None or last.type != "offer_draw":
            return None
        side = last.payload["side"]
        if store.side_decided_after(s, game.id, side, last.seq):
            return None
        return {"side": side, "username": last.payload.get("username"), "seq": last.seq}

    @staticmethod
    def rematch_of(s: Connection, game: GameRow) -> dict | None:
        """The rematch of a finished game, once a player asked for one: {game_id, by,
        side, status} (status: the new game's; "aborted" once the opponent declined it),
        and declined_by (who declined) when it was declined."""
        if game.status != "finished":
            return None
        ev = store.last_event_of(s, game.id, ("rematch", REMATCH_DECLINED))
        asked = ev if ev is None or ev.type == "rematch" else store.last_event_of(s, game.id, ("rematch",))
        if asked is None:
            return None
        out = dict(asked.payload)
        new = load_game(s, out["game_id"])
        out["status"] = new.status if new is not None else "open"  # stored a moment later (endings.rematch)
        if ev is not None and ev.type == REMATCH_DECLINED:
            out["status"], out["declined_by"] = "aborted", ev.payload.get("by")
        return out

    @staticmethod
    def rematch_opponent(s: Connection, game: GameRow) -> int | None:
        """The user a rematch waits for (the other player of the game it replays), who
        may take the free seat of a private rematch without its invitation link."""
        first = store.event_at(s, game.id, 1)
        old_id = first.payload.get("rematch_of") if first is not None and first.type == "create" else None
        old = load_game(s, old_id) if old_id else None
        if old is None or first is None or first.actor not in SIDES:
            return None
        # the one who asked took the other side of the one they held, so the opponent
        # held the side the one who asked holds now
        return getattr(old, f"{first.actor}_user_id")

    def rematch_reserved(self, s: Connection, game: GameRow) -> int | None:
        """The user an open rematch is kept for (nobody else may take its free seat), or
        None for any other game. A player who held both seats of the game it replays
        waits for anyone, as before."""
        if game.status != "open":
            return None
        waiting_for = self.rematch_opponent(s, game)
        seated = {game.union_user_id, game.confederate_user_id}
        return waiting_for if waiting_for is not None and waiting_for not in seated else None

    @staticmethod
    def rematches_waiting(s: Connection, games: list[GameRow]) -> dict[str, int]:
        """Of these open games, the rematches whose free seat is kept: game id -> the user
        it waits for (as rematch_reserved, in two queries for the whole list)."""
        if not games:
            return {}
        creates = s.execute(select(T_EVENTS.c.game_id, T_EVENTS.c.actor, T_EVENTS.c.payload)
                            .where(T_EVENTS.c.game_id.in_([g.id for g in games]), T_EVENTS.c.seq == 1,
                                   T_EVENTS.c.type == "create")).all()
        asked = {r.game_id: (r.payload.get("rematch_of"), r.actor) for r in creates
                 if isinstance(r.payload, dict) and r.payload.get("rematch_of") and r.actor in SIDES}
        if not asked:
            return {}
        c = T_GAMES.c
        old = {r.id: r for r in s.execute(select(c.id, c.union_user_id, c.confederate_user_id)
                                          .where(c.id.in_({o for o, _ in asked.values()}))).all()}
        out = {}
        for g in games:
            old_id, side = asked.get(g.id, (None, None))
            prev = old.get(old_id) if old_id else None
            waiting_for = getattr(prev, f"{side}_user_id") if prev is not None else None
            if g.status == "open" and waiting_for is not None \
                    and waiting_for not in (g.union_user_id, g.confederate_user_id):
                out[g.id] = waiting_for
        return out

    def rematch_offers(self, user: User) -> list[dict]:
        """The open rematches kept for this user (the lobby's Accept / Decline): each with
        the finished game it replays (rematch_of) and who asked (by)."""
        c = T_GAMES.c
        with self.db.read() as s:
            rows = s.execute(select(T_GAMES).where(c.status == "open", c.creator_id != user.id)
                             .order_by(c.created_at.desc()).limit(200)).all()
            games = [SimpleNamespace(**r._mapping) for r in rows]
            waiting = self.rematches_waiting(s, games)
            kept = [g for g in games if waiting.get(g.id) == user.id]
            names = self._players(s, [g.creator_id for g in kept])
            out = []
            for g in kept:
                first = store.event_at(s, g.id, 1)
                out.append(self.summary(g, names, user) | {
                    "rematch_of": first.payload["rematch_of"] if first is not None else None,
                    "by": names.get(g.creator_id, {}).get("username")})
            return out

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

    def battle_odds(self, gid: str) -> dict:
        """The battle now, with the number each unit of the firing side needs to hit each
        enemy unit (the engine's own 5.1 value: a die at or under it hits), so that the
        battle board shows the odds before the targets are chosen."""
        def fn(s: Connection, game: GameRow):
            g = self.state(s, game).game
            b = g.battle
            if not b or not b.get("firing"):
                return {"seq": game.seq, "battle": None, "to_hit": {}}
            firing = b["firing"]
            enemies = b["units"][other_side(firing)]
            to_hit = {u: {t: g.shot_value(u, t) for t in enemies} for u in b["units"][firing]}
            return {"seq": game.seq, "battle": {"box": b["box"], "round": b["round"], "firing": firing,
                                                "step": b["step"]}, "to_hit": to_hit}
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
            recs = store.events_range(s, gid, after, game.seq)
            entry = self.state(s, game, known=(after, recs)) if (want_state or want_legal) else None
            events = [r.out() for r in recs]
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
                raise ApiError(422, N_("view must be open, mine, live or finished"), "invalid_request")
            games = [SimpleNamespace(**r._mapping) for r in s.execute(q.limit(limit)).all()]
            if view == "open":  # a rematch is offered to one player, not to the lobby
                waiting = self.rematches_waiting(s, games)
                games = [g for g in games if g.id not in waiting]
            names = self._players(s, [g.union_user_id for g in games] + [g.confederate_user_id for g in games])
            out = [self.summary(g, names, user) for g in games]
            if view == "mine":
                rank = {"active": 1, "open": 2, "finished": 3}
                out.sort(key=lambda v: (not v["your_turn"], rank.get(v["status"], 9)))
            return out
