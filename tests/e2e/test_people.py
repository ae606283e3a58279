"""People on the game page, in the browser with the real server: one player in two tabs,
the rematch offered to the same opponent (and to nobody else), who is here and who is
away, the status line after the game, and panels that close when their moment is over."""
from __future__ import annotations

import uuid

import pytest

from .test_board import PASSWORD, _post, new_game
from .test_decisions import _data, _open
from .test_i18n import english_left, new_game_in

CONFIRM = "() => { const d = document.getElementById('confirm'); if (d.open) document.getElementById('confirm-yes').click(); }"


def _end_or_first_button(page):
    before = int(_data(page, "seq"))
    page.locator("#actions button[data-action]").first.click()
    if page.locator("#confirm[open]").count():
        page.locator("#confirm-yes").click()
    page.wait_for_function(f"() => +document.body.dataset.seq > {before}")


def _notice(page) -> str:
    n = page.locator("#notice")
    return n.inner_text() if n.is_visible() else ""


def test_two_tabs_of_one_player_both_work(server, browser):
    gid, ctxs = new_game(browser, server, "1861")
    errors: list[str] = []
    tab_a = _open(ctxs["union"], server, gid, errors)
    tab_b = _open(ctxs["union"], server, gid, errors)
    for tab in (tab_a, tab_b):
        tab.wait_for_function("() => document.body.dataset.toAct === 'union' && document.body.dataset.phase === 'movement'")
    before = int(_data(tab_a, "seq"))
    # both tabs ask to end movement, and the player says yes in both at once: tab A's
    # decision shows in tab B, and tab B's (too late, or closed by it) says nothing
    for tab in (tab_a, tab_b):
        tab.locator("#actions").get_by_role("button", name="End movement", exact=True).click()
        assert tab.locator("#confirm").is_visible()
    tab_a.evaluate(CONFIRM)
    tab_b.evaluate(CONFIRM)
    for tab in (tab_a, tab_b):
        tab.wait_for_function(f"() => +document.body.dataset.seq > {before} && document.body.dataset.ready === '1'",
                              timeout=5000)
    tab_a.wait_for_timeout(500)   # an error would have come by now
    assert _data(tab_a, "seq") == _data(tab_b, "seq")
    for tab in (tab_a, tab_b):
        assert _notice(tab) == "", _notice(tab)
        assert tab.locator("#conn").inner_text() == "live"
        assert not tab.locator("#confirm").is_visible()
    # a decision made in tab A alone shows in tab B promptly
    if _data(tab_a, "toAct") == "union":
        seq_now = int(_data(tab_a, "seq"))
        _end_or_first_button(tab_a)
        tab_b.wait_for_function(f"() => +document.body.dataset.seq > {seq_now}", timeout=3000)
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def _third_player(browser, base):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    r = ctx.request.post(base + "/api/auth/register", data={"username": f"x{uuid.uuid4().hex[:8]}", "password": PASSWORD})
    assert r.ok, r.text()
    return ctx


def _finished_game(browser, server, errors):
    """A live game the Confederate resigned, open in both players' pages."""
    gid, ctxs = new_game(browser, server, "1861")
    union = _open(ctxs["union"], server, gid, errors)
    confed = _open(ctxs["confederate"], server, gid, errors)
    _post(ctxs["confederate"], server, f"/api/games/{gid}/resign", {})
    for page in (union, confed):
        page.wait_for_selector("#game-over:not([hidden])")
    return gid, ctxs, union, confed


