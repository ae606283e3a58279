"""Blocking work called from async code (GameService.call: docs/architecture.md, "Where
blocking work runs"), on each database, with a command that is slow to get its answer:

- a caller cancelled while its command runs stays cancelled, even when the command then
  fails (a refused move): asyncio's timeouts and task groups count on that;
- a caller whose coroutine is closed halfway (a socket's handler torn down) leaves the
  game's lock and its pooled connection free once the command has ended;
- a command that waits for a pooled connection, all of them busy in other threads,
  does not stop the event loop: every other socket is still served meanwhile."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlalchemy import text

from app.core.errors import ApiError
from app.store.db import Database
from app.store.migrate import upgrade

from .helpers import service_match

SLOW_S = 0.3  # how long the database takes to answer the slow statement
HOLD_S = 0.5  # how long other threads keep every pooled connection
MAX_LAG_S = 0.05  # the longest the loop may stand still (a socket waits that long at most)


@pytest.fixture
def match(db_url):
    """A game service (two pooled connections) with a started game: (service, users, id)."""
    upgrade(db_url)
    svc, users, gid = service_match(Database(db_url, pool_size=2))
    yield svc, users, gid
    svc.db.dispose()


def _slow_statement(s, seconds: float) -> None:
    """A statement the database answers after `seconds` (SQLite: a function of ours)."""
    if s.dialect.name == "sqlite":
        s.connection.dbapi_connection.create_function("pg_sleep", 1, time.sleep)
    s.execute(text("SELECT pg_sleep(:seconds)"), {"seconds": seconds})


async def _eventually(check, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def _game_free(svc, gid: str) -> bool:
    """Whether the game's lock can be taken now (taken and given back at once)."""
    lock = svc._lock(gid)
    if not lock.acquire(blocking=False):
        return False
    lock.release()
    return True


async def test_a_caller_cancelled_during_a_refused_command_ends_cancelled(match):
    svc, users, gid = match

    def refuse(s, game):
        _slow_statement(s, SLOW_S)
        raise ApiError(409, "refused after a slow read", "refused")

    task = asyncio.create_task(svc.call(svc.run_command, gid, refuse))
    await asyncio.sleep(SLOW_S / 3)
    assert not task.done(), "the command ended before its caller could be cancelled: it stopped the loop"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()
    # the command itself ran to its end: the game is free again, no connection kept
    assert await _eventually(lambda: _game_free(svc, gid))
    assert await _eventually(lambda: svc.db.engine.pool.checkedout() == 0)


async def test_a_move_whose_caller_is_closed_halfway_frees_the_game_and_its_connection(match):
    svc, users, gid = match
    game = svc.get_game(gid, None)
    user = users[game["to_act"]]
    action = svc.legal(gid, user)["actions"][0]
    # another writer (an administrator's change, another process) holds the game's row
    # for a moment: the move's append waits for it
    row_taken, writer_done = threading.Event(), threading.Event()

    def other_writer() -> None:
        with svc.db.read() as s:
            s.execute(text("UPDATE games SET seq = seq WHERE id = :gid"), {"gid": gid})
            row_taken.set()
            time.sleep(SLOW_S)
            s.rollback()
        writer_done.set()

    threading.Thread(target=other_writer).start()
    assert await asyncio.to_thread(row_taken.wait, 5)
    call = svc.call(svc.act, user, gid, action, game["seq"])
    try:
        call.send(None)  # the move starts, and waits for the row
    except StopIteration:
        pytest.fail("the move ran to its end on the event loop before its caller could go on")
    await asyncio.sleep(SLOW_S / 3)
    assert not _game_free(svc, gid), "the move should hold the game's lock while it waits"
    call.close()
    assert await asyncio.to_thread(writer_done.wait, 5)
    assert await _eventually(lambda: _game_free(svc, gid)), "the game's lock is still held"
    assert await _eventually(lambda: svc.db.engine.pool.checkedout() == 0), "a pooled connection is still held"
    # the move was made once, and the game takes the next one
    after = svc.get_game(gid, None)
    assert after["seq"] > game["seq"]
    mover = users[after["to_act"]]
    nxt = svc.legal(gid, mover)["actions"][0]
    out = await asyncio.wait_for(svc.call(svc.act, mover, gid, nxt, after["seq"]), 5)
    assert out["seq"] > after["seq"]


