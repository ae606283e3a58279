"""Browser: the board reads like a wargame map on a laptop, a tablet and a phone, and a
whole game turn can be played from the keyboard with the board as a list.

At 1366x900, 1024x768 and 390x844 (the opening view, and the whole board):
* every counter lies inside the box it stands in, and no two boxes or box names overlap;
* a laptop (1366x900) and a tablet (1024x768) open on the whole board; on the laptop the
  letters on the counters are at least 9 px high; a phone opens zoomed in, to names of 10
  px and counters of 18 px, with the map on at least 75% of its height;
* no box name is squeezed below 90% of its width (a long one is set smaller);
* the page never scrolls sideways;
* screenshots of the opening and the whole view are kept under artifacts/, with the
  measured figures in board-metrics.json.
"""
from __future__ import annotations

import json
import uuid

import pytest

import rules_engine

PASSWORD = "correct horse battery"
SIZES = [(1366, 900), (1024, 768), (390, 844)]

# Everything measured in the page: screen rectangles of the box frames, names, counters.
MEASURE = """() => {
  const svg = document.getElementById('map');
  const k = svg.getScreenCTM().a;                       // screen px per board unit
  const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const boxes = {}, names = [];
  let nameFont = Infinity, nameBox = Infinity;
  for (const g of svg.querySelectorAll('[data-box]')) {
    boxes[g.dataset.box] = rect(g.querySelector('.frame'));
    const t = g.querySelector('.name');
    nameFont = Math.min(nameFont, parseFloat(getComputedStyle(t).fontSize) * k);
    for (const ts of t.querySelectorAll('tspan')) {
      const r = rect(ts); nameBox = Math.min(nameBox, r[3] - r[1]);
      names.push([g.dataset.box, r]);
    }
  }
  const counters = [...svg.querySelectorAll('[data-unit]')].map((c) => [c.dataset.unit, c.dataset.loc, rect(c.querySelector('.face'))]);
  // the letters on the counters, on the screen; each line of a box name as set against
  // its own natural width (a name narrowed to fit shows less than 1)
  let letters = Infinity, lineFont = Infinity, narrowest = Infinity;
  for (const q of svg.querySelectorAll('[data-unit] .q')) letters = Math.min(letters, parseFloat(getComputedStyle(q).fontSize) * q.getScreenCTM().a);
  for (const ts of svg.querySelectorAll('.name tspan')) {
    const shown = ts.getBoundingClientRect().width, len = ts.getAttribute('textLength'), adj = ts.getAttribute('lengthAdjust');
    ts.removeAttribute('textLength');
    const natural = ts.getComputedTextLength() * ts.getScreenCTM().a;
    if (len) { ts.setAttribute('textLength', len); ts.setAttribute('lengthAdjust', adj); }
    narrowest = Math.min(narrowest, shown / natural);
    lineFont = Math.min(lineFont, parseFloat(getComputedStyle(ts).fontSize) * ts.getScreenCTM().a);
  }
  const view = svg.getBoundingClientRect(), sheet = document.getElementById('side').getBoundingClientRect();
  const prompt = document.getElementById('prompt-bar').getBoundingClientRect();   // it may spread over the map
  const seen = Object.values(boxes).filter((r) => r[0] >= view.left - 1 && r[2] <= view.right + 1 && r[1] >= view.top - 1 && r[3] <= view.bottom + 1).length;
  // the map's share of the screen's height, down to where a sheet covers it
  const top = prompt.left < view.right - 1 ? Math.max(view.top, prompt.bottom) : view.top;
  const mapShare = ((sheet.top > view.top + 1 && sheet.left < view.right - 1 ? Math.min(view.bottom, sheet.top) : view.bottom) - top) / innerHeight;
  return { k, boxes, names, counters, nameFont, nameBox, letters, lineFont, narrowest, seen, mapShare,
           counterPx: Math.min(...counters.map(([, , r]) => Math.min(r[2] - r[0], r[3] - r[1]))),
           step: +svg.dataset.step,
           scrollW: document.documentElement.scrollWidth, clientW: document.documentElement.clientWidth };
}"""


