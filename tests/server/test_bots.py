"""The bot API: bot accounts and their tokens, challenges, the NDJSON account and game
streams, and the example bot finishing a game against the computer through a real server."""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time

import httpx
import pytest

from .conftest import need_postgres
from .helpers import ROOT, TEST_GAME_SEED, Player, ServerProc
from .replay_helpers import make_admin

SCENARIO = "1861-short"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def bot_server(request, tmp_path_factory, pg_databases):
    if request.param == "postgres":
        need_postgres()
        url = pg_databases.create()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'bots.sqlite3'}"
    srv = ServerProc(url, log_dir=tmp_path_factory.mktemp("logs"), game_seed=TEST_GAME_SEED,
                     computer_delay_seconds=0, bot_stream_poll_seconds=0.05).start()
    yield srv
    srv.stop()


def make_bot(base: str) -> tuple[Player, str]:
    """A new bot account and its bot token."""
    p = Player(base)
    assert p.http.post("/api/me/bot").status_code == 200
    r = p.http.post("/api/auth/tokens", json={"name": "bot", "scope": "bot"})
    assert r.status_code == 201, r.text
    return p, r.json()["token"]


class Lines:
    """An NDJSON stream read line by line (keep-alive lines skipped)."""

    def __init__(self, base: str, token: str, path: str):
        self.client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"},
                                   timeout=httpx.Timeout(10, read=15))
        self.cm = self.client.stream("GET", path)
        self.resp = self.cm.__enter__()
        self.it = self.resp.iter_lines()

    def next(self) -> dict:
        for line in self.it:
            if line.strip():
                return json.loads(line)
        raise AssertionError("the stream ended")

    def until(self, pred) -> dict:
        for _ in range(200):
            msg = self.next()
            if pred(msg):
                return msg
        raise AssertionError("no such message")

    def close(self):
        self.cm.__exit__(None, None, None)
        self.client.close()


def test_bot_accounts_and_tokens(bot_server):
    base = bot_server.base
    p = Player(base)
    r = p.http.post("/api/auth/tokens", json={"scope": "bot"})
    assert r.status_code == 403 and r.json()["code"] == "not_a_bot"
    assert p.http.get("/api/bot/stream/event").json()["code"] == "bot_token_required"
    bot, token = make_bot(base)
    assert bot.http.get("/api/auth/me").json()["bot"] is True
    # the bot's ordinary (login) token is not a bot token
    assert bot.http.get("/api/bot/stream/event").status_code == 403
    # an account that has played cannot make itself a bot; an administrator can
    played = Player(base)
    played.create(scenario=SCENARIO)
    r = played.http.post("/api/me/bot")
    assert r.status_code == 409 and r.json()["code"] == "already_played"
    admin = make_admin(bot_server)
    assert admin.http.post(f"/api/admin/users/{played.username}/bot").status_code == 200
    assert p.http.post(f"/api/admin/users/{played.username}/bot").status_code == 403
    assert played.http.get("/api/auth/me").json()["bot"] is True


def test_challenges_through_the_account_stream(bot_server):
    base = bot_server.base
    bot, token = make_bot(base)
    person = Player(base)
    r = person.http.post(f"/api/challenges/{bot.username}", json={"scenario": "1999"})
    assert r.status_code == 422
    assert person.http.post(f"/api/challenges/no-{bot.username}").status_code == 404
    events = Lines(base, token, "/api/bot/stream/event")
    try:
        first = person.http.post(f"/api/challenges/{bot.username}",
                                 json={"scenario": SCENARIO, "side": "union", "mode": "live"}).json()
        msg = events.until(lambda m: m["type"] == "challenge")
        assert msg["challenge"]["id"] == first["id"] and msg["challenge"]["challenger"] == person.username
        r = bot.http.post(f"/api/challenges/{first['id']}/decline", json={"reason": "not now"})
        assert r.status_code == 200 and r.json()["status"] == "declined"
        assert events.until(lambda m: m["type"] == "challengeDeclined")["challenge"]["reason"] == "not now"
        second = person.http.post(f"/api/challenges/{bot.username}", json={"scenario": SCENARIO,
                                                                          "side": "union"}).json()
        assert person.http.post(f"/api/challenges/{second['id']}/accept").status_code == 403
        r = bot.http.post(f"/api/challenges/{second['id']}/accept")
        assert r.status_code == 200, r.text
        game = r.json()["game"]
        assert game["status"] == "active" and game["seats"]["confederate"]["username"] == bot.username
        assert bot.http.post(f"/api/challenges/{second['id']}/accept").json()["code"] == "challenge_closed"
        start = events.until(lambda m: m["type"] == "gameStart")
        assert start["game"] == {"id": game["id"], "sides": ["confederate"], "seq": game["seq"]}
        # the person moves until the game waits for the bot: "yourTurn"
        while person.game(game["id"])["to_act"] == "union":
            lg = person.legal(game["id"])
            assert person.act(game["id"], lg["actions"][0], expected_seq=lg["seq"]).status_code == 200
        turn = events.until(lambda m: m["type"] == "yourTurn")
        assert turn["game"]["id"] == game["id"] and turn["game"]["side"] == "confederate"
        person.http.post(f"/api/games/{game['id']}/resign")
        assert events.until(lambda m: m["type"] == "gameFinish")["game"]["result"]["winner"] == "confederate"
    finally:
        events.close()


