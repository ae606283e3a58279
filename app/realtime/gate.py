"""What a stranger's sockets may cost: how many one account or address holds open at once
(app.guard.sockets), and which messages of a socket are answered (MessageGate). Shared
by the game sockets and the user socket.

A refusal is said in the reader's language by the function app.main hands in as
`app.state.socket_words` (app.http.refusals.said_on_socket: the same words as over HTTP)."""
from __future__ import annotations

import itertools
from typing import Any

from fastapi import WebSocket

from ..core.errors import ApiError
from ..guard.ratelimit import RateLimited, client_address
from ..guard.sockets import Holder, OpenSockets
from ..i18n import N_
from . import protocol

#: the close code of a socket refused or closed for a limit ("429" in the private range)
CLOSE_LIMITED = 4429
MAX_CLOSE_REASON = 123  # bytes (RFC 6455)
_SOCKET_NUMBERS = itertools.count(1)


def said(ws: WebSocket, user: Any, refusal: ApiError) -> str:
    """The refusal in the language of the socket's reader (`user`: None for a spectator)."""
    return ws.app.state.socket_words(ws, user, refusal)


def error_text(ws: WebSocket, user: Any, refusal: ApiError, **extra: Any) -> str:
    """An "error" message with the refusal said in the reader's language."""
    return protocol.dump(protocol.ErrorMsg(status=refusal.status, code=refusal.code,
                                           detail=said(ws, user, refusal), **extra))


async def hit_from_loop(ws: WebSocket, name: str, key: str) -> None:
    """Count one event of a rate limit on the event loop when this process can decide
    alone, else (the shared store must be asked) where the game service runs its
    blocking calls, so that the loop never waits for the database."""
    limiter = ws.app.state.limiter
    if not limiter.hit_here(name, key):
        await ws.app.state.games.call(limiter.hit, name, key)


def close_reason(text: str) -> str:
    """`text` cut to what a close frame carries."""
    data = text.encode()
    return text if len(data) <= MAX_CLOSE_REASON else data[:MAX_CLOSE_REASON].decode(errors="ignore")


async def refuse(ws: WebSocket, user: Any, refusal: ApiError) -> None:
    """Accept only to say why (an "error" message, the same words as the close reason), then close."""
    await ws.accept()
    text = said(ws, user, refusal)
    await ws.send_text(protocol.dump(protocol.ErrorMsg(status=refusal.status, code=refusal.code, detail=text)))
    await ws.close(code=CLOSE_LIMITED, reason=close_reason(text))


async def hold_socket(ws: WebSocket, user: Any) -> Holder | None:
    """Count this socket against its account's or address's cap of open sockets, or,
    over the cap, refuse it (4429) and return None. Give it back when the socket ends."""
    sockets: OpenSockets = ws.app.state.open_sockets
    holder = sockets.holder(user.id if user is not None else None, client_address(ws))
    if sockets.take(holder):
        return holder
    cap = sockets.caps[holder.kind]
    if holder.kind == "account":
        refusal = ApiError(429, N_("this account already has {cap} connections open: close some tabs"),
                           "too_many_sockets", {"cap": cap})
    else:
        refusal = ApiError(429, N_("this address already has {cap} connections open: close some tabs"),
                           "too_many_sockets", {"cap": cap})
    await refuse(ws, user, refusal)
    return None


class MessageGate:
    """Which messages of one socket are answered: none larger than WS_MAX_MESSAGE_BYTES,
    none past the socket's message limit (ws_message). A refused one is answered with an
    "error" message; a socket that goes on sending after as many refusals as its limit
    allows messages is closed (4429): the answers to a client that never reads them
    would otherwise pile up."""

    def __init__(self, ws: WebSocket, user: Any):
        self.ws = ws
        self.user = user
        self.key = f"socket:{next(_SOCKET_NUMBERS)}"   # this socket's key under ws_message
        self.refused = 0

    def refusal(self, raw: str) -> str | None:
        """None if `raw` may be answered, else the "error" message that says why not."""
        settings, limiter = self.ws.app.state.settings, self.ws.app.state.limiter
        cap = settings.ws_max_message_bytes
        if len(raw) > cap or (len(raw) * 4 > cap and len(raw.encode(errors="replace")) > cap):
            return self._refused(ApiError(413, N_("a message is at most {bytes} bytes"), "too_large",
                                          {"bytes": cap}))
        try:
            limiter.hit("ws_message", self.key)    # counted in this process only: no database
        except RateLimited as exc:
            return self._refused(exc.refusal())
        return None

    def _refused(self, refusal: ApiError) -> str:
        self.refused += 1
        return error_text(self.ws, self.user, refusal)

    @property
    def exhausted(self) -> bool:
        """The socket was refused more messages than its limit allows in a window."""
        return self.refused > self.ws.app.state.limiter.limits["ws_message"].events

    async def close(self) -> None:
        refusal = ApiError(429, N_("too many messages refused: connection closed"), "rate_limited")
        await self.ws.close(code=CLOSE_LIMITED, reason=close_reason(said(self.ws, self.user, refusal)))
