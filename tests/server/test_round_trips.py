"""What a move costs the database, and several processes sharing one game.

* On Postgres a move (with the game's state cached) is one round trip: the guarded
  UPDATE, the INSERTs and COMMIT go out as one statement (or one pipeline with one
  Sync), and no ping precedes it (counted on the wire with libpq's protocol trace).
* An append from a stale version (another process appended first) writes nothing.
* Two services on one database (two worker processes) that take turns moving in the
  same game: each brings its cached game forward by the events the other appended,
  without ever replaying the whole game, and both end where a fresh replay ends.
* A process that hears of another's move (the announcement carries the move) delivers
  it and brings its cached game forward without reading the table, and its own next
  move is again one round trip; a move too big to announce is announced by its seq.
* A pooled connection is pinged only after sitting idle; a dead one is replaced.
"""
from __future__ import annotations

import json
import random

import psycopg
import pytest
from sqlalchemy import event, text

from app.games.announce import NOTIFY_LIMIT, announcement, parse_note
from app.games.service import GameService
from app.models import utcnow
from app.store import db as db_module
from app.store.db import Database
from app.store.events import MUTABLE, EventRec, Stale, load_game
from app.store.events import append as store_append
from app.store.migrate import upgrade

from .helpers import TEST_GAME_SEED, service_match


def _move(svc: GameService, users: dict, gid: str, rng: random.Random) -> dict:
    g = svc.get_game(gid, None)
    user = users[g["to_act"]]
    return svc.act(user, gid, rng.choice(svc.legal(gid, user)["actions"]), g["seq"])


class WireCounter:
    """Counts what the client sends to Postgres on every pooled connection: a round trip
    is one Sync (extended protocol) or one simple Query."""

    def __init__(self, db: Database, folder):
        self.files: list = []
        self.traced: set[int] = set()
        self.folder = folder
        event.listen(db.engine, "checkout", self._trace)

    def _trace(self, dbapi_conn, _record, _proxy) -> None:
        pgconn = dbapi_conn.pgconn
        if id(pgconn) in self.traced:
            return
        self.traced.add(id(pgconn))
        f = open(self.folder / f"trace{len(self.files)}.txt", "w")  # noqa: SIM115 (closed in total)
        self.files.append(f)
        pgconn.trace(f.fileno())
        pgconn.set_trace_flags(1)  # no timestamps

    def total(self) -> dict[str, int]:
        counts = {"Sync": 0, "Query": 0, "Parse": 0, "Bind": 0}
        for f in self.files:
            f.flush()
            for line in open(f.name).read().splitlines():
                parts = line.split("\t")
                if len(parts) >= 3 and parts[0] == "F" and parts[2].split(" ")[0] in counts:
                    counts[parts[2].split(" ")[0]] += 1
        return counts


def test_a_move_on_postgres_is_one_round_trip(pg_url, tmp_path):
    upgrade(pg_url)
    db = Database(pg_url)
    try:
        svc, users, gid = service_match(db)
        rng = random.Random(3)
        for _ in range(3):  # warm: the state and the games row are cached
            _move(svc, users, gid, rng)
        counter = WireCounter(db, tmp_path)
        g = svc.get_game(gid, None)
        user = users[g["to_act"]]
        action = rng.choice(svc.legal(gid, user)["actions"])
        before = counter.total()
        out = svc.act(user, gid, action, g["seq"])
        after = counter.total()
        assert out["seq"] > g["seq"]
        round_trips = (after["Sync"] - before["Sync"]) + (after["Query"] - before["Query"])
        assert round_trips == 1, (before, after)
        with db.read() as s:  # committed: another connection sees the move, its events and its command
            assert s.execute(text("SELECT seq FROM games WHERE id = :g"), {"g": gid}).scalar() == out["seq"]
            assert s.execute(text("SELECT max(seq) FROM game_events WHERE game_id = :g"),
                             {"g": gid}).scalar() == out["seq"]
            assert s.execute(text("SELECT last_seq FROM game_commands WHERE game_id = :g AND first_seq = :f"),
                             {"g": gid, "f": g["seq"] + 1}).scalar() == out["seq"]
    finally:
        db.dispose()


