"""What every mail about a game says besides the news: who the opponent is and which
side the reader plays, the scenario, the game turn, and the reader's deadline in the
reader's own time zone ("no time limit", "paused", nothing once the game is over)."""
from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..i18n import translator
from ..models import Game, User, table
from ..store import events as store
from .readertime import local_when
from .words import mail as words
from .words import words_data

T_GAMES, T_USERS = table(Game), table(User)
OTHER = {"union": "confederate", "confederate": "union"}


@functools.cache
def scenario(scenario_id: str) -> dict:
    import rules_engine
    try:
        return dict(rules_engine.load_scenario(scenario_id))
    except Exception:  # a scenario this engine no longer ships: its id says enough
        return {"name": scenario_id}


def game_turn(conn: Any, game_id: str, scenario_id: str, pending: Iterable[dict] = (),
              lang: str | None = None) -> str | None:
    """The game turn (its number and months) of the latest player turn, counting the
    events being appended in this transaction; before any, the scenario's first turn
    (the engine notes the start of a player turn only after the setup)."""
    data = None
    for ev in pending:
        if ev.get("source") == "engine" and ev.get("type") == "player_turn":
            data = ev.get("data") or {}
    if data is None:
        rec = store.last_event_of(conn, game_id, ("player_turn",), source="engine")
        data = rec.payload if rec is not None else None
    if not data or data.get("turn") is None:
        first = scenario(scenario_id).get("first_turn")
        if not isinstance(first, int):
            return None
        from rules_engine import calendar
        data = {"turn": first, "date": calendar.label(first)}
    return translator(lang)(words.GAME_TURN, turn=data["turn"], date=data.get("date") or "")


def deadline_fact(view: dict | None, status: str, side: str | None, zone: str | None,
                  lang: str | None = None) -> dict:
    """{"state": over | none | paused | yours | theirs | side | waiting, "when": text or None}:
    "side" for a reader who plays neither side (an administrator told of a dispute), with
    the side whose time runs."""
    if status in ("finished", "aborted"):
        return {"state": "over", "when": None}
    if view is None or not view.get("days_per_move"):
        return {"state": "none", "when": None}
    if view.get("paused"):
        return {"state": "paused", "when": None}
    if view.get("deadline") and view.get("side"):
        when = local_when(datetime.fromisoformat(view["deadline"]), zone, lang)
        if side is None:
            return {"state": "side", "when": when, "side": words_data(translator(lang).lang)["sides"][view["side"]]}
        return {"state": "yours" if view["side"] == side else "theirs", "when": when}
    return {"state": "waiting", "when": None, "days": view["days_per_move"]}


def game_facts(conn: Any, game_id: str, user_id: int, clocks: Any, zone: str | None,
               pending: Iterable[dict] = (), current: dict | None = None, lang: str | None = None) -> dict | None:
    """The facts of one game for one reader, in the reader's language (None: no such
    game). `current`: the games row's new values when called inside the append that
    changes them (the row itself is updated last in that transaction)."""
    row = conn.execute(select(T_GAMES).where(T_GAMES.c.id == game_id)).first()
    if row is None:
        return None
    g = {**row._asdict(), **{k: v for k, v in (current or {}).items() if k in row._fields}}
    side = "union" if g["union_user_id"] == user_id else "confederate" if g["confederate_user_id"] == user_id \
        else None
    opponent = None
    if side is not None:
        opp_id = g[f"{OTHER[side]}_user_id"]
        opponent = conn.execute(select(T_USERS.c.username).where(T_USERS.c.id == opp_id)).scalar() \
            if opp_id is not None else None
    view = clocks.clock_view(conn, game_id) if clocks is not None else None
    sides = words_data(translator(lang).lang)["sides"]
    return {"id": game_id, "side": sides.get(side) if side else None,
            "opponent": opponent, "opponent_side": sides.get(OTHER[side]) if side else None,
            "scenario": translator(lang).gettext(scenario(g["scenario"])["name"]),
            "turn": game_turn(conn, game_id, g["scenario"], pending, lang),
            "status": g["status"], "deadline": deadline_fact(view, g["status"], side, zone, lang)}
