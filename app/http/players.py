"""Players' profiles: rating, rating history and games (JSON and a page)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import select

from ..accounts.auth import optional_user
from ..core.errors import ApiError
from ..guard.names import username_key
from ..i18n import N_, translator
from ..models import User, table
from ..ratings import ledger
from .pages import reader_language, render, translated_scenarios

api = APIRouter(prefix="/api", tags=["players"])
pages = APIRouter(include_in_schema=False)
T_USERS = table(User)


def profile(request: Request, username: str) -> dict:
    svc = request.app.state.games
    with svc.db.read() as s:
        row = s.execute(select(T_USERS.c.id, T_USERS.c.username, T_USERS.c.kind, T_USERS.c.created_at)
                        .where(T_USERS.c.username_key == username_key(username[:64]))).first()
        if row is None:
            raise ApiError(404, N_("there is no player called {name}"), "not_found", {"name": repr(username[:64])})
        rating = ledger.rating_of(s, row.id)
        history = ledger.history(s, row.id)
    return {"username": row.username, "computer": row.kind == "computer", "rating": rating,
            "rating_history": history, "games": svc.games_of(row.id, optional_user(request))}


@api.get("/players/{username}")
def player(username: str, request: Request):
    """A player's rating (null until their first rated game ends), its changes game by
    game (reversed ones marked) and their public games."""
    return profile(request, username)


@pages.get("/players/{username}", response_class=HTMLResponse)
def player_page(username: str, request: Request):
    try:
        p = profile(request, username)
    except ApiError:
        return render(request, "error.html", status=404, message=N_("There is no such player."))
    say = translator(reader_language(request, optional_user(request)))
    return render(request, "player.html", player=p, scenarios=translated_scenarios(say))
