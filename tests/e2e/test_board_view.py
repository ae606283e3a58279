"""Browser: the board's view on the game page.

* the zoom keeps the point under the pointer where it is, reaches counters of 36 px, and
  the chosen view comes back after a reload;
* the opponent's last decisions are marked on the map (data-last): the boxes and the line
  of a march, the box of a battle;
* the log steps the board back through the game with the arrow keys, and a move of the
  opponent meanwhile does not take the view away ("Back to now" shows it); a watcher
  looks back the same way;
* the view (viewBox and the map's place on the screen) stays the same over 20 decisions
  that change the prompt.

The opponent (and the player's own seat, where the page only watches) is driven through
the API; the page is the Union player's.
"""
from __future__ import annotations

import random

from tests.e2e.test_board import new_game

VIEW = """() => { const m = document.getElementById('map'), r = m.getBoundingClientRect();
  return [m.getAttribute('viewBox'), Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)].join(' '); }"""
UNITS = """() => [...document.querySelectorAll('#map [data-unit]')].map(g => g.dataset.unit + '@' + g.dataset.loc).sort().join('|')"""


def _same_view(a, b):
    """Two views alike to a tenth of a pixel's worth of rounding."""
    return all(abs(float(p) - float(q)) <= 0.25 for p, q in zip(a.split(), b.split(), strict=True))


def _page(ctx, base, gid, errors):
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct")
    return page


def _box_centre(page, box):
    return page.evaluate(f"""() => {{ const r = document.querySelector('#map [data-box="{box}"] .frame').getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2]; }}""")


def test_the_zoom_keeps_the_point_under_the_pointer_and_is_kept(server, browser):
    gid, ctxs = new_game(browser, server, "1862")
    errors: list[str] = []
    page = _page(ctxs["union"], server, gid, errors)
    assert page.evaluate("document.getElementById('map').dataset.step") == "0"
    # a box off the middle of the map (zooming at the middle would keep any point)
    box = page.evaluate("""() => { const m = document.getElementById('map').getBoundingClientRect();
      const want = [m.left + m.width * 0.3, m.top + m.height * 0.35];
      let best = null, d0 = Infinity;
      for (const g of document.querySelectorAll('#map [data-box]')) {
        const r = g.querySelector('.frame').getBoundingClientRect(), d = Math.hypot(r.left + r.width / 2 - want[0], r.top + r.height / 2 - want[1]);
        if (d < d0) { d0 = d; best = g.dataset.box; }
      }
      return best; }""")
    x, y = _box_centre(page, box)
    page.mouse.move(x, y)
    for step in (1, 2):
        page.mouse.wheel(0, -120)
        page.wait_for_function(f"document.getElementById('map').dataset.step === '{step}'")
        page.wait_for_timeout(450)   # the wheel adds up its small deltas for a moment
        nx, ny = _box_centre(page, box)
        assert abs(nx - x) < 2 and abs(ny - y) < 2, f"{box} moved from {x:.0f},{y:.0f} to {nx:.0f},{ny:.0f}"
    view = page.evaluate(VIEW)
    page.reload()
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.wait_for_timeout(200)
    again = page.evaluate(VIEW)
    assert _same_view(again, view), f"the zoom and the place came back after the reload: {again} != {view}"
    # the largest step: counters of 36 px or more
    for _ in range(12):
        page.keyboard.press("+")
    counter = page.evaluate("""() => Math.min(...[...document.querySelectorAll('#map [data-unit] .face')]
      .map(f => f.getBoundingClientRect()).filter(r => r.width > 0).map(r => r.width))""")
    assert counter >= 36, f"counters {counter:.1f} px at the largest zoom step"
    page.keyboard.press("0")
    assert page.evaluate("document.getElementById('map').dataset.step") == "0"
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def _state(ctx, base, gid):
    return ctx.request.get(f"{base}/api/games/{gid}").json()


def _choose(acts, units, side, rng):
    """A decision that gets to marches and battles soon: fight, march into the enemy,
    march, activate a box, anything but ending the movement early."""
    enemy = {u["loc"] for u in units if u["side"] != side}
    by_type: dict[str, list] = {}
    for a in acts:
        by_type.setdefault(a["type"], []).append(a)
    if "fight" in by_type:
        return by_type["fight"][0]
    moves = by_type.get("move", [])
    attacking = [a for a in moves if a["path"][-1] in enemy]
    if attacking:
        return rng.choice(attacking)
    if moves:
        return rng.choice(moves)
    if "activate" in by_type:
        return rng.choice(by_type["activate"])
    rest = [a for a in acts if a["type"] not in ("end_movement", "end_march")] or acts
    return rng.choice(rest)


def _decide(ctxs, base, gid, rng):
    """One decision by the side to act; returns (the action, the events it made). The
    Union's open page takes a forced choice by itself (the only target): when it did so
    between our look and our decision, the decision is stale, and we look again."""
    for _ in range(5):
        g = _state(ctxs["union"], base, gid)
        side = g["to_act"]
        ctx = ctxs[side]
        acts = ctx.request.get(f"{base}/api/games/{gid}/legal").json()["actions"]
        action = _choose(acts, g["state"]["units"], side, rng)
        token = next(c["value"] for c in ctx.cookies() if c["name"] == "hd_csrf")
        r = ctx.request.post(f"{base}/api/games/{gid}/actions", headers={"X-CSRF-Token": token},
                             data={"action": action, "expected_seq": g["seq"]})
        if r.status == 409 and r.json().get("code") == "stale":
            continue
        assert r.ok, r.text()
        return side, action, r.json()
    raise AssertionError("the game kept moving under the test's decisions")


def _wait_seq(page, seq):
    page.wait_for_function(f"() => +document.body.dataset.seq >= {seq}", timeout=15000)
    page.wait_for_timeout(60)


