"""What request handlers take from the application they run in (all built by
app.main.create_app from the settings)."""
from __future__ import annotations

from typing import Any

from fastapi import Request

from ..core.clock import Clock
from ..core.config import Settings
from ..games.service import GameService
from ..notices.outbox import Notices
from ..playbyturn.deadlines import Deadlines
from ..store.db import Database


def settings(request: Request) -> Settings:
    return request.app.state.settings


def db(request: Request) -> Database:
    return request.app.state.db


def games(request: Request) -> GameService:
    return request.app.state.games


def hub(request: Request) -> Any:
    return request.app.state.hub


def clock(request: Request) -> Clock:
    return request.app.state.clock


def notices(request: Request) -> Notices:
    return request.app.state.notices


def deadlines(request: Request) -> Deadlines:
    return request.app.state.deadlines