def test_a_stale_append_changes_nothing(pg_url):
    upgrade(pg_url)
    db = Database(pg_url)
    try:
        svc, users, gid = service_match(db)
        rng = random.Random(5)
        _move(svc, users, gid, rng)
        with db.read() as s:
            row = load_game(s, gid, hot=True)
            counts = s.execute(text("SELECT (SELECT count(*) FROM game_events WHERE game_id = :g), "
                                    "(SELECT count(*) FROM game_commands WHERE game_id = :g)"), {"g": gid}).one()
        behind = row.seq - 1
        mutable = {c: getattr(row, c) for c in MUTABLE}
        mutable["seq"] = behind + 1
        late = [EventRec(behind + 1, "server", "note", None, {"text": "late"}, utcnow())]
        command = {"game_id": gid, "first_seq": behind + 1, "last_seq": behind + 1, "created_at": utcnow(),
                   "kind": "note", "action_id": "late-1", "body": None, "side": None, "user_id": None}
        with db.write() as s, pytest.raises(Stale):
            store_append(s, False, gid, behind, mutable, late, command)
        with db.read() as s:  # nothing of it was written, and the connection is usable again
            assert s.execute(text("SELECT (SELECT count(*) FROM game_events WHERE game_id = :g), "
                                  "(SELECT count(*) FROM game_commands WHERE game_id = :g)"),
                             {"g": gid}).one() == counts
            assert load_game(s, gid).seq == row.seq
        assert _move(svc, users, gid, rng)["seq"] > row.seq
    finally:
        db.dispose()


@pytest.mark.parametrize("moves", [120])
def test_two_workers_take_turns_without_replaying(db_url, moves):
    upgrade(db_url)
    db = Database(db_url)
    try:
        first, users, gid = service_match(db)
        second = GameService(db, game_seed=TEST_GAME_SEED)
        rng = random.Random(7)
        workers = [first, second]
        for svc in workers:
            svc.get_game(gid, None)  # each has the game cached
        replays = [svc.replays for svc in workers]
        played = 0
        for i in range(moves):
            if _move(workers[i % 2], users, gid, rng)["status"] != "active":
                break
            played += 1
        assert played > 50
        assert [svc.replays for svc in workers] == replays  # brought forward, never replayed
        fresh = GameService(db, game_seed=TEST_GAME_SEED)
        want = json.dumps(fresh.get_game(gid, None)["state"], sort_keys=True)
        for svc in workers:
            assert json.dumps(svc.get_game(gid, None)["state"], sort_keys=True) == want
    finally:
        db.dispose()


def test_a_process_behind_reads_the_new_events_in_three_round_trips(pg_url, tmp_path):
    upgrade(pg_url)
    db = Database(pg_url)
    try:
        mover, users, gid = service_match(db)
        watcher = GameService(db, game_seed=TEST_GAME_SEED)
        rng = random.Random(9)
        seen = watcher.get_game(gid, None)["seq"]  # the watching process has the game cached
        for _ in range(6):  # warm: psycopg prepares a statement on its fifth use (one round trip, once)
            seen = _move(mover, users, gid, rng)["seq"]
            watcher.load_change(gid, seen - 1, True, True)
        out = _move(mover, users, gid, rng)
        counter = WireCounter(db, tmp_path)
        before, replays = counter.total(), watcher.replays
        change = watcher.load_change(gid, seen, True, True)
        after = counter.total()
        assert change is not None and change.first_seq == seen + 1 and change.last_seq == out["seq"]
        assert json.loads(change.state_json or "null") == mover.get_game(gid, None)["state"]
        assert watcher.replays == replays
        # the games row, the new events, the new commands' sides: no BEGIN, no ROLLBACK
        assert (after["Sync"] - before["Sync"]) + (after["Query"] - before["Query"]) == 3, (before, after)
    finally:
        db.dispose()


def _round_trips(before: dict, after: dict) -> int:
    return (after["Sync"] - before["Sync"]) + (after["Query"] - before["Query"])


def test_a_process_hearing_of_a_move_delivers_it_without_reading(pg_url, tmp_path):
    upgrade(pg_url)
    db = Database(pg_url)
    try:
        mover, users, gid = service_match(db)
        heard: list[str] = []
        mover.notify = heard.append  # what the hub would send on 'hd_events'
        other = GameService(db, game_seed=TEST_GAME_SEED)
        rng = random.Random(11)
        for _ in range(6):  # both processes move: each has the game and its row cached
            for svc in (mover, other):
                g = svc.get_game(gid, None)
                if heard and svc is other:
                    assert other.remote_change(parse_note(heard[-1]), True, True) is not None
                svc.act(users[g["to_act"]], gid, rng.choice(svc.legal(gid, users[g["to_act"]])["actions"]),
                        g["seq"])
            mover.get_game(gid, None)
        counter = WireCounter(db, tmp_path)
        g = mover.get_game(gid, None)
        user = users[g["to_act"]]
        out = mover.act(user, gid, rng.choice(mover.legal(gid, user)["actions"]), g["seq"])
        before, replays = counter.total(), other.replays
        change = other.remote_change(parse_note(heard[-1]), True, True)
        after = counter.total()
        assert _round_trips(before, after) == 0
        assert change is not None and change.last_seq == out["seq"] and other.replays == replays
        assert [e["seq"] for e in change.events] == [e["seq"] for e in out["events"]]
        assert json.loads(change.state_json or "null") == mover.get_game(gid, None)["state"]
        user = users[change.to_act]
        assert change.legal is not None and change.legal[change.to_act] == mover.legal(gid, user)["actions"]
        before = counter.total()  # the other process moves next, trusting the row it was told of
        nxt = other.act(user, gid, change.legal[change.to_act][0], out["seq"])
        assert nxt["seq"] > out["seq"] and _round_trips(before, counter.total()) == 1
    finally:
        db.dispose()


