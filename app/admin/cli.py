"""Command-line tools for administrators:

    python -m app make-admin USERNAME      (alias: create-admin)  make a user an administrator
    python -m app recheck [GAME...]        replay stored games through the current engine
"""
from __future__ import annotations

import json
import sys
from typing import Any

from sqlalchemy import select, update

from ..models import User
from ..store.db import Database
from .disputes import audit
from .integrity import recheck


def make_admin(db: Database, username: str, revoke: bool = False) -> bool:
    with db.write_session() as s:
        user = s.execute(select(User).where(User.username_key == username.lower())).scalar_one_or_none()
        if user is None:
            return False
        s.execute(update(User).where(User.id == user.id).values(is_admin=not revoke))
        audit(s, None, "revoke-admin" if revoke else "make-admin", f"command line: {username}",
              detail={"user_id": user.id, "username": user.username})
        s.commit()
    return True


def cli_make_admin(settings: Any, username: str, revoke: bool = False) -> int:
    db = Database(settings.sqlalchemy_url)
    try:
        if not make_admin(db, username, revoke):
            print(f"no user named {username!r}", file=sys.stderr)
            return 1
        print(f"{username} is {'no longer' if revoke else 'now'} an administrator")
        return 0
    finally:
        db.dispose()


def _print_reports(reports: list[dict]) -> None:
    for r in reports:
        if r["ok"]:
            print(f"ok    {r['game_id']}  ({r.get('status')}, seq {r.get('seq')})")
        else:
            print(f"FAIL  {r['game_id']}  ({r.get('status')}, seq {r.get('seq')})")
            for p in r["problems"]:
                print(f"        {p}")


def cli_recheck(settings: Any, gids: list[str], as_json: bool = False) -> int:
    """Exit status 0 if every game is sound, 1 if any is not."""
    db = Database(settings.sqlalchemy_url)
    try:
        reports = recheck(db, gids or None)
    finally:
        db.dispose()
    bad = [r for r in reports if not r["ok"]]
    if as_json:
        print(json.dumps({"checked": len(reports), "bad": bad}, indent=1))
    else:
        _print_reports(reports)
        print(f"{len(reports)} game(s) rechecked with the current rules engine: {len(bad)} with problems")
    return 1 if bad else 0
