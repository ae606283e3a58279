"""The computer's worker processes (app.computer.pool, app.computer.worker): a game always
goes to the same worker, which is sent only the events it has not seen and keeps the
game's copy and its players between decisions (bounded); a worker that dies is replaced.
And the levels the lobby offers, with their ladder Elo (app.computer.levels)."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

import rules_engine
from app.computer import levels, worker
from app.computer.pool import ThinkingPool
from app.i18n import translator
from rules_engine.ai import make_player


def _game_after(decisions: int, seed: str = "pool"):
    g = rules_engine.new_game(scenario="1861-short", options=[], seed=seed)
    bot = make_player("random", seed=1)
    for _ in range(decisions):
        g.apply(bot.choose(g))
    return g


def test_the_worker_follows_a_game_from_the_events_it_is_sent():
    worker.keep(games=2)
    g = _game_after(30)
    header, evs = g.header, list(g.events)
    assert "seed" not in header  # the public header only
    half = len(evs) // 2
    out = worker.decide("g1", "greedy", "seat:g1:greedy:x", header, 0, None, evs[:half])
    assert "action" in out
    # the rest only: it holds the first half
    out = worker.decide("g1", "greedy", "seat:g1:greedy:x", header, half, evs[half - 1], evs[half:])
    assert out["action"] in g.legal_actions()
    # what it does not hold (another prefix, a count it does not have): it asks for all
    assert worker.decide("g1", "greedy", "k", header, 5, evs[4], evs[5:]) == {worker.RESEND: True}
    assert worker.decide("g2", "greedy", "k", header, 3, evs[2], evs[3:]) == {worker.RESEND: True}
    # bounded: at most two games and four players kept
    for i in range(5):
        worker.decide(f"h{i}", "random", f"p{i}", header, 0, None, evs)
    assert worker.held() == {"games": 2, "players": 4}


def test_a_game_keeps_its_slot():
    pool = ThinkingPool(processes=3)
    assert all(pool.slot_of(gid) is pool.slot_of(gid) for gid in ("abc", "x1y2z3", "q"))
    assert {pool.slot_of(f"g{i}").index for i in range(50)} == {0, 1, 2}
    assert ThinkingPool(processes=3).slot_of("abc").index == pool.slot_of("abc").index  # in every process


def test_the_pool_thinks_in_lower_priority_processes_and_replaces_a_dead_one():
    async def main():
        pool = ThinkingPool(processes=1, nice=5)
        try:
            g = _game_after(20, seed="crash")
            header, evs = g.header, list(g.events)
            action = await pool.decide("gid", "greedy", "seat:gid", header, evs)
            assert action in g.legal_actions()
            [pid] = await pool.pids()
            assert pid != os.getpid()
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)
            slot = pool.slot_of("gid")
            assert slot.sent["gid"][0] == len(evs)
            # one more decision: only the new events travel
            g.apply(make_player("random", seed=2).choose(g))
            assert slot.held("gid", list(g.events)) == (len(evs), evs[-1])
            assert await pool.decide("gid", "greedy", "seat:gid", header, list(g.events)) in g.legal_actions()
            # a worker killed while idle is replaced at the next call, which succeeds
            os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            assert await pool.decide("gid", "greedy", "seat:gid", header, list(g.events)) in g.legal_actions()
            [pid2] = await pool.pids()
            assert pid2 != pid and slot.started == 2
            # one killed while thinking fails that call; the next starts another worker
            thinking = asyncio.ensure_future(pool.run(slot, time.sleep, 5))
            await asyncio.sleep(1.0)
            os.kill(pid2, signal.SIGKILL)
            with pytest.raises(BrokenProcessPool):
                await thinking
            assert await pool.decide("gid", "greedy", "seat:gid", header, list(g.events)) in g.legal_actions()
            assert slot.started == 3
            # stopping ends a worker in the middle of a search at once
            busy = asyncio.ensure_future(pool.run(slot, time.sleep, 60))
            await asyncio.sleep(0.5)
            stopping = time.monotonic()
            pool.shutdown()
            with pytest.raises(BrokenProcessPool):
                await busy
            while slot.pid in {p.pid for p in multiprocessing.active_children()}:
                await asyncio.sleep(0.05)
            assert time.monotonic() - stopping < 10
        finally:
            pool.shutdown()
    asyncio.run(main())


def test_each_level_is_offered_with_its_ladder_elo(monkeypatch):
    en, de, hu = translator("en"), translator("de"), translator("hu")
    assert levels.level_label("Expert", {"elo": 1450, "error": 40}, en) == "Expert (Elo 1450 ± 40)"
    assert levels.level_label("Hard", {"elo": 1210.4}, en) == "Hard (Elo 1210)"
    assert levels.level_label("Easy", None, en) == "Easy"
    monkeypatch.setattr(levels, "published_elo", lambda path=None: {"expert": {"elo": 1450, "error": 40}})
    choices = levels.level_choices(en)
    assert [c["id"] for c in choices] == ["easy", "normal", "hard", "expert"]
    assert [c["label"] for c in choices] == ["Easy", "Normal", "Hard", "Expert (Elo 1450 ± 40)"]
    assert [c["id"] for c in choices if c["checked"]] == ["normal"]
    assert levels.level_choices(de)[-1]["label"] == "Experte (Elo 1450 ± 40)"
    assert levels.level_choices(hu)[-1]["label"].startswith("Szakértő (")
    # nothing published, or a ladder that cannot be read: the names alone
    monkeypatch.setattr(levels, "published_elo", lambda path=None: {})
    assert levels.level_choices(en)[-1]["label"] == "Expert"

    def broken(path=None):
        raise ValueError("bad file")
    monkeypatch.setattr(levels, "published_elo", broken)
    assert levels.level_choices(en)[-1]["label"] == "Expert"


def test_stopping_ends_a_worker_that_has_not_answered_yet():
    async def main():
        pool = ThinkingPool(processes=1, nice=0)
        slot = pool.slots[0]
        busy = asyncio.ensure_future(pool.run(slot, time.sleep, 60))
        await asyncio.sleep(0)          # submitted: the worker is starting, its id known
        pid = slot.pid
        assert pid is not None and pid in {p.pid for p in multiprocessing.active_children()}
        await asyncio.sleep(1.5)
        stopping = time.monotonic()
        pool.shutdown()
        with pytest.raises(BrokenProcessPool):
            await busy
        while pid in {p.pid for p in multiprocessing.active_children()}:
            await asyncio.sleep(0.05)
        assert time.monotonic() - stopping < 10
    asyncio.run(main())
