"""Websocket channel per game: /ws/games/{id}.

The messages in both directions are the models of app.realtime.protocol (their JSON
Schema is in docs/api.md). On connect: "snapshot" (or, with ?after=N, an "events"
message with only what the client missed); then the hub sends "events" after every
change ("changes", the state's delta, with ?v=2), "legal" to a player's sockets and
"watchers"; this module answers the client's own messages ("ack", "legal", "pong", "error").
"""
from __future__ import annotations

import asyncio
import logging
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import DataError as SqlDataError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..accounts import security
from ..core.errors import ApiError, out_of_range
from ..guard.ratelimit import RateLimited, account_key, client_address
from ..i18n import N_
from . import gate, protocol
from .subscriber import Subscriber

log = logging.getLogger("app.ws")
router = APIRouter()


def _err(status: int, detail: str, code: str, **extra: Any) -> str:
    return protocol.dump(protocol.ErrorMsg(status=status, code=code, detail=detail, **extra))


def _origin_ok(ws: WebSocket) -> bool:
    """Cookies are only honoured when the page that opened the socket is ours."""
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    host = urlsplit(origin).netloc.lower()
    allowed = {ws.headers.get("host", "").lower(), urlsplit(ws.app.state.settings.public_url).netloc.lower()}
    return host in allowed


MAX_SEQ = 2 ** 63 - 1  # seq numbers are 64-bit integers in the database
_GAME_SOCKET_PATH = re.compile(r"^/ws/games/([A-Za-z0-9_-]{1,64})$")


