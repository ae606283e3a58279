"""The hook the game service calls in each append transaction (GameService.on_append).

It turns a hand-over ("the game now waits for you"), the end of a game and a
resignation into notices, with what happened since the player's last decision in words
and a link to the game. In live games a player who has the game open is not notified;
in by-turn games they get the notice but no mail or webhook call (Notices.watching).
A decision the player's standing orders will answer gets no mail either. By-turn games
also start and stop their clocks here (app.playbyturn.deadlines).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..store import events as store
from .outbox import Notices
from .words import events_in_words, notice_words, words_data

# events of an administrator's decision: their players get the decision's notice only
ADMIN_DECISIONS = ("rewind", "adjudicate", "annul")


def since_last_move(conn: Any, game_id: str, user_id: int, upto: int, pending: list[dict],
                    lang: str = "en") -> list[str]:
    """What happened in the game since this user's last decision (events up to `upto`
    from the table, plus those being appended in this transaction), in `lang`."""
    start = max(store.last_decision_seq(conn, game_id, user_id), upto - 400)
    evs = [r.out() for r in store.events_range(conn, game_id, start, upto)]
    evs += [e for e in pending if e["seq"] > max(start, upto)]
    return events_in_words(evs, lang=lang)


class Notifier:
    """GameService.on_append (see the module's doc)."""

    def __init__(self, notices: Notices, games: Any = None,
                 online: Callable[[str, str], bool] = lambda game_id, side: False,
                 deadline_hook: Callable[..., None] | None = None,
                 orders_answer: Callable[[Any, str, int, Any], bool] = lambda conn, gid, uid, game: False,
                 unnotified: Callable[[int], bool] = lambda user_id: False):
        self.notices = notices
        # accounts nobody reads notices for (the computer players): no rows for them
        self.unnotified = unnotified
        self.games = games
        self.online = online  # whether a side's player has the game open (app.realtime's presence)
        self.deadline_hook = deadline_hook  # by-turn clocks: app.playbyturn.deadlines
        # whether a player's standing orders will answer the decision (app.playbyturn.orders)
        self.orders_answer = orders_answer

    def connected(self, gid: str, side: str) -> bool:
        return self.online(gid, side)

    def _waiting_kind(self, gid: str, side: str) -> str:
        e = self.games.cached_state(gid) if self.games is not None else None
        g = e.game if e is not None else None
        if g is None or g.to_act != side:
            return "turn"
        if g.phase == "battle":
            step = (g.battle or {}).get("step")
            return "choice" if step == "prepare" else "battle"
        if g.phase == "battle_choice":
            return "battle"
        return "turn"

    def on_append(self, s, game: Any, new: dict, out: list) -> None:
        if not out:
            return
        if self.deadline_hook is not None and game.mode == "async":
            self.deadline_hook(s, game, new, out)
        if any(e.source == "server" and e.type in ADMIN_DECISIONS for e in out):
            return  # the decision's own notice tells each player (app.admin.disputes): one, not two
        old_status, status = game.status, new["status"]
        old_act, act = game.to_act, new["to_act"]
        seats = {"union": new["union_user_id"], "confederate": new["confederate_user_id"]}
        live = game.mode != "async"
        gid = game.id
        self._on_proposals(s, game, new, out, seats)
        if status == "active" and act in seats and (old_status != "active" or old_act != act):
            uid = seats[act]
            if uid is None or (live and self.connected(gid, act)):
                return
            kind = self._waiting_kind(gid, act)
            head = notice_words(kind, game=gid, side=act)
            # a decision the player's standing orders will answer: no mail about it
            mail = not self._orders_answer(s, gid, uid)
            self._notify(s, game, [(uid, act)], kind, head, new, out, mail=mail)
        elif status in ("finished", "aborted") and old_status not in ("finished", "aborted"):
            types = {e.type for e in out if e.source == "server"}
            first = out[0]
            personal = (first.actor if first.source != "server" or first.type in ("resign", "abort", "accept_draw")
                        else None)
            if "timeout" in types:  # app.playbyturn.deadlines notifies about its own result
                return
            result = new.get("result") or {}
            targets = [(uid, side) for side, uid in seats.items() if uid is not None and side != personal]
            if live:
                targets = [(u, sd) for u, sd in targets if not self.connected(gid, sd)]
            if not targets:
                return
            if "resign" in types:
                kind = "resigned"
            elif status == "aborted":
                kind = "aborted"
            else:
                kind = "game_over"
            wording = "drawn" if "accept_draw" in types else kind
            head = notice_words(wording, game=gid, winner=result.get("winner"), reason=result.get("reason") or "")
            self._notify(s, game, targets, kind, head, new, out)

    def _on_proposals(self, s, game: Any, new: dict, out: list, seats: dict) -> None:
        """A draw offer or a rematch asks the opponent for an answer: tell them (in a live
        game only when they do not have the game open)."""
        for e in out:
            if e.source != "server" or e.type not in ("offer_draw", "rematch"):
                continue
            opponent = "confederate" if e.actor == "union" else "union"
            if e.type == "rematch":  # the one who asked now holds the side the opponent had
                opponent = e.actor
            uid = seats.get(opponent)
            if uid is None or (game.mode != "async" and e.type == "offer_draw" and self.connected(game.id, opponent)):
                continue
            who = e.payload.get("username") or e.payload.get("by")
            if e.type == "offer_draw":
                text = notice_words("draw_offer", game=game.id, who=who)
                self.notices.notify(s, [uid], "draw_offer", game.id, text, seq=e.seq)
            else:
                text = notice_words("rematch", game=game.id, who=who, new_game=e.payload["game_id"])
                self.notices.notify(s, [uid], "rematch", e.payload["game_id"], text)

    def _orders_answer(self, s, gid: str, uid: int) -> bool:
        e = self.games.cached_state(gid) if self.games is not None else None
        return self.orders_answer(s, gid, uid, e.game if e is not None else None)

    def _notify(self, s, game, targets, kind, head, new, out, mail: bool = True) -> None:
        pending = [e.out() for e in out]
        for uid, _side in targets:
            if self.unnotified(uid):
                continue
            def text(lang: str, uid: int = uid) -> str:
                lines = since_last_move(s, game.id, uid, game.seq, pending, lang)
                since = words_data(lang)["notices"]["since"]
                return head(lang) + (f"\n\n{since}\n" + "\n".join("- " + x for x in lines) if lines else "")
            self.notices.notify(s, [uid], kind, game.id, text, seq=new["seq"], mail=mail,
                                pending=pending, current=new)


