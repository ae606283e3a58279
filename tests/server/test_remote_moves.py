"""A process hearing of another's move does only what its own sockets need (Postgres).

* The legal actions are worked out only when the player to act has a socket in this
  process; the other sockets get an empty list, and the cached game is still brought
  forward (the next command here starts from it).
* Without the state or the legal actions to work out, a process whose cached game is
  not just before the move still delivers the announced events without reading.
* On the event loop the move is folded only when no command holds the game's lock
  (GameBusy: the caller waits for it in a worker thread).
* A move travels in its announcement only for a game another process has sockets on.
"""
from __future__ import annotations

import random
import threading

import pytest

from app.games.announce import parse_note
from app.games.remote import GameBusy
from app.games.service import GameService
from app.realtime.hub import Hub
from app.store.db import Database
from app.store.migrate import upgrade

from .helpers import TEST_GAME_SEED, service_match
from .test_round_trips import WireCounter, _move, _round_trips


def _two_processes(pg_url: str, seed: int):
    """A game both services have cached, and the announcement of one more move of it."""
    upgrade(pg_url)
    db = Database(pg_url)
    mover, users, gid = service_match(db)
    heard: list[str] = []
    mover.notify = heard.append
    other = GameService(db, game_seed=TEST_GAME_SEED)
    rng = random.Random(seed)
    other.get_game(gid, None)
    _move(mover, users, gid, rng)
    assert other.remote_change(parse_note(heard[-1]), False, False) is not None
    out = _move(mover, users, gid, rng)
    return db, users, gid, other, parse_note(heard[-1]), out


def _plays_here_only(service: GameService, user_id: int) -> None:
    """As the hub would answer with one socket here, this user's."""
    service.plays_here = lambda game, side: getattr(game, f"{side}_user_id", None) == user_id


def test_legal_actions_only_for_the_player_to_act_here(pg_url, tmp_path):
    db, users, gid, other, note, out = _two_processes(pg_url, 5)
    try:
        to_act = out["to_act"]
        waiting = "union" if to_act == "confederate" else "confederate"
        counter = WireCounter(db, tmp_path)
        before = counter.total()
        _plays_here_only(other, users[waiting].id)
        change = other.remote_change(note, False, True, wait=False)
        assert _round_trips(before, counter.total()) == 0
        assert change is not None and change.legal == {"union": [], "confederate": []}
        assert other.cached_state(gid).seq == out["seq"]  # brought forward all the same
        assert other.legal(gid, users[to_act])["actions"]  # ... and right: it has moves to offer
    finally:
        db.dispose()


def test_the_player_to_act_here_gets_its_legal_actions(pg_url):
    db, users, gid, other, note, out = _two_processes(pg_url, 6)
    try:
        to_act = out["to_act"]
        _plays_here_only(other, users[to_act].id)
        change = other.remote_change(note, False, True, wait=False)
        assert change is not None and change.legal is not None
        assert change.legal[to_act] == other.legal(gid, users[to_act])["actions"] != []
    finally:
        db.dispose()


def test_events_alone_need_no_cached_game_and_no_read(pg_url, tmp_path):
    db, users, gid, other, note, out = _two_processes(pg_url, 7)
    try:
        other.drop_cache(gid)
        to_act = out["to_act"]
        waiting = "union" if to_act == "confederate" else "confederate"
        counter = WireCounter(db, tmp_path)
        before = counter.total()
        _plays_here_only(other, users[waiting].id)
        change = other.remote_change(note, False, True)
        assert _round_trips(before, counter.total()) == 0
        assert change is not None and [e["seq"] for e in change.events] == [e["seq"] for e in out["events"]]
        # the player to act is here after all: without the cached game it reads the table
        _plays_here_only(other, users[to_act].id)
        assert other.remote_change(note, False, True) is None
    finally:
        db.dispose()


def test_on_the_loop_a_held_game_lock_is_not_waited_for(pg_url):
    db, users, gid, other, note, out = _two_processes(pg_url, 8)
    try:
        held, release = threading.Event(), threading.Event()

        def command() -> None:
            with other._lock(gid):
                held.set()
                release.wait(10)

        t = threading.Thread(target=command)
        t.start()
        held.wait(10)
        with pytest.raises(GameBusy):
            other.remote_change(note, False, False, wait=False)
        release.set()
        t.join()
        change = other.remote_change(note, False, False, wait=False)
        assert change is not None and change.last_seq == out["seq"]
    finally:
        db.dispose()


def test_the_move_goes_along_only_to_a_game_another_process_watches(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/hub.sqlite3")
    hub = Hub(GameService(db), "postgres", "postgresql://unused")
    hub._announcer = threading.Thread()  # started by start_fanout; only its queue is looked at here
    hub.notify_threadsafe("g1:8:p1:3\n{}")
    assert hub._announcements.get_nowait() == "g1:8:p1:3"
    hub.remote["g1"] = {"p2": (1, (), 0.0)}
    hub.notify_threadsafe("g1:9:p1:3\n{}")
    assert hub._announcements.get_nowait() == "g1:9:p1:3\n{}"
    db.dispose()
