"""Administration (issue 6): the admin page, the install hook for the replay, dispute,
notice and integrity routes, and the command-line tools:

    python -m app make-admin USERNAME      (alias: create-admin)  make a user an administrator
    python -m app recheck [GAME...]        replay stored games through the current engine
"""
from __future__ import annotations

import json
import sys

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import select, update

from .models import User

router = APIRouter(include_in_schema=False)


def install(app) -> None:
    from . import disputes, integrity, notices, replay
    app.include_router(replay.router)
    app.include_router(disputes.router)
    app.include_router(notices.router)
    integrity.install(app)
    app.include_router(router)


@router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request):
    from .auth import optional_user
    from .web import render
    user = optional_user(request)
    if user is None:
        return render(request, "error.html", status=401, message="Log in as an administrator.")
    if not user.is_admin:
        return render(request, "error.html", status=403, message="Administrators only.")
    return render(request, "admin.html")


# ----------------------------------------------------------------------------- CLI
def make_admin(db, username: str, revoke: bool = False) -> bool:
    from .disputes import audit
    with db.write_session() as s:
        user = s.execute(select(User).where(User.username_key == username.lower())).scalar_one_or_none()
        if user is None:
            return False
        s.execute(update(User).where(User.id == user.id).values(is_admin=not revoke))
        audit(s, None, "revoke-admin" if revoke else "make-admin", f"command line: {username}",
              detail={"user_id": user.id, "username": user.username})
        s.commit()
    return True


def cli_make_admin(settings, username: str, revoke: bool = False) -> int:
    from .db import Database
    db = Database(settings.sqlalchemy_url)
    try:
        if not make_admin(db, username, revoke):
            print(f"no user named {username!r}", file=sys.stderr)
            return 1
        print(f"{username} is {'no longer' if revoke else 'now'} an administrator")
        return 0
    finally:
        db.dispose()


def cli_recheck(settings, gids: list[str], as_json: bool = False) -> int:
    """Exit status 0 if every game is sound, 1 if any is not."""
    from .db import Database
    from .integrity import recheck
    db = Database(settings.sqlalchemy_url)
    try:
        reports = recheck(db, gids or None)
    finally:
        db.dispose()
    bad = [r for r in reports if not r["ok"]]
    if as_json:
        print(json.dumps({"checked": len(reports), "bad": bad}, indent=1))
    else:
        for r in reports:
            if r["ok"]:
                print(f"ok    {r['game_id']}  ({r.get('status')}, seq {r.get('seq')})")
            else:
                print(f"FAIL  {r['game_id']}  ({r.get('status')}, seq {r.get('seq')})")
                for p in r["problems"]:
                    print(f"        {p}")
        print(f"{len(reports)} game(s) rechecked with the current rules engine: {len(bad)} with problems")
    return 1 if bad else 0
