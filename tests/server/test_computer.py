"""Games against the computer: created with a computer seat, the computer moves through
the same command path as a person, resumes after a restart, gives hints only in games
against it, and can take over a seat its player left."""
from __future__ import annotations

import random
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.core.config import normalize_database_url

from .conftest import need_postgres
from .helpers import TEST_GAME_SEED, Player, ServerProc, events, new_match

SCENARIO = "1861-short"
FAST = dict(game_seed=TEST_GAME_SEED, computer_delay_seconds=0, computer_sweep_seconds=0.5,
            live_abandon_minutes=0)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def cpu_server(request, tmp_path_factory, pg_databases):
    if request.param == "postgres":
        need_postgres()
        url = pg_databases.create()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'cpu.sqlite3'}"
    srv = ServerProc(url, log_dir=tmp_path_factory.mktemp("logs"), **FAST).start()
    yield srv
    srv.stop()


def sql(server: ServerProc, query: str, **params) -> list:
    engine = create_engine(normalize_database_url(server.database_url))
    try:
        with engine.connect() as c:
            return [tuple(r) for r in c.execute(text(query), params).all()]
    finally:
        engine.dispose()


def vs_computer(p: Player, level: str = "easy", side: str = "union", **extra) -> dict:
    r = p.http.post("/api/games", json={"scenario": SCENARIO, "side": side, "opponent": {"computer": level},
                                        **extra})
    assert r.status_code == 201, r.text
    return r.json()


