"""Routes of games against the computer: hints, handing a left seat to the computer, and
the expert's evaluation of a finished game (creating a game against the computer is
POST /api/games with "opponent")."""
from __future__ import annotations

from fastapi import APIRouter, Body, Depends, Request

from ..accounts.auth import current_user
from ..computer.analysis import Analyses
from ..computer.players import ComputerPlayers
from ..computer.takeover import take_over
from ..models import User
from . import limits
from .schemas import TakeoverIn

router = APIRouter(prefix="/api", tags=["computer"])


def computer(request: Request) -> ComputerPlayers:
    return request.app.state.computer


@router.get("/games/{game_id}/hint")
async def hint(game_id: str, request: Request, user: User = Depends(current_user)):
    """The move the expert level would make for your seat now (games against the computer only)."""
    limits.per_account(request, "hint", user.id)
    return await computer(request).hint(user, game_id)


@router.post("/games/{game_id}/computer-takeover")
def computer_takeover(game_id: str, request: Request, body: TakeoverIn = Body(default_factory=TakeoverIn),
                      user: User = Depends(current_user)):
    """Give the seat of an opponent who left (time up, or idle in a live game) to the computer."""
    state = request.app.state
    return take_over(computer(request), state.deadlines, user, game_id, body.level,
                     state.settings.live_abandon_minutes, here=state.hub.side_online)


@router.get("/games/{game_id}/analysis")
async def analysis(game_id: str, request: Request):
    """The expert's evaluation of a finished game at the start of every Player Turn and at
    the end, as the Union's chance to win (0..1); 409 while the game is being played."""
    limits.per_address(request, "analysis")
    analyses: Analyses = request.app.state.analyses
    return await analyses.curve(game_id)
