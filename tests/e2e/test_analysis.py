"""Browser: after a game against the computer the game page shows the expert's evaluation
as a graph beside the move list; a point opens the replay at that position, and the
replay page's own graph steps the board to the point chosen (mouse and keyboard)."""
from __future__ import annotations

import random
import re
import time
import uuid

import httpx

from .test_play import PASSWORD, VIEW, ready
from .test_replay import SIG


def _play_some_turns(base: str, http: httpx.Client, gid: str, turns: int) -> None:
    """Random legal moves for the person (the Confederacy: a random Union can lose the
    Short Game within a turn or two, a random Confederacy cannot) until `turns` turns
    have begun; the computer answers in between."""
    rng = random.Random(11)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        g = http.get(f"/api/games/{gid}").json()
        if g["status"] != "active" or g["state"]["turn"] >= turns:
            return
        lg = http.get(f"/api/games/{gid}/legal").json()
        if not lg["actions"]:
            time.sleep(0.05)  # the computer is thinking
            continue
        r = http.post(f"/api/games/{gid}/actions", json={"action": rng.choice(lg["actions"]),
                                                         "expected_seq": lg["seq"]})
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not reach the turn")


def test_the_evaluation_graph_after_a_game_against_the_computer(server, browser, artifacts):
    name = "e" + uuid.uuid4().hex[:8]
    token = httpx.post(server + "/api/auth/register", json={"username": name, "password": PASSWORD}).json()["token"]
    http = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    gid = http.post("/api/games", json={"scenario": "1861-short", "side": "confederate", "mode": "live",
                                        "opponent": {"computer": "easy"}}).json()["id"]
    _play_some_turns(server, http, gid, turns=3)

    ctx = browser.new_context(viewport=VIEW)
    assert ctx.request.post(f"{server}/api/auth/login", data={"username": name, "password": PASSWORD}).status == 200
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/games/{gid}")
        ready(page)
        assert page.locator("#analysis").is_hidden()  # nothing during play
        # resign in the page: the graph appears in the side panel, over the move list
        page.locator("#resign").click()
        page.locator("#confirm-yes").click()
        page.wait_for_selector("#game-over:not([hidden])")
        page.locator("#t-log").click()
        page.wait_for_selector("#side #analysis .eval-point")
        assert page.locator("#analysis").is_visible() and page.locator("#log").is_visible()
        graph, log = page.locator("#analysis").bounding_box(), page.locator("#tab-log").bounding_box()
        assert graph["y"] + graph["height"] <= log["y"] and abs(graph["x"] - log["x"]) < 30  # beside it
        points = page.locator("#analysis .eval-point")
        assert points.count() >= 3
        labels = [points.nth(i).get_attribute("aria-label") for i in range(points.count())]
        assert all(re.fullmatch(r"Turn \d+, (Union|Confederacy|Confederate) to move: Union \d+%", w) for w in labels), \
            labels
        page.screenshot(path=str(artifacts / "analysis-game.png"))
        first = points.first
        seq, turn = first.get_attribute("data-seq"), first.get_attribute("data-turn")
        # a point is a link to that position in the replay
        first.click()
        page.wait_for_url(re.compile(rf".*/games/{gid}/replay#seq={seq}$"))
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("document.body.dataset.seq") == seq
        assert page.evaluate("document.body.dataset.turn") == turn
        at_first = page.evaluate(SIG)
        # the replay page has the graph too; the marked point is the position shown
        page.wait_for_selector("#analysis .eval-point.now")
        replay_points = page.locator("#analysis .eval-point")
        assert replay_points.count() == len(labels)
        assert page.locator("#analysis .eval-point.now").get_attribute("data-seq") == seq
        # the end, by the keyboard: the board changes to the last position
        last = replay_points.last
        last.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.body.dataset.seq === {last.get_attribute('data-seq')!r}")
        assert page.evaluate(SIG) != at_first
        assert last.get_attribute("aria-current") == "step"
        # and back to the first point with the mouse: the board of that position again
        replay_points.first.click()
        page.wait_for_function(f"() => document.body.dataset.seq === {seq!r}")
        assert page.evaluate(SIG) == at_first
        page.screenshot(path=str(artifacts / "analysis-replay.png"))
        assert errors == []
    finally:
        ctx.close()
        http.close()
