"""Per-game chat, stored with the game: one channel for the two players, one for
spectators (who reads and writes which: app.games.chat). A new message is also pushed to
the game's sockets that may read it (a "chat" message, app.realtime.hub).

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
from ..core.errors import ApiError, not_found
from ..games import chat as rules
from ..i18n import N_
from ..models import CHAT_MAX_BODY, ChatMessage, User, table, utcnow
from . import limits

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
        raise not_found()
    return info


def _out(row) -> dict:
    return {"id": row.id, "channel": row.channel, "user": row.username, "body": row.body,
            "at": iso(row.created_at)}


@router.get("/games/{game_id}/chat")
def read_chat(game_id: str, request: Request, channel: str = Query("players"),
              after: int = Query(0, ge=0), user: User | None = Depends(optional_user)):
    if channel not in rules.CHANNELS:
        raise ApiError(422, N_("channel must be players or spectators"), "invalid_request")
    info = _seats(request, game_id)
    why = rules.why_not_read(info, info["status"], user.id if user else None, channel)
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
    why = rules.why_not_write(info, info["status"], user.id, body.channel)
    if why:
        raise ApiError(403, why, "chat_forbidden")
    text = body.body.strip()
    if not text:
        raise ApiError(422, N_("say something"), "invalid_request")
    limits.per_account(request, "chat", user.id)
    now = utcnow()
    with request.app.state.db.write() as s:
        res = s.execute(insert(T_CHAT).values(game_id=game_id, channel=body.channel, user_id=user.id,
                                              username=user.username, body=text, created_at=now))
        s.commit()
        new_id = res.inserted_primary_key[0]
    message = {"id": new_id, "channel": body.channel, "user": user.username, "body": text, "at": iso(now)}
    request.app.state.hub.publish_chat_threadsafe(game_id, message, info)
    return message