def test_rematch_is_offered_to_the_same_opponent_who_accepts_it(server, browser, artifacts):
    errors: list[str] = []
    gid, ctxs, union, confed = _finished_game(browser, server, errors)
    # the Union asks: the page stays, waiting for the answer
    union.locator("#game-over #rematch").click()
    union.wait_for_selector("#rematch-note")
    assert "waiting for your opponent's answer" in union.locator("#rematch-note").inner_text()
    assert gid in union.url
    # the opponent's page is told at once, over the socket: Accept or Decline
    confed.wait_for_selector("#game-over #rematch-accept")
    assert "asks for a rematch" in confed.locator("#rematch-note").inner_text()
    confed.screenshot(path=str(artifacts / "people-rematch-offer.png"))
    new_gid = _post(ctxs["union"], server, f"/api/games/{gid}/rematch", {})["id"]   # asked again: the same game
    # nobody else may take the seat
    third = _third_player(browser, server)
    token = next(c["value"] for c in third.cookies() if c["name"] == "hd_csrf")
    r = third.request.post(f"{server}/api/games/{new_gid}/join", data={}, headers={"X-CSRF-Token": token})
    assert r.status == 403 and r.json()["code"] == "rematch_reserved", r.text()
    third.close()
    # accepted: both players are taken to the new game, sides swapped, and it starts
    confed.locator("#game-over #rematch-accept").click()
    for page in (confed, union):
        page.wait_for_url(f"**/games/{new_gid}")
        page.wait_for_function("() => document.body.dataset.status === 'active'")
    confed.wait_for_function("() => document.querySelector('#seat-union').innerText.startsWith('con')")
    assert union.locator("#seat-confederate").inner_text().startswith("uni")
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_a_declined_rematch_closes_on_both_pages(server, browser):
    errors: list[str] = []
    gid, ctxs, union, confed = _finished_game(browser, server, errors)
    _post(ctxs["union"], server, f"/api/games/{gid}/rematch", {})
    # the lobby offers it to the opponent too
    lobby = ctxs["confederate"].new_page()
    lobby.goto(server + "/")
    assert lobby.locator(f"#rematch-offers [data-rematch-decline='{gid}']").is_visible()
    lobby.close()
    confed.wait_for_selector("#game-over #rematch-decline")
    confed.locator("#game-over #rematch-decline").click()
    for page in (union, confed):
        page.wait_for_function("() => /declined the rematch/.test(document.querySelector('#rematch-note')?.innerText || '')")
        assert page.locator("#game-over #rematch-accept, #game-over #rematch").count() == 0
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_presence_by_person_and_a_closed_page_shows_away(server, browser):
    errors: list[str] = []
    gid, ctxs = new_game(browser, server, "1861")
    union = _open(ctxs["union"], server, gid, errors)
    confed = _open(ctxs["confederate"], server, gid, errors)
    union.wait_for_function("() => document.getElementById('presence-confederate').dataset.state === 'online'")
    assert union.locator("#seat-confederate").get_attribute("title") == "Confederate · online"
    assert union.locator("#presence-confederate").is_hidden()   # the dot before the name says it
    union.wait_for_function("() => document.getElementById('watchers').dataset.count === '2'")
    # a second tab of the Confederate player: still two people
    second = _open(ctxs["confederate"], server, gid, errors)
    union.wait_for_timeout(600)
    assert union.locator("#watchers").get_attribute("data-count") == "2"
    # the Confederate player closes both pages: away on the Union player's page (not gone
    # yet, so the page offers no computer for the seat)
    second.close()
    confed.close()
    union.wait_for_function("() => document.getElementById('presence-confederate').dataset.state === 'away'",
                            timeout=5000)
    assert union.locator("#presence-confederate").inner_text() == "away <1 min"
    assert union.locator("#watchers").get_attribute("data-count") == "1"
    assert union.locator("#takeover-tools").is_hidden()
    # whose turn it is, in the status line
    assert "Union player turn" in union.locator("#turn-info").inner_text()
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_status_line_after_the_game_says_the_result_and_why(server, browser):
    errors: list[str] = []
    gid, ctxs, union, confed = _finished_game(browser, server, errors)
    for page in (union, confed):
        page.wait_for_function("() => !!document.getElementById('status-result')")
        assert page.locator("#status-result").inner_text() == "Game over: Union wins, by resignation"
        assert page.locator("#status-to-act").count() == 0
    assert union.locator("#prompt").inner_text() == "Game over. Union wins: by resignation"
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def _legal(ctx, base, gid):
    r = ctx.request.get(f"{base}/api/games/{gid}/legal")
    assert r.ok, r.text()
    return r.json()


