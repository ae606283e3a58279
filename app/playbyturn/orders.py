"""No day lost to forced choices: automatic forced moves and standing battle orders.

* Forced moves (by-turn games): when the side to act has exactly one legal choice, the
  server applies it at once, in the same command that led to it. The log shows a server
  event "auto" {reason: "forced"} before the engine events of that choice.
* Standing battle orders (by-turn games, per game and player): answers the server gives
  for a player who has not answered a battle decision within a grace time
  (ORDERS_GRACE_MINUTES after the game started waiting for them):

      {"stand": true,                 # 5.6: defending cavalry stands instead of withdrawing
       "targets": "spread" | "reduced" | null,   # 5.1: spread fire over the enemy units,
                                                 #      or finish reduced units first
       "retreat_after_round": 2,      # 5.4: retreat at the start of round 3 and later
       "retreat_when_outnumbered": true,         # 5.4: retreat when the enemy has more units
       "never_reinforce": true,       # 5.5: open fire without reinforcing
       "promotion": "first" | "none" | null}     # 6.0: after winning, promote the first unit offered or none

  Each answer is logged as a server event "auto" {reason: "orders", order: ..., order_key: ...}.
  An "auto" event names its template (server.auto_forced or server.auto_orders), which the
  log and the mails say in the reader's language; its English sentence is kept as "text".
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..core.clock import Clock, aware
from ..core.errors import ApiError
from ..games.service import GameService
from ..i18n import N_
from ..models import Game, GameClock, StandingOrder, table
from ..notices.words import narrator, words_data
from ..notices.words.narrate import fill
from ..store import events as store

log = logging.getLogger("app.orders")

MAX_AUTO = 200

T_ORDERS, T_GAMES, T_CLOCKS = table(StandingOrder), table(Game), table(GameClock)


def validate(o: Any) -> dict:
    if not isinstance(o, dict):
        raise ApiError(422, N_("orders are a JSON object"), "invalid_request")
    allowed = {"stand", "targets", "retreat_after_round", "retreat_when_outnumbered", "never_reinforce",
               "promotion"}
    extra = set(o) - allowed
    if extra:
        raise ApiError(422, N_("unknown orders: {orders}"), "invalid_request", {"orders": ", ".join(sorted(extra))})
    out = {"stand": bool(o.get("stand", False)),
           "targets": o.get("targets"),
           "retreat_after_round": o.get("retreat_after_round"),
           "retreat_when_outnumbered": bool(o.get("retreat_when_outnumbered", False)),
           "never_reinforce": bool(o.get("never_reinforce", False)),
           "promotion": o.get("promotion")}
    if out["targets"] not in (None, "spread", "reduced"):
        raise ApiError(422, N_("targets must be spread, reduced or null"), "invalid_request")
    r = out["retreat_after_round"]
    if r is not None and (not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 20):
        raise ApiError(422, N_("retreat_after_round must be a round number 1 to 20 or null"), "invalid_request")
    if out["promotion"] not in (None, "first", "none"):
        raise ApiError(422, N_("promotion must be first, none or null"), "invalid_request")
    return out


def describe_orders(o: dict) -> list[str]:
    out = []
    if o.get("stand"):
        out.append(order_words("stand", {}))
    if o.get("targets") in ("spread", "reduced"):
        out.append(order_words(o["targets"], {}))
    if o.get("retreat_after_round"):
        out.append(order_words("retreat_after_round", {"round": o["retreat_after_round"]}))
    if o.get("retreat_when_outnumbered"):
        out.append(order_words("outnumbered", {}))
    if o.get("never_reinforce"):
        out.append(order_words("never_reinforce", {}))
    if o.get("promotion") == "first":
        out.append(order_words("promote", {}))
    elif o.get("promotion") == "none":
        out.append(order_words("no_promotion", {}))
    return out


def get_orders(conn, gid: str, user_id: int) -> dict | None:
    row = conn.execute(select(T_ORDERS.c.orders)
                       .where(T_ORDERS.c.game_id == gid, T_ORDERS.c.user_id == user_id)).first()
    return row[0] if row else None


def set_orders(conn, gid: str, user_id: int, orders: dict | None, now: datetime) -> None:
    conn.execute(T_ORDERS.delete().where(T_ORDERS.c.game_id == gid, T_ORDERS.c.user_id == user_id))
    if orders is not None:
        conn.execute(T_ORDERS.insert(), dict(game_id=gid, user_id=user_id, orders=orders, updated_at=now))


def will_answer(conn: Any, gid: str, user_id: int | None, g: Any) -> bool:
    """Whether the user's standing orders answer the decision the game (state `g`) now
    waits for: then no "your decision" mail goes out; the orders answer it after the
    grace time and the next mail says what they did."""
    if user_id is None or g is None or g.to_act is None:
        return False
    o = get_orders(conn, gid, user_id)
    return o is not None and decide(o, g) is not None


# --------------------------------------------------------------------------- deciding

def decide(o: dict, g: Any) -> tuple[dict, str, dict] | None:
    """The action the orders give now with the order's key and values (its words:
    order_words), or None if they say nothing."""
    if g.result is not None or g.phase != "battle" or not g.battle:
        return None
    b = g.battle
    side = g.to_act
    legal = g.legal_actions()
    step = b.get("step")
    by_type: dict[str, list] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if step == "withdraw" and o.get("stand") and by_type.get("stand"):
        return by_type["stand"][0], "stand", {}
    if step == "target" and o.get("targets") in ("spread", "reduced") and by_type.get("target"):
        assigned: dict[str, int] = {}
        for t in b.get("targets") or []:
            if isinstance(t, dict):
                tgt = t.get("target")
            else:
                tgt = t[1] if isinstance(t, (list, tuple)) and len(t) > 1 else None
            if tgt:
                assigned[tgt] = assigned.get(tgt, 0) + 1
        cands = by_type["target"]

        def red(uid):
            u = g.units.get(uid) if hasattr(g.units, "get") else None
            return bool(getattr(u, "red", False))
        if o["targets"] == "reduced":
            best = min(cands, key=lambda a: (not red(a["target"]), assigned.get(a["target"], 0)))
            return best, "reduced", {}
        best = min(cands, key=lambda a: (assigned.get(a["target"], 0), red(a["target"])))
        return best, "spread", {}
    if step == "prepare":
        retreats = by_type.get("retreat") or []
        units = b.get("units") or {}
        other = "confederate" if side == "union" else "union"
        rnd = b.get("round") or 1
        n = o.get("retreat_after_round")
        if retreats and n and rnd > n:
            return retreats[0], "retreat_after_round", {"round": n}
        if retreats and o.get("retreat_when_outnumbered") and len(units.get(side, [])) < len(units.get(other, [])):
            return retreats[0], "outnumbered", {}
        if o.get("never_reinforce") and by_type.get("open_fire"):
            return by_type["open_fire"][0], "never_reinforce", {}
        return None
    if step == "promote" and o.get("promotion"):
        if o["promotion"] == "first" and by_type.get("promote"):
            return by_type["promote"][0], "promote", {}
        if by_type.get("no_promotion"):
            return by_type["no_promotion"][0], "no_promotion", {}
    return None


def order_words(key: str, values: dict, lang: str = "en") -> str:
    """A standing order in words (the catalogue's "order_<key>")."""
    return fill(words_data(lang)["parts"][f"order_{key}"], values)


def auto_event(side: str, action: dict, reason: str, order: tuple[str, dict] | None = None) -> dict:
    """The data of an "auto" event: its template and values, said in each reader's language
    (app.notices.words), with the English words as `order` and `text` for API readers."""
    data: dict[str, Any] = {"side": side, "reason": reason, "order": None, "action": action,
                            "template": f"server.auto_{reason}"}
    if order is not None:
        key, values = order
        data.update(values, order=order_words(key, values), order_key=key)
    data["text"] = narrator().describe({"source": "server", "type": "auto", "data": data})
    return data


def _apply(g: Any, side: str, action: dict, reason: str, order: tuple[str, dict] | None = None) -> list[tuple]:
    data = auto_event(side, action, reason, order)
    new = g.apply(action)
    return [("server", "auto", side, data)] + [("engine", ev["type"], side, ev) for ev in new]


def automate(game: Any, g: Any) -> list[tuple]:
    """Forced moves after a decision (by-turn games only): the records to append."""
    if getattr(game, "mode", None) != "async":
        return []
    recs: list[tuple] = []
    for _ in range(MAX_AUTO):
        if g.result is not None or g.to_act is None:
            break
        legal = g.legal_actions()
        if len(legal) != 1:
            break
        recs += _apply(g, g.to_act, legal[0], "forced")
    return recs


def apply_orders(svc: GameService, gid: str, now: datetime) -> int:
    """Answer, for the player the game waits for, every decision their standing orders
    cover (then forced moves). Returns the number of events appended. (Answers given by
    orders are not the player's decisions: the player cannot take them back.)"""

    def fn(s, game):
        if game.status != "active" or game.mode != "async" or not game.to_act:
            return 0
        side = game.to_act
        uid = getattr(game, f"{side}_user_id")
        o = get_orders(s, gid, uid) if uid else None
        if not o:
            return 0
        entry = svc.state(s, game)
        g = entry.game
        recs: list[tuple] = []
        try:
            for _ in range(MAX_AUTO):
                if g.to_act != side or g.result is not None:
                    break
                d = decide(o, g)
                if d is None:
                    break
                recs += _apply(g, side, d[0], "orders", (d[1], d[2]))
            if recs:
                recs += automate(game, g)
        except Exception:
            svc.drop_cache(gid)
            raise
        if not recs:
            return 0
        updates: dict[str, Any] = {"to_act": g.to_act}
        if g.result is not None:
            updates.update(status="finished", result=g.result, finished_at=now, to_act=None)
        try:
            out = svc.append(s, game, recs, updates, {"kind": "orders", "side": side, "user_id": uid})
        except BaseException:
            svc.drop_cache(gid)
            raise
        entry.seq = game.seq
        svc.publish(game, entry, out)
        return len(out)
    return svc.run_command(gid, fn)


def tick(svc: GameService, clock: Clock, grace_seconds: float) -> int:
    """Apply standing orders in by-turn games whose player has been silent for the grace time."""
    db = svc.db
    now = clock.now()
    n = 0
    with db.read() as conn:
        q = (select(T_GAMES.c.id, T_GAMES.c.to_act, T_GAMES.c.union_user_id, T_GAMES.c.confederate_user_id,
                    T_GAMES.c.updated_at, T_ORDERS.c.user_id)
             .join(T_ORDERS, T_ORDERS.c.game_id == T_GAMES.c.id)
             .where(T_GAMES.c.status == "active", T_GAMES.c.mode == "async"))
        rows = conn.execute(q).all()
        waits = {}
        for r in rows:
            if r.to_act and getattr(r, f"{r.to_act}_user_id") == r.user_id:
                c = conn.execute(select(T_CLOCKS.c.since).where(T_CLOCKS.c.game_id == r.id)).first()
                since = aware(c.since) if c is not None and c.since is not None else None
                waits[r.id] = since
    for gid, since in waits.items():
        if since is not None and (now - since).total_seconds() < grace_seconds:
            continue
        if since is None and not _waited_long_enough(svc, gid, now, grace_seconds):
            continue
        try:
            n += apply_orders(svc, gid, now)
        except ApiError:
            pass
        except Exception:
            log.exception("standing orders in game %s failed", gid)
    return n


def _waited_long_enough(svc, gid: str, now: datetime, grace: float) -> bool:
    """For games without a time limit: how long since the last event (the orders clock)."""
    with svc.db.read() as conn:
        last = store.last_event_at(conn, gid)
    return last is not None and (now - aware(last)).total_seconds() >= grace
