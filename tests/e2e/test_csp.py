"""Browser: every kind of page runs under the Content-Security-Policy (no inline script,
no inline style, nothing from other sites) without a single violation."""
from __future__ import annotations

import os
import subprocess
import sys

from .conftest import DATABASE_OF, ROOT
from .test_replay import _finished_game, _player

WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def _make_admin(base: str, username: str) -> None:
    env = dict(os.environ, DATABASE_URL=DATABASE_OF[base], SECRET_KEY="e2e-secret-key-of-at-least-32-bytes", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "app", "make-admin", username], env=env, cwd=str(ROOT), check=True,
                   capture_output=True)


def _logged_in_page(browser, base: str, username: str):
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    assert ctx.request.post(f"{base}/api/auth/login",
                            data={"username": username, "password": "password123"}).status == 200
    return ctx


def _visit_all(ctx, base: str, paths: list[str]) -> list[str]:
    problems: list[str] = []
    page = ctx.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    page.on("console", lambda m: problems.append(f"{page.url}: {m.text}")
            if m.type == "error" and "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(f"{page.url}: {e}"))
    for path in paths:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)
        problems += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
    return problems


def test_every_page_kind_runs_without_a_csp_violation(server, browser):
    live_gid = _finished_game(server, decisions=10)           # resigned: the replay is open to all
    a_http, b_http = _player(server), _player(server)
    gid = a_http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    assert b_http.post(f"/api/games/{gid}/join", json={}).status_code == 200
    player_name = a_http.get("/api/auth/me").json()["username"]
    _make_admin(server, player_name)

    as_player = _logged_in_page(browser, server, player_name)
    problems = _visit_all(as_player, server, [
        "/", "/new", "/settings", "/notifications", "/admin", "/admin/outbox", f"/games/{gid}",
        f"/games/{gid}/replay", f"/games/{live_gid}/replay", "/replay", "/docs", "/games/no-such-game", "/logout"])
    stranger = browser.new_context()
    problems += _visit_all(stranger, server, ["/", "/login", "/register", f"/games/{gid}",
                                              f"/games/{live_gid}/replay", "/docs"])
    assert problems == []
    as_player.close()
    stranger.close()


def test_the_game_page_connects_its_websocket_under_the_policy(server, browser):
    a_http, b_http = _player(server), _player(server)
    gid = a_http.post("/api/games", json={"scenario": "1861", "side": "union"}).json()["id"]
    assert b_http.post(f"/api/games/{gid}/join", json={}).status_code == 200
    ctx = _logged_in_page(browser, server, a_http.get("/api/auth/me").json()["username"])
    page = ctx.new_page()
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{server}/games/{gid}")
    page.wait_for_selector("[data-action]", timeout=20000)      # legal actions came over the socket
    assert any(f"/ws/games/{gid}" in url for url in sockets)
    ctx.close()
