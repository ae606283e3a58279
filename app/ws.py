"""Websocket channel per game: /ws/games/{id}.

Server -> client: "snapshot" on connect (or, with ?after=N, an "events" message with only
what the client missed), then "events" after every change (the same text for every
socket), "legal" (to a player's sockets: that side's legal actions after each change),
"watchers", "ack" (answer to the client's own command) and "error".
Client -> server: {"type": "action", "action": {...}, "action_id"?, "expected_seq"?},
{"type": "undo"}, {"type": "resign"}, {"type": "sync", "after": N}, {"type": "legal"},
{"type": "ping"}.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from . import security
from .errors import ApiError
from .hub import Subscriber

log = logging.getLogger("app.ws")
router = APIRouter()


def _dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _err(status: int, detail: str, code: str, **extra) -> str:
    return _dumps({"type": "error", "status": status, "code": code, "detail": detail, **extra})


def _origin_ok(ws: WebSocket) -> bool:
    """Cookies are only honoured when the page that opened the socket is ours."""
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    host = urlsplit(origin).netloc.lower()
    allowed = {ws.headers.get("host", "").lower(), urlsplit(ws.app.state.settings.public_url).netloc.lower()}
    return host in allowed


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
    try:
        while True:
            text = await sub.queue.get()
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


async def game_socket(ws: WebSocket):
    """/ws/games/{game_id} (a plain Starlette route: no dependency machinery per socket)."""
    game_id = ws.path_params["game_id"]
    app = ws.app
    svc, hub, accounts = app.state.games, app.state.hub, app.state.accounts
    q = ws.query_params
    user = None
    token = q.get("token")
    if token:
        user = await svc.call(accounts.user_for_token, token)
        if user is None:
            await ws.accept()
            await ws.send_text(_err(401, "that token is not valid", "bad_token"))
            await ws.close(code=4401)
            return
    else:
        cookie = ws.cookies.get(security.SESSION_COOKIE)
        if cookie and _origin_ok(ws):
            user = await svc.call(accounts.user_for_token, cookie)
    after = None
    if q.get("after") not in (None, ""):
        try:
            after = int(q["after"])
            if after < 0:
                raise ValueError
        except ValueError:
            await ws.accept()
            await ws.send_text(_err(422, "after must be a seq number (>= 0)", "invalid_request"))
            await ws.close(code=4422)
            return
    want_state = q.get("state", "1").lower() not in ("0", "false", "no")
    info = await svc.call(svc.seats_of, game_id)
    await ws.accept()
    if info is None:
        await ws.send_text(_err(404, "no such game", "not_found"))
        await ws.close(code=4404)
        return
    seats = {"union": info["union"], "confederate": info["confederate"]}
    del info

    transport = await _raw_transport(ws)
    sub = Subscriber(user.id if user else None, want_state, app.state.settings.ws_queue_limit, transport)
    writer = asyncio.get_running_loop().create_task(_writer(ws, sub)) if transport is None else None
    try:
        await hub.subscribe(game_id, sub, seats)
        if after is None:
            snap = await svc.call(svc.snapshot, game_id, sub.user_id)
            snap.pop("_seats_ids", None)
            if user is not None:
                snap["you"] = {"user_id": user.id, "username": user.username}
            await hub.start_subscriber(sub, snap, None)
            del snap  # a whole state: do not keep it alive for the life of the socket
        else:
            await hub.start_subscriber(sub, None, after)
        while not sub.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None and msg.get("bytes") is not None:
                raw = msg["bytes"].decode("utf-8", "replace")
            await _handle(ws, sub, user, game_id, raw or "")
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


async def _handle(ws: WebSocket, sub: Subscriber, user, game_id: str, raw: str) -> None:
    svc, hub = ws.app.state.games, ws.app.state.hub
    try:
        msg = json.loads(raw)
    except ValueError as exc:
        sub.put(_err(400, f"malformed JSON: {exc}", "malformed_json"))
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        sub.put(_err(422, 'a message is a JSON object with a "type"', "invalid_request"))
        return
    kind = msg["type"]
    ref = {k: msg[k] for k in ("action_id", "ref") if k in msg}
    try:
        if kind == "ping":
            sub.put(_dumps({"type": "pong", **ref}))
        elif kind == "sync":
            after = msg.get("after")
            if not isinstance(after, int) or isinstance(after, bool) or after < 0:
                raise ApiError(422, "sync needs after: a seq number", "invalid_request")
            sub.seq = after
            await hub.catch_up(sub, force=True)
        elif kind == "legal":
            out = await svc.call(svc.legal, game_id, user)
            sub.put(_dumps({"type": "legal", "game_id": game_id, **out, **ref}))
        elif kind in ("action", "undo", "resign"):
            if user is None:
                raise ApiError(401, "spectators cannot act: log in and take a seat", "login_required")
            expected = msg.get("expected_seq")
            if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
                raise ApiError(422, "expected_seq must be an integer", "invalid_request")
            action_id = msg.get("action_id")
            if action_id is not None and not isinstance(action_id, str):
                raise ApiError(422, "action_id must be a string", "invalid_request")
            if kind == "action":
                if "action" not in msg:
                    raise ApiError(422, 'an action message needs "action"', "invalid_request")
                out = await svc.call(svc.act, user, game_id, msg["action"], expected, action_id)
            elif kind == "undo":
                out = await svc.call(svc.undo, user, game_id, expected, action_id)
            else:
                out = await svc.call(svc.resign, user, game_id)
            ack = {"type": "ack", "of": kind, "seq": out["seq"], **ref}
            if out.get("duplicate"):
                ack["duplicate"] = True
                ack["events"] = out["events"]
            sub.put(_dumps(ack))
        else:
            raise ApiError(422, f"unknown message type {kind!r}", "invalid_request")
    except ApiError as exc:
        sub.put(_err(exc.status, exc.detail, exc.code, of=kind, **ref))


router.add_websocket_route("/ws/games/{game_id}", game_socket)
