"""A site database written before the printed board replaced the reconstructed map.

records/v1-site.sql is the SQLite dump of a database made by the server of engine
version 1 itself: two players and an 1862 game, 60 decisions in (the Union veteran
in Franklin, Tennessee, a box only the old map has). It must never be regenerated.
Today's server opens it (migrating the schema), and the game goes on on its own map,
replays, exports, verifies and passes the recheck."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import rules_engine
from rules_engine.verify import verify_record

from .helpers import ROOT, ServerProc

RECORDS = Path(__file__).parent / "records"


@pytest.fixture
def old_site(tmp_path):
    db = tmp_path / "old-site.sqlite3"
    con = sqlite3.connect(db)
    con.executescript((RECORDS / "v1-site.sql").read_text(encoding="utf-8"))
    con.close()
    url = f"sqlite:///{db}"
    srv = ServerProc(url, log_dir=tmp_path).start()
    yield srv, url, json.loads((RECORDS / "v1-site.json").read_text(encoding="utf-8"))
    srv.stop()


def _login(base: str, username: str, password: str) -> httpx.Client:
    r = httpx.post(base + "/api/auth/login", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {r.json()['token']}"},
                        timeout=30)


def test_a_game_stored_on_the_old_map_goes_on(old_site):
    srv, url, info = old_site
    gid = info["game_id"]
    seats = {side: _login(srv.base, info[side], info["password"]) for side in ("union", "confederate")}
    game = seats["union"].get(f"/api/games/{gid}").json()
    assert game["header"]["engine"] == 1 and game["seq"] == 108
    # its page draws the old map, with the Tennessee Franklin the veteran stands in
    page = httpx.get(f"{srv.base}/games/{gid}").text
    assert '"id": "franklin"' in page or '"id":"franklin"' in page
    assert "franklin_wv" not in page
    rng = random.Random(11)
    for _ in range(25):
        game = seats["union"].get(f"/api/games/{gid}").json()
        if game["status"] != "active":
            break
        player = seats[game["to_act"]]
        legal = player.get(f"/api/games/{gid}/legal").json()
        r = player.post(f"/api/games/{gid}/actions",
                        json={"action": rng.choice(legal["actions"]), "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    export = seats["union"].get(f"/api/games/{gid}/export").json()
    assert export["header"]["engine"] == 1 and len(export["events"]) > 108
    assert verify_record(export) == []
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "app", "recheck", gid], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_new_game_beside_it_is_on_the_printed_board(old_site):
    srv, _, info = old_site
    client = _login(srv.base, info["union"], info["password"])
    r = client.post("/api/games", json={"scenario": "1862", "side": "union", "mode": "live"})
    assert r.status_code == 201, r.text
    assert r.json()["header"]["engine"] == rules_engine.ENGINE_VERSION >= 3   # the printed board, changes recorded
    page = httpx.get(f"{srv.base}/games/{r.json()['id']}").text
    assert "franklin_wv" in page and "atlantic_city" in page
    old_map = httpx.get(f"{srv.base}/api/map", params={"engine": 1}).json()
    assert len(old_map["boxes"]) == 107
    assert httpx.get(f"{srv.base}/api/map", params={"engine": 7}).status_code == 404
