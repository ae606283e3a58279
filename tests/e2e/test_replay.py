"""Browser: the replay viewer steps a finished game forwards and backwards, the map
changes with it, and every die is recomputed in the page with WebCrypto."""
from __future__ import annotations

import random
import re
import statistics

import httpx

SIG = """() => [...document.querySelectorAll('#map [data-unit]')]
  .map(g => g.dataset.unit + '@' + g.dataset.loc).sort().join('|')"""


def _player(base):
    name = "r" + "".join(random.choice("abcdefghijk") for _ in range(10))
    r = httpx.post(base + "/api/auth/register", json={"username": name, "password": "password123"})
    assert r.status_code == 201, r.text
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {r.json()['token']}"}, timeout=30)


def _finished_game(base, decisions=150):
    a, b = _player(base), _player(base)
    gid = a.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live"}).json()["id"]
    assert b.post(f"/api/games/{gid}/join", json={}).status_code == 200
    seats = {"union": a, "confederate": b}
    rng = random.Random(12)
    for _ in range(decisions):
        g = a.get(f"/api/games/{gid}").json()
        if g["status"] != "active":
            break
        p = seats[g["to_act"]]
        acts = p.get(f"/api/games/{gid}/legal").json()["actions"]
        assert p.post(f"/api/games/{gid}/actions", json={"action": rng.choice(acts)}).status_code == 200
    if a.get(f"/api/games/{gid}").json()["status"] == "active":
        assert a.post(f"/api/games/{gid}/resign").status_code == 200
    return gid


def test_replay_steps_back_and_forth_and_the_map_follows(server, browser, artifacts):
    gid = _finished_game(server)
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/games/{gid}/replay")
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    last_seq = int(page.evaluate("document.body.dataset.seq"))
    end_sig = page.evaluate(SIG)
    # back from the end until the map differs
    for _ in range(200):
        page.click("#r-back")
        if page.evaluate(SIG) != end_sig:
            break
    else:
        raise AssertionError("stepping back never changed the map")
    seq_back = int(page.evaluate("document.body.dataset.seq"))
    assert seq_back < last_seq
    page.click("#r-fwd")
    while int(page.evaluate("document.body.dataset.seq")) < last_seq and page.evaluate(SIG) != end_sig:
        page.click("#r-fwd")
    assert page.evaluate(SIG) == end_sig
    # the first position is the scenario's setup, different from the end
    page.click("#r-first")
    first_sig = page.evaluate(SIG)
    assert first_sig != end_sig and page.evaluate("document.body.dataset.turn") == "1"
    page.click("#r-last")
    assert page.evaluate(SIG) == end_sig
    # jump to a seq
    page.fill("#r-seq", str(last_seq // 2))
    page.click("#r-go")
    assert int(page.evaluate("document.body.dataset.seq")) <= last_seq // 2
    # at a march, the map marks it as the game page does: its boxes and its line (data-last)
    move = page.evaluate(f"""async () => {{
      const b = await (await fetch('/api/games/{gid}/replay')).json();
      const e = b.events.filter(x => x.status === 'effective' && x.type === 'action' && x.data.action && x.data.action.type === 'move').pop();
      return e ? [e.seq, e.data.action.path[e.data.action.path.length - 1]] : null; }}""")
    assert move, "the game has a march"
    page.evaluate(f"window.__replayGo({move[0]})")
    assert page.locator(f'#map [data-box="{move[1]}"][data-last]').count() == 1
    routes = page.eval_on_selector_all("#map polyline[data-last='march']", "ps => ps.map(p => p.dataset.route.split(' ').pop())")
    assert move[1] in routes, routes
    page.click("#r-first")
    assert page.locator("#map [data-last]").count() == 0, "nothing is marked before the first decision"
    # every die recomputed in the browser from the revealed seed
    page.click("#t-verify")
    page.wait_for_selector("body[data-dice-checked]", timeout=20000)
    assert page.evaluate("document.body.dataset.diceChecked") == "ok", page.inner_text("#dice-check")
    assert "all match" in page.inner_text("#dice-check")
    assert page.locator(".vmark.ok").count() > 0 and page.locator(".vmark.bad").count() == 0
    # stepping time, measured in the page over 60 steps
    page.evaluate("window.__replay.stepMs.length = 0")
    page.click("#r-last")
    for _ in range(30):
        page.keyboard.press("ArrowLeft")
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    ms = page.evaluate("window.__replay.stepMs")
    print(f"\nreplay step in the browser: median {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms "
          f"over {len(ms)} steps; bundle load {page.evaluate('window.__replay.loadMs'):.0f} ms")
    page.screenshot(path=str(artifacts / "replay.png"))
    # the log in the server's words, with unit identities
    log_text = page.inner_text("#log")
    assert re.search(r"(Union|Confederate) (MI|VI|CI|MC|VC|CC) \d+ ", log_text), log_text[:2000]
    for broken in ("..", "undefined", "None", "[object", "{"):
        assert broken not in log_text, broken
    assert not errors, errors
    ctx.close()