def test_the_battle_over_board_closes_at_the_next_decision(server, browser):
    """Both players decide through the API (the first legal action each time) until a
    battle ends; the page shows "Battle over" and closes it at the next decision."""
    errors: list[str] = []
    gid, ctxs = new_game(browser, server, "1861")
    page = _open(ctxs["union"], server, gid, errors)
    battle = page.locator("#battle")
    # the Union marches from Washington on Manassas Junction (as in test_play) and ends movement
    for wanted in ({"type": "activate", "box": "washington"}, {"type": "move", "unit": "U-MI-01"},
                   {"type": "end_march"}, {"type": "end_movement"}):
        legal = _legal(ctxs["union"], server, gid)
        action = next(a for a in legal["actions"] if all(a.get(k) == v for k, v in wanted.items())
                      and (a["type"] != "move" or a["path"][-1] == "manassas_junction"))
        _post(ctxs["union"], server, f"/api/games/{gid}/actions", {"action": action})
    for _ in range(200):
        if battle.is_visible() and "Battle over" in battle.inner_text():
            break
        ctx = next(c for side, c in ctxs.items() if _legal(c, server, gid)["to_act"] == side)
        legal = _legal(ctx, server, gid)
        fights = [a for a in legal["actions"] if a["type"] in ("fight", "activate", "open_fire", "target")]
        action = (fights or legal["actions"])[0]
        _post(ctx, server, f"/api/games/{gid}/actions", {"action": action})
        page.wait_for_function(f"() => +document.body.dataset.seq >= {legal['seq'] + 1}")
    else:
        raise AssertionError("no battle ended in 200 decisions")
    # the next decision closes it
    ctx = next(c for side, c in ctxs.items() if _legal(c, server, gid)["to_act"] == side)
    legal = _legal(ctx, server, gid)
    _post(ctx, server, f"/api/games/{gid}/actions", {"action": legal["actions"][0]})
    page.wait_for_function(f"() => +document.body.dataset.seq > {legal['seq']}")
    page.wait_for_function("() => !/Battle over/.test(document.getElementById('battle').innerText)")
    assert not errors, errors
    for c in ctxs.values():
        c.close()


# every element of the side panel's Forces tab that sticks out of the panel, or whose
# text is wider than its box (clipped or spilling), as "tag.class: text"
CLIPPED_IN_SIDE = """() => {
  const side = document.getElementById('side').getBoundingClientRect();
  const out = [];
  for (const e of document.querySelectorAll('#tab-forces *')) {
    if (!e.checkVisibility() || e.closest('svg')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    const spills = e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline';
    if (r.right > side.right + 0.5 || r.left < side.left - 0.5 || spills) {
      out.push(`${e.tagName.toLowerCase()}.${e.className}: ${e.textContent.trim().slice(0, 40)}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_no_panel_is_clipped_in_any_language(server, browser, artifacts, lang, width, height):
    """The Forces panel and the dice hash fit the side panel (German words are long)."""
    gid, ctxs = new_game(browser, server, "1862")
    ctx = browser.new_context(viewport={"width": width, "height": height}, storage_state=ctxs["union"].storage_state(),
                              locale={"en": "en-US", "hu": "hu-HU", "de": "de-DE"}[lang])
    errors: list[str] = []
    page = _open(ctx, server, gid, errors)
    if page.locator("#sheet-handle").is_visible():   # a phone: the panel is a sheet, opened
        page.locator("#sheet-handle").click()
    page.wait_for_selector("#forces .force")
    clipped = page.evaluate(CLIPPED_IN_SIDE)
    if clipped:
        page.screenshot(path=str(artifacts / f"people-clipped-{lang}-{width}.png"))
    assert not clipped, clipped
    # the whole dice hash can be read and copied
    code = page.locator("#dice-commitment code")
    assert len(code.inner_text().strip()) == 64 and code.get_attribute("title") == code.inner_text().strip()
    assert not errors, errors
    ctx.close()
    for c in ctxs.values():
        c.close()


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_new_words_are_translated(server, browser, lang):
    """A finished game with a rematch offered, the players' presence and the help, in
    Hungarian and German: no English left."""
    gid, ctxs = new_game_in(browser, server, lang)
    errors: list[str] = []
    union = _open(ctxs["union"], server, gid, errors)
    confed = _open(ctxs["confederate"], server, gid, errors)
    union.wait_for_function("() => document.getElementById('presence-confederate').dataset.state === 'online'")
    _post(ctxs["union"], server, f"/api/games/{gid}/resign", {})
    _post(ctxs["confederate"], server, f"/api/games/{gid}/rematch", {})
    union.wait_for_selector("#game-over #rematch-accept")
    confed.wait_for_selector("#rematch-note")
    for page in (union, confed):
        page.locator("#game-help summary").click()
        page.wait_for_selector("#status-result")
        left = english_left(page, lang)
        assert not left, left
    confed.close()
    union.wait_for_function("() => document.getElementById('presence-confederate').dataset.state === 'away'")
    assert not english_left(union, lang)
    assert not errors, errors
    for c in ctxs.values():
        c.close()
