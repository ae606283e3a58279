"""The tamper-evident log on the server: an event edited, removed or reordered in the
database is found by the periodic check (GET /api/admin/integrity) and by
`python -m app recheck`, with the seq it is at."""
from __future__ import annotations

import json
import random

from sqlalchemy import create_engine, text

from app.core.config import normalize_database_url

from .helpers import new_match, play_random
from .replay_helpers import make_admin, run_app


def _sql(server, stmt: str, **params):
    eng = create_engine(normalize_database_url(server.database_url))
    try:
        with eng.begin() as c:
            return c.execute(text(stmt), params).all() if stmt.lstrip().upper().startswith("SELECT") else \
                c.execute(text(stmt), params)
    finally:
        eng.dispose()


def test_edits_removals_and_reorders_in_the_database_are_found(server):
    admin = make_admin(server)
    games = []
    for seed in (1, 2, 3, 4):
        a, b, gid = new_match(server.base)
        play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(seed), 16)
        games.append(gid)
    good, edited, removed, swapped = games

    # an admin with database access changes a die
    seq, payload = _sql(server, "SELECT seq, payload FROM game_events WHERE game_id = :g AND type = 'roll' "
                                "ORDER BY seq LIMIT 1", g=edited)[0]
    payload = json.loads(payload) if isinstance(payload, str) else payload
    payload["value"] = payload["value"] % 6 + 1
    _sql(server, "UPDATE game_events SET payload = :p WHERE game_id = :g AND seq = :s",
         p=json.dumps(payload), g=edited, s=seq)
    # ... removes an event, and swaps two
    _sql(server, "DELETE FROM game_events WHERE game_id = :g AND seq = 15", g=removed)
    for old, new in ((10, 1000), (11, 10), (1000, 11)):
        _sql(server, "UPDATE game_events SET seq = :n WHERE game_id = :g AND seq = :o", n=new, o=old, g=swapped)

    rep = admin.http.get("/api/admin/integrity?run=true").json()
    broken = {b["game_id"]: " ".join(b["problems"]) for b in rep["broken"]}
    assert good not in broken
    assert f"seq {seq + 1}: its prev_hash does not match the hash of seq {seq}" in broken[edited]
    assert "events 15..15 are missing" in broken[removed]
    assert "seq 10" in broken[swapped]

    out = run_app(server, "recheck", good, edited, removed)
    assert out.returncode == 1, out.stdout
    assert f"FAIL  {edited}" in out.stdout and f"seq {seq}: die" in out.stdout and f"ok    {good}" in out.stdout
    assert f"FAIL  {removed}" in out.stdout
    one = admin.http.get(f"/api/admin/games/{good}/recheck").json()
    assert one["ok"] and one["problems"] == []


def test_recheck_accepts_a_game_ended_by_an_accepted_draw(server):
    admin = make_admin(server)
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(5), 6)
    assert a.http.post(f"/api/games/{gid}/offer-draw").status_code == 200
    assert b.http.post(f"/api/games/{gid}/accept-draw").status_code == 200
    one = admin.http.get(f"/api/admin/games/{gid}/recheck").json()
    assert one["status"] == "finished" and one["ok"], one["problems"]