class GameSocketMiddleware:
    """Serves /ws/games/{id} straight from the outer ASGI layer.

    It keeps the server's own `send` (so the hub can reach the socket's transport and
    write pre-built frames, see hub.Subscriber) and skips the routing and exception
    layers for sockets, which would otherwise stay on the stack of every idle socket
    (memory per watcher). The same endpoint is also registered as a normal route."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope["hd.server_send"] = send
            m = _GAME_SOCKET_PATH.match(scope.get("path", ""))
            if m and "app" in scope:
                scope["path_params"] = {"game_id": m.group(1)}
                await game_socket(WebSocket(scope, receive, send))
                return
        await self.app(scope, receive, send)


async def _raw_transport(ws: WebSocket):
    """The socket's transport when frames may be written to it directly: uvicorn's
    websocket protocols, handshake done, no extension (compression) negotiated."""
    if ws.app.state.settings.ws_per_message_deflate:
        return None
    proto = getattr(ws.scope.get("hd.server_send"), "__self__", None)
    transport = getattr(proto, "transport", None)
    if transport is None or not hasattr(transport, "get_write_buffer_size"):
        return None
    extensions = getattr(proto, "extensions", None)
    if extensions is None:
        extensions = getattr(getattr(proto, "conn", None), "extensions", None)
    if extensions:
        return None
    done = getattr(proto, "handshake_completed_event", None)
    if done is not None:
        await done.wait()
    return transport


async def _writer(ws: WebSocket, sub: Subscriber) -> None:
    queue = sub.queue
    assert queue is not None  # only subscribers without a raw transport get a writer
    try:
        while True:
            text = await queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        pass
    finally:
        if sub.close_reason and ws.application_state == WebSocketState.CONNECTED:
            try:
                await ws.close(code=4008, reason=sub.close_reason[:120])
            except Exception:
                pass


async def authenticate(ws: WebSocket) -> tuple[bool, Any]:
    """(accepted, user): a bearer token in ?token= or, from our own pages, the session
    cookie. A bad token is refused (the socket is accepted, told why and closed)."""
    svc, accounts = ws.app.state.games, ws.app.state.accounts
    token = ws.query_params.get("token")
    if token:
        user = await svc.call(accounts.user_for_token, token)
        if user is None:
            await ws.accept()
            await ws.send_text(_err(401, "that token is not valid", "bad_token"))
            await ws.close(code=4401)
            return False, None
        return True, user
    cookie = ws.cookies.get(security.SESSION_COOKIE)
    if cookie and _origin_ok(ws):
        return True, await svc.call(accounts.user_for_token, cookie)
    return True, None


async def _after_param(ws: WebSocket) -> tuple[bool, int | None]:
    """(valid, N) of ?after=N (None: no catch-up asked); an invalid one is refused."""
    raw = ws.query_params.get("after")
    if raw in (None, ""):
        return True, None
    try:
        after = int(raw)
        if after < 0:
            raise ValueError
        return True, after
    except ValueError:
        await ws.accept()
        await ws.send_text(_err(422, "after must be a seq number (>= 0)", "invalid_request"))
        await ws.close(code=4422)
        return False, None


PROTOCOL_VERSIONS = ("1", "2")


async def _version_param(ws: WebSocket) -> tuple[bool, bool]:
    """(valid, deltas) of ?v=: 1 (the default) sends "events" with the whole state after
    every change, 2 sends "changes" (the state's delta); any other version is refused."""
    raw = ws.query_params.get("v") or "1"
    if raw in PROTOCOL_VERSIONS:
        return True, raw == "2"
    await ws.accept()
    await ws.send_text(_err(422, f"v must be one of {', '.join(PROTOCOL_VERSIONS)} (the protocol version)",
                            "invalid_request"))
    await ws.close(code=4422)
    return False, False


async def too_many_sockets(ws: WebSocket) -> bool:
    """Count this socket against its address's limit of sockets opened; when over it,
    say so and close (4429)."""
    try:
        await gate.hit_from_loop(ws, "socket", client_address(ws))
        return False
    except RateLimited as exc:
        await gate.refuse(ws, None, exc.refusal())
        return True


async def game_socket(ws: WebSocket):
    """/ws/games/{game_id} (a plain Starlette route: no dependency machinery per socket)."""
    if await too_many_sockets(ws):
        return
    ok, user = await authenticate(ws)
    if not ok:
        return
    holder = await gate.hold_socket(ws, user)
    if holder is None:
        return
    try:
        await _open_game_socket(ws, user)
    finally:
        ws.app.state.open_sockets.give_back(holder)


async def _open_game_socket(ws: WebSocket, user: Any) -> None:
    """The rest of the opening: the parameters, the game, then the socket's life."""
    game_id = ws.path_params["game_id"]
    svc = ws.app.state.games
    ok, after = await _after_param(ws)
    if not ok:
        return
    ok, deltas = await _version_param(ws)
    if not ok:
        return
    # a v2 socket follows the state through its deltas (and gets it whole on a resync)
    want_state = deltas or ws.query_params.get("state", "1").lower() not in ("0", "false", "no")
    info = await svc.call(svc.seats_of, game_id)
    await ws.accept()
    if info is None:
        await ws.send_text(_err(404, "no such game", "not_found"))
        await ws.close(code=4404)
        return
    seats = {"union": info["union"], "confederate": info["confederate"]}
    del info
    transport = await _raw_transport(ws)
    sub = Subscriber(user.id if user else None, want_state, ws.app.state.settings.ws_queue_limit, transport,
                     deltas=deltas, batched=user is None or user.id not in seats.values())
    await _serve(ws, sub, user, game_id, seats, after)


async def _start(ws: WebSocket, sub: Subscriber, user: Any, game_id: str, seats: dict, after: int | None) -> None:
    """Subscribe, then send the snapshot (or what a reconnecting client missed)."""
    svc, hub = ws.app.state.games, ws.app.state.hub
    await hub.subscribe(game_id, sub, seats)
    if after is not None:
        await hub.start_subscriber(sub, None, after)
        return
    snap = await svc.call(svc.snapshot, game_id, sub.user_id)
    snap.pop("_seats_ids", None)
    if user is not None:
        snap["you"] = {"user_id": user.id, "username": user.username}
    await hub.start_subscriber(sub, snap, None)


async def _serve(ws: WebSocket, sub: Subscriber, user: Any, game_id: str, seats: dict, after: int | None) -> None:
    """The life of one socket: start, answer its messages until it closes, clean up."""
    hub = ws.app.state.hub
    writer = asyncio.get_running_loop().create_task(_writer(ws, sub)) if sub.transport is None else None
    messages = gate.MessageGate(ws, user)
    try:
        await _start(ws, sub, user, game_id, seats, after)
        while not sub.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = protocol.text_of(msg)
            refused = messages.refusal(raw)
            if refused is None:
                await _handle(ws, sub, user, game_id, raw)
            elif messages.exhausted:
                await messages.close()
                break
            else:
                sub.put(refused)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:
        log.exception("socket for game %s failed", game_id)
    finally:
        hub.unsubscribe(sub)
        if writer is not None:
            sub.end()
            try:
                await asyncio.wait_for(writer, 2)
            except BaseException:
                writer.cancel()


async def _handle(ws: WebSocket, sub: Subscriber, user: Any, game_id: str, raw: str) -> None:
    """Answer one client message; a refusal is an "error" message, the socket stays open."""
    try:
        kind, echo, msg = protocol.envelope(raw)
    except protocol.ProtocolError as exc:
        sub.put(_err(exc.status, exc.detail, exc.code))
        return
    try:
        if kind in protocol.ACTING_TYPES and user is None:
            raise ApiError(401, N_("spectators cannot act: log in and take a seat"), "login_required")
        if kind in protocol.ACTING_TYPES:
            await gate.hit_from_loop(ws, "action", account_key(user.id))
        await _answer(ws, sub, user, game_id, protocol.parse(kind, msg), echo)
    except protocol.ProtocolError as exc:
        sub.put(_err(exc.status, exc.detail, exc.code, of=kind, **echo))
    except ApiError as exc:
        sub.put(gate.error_text(ws, user, exc, of=kind, **echo))
    except RateLimited as exc:
        sub.put(gate.error_text(ws, user, exc.refusal(), of=kind, **echo))
    except (OverflowError, SqlDataError):
        refusal = out_of_range()
        sub.put(_err(refusal.status, refusal.detail, refusal.code, of=kind, **echo))


async def _answer(ws: WebSocket, sub: Subscriber, user: Any, game_id: str, msg: Any, echo: dict) -> None:
    svc, hub = ws.app.state.games, ws.app.state.hub
    if isinstance(msg, protocol.PingMsg):
        sub.put(protocol.dump(protocol.PongMsg(**echo)))
    elif isinstance(msg, protocol.SyncMsg):
        if msg.after > MAX_SEQ:
            raise protocol.ProtocolError(422, f"after is a seq number, at most {MAX_SEQ}", "invalid_request")
        sub.seq = msg.after
        await hub.catch_up(sub, force=True)
    elif isinstance(msg, protocol.LegalMsg):
        out = await svc.call(svc.legal, game_id, user)
        sub.put(protocol.dump(protocol.LegalActionsMsg(game_id=game_id, **out, **echo)))
    else:
        if isinstance(msg, protocol.ActionMsg):
            out = await svc.call(svc.act, user, game_id, msg.action, msg.expected_seq, msg.action_id)
        elif isinstance(msg, protocol.UndoMsg):
            out = await svc.call(svc.undo, user, game_id, msg.expected_seq, msg.action_id)
        else:
            out = await svc.call(svc.resign, user, game_id)
        if out.get("duplicate"):
            ack = protocol.AckMsg(of=msg.type, seq=out["seq"], duplicate=True, events=out["events"], **echo)
            sub.put(protocol.dump(ack))
        else:
            sub.put(protocol.ack_text(msg.type, out["seq"], echo))


router.add_websocket_route("/ws/games/{game_id}", game_socket)
