"""A server killed mid-game loses nothing: a new process rebuilds every game from the table."""
from __future__ import annotations

import random

import httpx
import rules_engine

from .helpers import TEST_GAME_SEED, active_match_after, effective_engine_events, events, play_random


def test_restart_mid_game_loses_nothing(db_url, make_server):
    srv = make_server(db_url, game_seed=TEST_GAME_SEED)
    a, b, gid = active_match_after(srv.base, 40, seed=42)
    seats = {"union": a, "confederate": b}
    before = a.game(gid)
    legal_before = {s: p.legal(gid) for s, p in seats.items()}
    log_before = events(srv.base, gid)
    srv.kill()  # SIGKILL: no shutdown handlers

    srv2 = make_server(db_url, game_seed=TEST_GAME_SEED)
    for p in seats.values():
        p.http.base_url = srv2.base
        p.base = srv2.base
    after = a.game(gid)
    for key in ("seq", "status", "to_act", "state", "seats", "result"):
        assert after[key] == before[key], key
    assert {s: p.legal(gid) for s, p in seats.items()} == legal_before
    assert events(srv2.base, gid) == log_before
    # the tokens still work and play goes on (with new dice from the same seed)
    n = play_random(srv2.base, seats, gid, random.Random(43), 40)
    assert n > 0
    g = a.game(gid)
    assert g["seq"] > before["seq"]
    assert rules_engine.replay(g["header"], effective_engine_events(events(srv2.base, gid))).state() == g["state"]
    assert httpx.get(f"{srv2.base}/api/games?view=live").status_code == 200