def test_an_append_stores_each_event_as_it_was_given(pg_url):
    """The events travel as one JSON document: each comes out of the table as it went
    in (a payload's text as json.dumps writes it, quotes, backslashes and accents too)."""
    upgrade(pg_url)
    db = Database(pg_url)
    try:
        svc, users, gid = service_match(db)
        with db.read() as s:
            row = load_game(s, gid, hot=True)
        mutable = {c: getattr(row, c) for c in MUTABLE} | {"seq": row.seq + 2}
        notes = [EventRec(row.seq + 1, "server", "note", None, {"text": 'say "\\ Richm\u00f3nd"', "n": [1, None]},
                          utcnow()),
                 EventRec(row.seq + 2, "server", "note", "union", {}, utcnow(), "prev")]
        with db.write() as s:
            store_append(s, False, gid, row.seq, mutable, notes, None)
        with db.read() as s:
            stored = s.execute(text("SELECT seq, source, type, actor, payload::text, created_at, prev_hash "
                                    "FROM game_events WHERE game_id = :g AND seq > :s ORDER BY seq"),
                               {"g": gid, "s": row.seq}).all()
        assert [tuple(r) for r in stored] == [(e.seq, e.source, e.type, e.actor, json.dumps(e.payload),
                                               e.created_at, e.prev_hash) for e in notes]
    finally:
        db.dispose()


def test_announcements_reach_a_listener_in_order_and_a_process_knows_its_own(pg_url, tmp_path):
    from app.realtime.hub import Hub
    from app.realtime.pg_fanout import EVENTS_CHANNEL, _send_notifications

    listener = psycopg.connect(pg_url.replace("+psycopg", ""), autocommit=True)
    sender = psycopg.connect(pg_url.replace("+psycopg", ""), autocommit=True)
    try:
        listener.execute(f"LISTEN {EVENTS_CHANNEL}")
        texts = ['g1:5:p1:1,2\n{"row":{"a":"Richm\u00f3nd \\"q\\""},"ev":[]}', "g2:6:p2:", "g3:7:p1:"]
        _send_notifications(sender, texts)  # several in one statement
        _send_notifications(sender, texts[1:2])  # one alone
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=4)]
        assert heard == texts + texts[1:2]
    finally:
        listener.close()
        sender.close()
    hub = Hub(GameService(Database(f"sqlite:///{tmp_path / 'hub.db'}")), "postgres")
    hub.service.proc_id = "p1"
    assert [hub._own_announcement(EVENTS_CHANNEL, t) for t in texts] == [True, False, True]
    assert not hub._own_announcement("hd_presence", "g1:p1:1:union")


def test_a_move_too_big_to_announce_is_announced_by_its_seq():
    now = utcnow()
    mutable = {c: None for c in MUTABLE} | {"seq": 8, "updated_at": now, "status": "active", "union_user_id": 3}
    small = [EventRec(8, "server", "note", None, {"text": "x"}, now)]
    note = parse_note(announcement("g1", "p1", mutable, small, None))
    move = note.move()
    assert (note.game_id, note.seq, note.proc, note.seated) == ("g1", 8, "p1", [3])
    assert move is not None and (move.first, move.row["updated_at"], move.events) == (8, now, small)
    big = [EventRec(8, "server", "note", None, {"text": "x" * NOTIFY_LIMIT}, now)]
    said = announcement("g1", "p1", mutable, big, None)
    assert said == "g1:8:p1:3"  # what older versions send, too
    assert parse_note(said).move() is None


def test_a_connection_idle_in_the_pool_is_pinged_and_replaced_when_dead(pg_url, monkeypatch):
    db = Database(pg_url)
    try:
        with db.read() as s:
            first = s.execute(text("SELECT pg_backend_pid()")).scalar()
        with db.read() as s:  # used a moment ago: no ping, the same connection
            assert s.execute(text("SELECT pg_backend_pid()")).scalar() == first
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
        monkeypatch.setattr(db_module, "PING_AFTER_IDLE_S", 0.0)  # as if it sat idle long enough
        with db.read() as s:  # the ping finds it dead: a fresh connection, no error
            assert s.execute(text("SELECT pg_backend_pid()")).scalar() != first
    finally:
        db.dispose()
