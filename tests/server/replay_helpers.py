"""Helpers for the replay, export, dispute and integrity tests."""
from __future__ import annotations

import os
import subprocess
import sys

import httpx

from .helpers import ROOT, Player


def run_app(server, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DATABASE_URL=server.database_url, SECRET_KEY="test-secret-key-of-at-least-32-bytes", LOG_LEVEL="warning",
               PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=str(ROOT), env=env, capture_output=True,
                          text=True, timeout=120)


def make_admin(server, cli: bool = False) -> Player:
    """A new administrator: through `python -m app make-admin` (cli=True), or directly in
    the database (faster)."""
    p = Player(server.base)
    if cli:
        r = run_app(server, "make-admin", p.username)
        assert r.returncode == 0, r.stdout + r.stderr
    else:
        from sqlalchemy import create_engine, text

        from app.core.config import normalize_database_url
        eng = create_engine(normalize_database_url(server.database_url))
        with eng.begin() as c:
            c.execute(text("UPDATE users SET is_admin = :t WHERE id = :i"), {"t": True, "i": p.user_id})
        eng.dispose()
    assert httpx.get(server.base + "/api/auth/me", headers={"Authorization": f"Bearer {p.token}"}).json()["is_admin"]
    return p


def resign(p: Player, gid: str) -> dict:
    r = p.http.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200, r.text
    return r.json()
