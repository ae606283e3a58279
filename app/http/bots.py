"""Routes of the bot API (docs/bot-api.md): bot accounts, challenges, NDJSON streams.
Bots act with POST /api/games/{id}/actions like every client."""
from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from ..accounts.auth import current_user
from ..admin.disputes import admin_user
from ..bots import streams
from ..bots.accounts import bot_user, make_bot
from ..bots.challenges import Challenges
from ..core.errors import not_found
from ..models import User
from . import limits
from .schemas import Strict

router = APIRouter(prefix="/api", tags=["bots"])
NDJSON = "application/x-ndjson"


class ChallengeIn(Strict):
    scenario: str = "1861"
    options: list[str] = Field(default_factory=list)
    side: Literal["union", "confederate", "random"] = "random"
    mode: Literal["live", "async"] = "live"
    rated: bool = False


class DeclineIn(Strict):
    reason: str | None = Field(None, max_length=200)


def challenges(request: Request) -> Challenges:
    return Challenges(request.app.state.games)


def _poll(request: Request) -> float:
    return request.app.state.settings.bot_stream_poll_seconds


@router.post("/me/bot")
def become_bot(request: Request, user: User = Depends(current_user)):
    """Make my account a bot account (before it has played any game)."""
    return make_bot(request.app.state.db, user.username, by_admin=False)


@router.post("/admin/users/{username}/bot", tags=["admin"])
def admin_make_bot(username: str, request: Request, admin: User = Depends(admin_user)):
    return make_bot(request.app.state.db, username, by_admin=True)


@router.post("/challenges/{username}", status_code=201)
def challenge(username: str, request: Request, body: ChallengeIn = Body(default_factory=ChallengeIn),
              user: User = Depends(current_user)):
    """Challenge a named account (person or bot); `side` is the challenger's."""
    limits.per_account(request, "create_game", user.id)
    return challenges(request).create(user, username, body.scenario, body.options, body.side, body.mode,
                                      body.rated)


@router.get("/challenges")
def my_challenges(request: Request, status: str | None = Query("open"), user: User = Depends(current_user)):
    return {"challenges": challenges(request).mine(user, status)}


@router.post("/challenges/{challenge_id}/accept")
def accept(challenge_id: int, request: Request, user: User = Depends(current_user)):
    return challenges(request).accept(user, challenge_id)


@router.post("/challenges/{challenge_id}/decline")
def decline(challenge_id: int, request: Request, body: DeclineIn = Body(default_factory=DeclineIn),
            user: User = Depends(current_user)):
    return challenges(request).decline(user, challenge_id, body.reason)


@router.post("/challenges/{challenge_id}/cancel")
def cancel(challenge_id: int, request: Request, user: User = Depends(current_user)):
    return challenges(request).cancel(user, challenge_id)


@router.get("/bot/stream/event")
def account_stream(request: Request, user: User = Depends(bot_user)):
    """NDJSON: challenges, gameStart, yourTurn, gameFinish for this bot."""
    limits.per_address(request, "socket")
    return StreamingResponse(streams.account_stream(request.app.state.games, user, _poll(request)),
                             media_type=NDJSON)


@router.get("/bot/game/stream/{game_id}")
def game_stream(game_id: str, request: Request, user: User = Depends(bot_user)):
    """NDJSON: gameFull once, then each batch of events; ends when the game is over."""
    limits.per_address(request, "socket")
    games = request.app.state.games
    if games.seats_of(game_id) is None:
        raise not_found()
    return StreamingResponse(streams.game_stream(games, game_id, user, _poll(request)), media_type=NDJSON)
