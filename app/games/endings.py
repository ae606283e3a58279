"""Endings the players agree on: offering, accepting and declining a draw, and the
rematch of a finished game (a new game, same scenario and options, sides swapped).

Each is a server event of the game: offer_draw / accept_draw / decline_draw
{side, username}; rematch {game_id, by, side} on the finished game, while the new game's
create event carries rematch_of. A rematch is offered to the other player only (its free
seat is kept for them: GameReads.rematch_reserved), who accepts it (takes that seat) or
declines it: decline_rematch {by, rematch_of} aborts the new game, and decline_rematch
{by, game_id} on the finished game closes the offer there (accept_rematch {by, game_id}
there, once the seat is taken, sends the finished game's pages on to the new one).
When an offer is open: GameReads.draw_offer and GameReads.rematch_of.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..core.errors import ApiError, not_found
from ..i18n import N_
from ..models import User, table, utcnow
from ..store import events as store
from ..store.events import GameRow, load_game
from .commands import PlayCommands
from .core import Rec
from .reads import REMATCH_ACCEPTED, REMATCH_DECLINED
from .records import other_side

T_USERS = table(User)

DRAW_RESULT_REASON = "agreement"


class EndingCommands(PlayCommands):
    """Draw offers and rematches (on top of the players' other commands)."""

    # ---------------------------------------------------------------- draws
    def offer_draw(self, user: User, gid: str) -> dict:
        def fn(s: Connection, game: GameRow):
            side = self._one_seat(game, user)
            self._require_active(game)
            offer = self.draw_offer(s, game)
            if offer is not None and offer["side"] == side:
                raise ApiError(409, N_("you have already offered a draw: wait for the answer"), "draw_already_offered")
            if offer is not None:
                raise ApiError(409, N_("your opponent has offered you a draw: accept or decline it first"),
                               "draw_offered_to_you")
            return self._record(s, game, user, "offer_draw", side, {})
        return self.run_command(gid, fn)

    def answer_draw(self, user: User, gid: str, accept: bool) -> dict:
        """Accept (the game ends drawn, by agreement) or decline the opponent's open offer."""
        def fn(s: Connection, game: GameRow):
            side = self._one_seat(game, user)
            self._require_active(game)
            offer = self.draw_offer(s, game)
            if offer is None:
                raise ApiError(409, N_("there is no draw offer to answer"), "no_draw_offer")
            if offer["side"] == side:
                raise ApiError(409, N_("this is your own draw offer: your opponent answers it"), "own_draw_offer")
            if not accept:
                return self._record(s, game, user, "decline_draw", side, {})
            result = {"winner": None, "reason": DRAW_RESULT_REASON}
            return self._record(s, game, user, "accept_draw", side, {
                "status": "finished", "result": result, "to_act": None, "finished_at": utcnow()})
        return self.run_command(gid, fn)

    def _one_seat(self, game: GameRow, user: User) -> str:
        """The caller's side; a draw is agreed between two players, so not with oneself."""
        sides = self._require_player(game, user)
        if len(sides) > 1:
            raise ApiError(409, N_("you hold both seats: there is nobody to agree a draw with"), "both_seats")
        return sides[0]

    def _record(self, s: Connection, game: GameRow, user: User, kind: str, side: str, updates: dict) -> dict:
        """Append one server event {side, username} of the caller and publish it."""
        entry = self.state(s, game)
        recs: list[Rec] = [("server", kind, side, {"side": side, "username": user.username})]
        out = self.append(s, game, recs, updates, {"kind": kind, "side": side, "user_id": user.id})
        entry.seq = game.seq
        self.publish(game, entry, out)
        return {"seq": game.seq, "status": game.status, "result": game.result,
                "draw_offer": self.draw_offer(s, game)}

    # ---------------------------------------------------------------- rematch
    def rematch(self, user: User, gid: str) -> dict:
        """A new game of the same scenario, options, pace and privacy, the caller on the
        other side, waiting for the opponent (who is told, and may join even a private
        one). Asked twice (by either player), it answers the same new game."""
        old = self._rematch_source(gid, user)
        side = other_side(self.sides_of(old, user.id)[0])
        existing = self.rematch_of_id(gid)
        if existing is not None and self._declined(gid):
            raise ApiError(409, N_("the rematch of this game was declined"), "rematch_declined")
        if existing is not None and self.seats_of(existing) is not None:
            return self.get_game(existing, user) | {"existing": True}
        if existing is not None:
            # the rematch was recorded but its game never stored (the process stopped
            # between the two writes): store it now under the recorded id
            return self._store_rematch(user, old, existing, side)
        seed = self.new_seed()
        g = self.start_engine(old.scenario, list(old.options), seed)  # today's engine may refuse old options
        new_id = self.new_game_id()

        def reserve(s: Connection, game: GameRow) -> str:
            if game.status != "finished":
                raise ApiError(409, N_("only a finished game can be played again"), "game_not_finished")
            taken = self.rematch_of(s, game)
            if taken is not None:  # the opponent asked at the same moment
                return taken["game_id"]
            entry = self.state(s, game)
            out = self.append(s, game, [("server", "rematch", side,
                                         {"game_id": new_id, "by": user.username, "side": side})], None,
                              {"kind": "rematch", "side": other_side(side), "user_id": user.id})
            entry.seq = game.seq
            self.publish(game, entry, out)
            return new_id
        chosen = self.run_command(gid, reserve)
        if chosen != new_id:
            return self.get_game(chosen, user) | {"existing": True}
        return self._store_rematch(user, old, new_id, side, g, seed)

    def _store_rematch(self, user: User, old: Any, new_id: str, side: str, g: Any = None,
                       seed: str | None = None) -> dict:
        if g is None or seed is None:
            seed = self.new_seed()
            g = self.start_engine(old.scenario, list(old.options), seed)
        out = self.insert_game(user, new_id, g, seed, old.scenario, list(old.options), side, old.mode,
                               old.private, rematch_of=old.id, rated=bool(old.rated),
                               opponent=self._computer_on(old, side))
        return out | {"existing": False}

    def _computer_on(self, old: Any, seat: str) -> User | None:
        """The computer account that held `seat` in the finished game: it takes the other
        seat of the rematch at once, as nobody else would join it."""
        with self.db.read() as s:
            row = s.execute(select(T_USERS).where(T_USERS.c.id == getattr(old, f"{seat}_user_id"),
                                                  T_USERS.c.kind == "computer")).first()
        if row is None:
            return None
        return User(id=row.id, username=row.username, kind=row.kind)

    def _rematch_source(self, gid: str, user: User) -> Any:
        """The finished game a rematch replays; refusals for a stranger or a game not over."""
        with self.db.read() as s:
            old = load_game(s, gid)
        if old is None:
            raise not_found()
        self._require_player(old, user)
        if old.status != "finished":
            raise ApiError(409, N_("only a finished game can be played again: this one is aborted")
                           if old.status == "aborted" else
                           N_("only a finished game can be played again: this one is not over"), "game_not_finished")
        return old

    def accept_rematch(self, user: User, gid: str) -> dict:
        """The opponent takes the seat the rematch of finished game `gid` keeps for them
        (the game starts); the view of the new game."""
        new_id = self._offered_rematch(gid, user)
        out = self.join(user, new_id)

        def note_on_old(s: Connection, game: GameRow) -> None:
            # the finished game's pages (the one who asked waits there) follow to the new game
            self._note_answer(s, game, user, REMATCH_ACCEPTED, new_id)
        self.run_command(gid, note_on_old)
        return out

    def decline_rematch(self, user: User, gid: str) -> dict:
        """The opponent says no: the rematch (not started) is aborted and the finished
        game records who declined, so the offer is closed on both pages."""
        new_id = self._offered_rematch(gid, user)

        def close_new(s: Connection, game: GameRow) -> None:
            if game.status != "open":
                raise ApiError(409, N_("the rematch has already started"), "rematch_started")
            entry = self.state(s, game)
            out = self.append(s, game, [("server", REMATCH_DECLINED, None, {"by": user.username, "rematch_of": gid})],
                              {"status": "aborted", "to_act": None, "finished_at": utcnow()},
                              {"kind": REMATCH_DECLINED, "side": None, "user_id": user.id})
            entry.seq = game.seq
            self.publish(game, entry, out)
        self.run_command(new_id, close_new)

        def note_on_old(s: Connection, game: GameRow) -> dict:
            self._note_answer(s, game, user, REMATCH_DECLINED, new_id)
            return {"seq": game.seq, "rematch": self.rematch_of(s, game)}
        return self.run_command(gid, note_on_old)

    def _note_answer(self, s: Connection, game: GameRow, user: User, kind: str, new_id: str) -> None:
        """Append the opponent's answer to a rematch ({by, game_id}) to the finished game."""
        side = self.sides_of(game, user.id)[0]
        entry = self.state(s, game)
        out = self.append(s, game, [("server", kind, side, {"by": user.username, "game_id": new_id})],
                          None, {"kind": kind, "side": side, "user_id": user.id})
        entry.seq = game.seq
        self.publish(game, entry, out)

    def _offered_rematch(self, gid: str, user: User) -> str:
        """The id of the open rematch of finished game `gid` that waits for `user`, or the
        refusal: no rematch asked, asked by this user, declined or already started."""
        self._rematch_source(gid, user)
        new_id = self.rematch_of_id(gid)
        if new_id is None:
            raise ApiError(409, N_("nobody has asked for a rematch of this game"), "no_rematch")
        if self._declined(gid):
            raise ApiError(409, N_("the rematch of this game was declined"), "rematch_declined")
        with self.db.read() as s:
            new = load_game(s, new_id)
            if new is None:
                raise ApiError(409, N_("the rematch is being set up: try again in a moment"), "rematch_not_ready")
            if new.status != "open":
                raise ApiError(409, N_("the rematch has already started"), "rematch_started")
            if self.rematch_reserved(s, new) != user.id:
                raise ApiError(409, N_("you asked for this rematch: your opponent answers it"), "own_rematch")
        return new_id

    def _declined(self, gid: str) -> bool:
        with self.db.read() as s:
            return store.last_event_of(s, gid, (REMATCH_DECLINED,)) is not None

    def rematch_of_id(self, gid: str) -> str | None:
        with self.db.read() as s:
            ev = store.last_event_of(s, gid, ("rematch",))
        return ev.payload["game_id"] if ev is not None else None