def _overlap(a, b, slack=0.5):
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def check_board(m):
    """What must hold at any view: returns (boxes overlapping, names overlapping, counters outside)."""
    ids = sorted(m["boxes"])
    box_pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if _overlap(m["boxes"][a], m["boxes"][b])]
    names = m["names"]
    name_pairs = [(a[0], b[0]) for i, a in enumerate(names) for b in names[i + 1:]
                  if a[0] != b[0] and _overlap(a[1], b[1])]
    outside = []
    for uid, loc, r in m["counters"]:
        f = m["boxes"][loc]
        if not (r[0] >= f[0] - 0.5 and r[1] >= f[1] - 0.5 and r[2] <= f[2] + 0.5 and r[3] <= f[3] + 0.5):
            outside.append((uid, loc))
    return box_pairs, name_pairs, outside


def _post(ctx, base, url, data):
    token = next(c["value"] for c in ctx.cookies() if c["name"] == "hd_csrf")
    r = ctx.request.post(base + url, data=data, headers={"X-CSRF-Token": token})
    assert r.ok, r.text()
    return r.json()


def new_game(browser, base, scenario="1861"):
    """Two players (browser contexts with their own login) and a live game between them."""
    tag = uuid.uuid4().hex[:6]
    ctxs = {}
    for side in ("union", "confederate"):
        ctx = browser.new_context(viewport={"width": 1366, "height": 900})
        r = ctx.request.post(base + "/api/auth/register", data={"username": f"{side[:3]}{tag}", "password": PASSWORD})
        assert r.ok, r.text()
        ctxs[side] = ctx
    gid = _post(ctxs["union"], base, "/api/games", {"scenario": scenario, "side": "union"})["id"]
    _post(ctxs["confederate"], base, f"/api/games/{gid}/join", {})
    return gid, ctxs


