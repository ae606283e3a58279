"""The players' commands: create and join a game, act, undo, resign, abort."""
from __future__ import annotations

import secrets
import string
from types import SimpleNamespace
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection

import rules_engine
from rules_engine.record import header_hash

from ..core.errors import ApiError, Term, engine_refusal
from ..i18n import N_
from ..models import User, utcnow
from ..store import events as store
from ..store.events import T_GAMES, GameRow, load_game
from .core import Rec
from .reads import GameReads
from .records import SIDES, Cmd, Entry, other_side, side_name

MODES = ("live", "async")
_ID_ALPHABET = string.ascii_lowercase + string.digits


class PlayCommands(GameReads):
    """The players' commands (on top of the reads, whose views they answer with)."""

    # ---------------------------------------------------------------- lobby
    def create_game(self, user: User, scenario: str, options: list[str], side: str, mode: str,
                    private: bool, rated: bool = False, opponent: User | None = None) -> dict:
        """A new game with the creator seated; with `opponent` (a computer seat) both seats
        are filled at once and the game starts."""
        self.check_new_game(side, mode, options)
        seed = self.new_seed()
        g = self.start_engine(scenario, options, seed)
        if side == "random":
            side = secrets.choice(SIDES)
        return self.insert_game(user, self.new_game_id(), g, seed, scenario, options, side, mode, private,
                                rated=rated, opponent=opponent)

    @staticmethod
    def start_engine(scenario: str, options: list[str], seed: str) -> Any:
        """A new engine game; a scenario or options it refuses are a 422 with its reason."""
        try:
            return rules_engine.new_game(scenario=scenario, options=list(options), seed=seed)
        except ValueError as exc:
            raise engine_refusal(exc.args[0] if exc.args else exc) from None

    @staticmethod
    def new_game_id() -> str:
        return "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))

    def insert_game(self, user: User, gid: str, g: Any, seed: str, scenario: str, options: list[str], side: str,
                    mode: str, private: bool, rematch_of: str | None = None, rated: bool = False,
                    opponent: User | None = None) -> dict:
        """Store a new game (its row and its first events) with `user` seated on `side`
        (and `opponent`, a computer, on the other); a rematch names the game it replays in
        its create event."""
        now = utcnow()
        header = dict(g.header)
        with self._lock(gid), self.db.write() as s:
            row = dict(id=gid, scenario=scenario, options=list(options), mode=mode, private=bool(private),
                       invite_code=secrets.token_urlsafe(12) if private else None, status="open",
                       creator_id=user.id, seed=seed, header=header, seq=0, to_act=None, result=None,
                       created_at=now, updated_at=now, started_at=None, finished_at=None, rated=bool(rated),
                       union_user_id=None, confederate_user_id=None, chain_head=header_hash(gid, header))
            row[f"{side}_user_id"] = user.id
            s.execute(insert(T_GAMES), row)
            game = SimpleNamespace(**row)
            created = {"scenario": scenario, "options": list(options), "mode": mode, "private": bool(private),
                       "rated": bool(rated), "header": header, "by": user.username}
            body = {"scenario": scenario, "options": options, "mode": mode, "private": bool(private),
                    "rated": bool(rated)}
            if rematch_of is not None:
                created["rematch_of"] = body["rematch_of"] = rematch_of
            recs: list[Rec] = [("server", "create", side, created)]
            recs += [("engine", ev["type"], None, ev) for ev in g.events]
            recs.append(("server", "join", side, {"side": side, "user_id": user.id, "username": user.username}))
            updates = self._seat_opponent(g, recs, other_side(side), opponent) if opponent else None
            out = self.append(s, game, recs, updates,
                              command={"kind": "create", "side": side, "user_id": user.id, "body": body})
            entry = Entry(g, game.seq, [], header, seed)
            self._cache_put(gid, entry)
            self.publish(game, entry, out)
            return self._view(s, game, entry, user, with_state=False)

    @staticmethod
    def check_new_game(side: str, mode: str, options: list[str]) -> None:
        """Refuse a side, mode or list of options no game can have (the engine checks the rest)."""
        if side not in (*SIDES, "random"):
            raise ApiError(422, N_("side must be union, confederate or random"), "invalid_request")
        if mode not in MODES:
            raise ApiError(422, N_("mode must be live or async"), "invalid_request")
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise ApiError(422, N_("options must be a list of option ids"), "invalid_request")
        if len(set(options)) != len(options):
            raise ApiError(422, N_("an option is listed twice"), "invalid_request")

    @staticmethod
    def _seat_opponent(g: Any, recs: list[Rec], side: str, opponent: User) -> dict[str, Any]:
        """The records and row values that seat `opponent` on `side` and start the game."""
        recs.append(("server", "join", side, {"side": side, "user_id": opponent.id, "username": opponent.username}))
        recs.append(("server", "start", None, {"to_act": g.to_act}))
        return {f"{side}_user_id": opponent.id, "status": "active", "started_at": utcnow(), "to_act": g.to_act}

    def join(self, user: User, gid: str, side: str | None = None, invite: str | None = None) -> dict:
        if side not in (None, *SIDES):
            raise ApiError(422, N_("side must be union or confederate"), "invalid_request")

        def fn(s: Connection, game: GameRow):
            if game.status != "open":
                raise ApiError(409, N_("this game is not open for joining"), "game_not_open")
            if self.sides_of(game, user.id):
                raise ApiError(409, N_("you already have a seat in this game"), "already_seated")
            reserved = self.rematch_reserved(s, game)
            if reserved is not None and reserved != user.id:
                raise ApiError(403, N_("this rematch is offered to the other player of the game it replays: "
                                       "nobody else may take its seat"), "rematch_reserved")
            invited = invite and game.invite_code and secrets.compare_digest(invite.encode(), game.invite_code.encode())
            if game.private and not invited and self.rematch_opponent(s, game) != user.id:
                raise ApiError(403, N_("this game is private: join it with its invitation link"), "invite_required")
            free = [sd for sd in SIDES if getattr(game, f"{sd}_user_id") is None]
            chosen = side or (free[0] if free else None)
            if chosen is None or chosen not in free:
                raise ApiError(409, N_("the {side} seat is taken"), "seat_taken",
                               {"side": Term(side_name(chosen))})
            entry = self.state(s, game)
            updates: dict[str, Any] = {f"{chosen}_user_id": user.id}
            recs: list[Rec] = [("server", "join", chosen,
                                {"side": chosen, "user_id": user.id, "username": user.username})]
            if len(free) == 1:
                updates.update(status="active", started_at=utcnow(), to_act=entry.game.to_act)
                recs.append(("server", "start", None, {"to_act": entry.game.to_act}))
                if entry.game.result is not None:  # a scenario that is over at once (never, but be exact)
                    updates.update(status="finished", result=entry.game.result, to_act=None)
            out = self.append(s, game, recs, updates, {"kind": "join", "side": chosen, "user_id": user.id})
            entry.seq = game.seq
            self.publish(game, entry, out)
            return self._view(s, load_game(s, gid) or game, entry, user, with_state=False)
        return self.run_command(gid, fn)

    # ---------------------------------------------------------------- commands
    def _command_start(self, s: Connection, game: GameRow, gid: str, user: User,
                       action_id: str | None, expected_seq: int | None):
        """What every player command checks first: a retried action id returns its first
        result; only a seated player of an active game, at the expected seq, goes on.

        A command that trusts the cached games row (its first attempt) does not look the
        action id up: that would be a read before every move. A retried decision is
        still found: it is refused at the seq it expected, or its command row hits the
        unique action id, and either way run_command tries again with a fresh read."""
        dup = None if getattr(game, "from_cache", False) else self._existing(s, gid, action_id, user)
        if dup is not None:
            return dup, None, None
        sides = self._require_player(game, user)
        self._require_active(game)
        entry = self.state(s, game)
        if expected_seq is not None and expected_seq != game.seq:
            raise ApiError(409, N_("stale: the game is at seq {seq}, not {expected}"), "stale",
                           {"seq": game.seq, "expected": expected_seq})
        return None, sides, entry

    def act(self, user: User, gid: str, action: Any, expected_seq: int | None = None,
            action_id: str | None = None) -> dict:
        self._check_action_id(action_id)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ApiError(422, N_('an action is a JSON object with a "type" (one of the legal actions)'),
                           "invalid_action")

        def fn(s: Connection, game: GameRow):
            dup, sides, entry = self._command_start(s, game, gid, user, action_id, expected_seq)
            if dup is not None:
                return dup
            g = entry.game
            if g.to_act not in sides:
                raise ApiError(409, N_("it is not your turn: the {side} player is to act"), "not_your_turn",
                               {"side": Term(side_name(g.to_act))})
            side = g.to_act
            before = len(g.events)
            try:
                new = g.apply(action)
            except rules_engine.IllegalAction as exc:
                # the engine's reason keeps its template and values: said in the reader's language
                raise ApiError(422, N_("illegal action: {reason}"), "illegal_action",
                               {"reason": getattr(exc, "reason", None) or exc}) from None
            recs: list[Rec] = [("engine", ev["type"], side, ev) for ev in new]
            if self.automate is not None:
                try:
                    recs += self.automate(game, g)  # forced moves, logged as automatic (app.playbyturn.orders)
                except BaseException:
                    self.drop_cache(gid)
                    raise
            updates: dict[str, Any] = {"to_act": g.to_act}
            if g.result is not None:
                updates.update(status="finished", result=g.result, finished_at=utcnow(), to_act=None)
            try:
                out = self.append(s, game, recs, updates,
                                   {"kind": "action", "side": side, "user_id": user.id,
                                    "action_id": action_id, "body": action}, publishing=entry)
            except BaseException:
                self.drop_cache(gid)  # the engine already moved on; rebuild from the table
                raise
            entry.seq = game.seq
            if out:
                entry.stack.append(Cmd(out[0].seq, side, before))
            ch = self.publish(game, entry, out)
            return {"seq": game.seq, "events": ch.events if ch else [], "action_id": action_id,
                    "to_act": game.to_act, "status": game.status, "result": game.result}
        return self.run_command(gid, fn)

    def undo(self, user: User, gid: str, expected_seq: int | None = None, action_id: str | None = None) -> dict:
        """Take back the caller's last decision (never across a die roll or a change of
        who acts). Appends an "undo" event {to_seq: K}: events from K on no longer count."""
        self._check_action_id(action_id)

        def fn(s: Connection, game: GameRow):
            dup, sides, entry = self._command_start(s, game, gid, user, action_id, expected_seq)
            if dup is not None:
                return dup
            ok, why = self.undo_info(entry.game, entry, sides)
            if not ok:
                raise ApiError(409, why, "undo_refused")
            cmd = entry.stack[-1]
            g2 = rules_engine.replay(entry.header, entry.game.events[:cmd.ev_index], seed=entry.seed)
            rec = ("server", "undo", cmd.side, {"to_seq": cmd.first_seq, "through_seq": game.seq,
                                                "side": cmd.side})
            out = self.append(s, game, [rec], {"to_act": g2.to_act},
                               {"kind": "undo", "side": cmd.side, "user_id": user.id, "action_id": action_id,
                                "body": {"to_seq": cmd.first_seq}})
            new_entry = Entry(g2, game.seq, entry.stack[:-1], entry.header, entry.seed)
            self._cache_put(gid, new_entry)
            ch = self.publish(game, new_entry, out)
            return {"seq": game.seq, "events": ch.events if ch else [], "action_id": action_id,
                    "to_act": game.to_act, "status": game.status, "result": game.result}
        return self.run_command(gid, fn)

    def resign(self, user: User, gid: str) -> dict:
        def fn(s: Connection, game: GameRow):
            sides = self._require_player(game, user)
            self._require_active(game)
            side = sides[0]
            result = {"winner": other_side(side), "reason": "resignation"}
            entry = self.state(s, game)
            out = self.append(s, game, [("server", "resign", side, {"side": side, "username": user.username})],
                               {"status": "finished", "result": result, "to_act": None,
                                "finished_at": utcnow()},
                               {"kind": "resign", "side": side, "user_id": user.id})
            entry.seq = game.seq
            self.publish(game, entry, out)
            return {"seq": game.seq, "status": game.status, "result": result}
        return self.run_command(gid, fn)

    def abort(self, user: User, gid: str) -> dict:
        """Abort a game before its first move (either seated player)."""
        def fn(s: Connection, game: GameRow):
            sides = self._require_player(game, user)
            if game.status not in ("open", "active"):
                raise ApiError(409, N_("this game is already over"), "game_over")
            if store.action_count(s, gid):
                raise ApiError(409, N_("a game can only be aborted before the first move; resign instead"),
                               "already_started")
            entry = self.state(s, game)
            out = self.append(s, game, [("server", "abort", sides[0], {"by": user.username})],
                               {"status": "aborted", "to_act": None, "finished_at": utcnow()},
                               {"kind": "abort", "side": sides[0], "user_id": user.id})
            entry.seq = game.seq
            self.publish(game, entry, out)
            return {"seq": game.seq, "status": game.status}
        return self.run_command(gid, fn)