def test_the_game_stream(bot_server):
    base = bot_server.base
    bot, token = make_bot(base)
    gid = httpx.post(f"{base}/api/games", headers={"Authorization": f"Bearer {token}"},
                     json={"scenario": SCENARIO, "side": "confederate", "opponent": {"computer": "easy"}}).json()["id"]
    stream = Lines(base, token, f"/api/bot/game/stream/{gid}")
    try:
        full = stream.next()
        assert full["type"] == "gameFull" and full["id"] == gid and "state" in full
        msg = full if full["legal"] else stream.until(lambda m: m["legal"])
        assert msg["to_act"] == "confederate" and msg["your_sides"] == ["confederate"]
        r = bot.act(gid, msg["legal"][0], expected_seq=msg["seq"], action_id="bot-1")
        assert r.status_code == 200
        again = bot.act(gid, msg["legal"][0], expected_seq=msg["seq"], action_id="bot-1")
        assert again.json().get("duplicate") is True  # the same action id: the first result, applied once
        batch = stream.until(lambda m: m["type"] == "events" and any(e["actor"] == "confederate"
                                                                     for e in m["events"]))
        assert batch["status"] == "active"
    finally:
        stream.close()


def test_the_example_bot_finishes_a_game_against_the_computer(bot_server):
    base = bot_server.base
    bot, token = make_bot(base)
    r = httpx.post(f"{base}/api/games", headers={"Authorization": f"Bearer {token}"},
                   json={"scenario": SCENARIO, "side": "union", "opponent": {"computer": "easy"}})
    gid = r.json()["id"]
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "random_bot.py"), "--server", base,
                           f"--token={token}", "--games", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    game = bot.game(gid)
    assert game["status"] == "finished" and game["result"]["winner"] in ("union", "confederate")
    evs = httpx.get(f"{base}/api/games/{gid}/events").json()["events"]
    assert {e["actor"] for e in evs if e["source"] == "engine"} >= {"union", "confederate"}


def test_the_example_bot_rides_out_a_server_crash(tmp_path):
    """The server is killed mid-game and started again: the bot connects again, carries
    on from the game's full state and finishes the game."""
    srv = ServerProc(f"sqlite:///{tmp_path / 'crash.sqlite3'}", log_dir=tmp_path, game_seed=TEST_GAME_SEED,
                     computer_delay_seconds=0, bot_stream_poll_seconds=0.05).start()
    proc = None
    try:
        bot, token = make_bot(srv.base)
        gid = bot.http.post("/api/games", json={"scenario": SCENARIO, "side": "union",
                                                "opponent": {"computer": "easy"}}).json()["id"]
        proc = subprocess.Popen([sys.executable, str(ROOT / "examples" / "random_bot.py"), "--server", srv.base,
                                 f"--token={token}", "--games", "1"], stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        # early in the game: with the computer answering at once, the short scenario can
        # be over a few moves later, before the kill lands
        while bot.game(gid)["seq"] < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        srv.kill()
        srv.start()
        out, _ = proc.communicate(timeout=240)
        assert proc.returncode == 0, out
        assert "trying again" in out and f"game {gid} is over" in out
        assert httpx.get(f"{srv.base}/api/games/{gid}").json()["status"] == "finished"
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        srv.stop()


def test_an_idle_connection_outlives_an_http_clients_own_pooling(bot_server):
    """A bot's client (httpx) drops a pooled connection after 5 idle seconds; the server
    keeps it longer, so the client never sends a request on one the server is closing."""
    conn = http.client.HTTPConnection("127.0.0.1", bot_server.port, timeout=10)
    try:
        conn.request("GET", "/api/health")
        assert conn.getresponse().read() and conn.sock is not None
        first = conn.sock
        time.sleep(6)
        conn.request("GET", "/api/health")      # on the same connection, or RemoteDisconnected
        assert conn.getresponse().status == 200 and conn.sock is first
    finally:
        conn.close()


def test_a_rated_challenge_rates_the_bot_and_bad_challenges_are_refused(bot_server):
    base = bot_server.base
    bot, _ = make_bot(base)
    person = Player(base)
    r = person.http.post(f"/api/challenges/{bot.username}", json={"scenario": SCENARIO, "options": ["4.8", "4.8"]})
    assert r.status_code == 422 and "twice" in r.json()["detail"]
    assert person.http.post(f"/api/challenges/{person.username}").status_code == 422
    assert person.http.post("/api/challenges/Computer (easy)").status_code == 422
    cid = person.http.post(f"/api/challenges/{bot.username}", json={"scenario": SCENARIO, "rated": True}).json()["id"]
    assert person.http.post(f"/api/challenges/{cid}/cancel").json()["status"] == "cancelled"
    assert bot.http.post(f"/api/challenges/{cid}/accept").json()["code"] == "challenge_closed"
    cid = person.http.post(f"/api/challenges/{bot.username}", json={"scenario": SCENARIO, "rated": True}).json()["id"]
    game = bot.http.post(f"/api/challenges/{cid}/accept").json()["game"]
    assert game["rated"] is True
    assert person.http.post(f"/api/games/{game['id']}/resign").status_code == 200
    rating = httpx.get(f"{base}/api/players/{bot.username}").json()["rating"]
    assert rating["rating"] > 1600 and rating["games"] == 1
    seats = bot.game(game["id"])["seats"].values()
    assert [(s["username"], s["bot"]) for s in seats if s["bot"]] == [(bot.username, True)]


def test_an_open_game_of_the_bot_starting_is_announced(bot_server):
    base = bot_server.base
    bot, token = make_bot(base)
    events = Lines(base, token, "/api/bot/stream/event")
    try:
        gid = httpx.post(f"{base}/api/games", headers={"Authorization": f"Bearer {token}"},
                         json={"scenario": SCENARIO, "side": "confederate"}).json()["id"]
        person = Player(base)
        assert person.join(gid).status_code == 200
        start = events.until(lambda m: m["type"] == "gameStart")
        assert start["game"]["id"] == gid and start["game"]["sides"] == ["confederate"]
    finally:
        events.close()