@pytest.fixture(scope="module")
def game(server, browser):
    gid, ctxs = new_game(browser, server, "1862")     # 1862: stacks of several units on the board
    yield gid, ctxs
    for c in ctxs.values():
        c.close()


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_board_reads_at_every_size(server, browser, artifacts, game, width, height):
    gid, ctxs = game
    ctx = browser.new_context(viewport={"width": width, "height": height}, storage_state=ctxs["union"].storage_state(),
                              has_touch=width < 800, is_mobile=width < 800)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct === 'union'")
    page.wait_for_timeout(300)

    opening = page.evaluate(MEASURE)
    page.screenshot(path=str(artifacts / f"board-{width}x{height}-opening.png"))
    if width >= 1024:   # a laptop and a tablet open on the whole board
        assert opening["step"] == 0, f"{width}x{height} opens at zoom step {opening['step']}, not the whole board"
        assert opening["seen"] == len(opening["boxes"]), f"{opening['seen']} of {len(opening['boxes'])} boxes in view"
    if width >= 1366:   # and on a laptop it reads: counters' letters of 9 px and more
        assert opening["letters"] >= 9, f"counter letters {opening['letters']:.1f} px on the whole board"
        assert opening["counterPx"] >= 17.5, f"counters {opening['counterPx']:.1f} px on the whole board"
    if width < 800:     # a phone opens zoomed in, to names and counters that read
        assert opening["nameFont"] >= 10, f"names {opening['nameFont']:.1f} px at the opening view"
        assert opening["counterPx"] >= 18, f"counters {opening['counterPx']:.1f} px at the opening view"
        assert opening["mapShare"] >= 0.75, f"the map has {opening['mapShare']:.0%} of the phone's height"
    # a long name is set smaller, not squeezed: no line narrower than 90% of its natural width
    assert opening["narrowest"] >= 0.9, f"a box name is squeezed to {opening['narrowest']:.0%} of its width"
    assert opening["scrollW"] <= opening["clientW"], "the page scrolls sideways"
    # a player sees every box and every counter: all of them are in the document and laid out
    assert len(opening["boxes"]) == len(rules_engine.load_map().boxes)
    assert len(opening["counters"]) > 20

    page.keyboard.press("0")               # the whole board
    page.wait_for_timeout(200)
    full = page.evaluate(MEASURE)
    page.screenshot(path=str(artifacts / f"board-{width}x{height}-full.png"))
    found = {}
    for view, m in (("opening", opening), ("full", full)):
        boxes, names, outside = found[view] = check_board(m)
        assert not boxes, f"{view} view: boxes overlap: {boxes}"
        assert not names, f"{view} view: box names overlap: {names}"
        assert not outside, f"{view} view: counters outside their box: {outside}"
    assert full["scrollW"] <= full["clientW"]

    # the side panels: beside the map on a laptop, a sheet over its foot on a tablet or phone
    side = page.locator("#side").bounding_box()
    map_box = page.locator("#map").bounding_box()
    if width > 1100:
        assert side["x"] >= map_box["x"] + map_box["width"] - 1
    else:
        assert map_box["width"] >= width - 1                       # the map takes the screen's width
        assert side["height"] <= 60
        page.get_by_role("tab", name="Log").click()
        # the sheet opens (its height is animated: wait for it rather than read it mid-way)
        page.wait_for_function("() => document.getElementById('side').getBoundingClientRect().height > 150",
                               timeout=5000)
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        page.locator("#sheet-handle").click()
        page.wait_for_timeout(250)
        assert page.locator("#side").bounding_box()["height"] <= 60

    figures = artifacts / "board-metrics.json"
    data = json.loads(figures.read_text()) if figures.exists() else {}
    data[f"{width}x{height}"] = {
        "opening_zoom_step": opening["step"],
        "opening_name_font_px": round(opening["nameFont"], 1), "opening_name_box_px": round(opening["nameBox"], 1),
        "opening_counter_px": round(opening["counterPx"], 1), "opening_counter_letters_px": round(opening["letters"], 1),
        "opening_boxes_in_view": opening["seen"], "opening_map_share_of_height": round(opening["mapShare"], 2),
        "name_line_font_px_least": round(opening["lineFont"], 1), "name_width_shown_least": round(opening["narrowest"], 3),
        "full_counter_letters_px": round(full["letters"], 1),
        "full_name_font_px": round(full["nameFont"], 1), "full_counter_px": round(full["counterPx"], 1),
        "overlapping_boxes": sum(len(f[0]) for f in found.values()),
        "overlapping_names": sum(len(f[1]) for f in found.values()),
        "counters_outside_their_box": sum(len(f[2]) for f in found.values()),
    }
    figures.write_text(json.dumps(data, indent=2))
    assert not errors, errors
    ctx.close()


def test_a_pile_opens_and_an_unclear_tap_asks_which(server, browser, artifacts, game):
    gid, ctxs = game
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=ctxs["union"].storage_state(),
                              has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    # a pile (a box with more units than fit side by side) opens as a list of its units
    pile = page.evaluate("""() => { const b = document.querySelector('#map .count-badge'); return b ? b.dataset.pile : null; }""")
    assert pile, "the 1862 set-up has a box with a pile"
    page.evaluate(f"document.querySelector('#map [data-box=\"{pile}\"]').focus()")
    page.keyboard.press("Enter")
    pop = page.locator("#stack-pop")
    assert pop.is_visible()
    n_units = page.evaluate(f"[...document.querySelectorAll('#map [data-unit]')].filter(c => c.dataset.loc === '{pile}').length")
    assert pop.locator("[data-unit-btn]").count() == n_units
    page.keyboard.press("Escape")
    assert not pop.is_visible()
    # a tap in the gap between two boxes could mean either: the page asks
    found = page.evaluate("""() => {
      const map = document.getElementById('map');
      const frames = [...map.querySelectorAll('[data-box] .frame')].map(f => [f.closest('[data-box]').dataset.box, f.getBoundingClientRect()]);
      const vw = map.getBoundingClientRect();
      const seen = (r) => r.left > vw.left + 10 && r.right < vw.right - 60 && r.top > vw.top + 10 && r.bottom < vw.bottom - 10;
      for (const [p, r] of frames) for (const [q, s] of frames) {
        if (p === q || !seen(r) || !seen(s)) continue;
        const across = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top), along = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const hgap = s.left - r.right, vgap = s.top - r.bottom;
        if (hgap > 0 && hgap < 12 && across > 10) return [p, q, (r.right + s.left) / 2, (Math.max(r.top, s.top) + Math.min(r.bottom, s.bottom)) / 2];
        if (vgap > 0 && vgap < 12 && along > 10) return [p, q, (Math.max(r.left, s.left) + Math.min(r.right, s.right)) / 2, (r.bottom + s.top) / 2];
      }
      return null;
    }""")
    assert found, "two boxes a finger's width apart in the opening view"
    a, b, x, y = found
    page.touchscreen.tap(x, y)
    assert pop.is_visible()
    assert "Which box?" in pop.inner_text()
    assert {a, b} <= set(pop.locator("[data-pick-box]").evaluate_all("els => els.map(e => e.dataset.pickBox)"))
    page.screenshot(path=str(artifacts / "board-390x844-which-box.png"))
    ctx.close()


