"""ASGI middleware: a cap on request bodies, a last-resort answer to server errors,
and the security headers of every answer."""
from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger(__name__)

#: The policy every page is served under: scripts, styles, images and sockets from this
#: site only; no framing (clickjacking); no plugins; forms post only here.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
#: Browsers keep to https for a year once they have seen it (only sent when the
#: site's public address is https: over plain http it would lock a site out).
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


def security_headers(public_url: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries, HSTS where the site is served over https."""
    return SECURITY_HEADERS + ([HSTS] if public_url.lower().startswith("https://") else [])


async def _refuse_too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"the request body is larger than {limit} bytes",
                       "code": "too_large"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before reading them: by the
    Content-Length header, or while a chunked body streams in.

    A streamed body that grows too large is answered with 413 at once; the application
    is then told the client went away (http.disconnect), and whatever it answers or
    raises about that is dropped, so its error handlers cannot turn the refusal into
    a 500."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None):
        # larger: paths that take bigger bodies (a whole game's export file)
        self.app, self.limit, self.larger = app, limit, larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.larger.get(scope.get("path", ""), self.limit)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            return await _refuse_too_large(send, limit)
        seen = 0
        started = refused = False

        async def counting_receive() -> Message:
            nonlocal seen, started, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    if not started:
                        started = True
                        await _refuse_too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except Exception:
            if not refused:
                raise


class ServerErrors:
    """Answer an exception no handler took with a plain 500 here, inside the
    security headers (Starlette's own last-resort answer comes from outside every
    middleware, so it would go out without them). The traceback is logged; the
    answer says nothing of it."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            if started:
                raise
            log.exception("server error on %s %s", scope.get("method"), scope.get("path"))
            body = json.dumps({"detail": "server error", "code": "server_error"}).encode()
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Add the security headers to every HTTP answer that does not set its own."""

    def __init__(self, app: ASGIApp, headers: list[tuple[bytes, bytes]] | None = None):
        self.app = app
        self.headers = headers or SECURITY_HEADERS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *[(k, v) for k, v in self.headers if k not in present]]}
            await send(message)

        await self.app(scope, receive, with_headers)
