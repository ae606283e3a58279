"""The expert level on the site: the expert and the hard level finish a game against each
other through the site's command path, the computer thinks in worker processes that may
die and are replaced, the lobby shows each level's ladder Elo, and the expert's
evaluation of a game is given only once it is over (cached, 409 during play, 404 for an
unknown game)."""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from pathlib import Path

import httpx

from app.computer.analysis import Analyses
from app.computer.players import ComputerPlayers
from app.computer.pool import ThinkingPool
from app.games.service import GameService
from app.store.db import Database
from app.store.migrate import upgrade

from .helpers import TEST_GAME_SEED, Player, events
from .test_computer import FAST, SCENARIO, cpu_server, vs_computer, wait_for_me  # noqa: F401 (a fixture)


# ------------------------------------------------------------------ expert against hard
async def _computers_play(db_url: str, timeout: float) -> tuple:
    db = Database(db_url)
    svc = GameService(db, game_seed=TEST_GAME_SEED)
    players = ComputerPlayers(svc, delay_seconds=0, sweep_seconds=0.5, pool=ThinkingPool(2, nice=10))
    await players.start()
    try:
        # no route seats two computers: the game is created in the service, as the lobby's
        # route does with one computer, and both seats then move through GameService.act
        gid = (await asyncio.to_thread(svc.create_game, players.users["expert"], SCENARIO, [], "union", "live",
                                       False, opponent=players.users["hard"]))["id"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            g = await asyncio.to_thread(svc.get_game, gid, None)
            if g["status"] != "active":
                break
            await asyncio.sleep(0.2)
        analysis = Analyses(players)
        first, again = await analysis.curve(gid), await analysis.curve(gid)
        return svc, players, gid, g, first, again, analysis.computed
    finally:
        await players.stop()


def test_the_expert_and_the_hard_level_finish_a_game(db_url):
    upgrade(db_url)
    started = time.monotonic()
    svc, players, gid, g, first, again, computed = asyncio.run(_computers_play(db_url, timeout=240))
    took = time.monotonic() - started
    try:
        assert g["status"] == "finished", g
        assert g["result"]["winner"] in ("union", "confederate")
        assert g["seats"]["union"]["username"] == "Computer (expert)"
        assert g["seats"]["confederate"]["username"] == "Computer (hard)"
        evs = svc.events(gid)["events"]
        # each seat's decisions are recorded as that side's actions, like a person's
        actors = {e["actor"] for e in evs if e["source"] == "engine" and e["type"] == "action"}
        assert actors == {"union", "confederate"}
        # the evaluation of the finished game: worked out once, then kept
        assert first["cached"] is False and again["cached"] is True and computed == 1
        assert first["points"] == again["points"] and len(first["points"]) >= 5
        assert first["points"][-1]["union"] == (1.0 if g["result"]["winner"] == "union" else 0.0)
        print(f"\nexpert against hard, {SCENARIO}: {len(evs)} events in {took:.1f} s")
    finally:
        svc.db.dispose()


# ------------------------------------------------------------------ the analysis endpoint
def test_the_evaluation_is_given_once_the_game_is_over(cpu_server):  # noqa: F811
    p = Player(cpu_server.base)
    stranger = httpx.Client(base_url=cpu_server.base, timeout=60)
    # the person plays the Confederacy: a random Union can lose within a turn or two
    gid = vs_computer(p, "easy", side="confederate")["id"]
    lg = wait_for_me(p, gid)
    # during play: nobody gets it, not even the player (it would help them)
    for client in (p.http, stranger):
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 409 and r.json()["code"] == "game_in_progress", r.text
        assert "once it is over" in r.json()["detail"]
    rng = random.Random(3)
    for _ in range(40):  # a few turns, so that the curve has several points
        r = p.act(gid, rng.choice(lg["actions"]), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
        lg = wait_for_me(p, gid)
        if not lg["actions"]:
            break
    assert p.http.post(f"/api/games/{gid}/resign").status_code == 200
    r = stranger.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200, r.text
    curve = r.json()
    assert curve["cached"] is False and curve["level"] == "expert" and curve["status"] == "finished"
    points = curve["points"]
    assert len(points) >= 2 and points == sorted(points, key=lambda q: q["at"])
    seqs = {e["seq"]: e for e in events(cpu_server.base, gid)}
    for q in points:
        assert 0.0 <= q["union"] <= 1.0 and q["side"] in ("union", "confederate") and q["turn"] >= 1
        assert seqs[q["seq"]]["source"] == "engine"  # each point is a position of the stored log
    # kept: the second answer is the same curve, not worked out again
    again = p.http.get(f"/api/games/{gid}/analysis").json()
    assert again["cached"] is True and again["points"] == points
    r = stranger.get("/api/games/no-such-game/analysis")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    stranger.close()


def test_concurrent_requests_work_the_evaluation_out_once(cpu_server):  # noqa: F811
    p = Player(cpu_server.base)
    # the person plays the Confederacy: a random Union can lose within a turn or two
    gid = vs_computer(p, "easy", side="confederate")["id"]
    wait_for_me(p, gid)
    assert p.http.post(f"/api/games/{gid}/resign").status_code == 200

    async def ask_at_once() -> list[dict]:
        async with httpx.AsyncClient(base_url=cpu_server.base, timeout=60) as c:
            rs = await asyncio.gather(*[c.get(f"/api/games/{gid}/analysis") for _ in range(6)])
        return [r.json() for r in rs]
    answers = asyncio.run(ask_at_once())
    assert [a["cached"] for a in answers].count(False) == 1, answers
    assert all(a["points"] == answers[0]["points"] for a in answers)


# ------------------------------------------------------------------ worker processes
def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _computer_workers(server_pid: int) -> list[int]:
    """The server's spawned worker processes (not the multiprocessing resource tracker)."""
    found = []
    for child in _children(server_pid):
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in cmd:
            found.append(child)
    return found


def test_the_computer_thinks_in_lower_priority_workers_that_come_back_after_a_crash(cpu_server):  # noqa: F811
    p = Player(cpu_server.base)
    gid = vs_computer(p, "easy", side="confederate")["id"]
    lg = wait_for_me(p, gid)  # the computer (Union) has moved: its worker has started
    workers = _computer_workers(cpu_server.proc.pid)
    assert workers, "the computer did not think in a worker process"
    for pid in workers:
        # COMPUTER_NICE (10) lower than the server (19 is the lowest there is)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS,
                                                                              cpu_server.proc.pid) + 10)
        os.kill(pid, signal.SIGKILL)
    # the game goes on: the computer's next decision finds its worker dead, another one
    # is started and the move is made
    seq, rng = lg["seq"], random.Random(5)
    for _ in range(300):
        r = p.act(gid, rng.choice(lg["actions"]), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
        lg = wait_for_me(p, gid, timeout=90)
        union_moved = any(e["actor"] == "union" and e["type"] == "action"
                          for e in events(cpu_server.base, gid, after=seq) if e["source"] == "engine")
        if union_moved or not lg["actions"]:
            break
    assert union_moved, "the computer did not move after its worker died"
    assert set(_computer_workers(cpu_server.proc.pid)).isdisjoint(workers)


# ------------------------------------------------------------------ the lobby
def test_the_lobby_shows_each_levels_ladder_elo(tmp_path, make_server):
    ladder = tmp_path / "ladder.json"
    ladder.write_text(json.dumps({"elo": {"random": {"elo": 0, "error": 0}, "hard": {"elo": 1210, "error": 55},
                                          "expert": {"elo": 1450, "error": 40}}}))
    srv = make_server(f"sqlite:///{tmp_path / 'lobby.sqlite3'}", computer_ladder_file=str(ladder))
    p = Player(srv.base)
    html = p.http.get("/").text
    assert 'value="expert"' in html and "Expert (Elo 1450 ± 40)" in html and "Hard (Elo 1210 ± 55)" in html
    assert "Easy</label>" in html  # no rating measured: the name alone
    de = p.http.get("/", headers={"Accept-Language": "de"}).text
    assert "Experte (Elo 1450 ± 40)" in de
    # an expert opponent from the form's values
    g = vs_computer(p, "expert", side="confederate")
    assert g["seats"]["union"]["username"] == "Computer (expert)"
    assert wait_for_me(p, g["id"], timeout=120)["to_act"] == "confederate"
