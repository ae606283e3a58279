"""Per-game chat, stored with the game: one channel for the two players, one for
spectators. Spectators never read the players' channel; while a game is being played the
players do not read the spectators' channel either (no outside help); once it is over
both are open to everyone.

GET  /api/games/{id}/chat?channel=players|spectators&after=N  -> {"messages": [...]}
POST /api/games/{id}/chat {"channel", "body"}                  -> the stored message
"""
from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import insert, select

from ..accounts.auth import current_user, optional_user
from ..core.clock import iso
from ..core.errors import ApiError
from ..models import CHAT_MAX_BODY, ChatMessage, User, table, utcnow
from . import limits

CHANNELS = ("players", "spectators")
MAX_BODY = CHAT_MAX_BODY




T_CHAT = table(ChatMessage)
router = APIRouter(prefix="/api", tags=["chat"])


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    channel: Literal["players", "spectators"] = "players"
    body: str = Field(..., min_length=1, max_length=MAX_BODY)


def _seats(request: Request, gid: str) -> dict:
    info = request.app.state.games.seats_of(gid)
    if info is None:
        raise ApiError(404, "no such game", "not_found")
    return info


def _is_player(info: dict, user: User | None) -> bool:
    return user is not None and user.id in (info["union"], info["confederate"])


def _may_read(info: dict, user: User | None, channel: str) -> str | None:
    """None if allowed, else the reason."""
    over = info["status"] not in ("open", "active")
    if channel == "players":
        if over or _is_player(info, user):
            return None
        return "the players' chat is for the two players (spectators have their own)"
    if over or not _is_player(info, user):
        return None
    return "players do not read the spectators' chat while the game is on"


def _out(row) -> dict:
    return {"id": row.id, "channel": row.channel, "user": row.username, "body": row.body,
            "at": iso(row.created_at)}


@router.get("/games/{game_id}/chat")
def read_chat(game_id: str, request: Request, channel: str = Query("players"),
              after: int = Query(0, ge=0), user: User | None = Depends(optional_user)):
    if channel not in CHANNELS:
        raise ApiError(422, "channel must be players or spectators", "invalid_request")
    info = _seats(request, game_id)
    why = _may_read(info, user, channel)
    if why:
        raise ApiError(403, why, "chat_forbidden")
    c = T_CHAT.c
    with request.app.state.db.read() as s:
        rows = s.execute(select(T_CHAT).where(c.game_id == game_id, c.channel == channel, c.id > after)
                         .order_by(c.id).limit(500)).all()
    return {"game_id": game_id, "channel": channel, "messages": [_out(r) for r in rows]}


@router.post("/games/{game_id}/chat", status_code=201)
def post_chat(game_id: str, body: ChatIn, request: Request, user: User = Depends(current_user)):
    info = _seats(request, game_id)
    player = _is_player(info, user)
    if body.channel == "players" and not player:
        raise ApiError(403, "only the two players write in the players' chat", "chat_forbidden")
    if body.channel == "spectators" and player and info["status"] in ("open", "active"):
        raise ApiError(403, "players write in the players' chat", "chat_forbidden")
    text = body.body.strip()
    if not text:
        raise ApiError(422, "say something", "invalid_request")
    limits.per_account(request, "chat", user.id)
    now = utcnow()
    with request.app.state.db.write() as s:
        res = s.execute(insert(T_CHAT).values(game_id=game_id, channel=body.channel, user_id=user.id,
                                              username=user.username, body=text, created_at=now))
        s.commit()
        new_id = res.inserted_primary_key[0]
    return {"id": new_id, "channel": body.channel, "user": user.username, "body": text, "at": iso(now)}