def _marks(page):
    return page.evaluate("""() => ({
      boxes: Object.fromEntries([...document.querySelectorAll('#map [data-box][data-last]')].map(g => [g.dataset.box, g.dataset.last])),
      paths: [...document.querySelectorAll('#map polyline[data-last]')].map(p => [p.dataset.last, p.dataset.route]) })""")


def test_the_last_move_is_marked_and_the_view_stays(server, browser):
    gid, ctxs = new_game(browser, server, "1862")
    errors: list[str] = []
    page = _page(ctxs["union"], server, gid, errors)
    view = page.evaluate(VIEW)
    prompts = {page.inner_text("#prompt")}
    rng = random.Random(3)
    marched = battled = False
    decisions = 0
    while decisions < 200 and not (marched and battled and decisions >= 20):
        side, action, out = _decide(ctxs, server, gid, rng)
        decisions += 1
        _wait_seq(page, out["seq"])
        prompts.add(page.inner_text("#prompt"))
        assert page.evaluate(VIEW) == view, f"the board's view changed after decision {decisions} ({action['type']})"
        marks = _marks(page)
        if side == "confederate" and action["type"] == "move":
            dest = action["path"][-1]
            assert marks["boxes"].get(dest) in ("to", "battle"), f"the march's box {dest} is not marked: {marks}"
            assert any(kind == "march" and route.split()[-1] == dest for kind, route in marks["paths"]), marks
            marched = True
        battle = next((e["data"]["box"] for e in out["events"] if e["type"] == "battle"), None)
        if battle:
            assert marks["boxes"].get(battle) == "battle", f"the battle at {battle} is not marked: {marks}"
            battled = True
    assert marched and battled, f"no march of the opponent or no battle in {decisions} decisions"
    assert len(prompts) >= 5, "the prompt changed with the decisions"
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def _fold(frames):
    """The replay's frames as the states after each decision (static/game-state.js foldFrames)."""
    out, top = [], None
    for f in frames:
        if "full" in f and f["full"]:
            top = {**f["full"], "units": list(f["full"]["units"])}
        else:
            top = {**top, **{k: v for k, v in f.items() if k not in ("units", "units_gone")}}
            units = {u["id"]: u for u in top["units"]}
            for uid in f.get("units_gone", []):
                units.pop(uid, None)
            for u in f.get("units", []):
                units[u["id"]] = u
            top["units"] = list(units.values())
        out.append(top)
    return out


def _signature(state, boxes):
    return "|".join(sorted(f"{u['id']}@{u['loc']}" for u in state["units"] if u["loc"] in boxes))


def test_looking_back_with_the_keys_while_the_opponent_moves(server, browser):
    gid, ctxs = new_game(browser, server, "1862")
    errors: list[str] = []
    rng = random.Random(8)
    for _ in range(30):   # some history: marches on both sides
        _decide(ctxs, server, gid, rng)
    page = _page(ctxs["union"], server, gid, errors)
    page.get_by_role("tab", name="Log").click()
    page.locator("#log li.ev").last.wait_for()
    page.locator("body").focus()
    now = page.evaluate(UNITS)
    boxes = set(page.evaluate("Object.keys(Object.fromEntries([...document.querySelectorAll('#map [data-box]')].map(g => [g.dataset.box, 1])))"))

    # back three lines: the board as it was, the bar says so
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.body.dataset.pastShown && document.body.dataset.pastShown === document.body.dataset.past")
    seq = int(page.evaluate("document.body.dataset.pastShown"))
    bundle = ctxs["union"].request.get(f"{server}/api/games/{gid}/replay").json()
    states = _fold(bundle["frames"])
    frame = max((e for e in bundle["events"] if e["seq"] <= seq), key=lambda e: e["seq"])["frame"]
    past = page.evaluate(UNITS)
    assert past == _signature(states[frame], boxes), "the board is the game as it was after that line"
    assert page.locator("#past-bar").is_visible()
    assert page.locator("#log li.viewed").get_attribute("data-seq") == str(seq)

    # the opponent (or anyone) moves: the view stays in the past, the bar counts the move
    live_seq = int(page.evaluate("document.body.dataset.seq"))
    while True:
        _side, _action, out = _decide(ctxs, server, gid, rng)
        if any(e["type"] == "action" and e["source"] == "engine" for e in out["events"]):
            break
    _wait_seq(page, max(out["seq"], live_seq + 1))
    assert page.evaluate("document.body.dataset.pastShown") == str(seq)
    assert page.evaluate(UNITS) == past, "a live move took the view away from the past"
    assert "new move" in page.inner_text("#past-bar")

    # one step on, then back to now: the live board with the new move
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => +document.body.dataset.pastShown > {seq}")
    page.get_by_role("button", name="Back to now").click()
    page.wait_for_function("() => !document.body.dataset.past")
    live = _state(ctxs["union"], server, gid)
    assert page.evaluate(UNITS) == _signature(live["state"], boxes)
    assert page.evaluate(UNITS) != now or live["seq"] > live_seq
    assert not page.locator("#past-bar").is_visible()

    # a watcher (logged out) looks back through the game in play the same way
    watcher_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    watcher = _page(watcher_ctx, server, gid, errors)
    watcher.get_by_role("tab", name="Log").click()
    watcher.locator("#log li.ev").last.wait_for()
    watcher.locator("body").focus()
    watcher.keyboard.press("ArrowLeft")
    watcher.wait_for_function("() => document.body.dataset.pastShown && document.body.dataset.pastShown === document.body.dataset.past")
    assert watcher.locator("#past-bar").is_visible()
    watcher_ctx.close()
    assert not errors, errors
    for c in ctxs.values():
        c.close()
