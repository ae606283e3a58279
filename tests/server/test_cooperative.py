"""Commands run on the event loop hand their waits for Postgres to the loop
(app.store.cooperative): the loop keeps serving meanwhile, a lock two commands share is
taken in turn, a cancelled caller does not abandon a command half done, and errors reach
the command where it waited."""
from __future__ import annotations

import asyncio
import os
import threading
import time

import psycopg
import pytest
from sqlalchemy import text

from app.store import cooperative
from app.store.db import Database

SLEEP_S = 0.3


@pytest.fixture
def db(pg_url):
    database = Database(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    yield database
    database.dispose()


async def _ticks_while(coro) -> tuple[object, int]:
    """coro's result and how often a 10 ms ticker ran on the loop meanwhile."""
    ticks = 0
    done = asyncio.Event()

    async def ticker():
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(0.01)
            ticks += 1

    t = asyncio.create_task(ticker())
    try:
        result = await coro
    finally:
        done.set()
        await t
    return result, ticks


def _slow_query(db: Database) -> int:
    with db.read() as s:
        return s.execute(text(f"SELECT 7 FROM pg_sleep({SLEEP_S})")).scalar_one()


async def test_the_loop_keeps_serving_while_a_command_waits_for_postgres(db):
    result, ticks = await _ticks_while(cooperative.run(_slow_query, db))
    assert result == 7
    assert ticks >= 10, f"the loop ran {ticks} times in {SLEEP_S} s: the command blocked it"


async def test_the_same_code_outside_a_command_waits_in_place(db):
    # the contrast that shows the test above measures something: called directly on the
    # loop, the same query stops it for the whole wait
    async def direct():
        return _slow_query(db)

    result, ticks = await _ticks_while(direct())
    assert result == 7
    assert ticks <= 1


async def test_two_commands_take_a_shared_lock_in_turn_and_the_loop_goes_on(db):
    lock = threading.Lock()
    order: list[str] = []

    def command(name: str) -> str:
        cooperative.acquire(lock)
        try:
            order.append(f"{name} in")
            _slow_query(db)
            order.append(f"{name} out")
        finally:
            lock.release()
        return name

    started = time.monotonic()
    results, ticks = await _ticks_while(asyncio.gather(cooperative.run(command, "a"), cooperative.run(command, "b")))
    assert results == ["a", "b"]
    assert order == ["a in", "a out", "b in", "b out"]
    assert time.monotonic() - started >= 2 * SLEEP_S
    assert ticks >= 20


async def test_a_lock_held_by_a_worker_thread_is_waited_for_without_stopping_the_loop(db):
    lock = threading.Lock()
    lock.acquire()
    threading.Timer(SLEEP_S, lock.release).start()

    def command() -> str:
        cooperative.acquire(lock)
        lock.release()
        return "took it"

    result, ticks = await _ticks_while(cooperative.run(command))
    assert result == "took it"
    assert ticks >= 10


async def test_a_cancelled_caller_does_not_abandon_its_command(db):
    with db.write() as s:
        s.execute(text("CREATE TABLE written (n int)"))
        s.commit()

    def command() -> None:
        with db.write() as s:
            s.execute(text(f"SELECT pg_sleep({SLEEP_S})"))
            s.execute(text("INSERT INTO written VALUES (1)"))
            s.commit()

    task = asyncio.create_task(cooperative.run(command))
    await asyncio.sleep(SLEEP_S / 3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # the command ran to its end (its commit is there) before the cancellation was raised
    with db.read() as s:
        assert s.execute(text("SELECT count(*) FROM written")).scalar_one() == 1
    # and the connection it used went back to the pool fit for use
    assert await cooperative.run(_slow_query, db) == 7


async def test_a_database_error_reaches_the_command_where_it_waited(db):
    def command() -> str:
        with db.read() as s:
            raw = s.connection.dbapi_connection
            try:
                raw.execute("SELECT no_such_column FROM pg_class")
            except psycopg.errors.UndefinedColumn:
                raw.rollback()
                return "caught"
        return "not raised"

    assert await cooperative.run(command) == "caught"


async def test_an_error_the_command_raises_reaches_the_caller(db):
    def command() -> None:
        _slow_query(db)
        raise LookupError("refused")

    with pytest.raises(LookupError, match="refused"):
        await cooperative.run(command)


async def test_a_pause_in_a_command_lets_the_loop_go_on():
    def command() -> str:
        cooperative.pause(SLEEP_S)
        return "rested"

    result, ticks = await _ticks_while(cooperative.run(command))
    assert result == "rested"
    assert ticks >= 10


def _postgres_match(url: str):
    """A game service on a migrated Postgres database and a started game (alice: union)."""
    from app.store.migrate import upgrade

    from .helpers import service_match

    upgrade(url)
    return service_match(Database(url))


async def test_a_move_is_worked_out_for_its_sockets_while_its_commit_is_on_the_way(pg_url):
    svc, users, gid = _postgres_match(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    svc.wants = lambda game_id: (True, True)
    seen: list[tuple[str, object]] = []
    svc.prepare_change = lambda change: seen.append(("prepared", change))
    svc.on_change = lambda change: seen.append(("published", change))
    try:
        game = svc.get_game(gid, None)
        user = users[game["to_act"]]
        action = svc.legal(gid, user)["actions"][0]
        out = await svc.call(svc.act, user, gid, action, game["seq"])
        # the change was worked out (legal actions, state) before the commit answered,
        # and that very change was published after it, with the committed seq
        assert [what for what, _ in seen] == ["prepared", "published"]
        assert seen[0][1] is seen[1][1]
        change = seen[1][1]
        assert change.last_seq == out["seq"] and change.state_json is not None
        assert change.legal[out["to_act"]] == svc.legal(gid, users[out["to_act"]])["actions"]
    finally:
        svc.db.dispose()


async def test_a_move_whose_append_loses_a_race_publishes_only_what_was_committed(pg_url):
    svc, users, gid = _postgres_match(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    published: list = []
    svc.on_change = published.append
    try:
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
    finally:
        svc.db.dispose()


async def test_a_pipeline_on_a_connection_numbered_above_1023_waits_on_the_loop(db):
    # a server with a thousand sockets open has database connections whose descriptor
    # select() refuses; a pipeline waits to write as well as to read
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this machine allows only {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200) if hard == resource.RLIM_INFINITY
                                                else min(max(soft, 1200), hard), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        def command() -> list[int]:
            with db.write() as s:
                raw = s.connection.dbapi_connection
                assert raw.pgconn.socket > 1023
                with raw.pipeline():
                    first = raw.execute(f"SELECT 1 FROM pg_sleep({SLEEP_S})")
                    second = raw.execute("SELECT 2")
                rows = [first.fetchone()[0], second.fetchone()[0]]
                s.rollback()
                return rows

        result, ticks = await _ticks_while(cooperative.run(command))
        assert result == [1, 2]
        assert ticks >= 10
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