def wait_for_me(p: Player, gid: str, timeout: float = 60) -> dict:
    """The caller's legal actions once the game waits for them (or is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lg = p.legal(gid)
        if lg["actions"] or p.game(gid)["status"] != "active":
            return lg
        time.sleep(0.02)
    raise AssertionError(f"the computer did not move in game {gid}")


def test_a_whole_game_against_the_computer(cpu_server):
    p = Player(cpu_server.base)
    g = vs_computer(p, "easy", side="confederate")
    gid = g["id"]
    assert g["status"] == "active" and g["seats"]["union"]["username"] == "Computer (easy)"
    assert g["seats"]["union"]["computer"] is True and g["seats"]["confederate"]["computer"] is False
    rng = random.Random(7)
    for _ in range(2000):
        lg = wait_for_me(p, gid)
        if not lg["actions"]:
            break
        r = p.act(gid, rng.choice(lg["actions"]), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
    final = p.game(gid)
    assert final["status"] == "finished" and final["result"]["winner"] in ("union", "confederate")
    evs = events(cpu_server.base, gid)
    # the computer's decisions are recorded as the Union seat's actions, like a person's
    assert any(e["source"] == "engine" and e["actor"] == "union" for e in evs)
    assert any(e["source"] == "engine" and e["actor"] == "confederate" for e in evs)
    # nobody reads the computer's notices: none are written for it, the person got theirs
    counts = dict(sql(cpu_server, "SELECT u.kind, count(*) FROM notices n JOIN users u ON u.id = n.user_id "
                                  "WHERE n.game_id = :g GROUP BY u.kind", g=gid))
    assert "computer" not in counts and counts.get("person", 0) > 0


def test_bad_computer_requests_are_refused(cpu_server):
    p = Player(cpu_server.base)
    r = p.http.post("/api/games", json={"scenario": SCENARIO, "opponent": {"computer": "godlike"}})
    assert r.status_code == 422 and "expert" in r.text  # the levels offered are named
    r = p.http.post("/api/games", json={"scenario": SCENARIO, "rated": True, "opponent": {"computer": "hard"}})
    assert r.status_code == 422 and "casual" in r.json()["detail"]
    assert p.http.get("/api/games?view=mine").json()["games"] == []


def test_hints_only_in_games_against_the_computer(cpu_server):
    p = Player(cpu_server.base)
    gid = vs_computer(p, "easy", side="union")["id"]
    lg = wait_for_me(p, gid)
    r = p.http.get(f"/api/games/{gid}/hint")
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["level"] == "expert" and hint["seq"] == lg["seq"] and hint["action"] in lg["actions"]
    stranger = Player(cpu_server.base)
    assert stranger.http.get(f"/api/games/{gid}/hint").json()["code"] == "not_a_player"
    a, b, people = new_match(cpu_server.base, scenario=SCENARIO)
    r = a.http.get(f"/api/games/{people}/hint")
    assert r.status_code == 403 and r.json()["code"] == "hint_refused"


def test_the_computer_takes_over_a_seat_left_in_a_live_game(cpu_server):
    a, b, gid = new_match(cpu_server.base, scenario=SCENARIO)
    assert a.game(gid)["to_act"] == "union"
    # the player to act cannot hand their waiting opponent's seat over
    r = a.http.post(f"/api/games/{gid}/computer-takeover", json={"level": "easy"})
    assert r.status_code == 409 and r.json()["code"] == "not_abandoned"
    assert Player(cpu_server.base).http.post(f"/api/games/{gid}/computer-takeover").status_code == 403
    r = b.http.post(f"/api/games/{gid}/computer-takeover", json={"level": "expert"})
    assert r.status_code == 200, r.text
    g = b.game(gid)
    assert g["seats"]["union"]["username"] == "Computer (expert)"
    assert a.legal(gid)["your_sides"] == []  # the player who left has no seat any more
    wait_for_me(b, gid)
    assert any(e["type"] == "computer_takeover" for e in events(cpu_server.base, gid))


def test_the_computer_resumes_after_a_restart(tmp_path, make_server):
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    slow = make_server(url, game_seed=TEST_GAME_SEED, computer_delay_seconds=600)
    p = Player(slow.base)
    gid = vs_computer(p, "easy", side="confederate")["id"]
    seq = p.game(gid)["seq"]
    time.sleep(0.3)
    assert p.game(gid)["seq"] == seq  # still thinking (a long delay)
    slow.kill()
    fast = make_server(url, game_seed=TEST_GAME_SEED, computer_delay_seconds=0)
    p.base = fast.base
    p.http = httpx.Client(base_url=fast.base, headers={"Authorization": f"Bearer {p.token}"}, timeout=30)
    lg = wait_for_me(p, gid)
    assert lg["seq"] > seq and lg["to_act"] == "confederate"


def test_the_computer_takes_over_when_the_time_to_move_is_up(srv, clock):
    a, b = Player(srv.base), Player(srv.base)
    r = a.http.post("/api/games", json={"scenario": SCENARIO, "side": "union", "mode": "async", "days_per_move": 1})
    gid = r.json()["id"]
    assert b.join(gid).status_code == 200
    r = b.http.post(f"/api/games/{gid}/computer-takeover", json={"level": "easy"})
    assert r.status_code == 409 and "time to move is not up" in r.json()["detail"]
    clock.advance(25 * 3600)
    seq = b.game(gid)["seq"]
    r = b.http.post(f"/api/games/{gid}/computer-takeover", json={"level": "easy"})
    assert r.status_code == 200, r.text
    assert r.json()["side"] == "union" and r.json()["computer"] == "Computer (easy)"
    assert b.http.post(f"/api/games/{gid}/computer-takeover").json()["code"] == "already_computer"
    lg = wait_for_me(b, gid)  # the computer finishes the Union's turn; the game waits for b again
    assert lg["seq"] > seq + 1 and lg["actions"]
    assert b.http.post(f"/api/games/{gid}/claim").status_code == 409  # nobody to claim against now


def test_a_rematch_against_the_computer_seats_it_at_once(cpu_server):
    p = Player(cpu_server.base)
    gid = vs_computer(p, "easy", "union")["id"]
    wait_for_me(p, gid)
    assert p.http.post(f"/api/games/{gid}/resign").status_code == 200
    r = p.http.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 200, r.text
    again = p.game(r.json()["id"])
    # sides swapped, and the computer already in its seat: the game has started
    assert again["status"] == "active"
    assert again["seats"]["union"]["username"] == "Computer (easy)"
    assert again["seats"]["confederate"]["username"] == p.username