def test_map_keys_follow_the_lines(server, browser, game):
    gid, ctxs = game
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, storage_state=ctxs["confederate"].storage_state())
    page = ctx.new_page()
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.evaluate("document.querySelector('#map [data-box=\"washington\"]').focus()")
    start = page.evaluate("document.activeElement.dataset.box")
    visited = {start}
    for key in ("ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        before = page.evaluate("document.activeElement.dataset.box")
        page.keyboard.press(key)
        now = page.evaluate("document.activeElement.dataset.box")
        if now != before:   # a step goes along a line
            linked = page.evaluate(f"""() => {{
              const m = JSON.parse(document.getElementById('boot').textContent).map;
              return m.lines.some(l => (l.a === '{before}' && l.b === '{now}') || (l.b === '{before}' && l.a === '{now}'));
            }}""")
            assert linked, (before, now)
        visited.add(now)
    assert len(visited) >= 3
    # only one box is a tab stop, and log lines are none
    assert page.locator("#map [data-box][tabindex='0']").count() == 1
    assert page.locator("#log [tabindex]").count() == 0
    ctx.close()


def _data(page, key):
    return page.evaluate(f"document.body.dataset[{json.dumps(key)}]")


def _press(page, key, times=1):
    for _ in range(times):
        page.keyboard.press(key)


def keyboard_act(page, kinds):
    """With the keyboard only: Tab through the list view's decisions to the first button of
    one of `kinds` and press Enter; wait until the game has moved on."""
    before = int(_data(page, "seq"))
    for _ in range(600):
        active = page.evaluate("(() => { const a = document.activeElement; return a ? [a.id, a.dataset.action || '', a.closest('#board-list') ? 1 : 0] : ['', '', 0]; })()")
        if active[2] and active[1] in kinds:
            page.keyboard.press("Enter")
            if page.locator("#confirm[open]").count():   # ending a phase with points left asks first
                page.keyboard.press("Shift+Tab")           # from Cancel back to the yes button
                page.keyboard.press("Enter")
            page.wait_for_function(f"() => +document.body.dataset.seq > {before} && document.body.dataset.ready === '1'", timeout=15000)
            return active[1]
        page.keyboard.press("Tab")
    raise AssertionError(f"no {kinds} button reached with Tab")


def keyboard_decision(page, done):
    phase, step = _data(page, "phase"), _data(page, "step")
    offered = page.evaluate("[...document.querySelectorAll('#board-list .list-action')].map(b => b.dataset.action)")
    assert offered, f"no decision offered in the list at {phase}/{step}"
    if phase == "movement":
        if "move" in offered and "moved" not in done:
            done.add("moved")
            return keyboard_act(page, {"move"})
        if "end_march" in offered:
            return keyboard_act(page, {"end_march"})
        if "activate" in offered and "activated" not in done:
            done.add("activated")
            return keyboard_act(page, {"activate"})
        return keyboard_act(page, {"end_movement"})
    if phase == "recruitment":
        if "recruit" in offered and "recruited" not in done:
            done.add("recruited")
            return keyboard_act(page, {"recruit"})
        return keyboard_act(page, {"end_recruitment"})
    prefer = {"marches_roll": ["roll_marches"], "battle_choice": ["fight"], "recruit_roll": ["roll_recruits"],
              "promotion": ["promote", "no_promotion"], "replacement_roll": ["roll_replacements"]}.get(phase)
    if phase == "battle":
        prefer = {"withdraw": ["stand"], "prepare": ["open_fire"], "target": ["target"],
                  "promote": ["promote", "no_promotion"]}.get(step)
    for kind in prefer or []:
        if kind in offered:
            return keyboard_act(page, {kind})
    return keyboard_act(page, {offered[0]})


def test_a_game_turn_from_the_keyboard_list(server, browser, artifacts):
    """Both players play the whole first game turn with the keyboard and the list view only:
    no mouse click, no script focusing anything."""
    gid, ctxs = new_game(browser, server, "1861")
    pages = {}
    errors: list[str] = []
    for side, ctx in ctxs.items():
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/games/{gid}")
        page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct === 'union'")
        # Tab to the list view switch and turn it on
        for _ in range(40):
            if page.evaluate("document.activeElement && document.activeElement.id") == "list-toggle":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        assert page.locator("#board-list").is_visible()
        assert page.locator("#map").is_hidden()
        pages[side] = page
    done = {"union": set(), "confederate": set()}
    played = {"union": [], "confederate": []}
    for _ in range(120):
        if _data(pages["union"], "turn") == "2" or _data(pages["union"], "status") == "finished":
            break
        side = _data(pages["union"], "toAct")
        if side not in pages:
            pages["union"].wait_for_timeout(150)
            continue
        page = pages[side]
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        if _data(page, "toAct") != side:
            continue
        played[side].append(keyboard_decision(page, done[side]))
    else:
        raise AssertionError("the first game turn did not end")
    pages["union"].screenshot(path=str(artifacts / "board-list-view.png"))
    assert {"activate", "move", "end_movement"} <= set(played["union"]), played["union"]
    assert "end_movement" in played["confederate"], played["confederate"]
    assert _data(pages["union"], "turn") == "2" or _data(pages["union"], "status") == "finished"
    # the list names each box's units and lines
    text = pages["union"].locator("#board-list").inner_text()
    assert "Washington" in text and "railroad to" in text
    assert not errors, errors


def test_resign_asks_first_and_ends_the_game(server, browser):
    gid, ctxs = new_game(browser, server, "1861")
    page = ctxs["union"].new_page()
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct === 'union'")
    # before the first move the game can only be aborted, and that asks first
    page.locator("#actions #abort").click()
    assert page.locator("#confirm").is_visible()
    page.locator("#confirm-no").click()
    assert not page.locator("#confirm").is_visible()
    assert _data(page, "status") == "active"
    before = int(_data(page, "seq"))
    page.locator("#actions").get_by_role("button", name="End movement", exact=True).click()
    page.locator("#confirm-yes").click()            # two Marches unused: it asks first
    page.wait_for_function(f"() => +document.body.dataset.seq > {before} && document.body.dataset.ready === '1'")
    # after it, resigning asks, then ends the game for both players
    page.locator("#actions #resign").click()
    assert "Confederate player wins" in page.locator("#confirm-text").inner_text()
    page.locator("#confirm-yes").click()
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    assert "Game over. Confederate wins" in page.locator("#prompt").inner_text()
    other = ctxs["confederate"].new_page()
    other.goto(f"{server}/games/{gid}")
    other.wait_for_function("() => document.body.dataset.status === 'finished'")
    other.get_by_role("tab", name="Log").click()
    assert "resigns" in other.locator("#log").inner_text()
    for c in ctxs.values():
        c.close()
