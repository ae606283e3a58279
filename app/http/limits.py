"""Rate limits as the web layer applies them (the counting is app.guard.ratelimit).

Each limit is keyed by an account (its id) or by the client's address (what uvicorn
reports: the peer, or X-Forwarded-For from a trusted proxy). A refusal is HTTP 429 with
Retry-After, or on a websocket an "error" message with status 429. Where each limit is
counted (this process, or the database for all of them): app.guard.ratelimit."""
from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from ..accounts.security import HashingBusy
from ..core.errors import ApiError
from ..guard.ratelimit import RateLimited, RateLimiter, account_key, client_address
from ..i18n import N_
from . import refusals


def limiter(conn: HTTPConnection) -> RateLimiter:
    return conn.app.state.limiter


def per_address(conn: HTTPConnection, name: str) -> None:
    limiter(conn).hit(name, client_address(conn))


def per_account(conn: HTTPConnection, name: str, user_id: int) -> None:
    limiter(conn).hit(name, account_key(user_id))


async def too_many_requests(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RateLimited)
    refusal = exc.refusal()
    return JSONResponse(status_code=429, headers={"Retry-After": str(exc.retry_after)},
                        content={"detail": refusals.said(request, refusal), "code": refusal.code,
                                 "retry_after": exc.retry_after})


async def busy_hashing(request: Request, exc: Exception) -> JSONResponse:
    """All the password-hashing slots of this process stayed taken (a flood of logins):
    503, try again shortly."""
    assert isinstance(exc, HashingBusy)
    refusal = ApiError(503, N_("the server is busy checking passwords; try again in {seconds} s"), "busy",
                       {"seconds": exc.retry_after})
    return JSONResponse(status_code=503, headers={"Retry-After": str(exc.retry_after)},
                        content={"detail": refusals.said(request, refusal), "code": refusal.code,
                                 "retry_after": exc.retry_after})
