"""The user socket /ws/me: the "waiting" badge of every page, pushed instead of polled.

Authenticated like the game socket (the session cookie from our own pages, or ?token=).
On connect it sends {"type": "waiting", "count", "unread"}; after that, whenever a game
with this user in a seat changes (here, or in another process: pg_fanout passes the
seated players along with each change) the badge is recomputed and sent if it differs.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from . import gate, protocol
from .socket import authenticate, too_many_sockets

log = logging.getLogger("app.ws")
router = APIRouter()
COALESCE_SECONDS = 0.05  # one command appends several events: one recount for them all


class UserSockets:
    """This process's user sockets, by user id, and the badge each one was last sent."""

    def __init__(self, call: Callable[..., Any]):
        self.call = call  # GameService.call: run a blocking read off the event loop
        self.badge: Callable[[int], dict] | None = None  # set by app.main (notices.waiting.badge)
        self.sockets: dict[int, set[WebSocket]] = {}
        self.last: dict[int, dict] = {}
        self.pending: set[int] = set()

    def game_changed(self, user_ids: Iterable[int | None]) -> None:
        """A game of these users changed (on the event loop): recount their badges soon."""
        for uid in user_ids:
            if uid is not None and uid in self.sockets and uid not in self.pending:
                self.pending.add(uid)
                asyncio.get_running_loop().create_task(self.refresh(uid))

    async def refresh(self, uid: int) -> None:
        await asyncio.sleep(COALESCE_SECONDS)
        self.pending.discard(uid)
        try:
            now = await self.current(uid)
        except Exception:
            log.exception("counting the games waiting for user %s failed", uid)
            return
        if now == self.last.get(uid):
            return
        self.last[uid] = now
        text = protocol.dump(protocol.WaitingMsg(**now))
        for ws in list(self.sockets.get(uid, ())):
            try:
                await ws.send_text(text)
            except Exception:  # closing: its own loop removes it
                pass

    async def current(self, uid: int) -> dict:
        assert self.badge is not None
        return await self.call(self.badge, uid)

    async def add(self, uid: int, ws: WebSocket) -> None:
        self.sockets.setdefault(uid, set()).add(ws)
        now = self.last[uid] = await self.current(uid)
        await ws.send_text(protocol.dump(protocol.WaitingMsg(**now)))

    def remove(self, uid: int, ws: WebSocket) -> None:
        socks = self.sockets.get(uid)
        if socks is not None:
            socks.discard(ws)
            if not socks:
                del self.sockets[uid]
                self.last.pop(uid, None)


def answer(raw: str) -> str:
    """The answer to a client message: "pong" to a ping; anything else is refused."""
    try:
        kind, echo, _ = protocol.envelope(raw)
    except protocol.ProtocolError as exc:
        return protocol.dump(protocol.ErrorMsg(status=exc.status, code=exc.code, detail=exc.detail))
    if kind == "ping":
        return protocol.dump(protocol.PongMsg(**echo))
    return protocol.dump(protocol.ErrorMsg(status=422, code="invalid_request", of=kind, **echo,
                                           detail="the user socket only answers ping"))


async def user_socket(ws: WebSocket) -> None:
    """/ws/me: refused (4401) without a logged-in user; answers "ping" with "pong"."""
    if await too_many_sockets(ws):   # counted with the game sockets: one limit per address
        return
    ok, user = await authenticate(ws)
    if not ok:
        return
    if user is None:
        await ws.accept()
        await ws.send_text(protocol.dump(protocol.ErrorMsg(status=401, code="login_required",
                                                           detail="log in to see the games waiting for you")))
        await ws.close(code=4401)
        return
    holder = await gate.hold_socket(ws, user)   # the account's open sockets, game sockets too
    if holder is None:
        return
    try:
        await ws.accept()
        await _serve(ws, user)
    finally:
        ws.app.state.open_sockets.give_back(holder)


async def _serve(ws: WebSocket, user: Any) -> None:
    """Send the badge, then answer the socket's messages (within its message limits)."""
    users: UserSockets = ws.app.state.hub.users
    messages = gate.MessageGate(ws, user)
    try:
        await users.add(user.id, ws)
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = protocol.text_of(msg)
            refused = messages.refusal(raw)
            if refused is not None and messages.exhausted:
                await messages.close()
                break
            await ws.send_text(answer(raw) if refused is None else refused)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        users.remove(user.id, ws)


router.add_websocket_route("/ws/me", user_socket)