async def test_the_loop_keeps_going_while_a_command_waits_for_a_connection_held_by_threads(match):
    svc, users, gid = match
    pool = svc.db.engine.pool
    capacity = pool.size() + pool._max_overflow  # every connection the pool may open
    all_held = threading.Barrier(capacity + 1)
    release = threading.Event()

    def hold_a_connection() -> None:
        with svc.db.read() as s:
            s.execute(text("SELECT 1"))
            all_held.wait()
            release.wait(10)

    holders = [threading.Thread(target=hold_a_connection) for _ in range(capacity)]
    for t in holders:
        t.start()
    try:
        await asyncio.to_thread(all_held.wait, 10)
        assert pool.checkedout() == capacity
        threading.Timer(HOLD_S, release.set).start()
        started = time.monotonic()
        seq, lag = await _longest_stall_while(svc.call(svc.run_command, gid, lambda s, game: game.seq))
        assert time.monotonic() - started >= HOLD_S * 0.9, "the command did not wait for a connection"
        assert seq == svc.get_game(gid, None)["seq"]
        assert lag < MAX_LAG_S, f"the event loop stood still for {lag * 1000:.0f} ms"
    finally:
        release.set()
        for t in holders:
            t.join(10)
    assert pool.checkedout() == 0


async def _longest_stall_while(coro) -> tuple[object, float]:
    """coro's result and the longest the loop stood still meanwhile (a 5 ms ticker's
    longest delay beyond its sleep)."""
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    longest = 0.0

    async def ticker() -> None:
        nonlocal longest
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.005)
            longest = max(longest, loop.time() - before - 0.005)

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)  # the ticker is running before the command starts
    try:
        result = await coro
    finally:
        done.set()
        await ticking
    return result, longest


@pytest.fixture
def pg_match(pg_url):
    upgrade(pg_url)
    svc, users, gid = service_match(Database(pg_url))
    yield svc, users, gid
    svc.db.dispose()


async def test_a_move_is_worked_out_for_its_sockets_while_its_commit_is_on_the_way(pg_match):
    svc, users, gid = pg_match
    svc.loop = asyncio.get_running_loop()  # as the hub sets it when it starts
    svc.wants = lambda game_id: (True, True)
    seen: list[tuple[str, object, bool]] = []
    svc.prepare_change = lambda change: seen.append(("prepared", change, threading.current_thread().name))
    svc.on_change = lambda change: seen.append(("published", change, threading.current_thread().name))
    game = svc.get_game(gid, None)
    user = users[game["to_act"]]
    action = svc.legal(gid, user)["actions"][0]
    # another writer holds the game's row a moment: the commit surely takes longer than
    # the loop takes to start on the change
    row_taken = threading.Event()

    def other_writer() -> None:
        with svc.db.read() as s:
            s.execute(text("UPDATE games SET seq = seq WHERE id = :gid"), {"gid": gid})
            row_taken.set()
            time.sleep(0.1)
            s.rollback()

    threading.Thread(target=other_writer).start()
    assert await asyncio.to_thread(row_taken.wait, 5)
    out = await svc.call(svc.act, user, gid, action, game["seq"])
    # the loop worked out the change (legal actions, state) while the worker thread
    # waited for the commit, and that very change was published after it
    assert [(what, where) for what, _, where in seen] == [("prepared", "MainThread"), ("published", "hd-worker-0")]
    assert seen[0][1] is seen[1][1]
    change = seen[1][1]
    assert change.last_seq == out["seq"] and change.state_json is not None
    assert change.legal[out["to_act"]] == svc.legal(gid, users[out["to_act"]])["actions"]


async def test_a_move_whose_append_loses_a_race_publishes_only_what_was_committed(pg_match):
    svc, users, gid = pg_match
    svc.loop = asyncio.get_running_loop()
    published: list = []
    svc.on_change = published.append
    game = svc.get_game(gid, None)
    user = users[game["to_act"]]
    action = svc.legal(gid, user)["actions"][0]
    # another process appends first: the cached games row is one seq behind the table
    with svc.db.write() as s:
        s.execute(text("UPDATE games SET seq = seq + 1 WHERE id = :gid"), {"gid": gid})
        s.execute(text("INSERT INTO game_events (game_id, seq, source, type, actor, payload, created_at) "
                       "SELECT id, seq, 'server', 'note', NULL, '{}', now() FROM games WHERE id = :gid"),
                  {"gid": gid})
        s.commit()
    out = await svc.call(svc.act, user, gid, action)
    # the first try was refused by the table; nothing of it went out, the retry did
    assert [c.last_seq for c in published] == [out["seq"]]
    assert out["seq"] == game["seq"] + 1 + len(published[0].events)
