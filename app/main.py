"""The ASGI application: app.main:app."""
from __future__ import annotations

import contextlib
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import __version__
from .auth import Accounts
from .config import Settings, get_settings
from .db import Database
from .errors import ApiError
from .games import GameService
from .hub import Hub


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.secret_key == Settings.model_fields["secret_key"].default:
        logging.getLogger("app").warning("SECRET_KEY is not set: using an insecure development key")
    db = Database(settings.sqlalchemy_url, pool_size=settings.db_pool_size)
    inline = settings.inline_db if settings.inline_db is not None else not settings.is_postgres
    games = GameService(db, cache_size=settings.game_cache_size, public_url=settings.public_url, inline=inline)
    hub = Hub(games, settings.fanout_backend, dsn=settings.sqlalchemy_url, queue_limit=settings.ws_queue_limit)
    accounts = Accounts(db, settings.secret_key, settings.session_days)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        checker = getattr(app.state, "integrity", None)  # issue 6: periodic hash-chain check
        if checker is not None:
            checker.start()
        pbt = getattr(app.state, "outbox_worker", None)  # issue 5: outbox + play-by-turn timers
        if pbt is not None:
            pbt.start()
        try:
            yield
        finally:
            if pbt is not None:
                await pbt.stop()
            if checker is not None:
                await checker.stop()
            await hub.stop()
            db.dispose()

    app = FastAPI(title="A House Divided: game server", version=__version__, lifespan=lifespan,
                  description="Play-by-web server for the board wargame *A House Divided*. See docs/api.md.")
    app.state.settings = settings
    app.state.db = db
    app.state.games = games
    app.state.hub = hub
    app.state.accounts = accounts

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse(status_code=exc.status, content={"detail": exc.detail, "code": exc.code})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse(status_code=400, content={"detail": "malformed JSON in the request body",
                                                          "code": "malformed_json"})
        parts = []
        for e in errors:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return JSONResponse(status_code=422, content={
            "detail": "; ".join(parts) or "invalid request", "code": "invalid_request",
            "errors": [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")} for e in errors]})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse(status_code=exc.status_code, content={"detail": exc.detail, "code": "http_error"},
                            headers=getattr(exc, "headers", None))

    from .routes import router as api_router
    from .ws import GameSocketMiddleware
    from .ws import router as ws_router
    app.include_router(api_router)
    app.include_router(ws_router)
    app.add_middleware(GameSocketMiddleware)

    from .web import install as install_web_client; install_web_client(app)  # pages, chat, /static
    from .pbt import install as install_play_by_turn; install_play_by_turn(app)  # notices, deadlines (issue 5)
    from .admin import install as install_admin; install_admin(app)  # replay, export, disputes, admin (issue 6)

    @app.get("/", include_in_schema=False)
    def root():
        return {"name": "A House Divided", "api": "/docs", "openapi": "/openapi.json"}

    return app


app = create_app()
