"""Decisions without surprises, in the browser at 1366x900: ending a phase with points
left asks first; resigning asks, then the game-over banner offers the replay and a
rematch; a draw offer is declined, offered
again and accepted; the create form greys out an option that does not go with the others."""
from __future__ import annotations

import json

from .test_board import SIZES, _post, new_game

VIEW = {"width": 1366, "height": 900}


def _open(ctx, base, gid, errors):
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.seq !== undefined")
    return page


def _data(page, key):
    return page.evaluate(f"document.body.dataset[{json.dumps(key)}]")


def _end_movement_confirmed(page):
    before = int(_data(page, "seq"))
    page.locator("#actions").get_by_role("button", name="End movement", exact=True).click()
    page.locator("#confirm-yes").click()
    page.wait_for_function(f"() => +document.body.dataset.seq > {before} && document.body.dataset.ready === '1'")


def test_end_movement_with_marches_unused_asks_first(server, browser, artifacts):
    gid, ctxs = new_game(browser, server, "1861")
    errors: list[str] = []
    page = _open(ctxs["union"], server, gid, errors)
    page.wait_for_function("() => document.body.dataset.toAct === 'union' && document.body.dataset.phase === 'movement'")
    before = int(_data(page, "seq"))
    page.locator("#actions").get_by_role("button", name="End movement", exact=True).click()
    dialog = page.locator("#confirm")
    assert dialog.is_visible()
    assert page.locator("#confirm-text").inner_text() == "End movement with 2 Marches unused?"
    page.screenshot(path=str(artifacts / "decisions-end-movement.png"))
    # Cancel keeps playing: nothing was sent
    page.locator("#confirm-no").click()
    assert not dialog.is_visible()
    page.wait_for_timeout(300)
    assert int(_data(page, "seq")) == before and _data(page, "phase") == "movement"
    # confirmed, movement ends
    _end_movement_confirmed(page)
    assert _data(page, "phase") != "movement" or _data(page, "side") != "union"
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_resign_asks_first_then_both_pages_show_the_banner(server, browser, artifacts):
    gid, ctxs = new_game(browser, server, "1861")
    errors: list[str] = []
    union = _open(ctxs["union"], server, gid, errors)
    confed = _open(ctxs["confederate"], server, gid, errors)
    union.wait_for_function("() => document.body.dataset.toAct === 'union'")
    _end_movement_confirmed(union)
    # resigning asks first; then both pages show the banner with the result and the reason
    confed.wait_for_function("() => !!document.querySelector('#actions #resign')")
    confed.locator("#actions #resign").click()
    assert "Union player wins" in confed.locator("#confirm-text").inner_text()
    confed.locator("#confirm-yes").click()
    for page in (union, confed):
        page.wait_for_selector("#game-over:not([hidden])")
        banner = page.locator("#game-over").inner_text()
        assert "Game over: Union wins" in banner and "By resignation" in banner
        assert page.locator("#game-over #over-replay").get_attribute("href") == f"/games/{gid}/replay"
    union.screenshot(path=str(artifacts / "decisions-game-over.png"))
    assert union.locator("#game-over #rematch").is_visible()   # the rematch itself: test_people.py
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_draw_offer_declined_then_offered_again_and_accepted(server, browser, artifacts):
    gid, ctxs = new_game(browser, server, "1861")
    errors: list[str] = []
    union = _open(ctxs["union"], server, gid, errors)
    confed = _open(ctxs["confederate"], server, gid, errors)
    # the Confederate offers while the Union is to act (an offer needs no turn), and confirms
    confed.locator("#actions #offer-draw").click()
    assert "Offer your opponent a draw?" in confed.locator("#confirm-text").inner_text()
    confed.locator("#confirm-yes").click()
    confed.wait_for_selector("#actions #draw-offer")
    assert "waiting for the answer" in confed.locator("#draw-offer").inner_text()
    union.wait_for_selector("#actions #accept-draw")
    assert "offers a draw" in union.locator("#draw-offer").inner_text()
    union.screenshot(path=str(artifacts / "decisions-draw-offer.png"))
    union.locator("#actions #decline-draw").click()
    confed.wait_for_selector("#actions #offer-draw")
    union.wait_for_selector("#actions #offer-draw")
    assert union.locator("#actions #accept-draw").count() == 0
    # offered again, this time accepted (which asks first): a draw by agreement for both
    confed.locator("#actions #offer-draw").click()
    confed.locator("#confirm-yes").click()
    union.wait_for_selector("#actions #accept-draw")
    union.locator("#actions #accept-draw").click()
    assert "no winner" in union.locator("#confirm-text").inner_text()
    union.locator("#confirm-yes").click()
    for page in (union, confed):
        page.wait_for_function("() => document.body.dataset.status === 'finished'")
        page.wait_for_selector("#game-over:not([hidden])")
        banner = page.locator("#game-over").inner_text()
        assert "Game over: Draw" in banner and "By agreement" in banner
        assert page.locator("#prompt").inner_text().startswith("Game over. A draw")
    confed.get_by_role("tab", name="Log").click()
    union.goto(server + "/")
    row = union.locator(f".game-row[data-game='{gid}'] .status").first
    assert "Draw" in row.inner_text() and "by agreement" in row.inner_text()
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_create_form_greys_out_an_option_that_does_not_go(server, browser, artifacts):
    _gid, ctxs = new_game(browser, server, "1861")
    page = ctxs["union"].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/new")
    ending = lambda oid: page.locator(f"input[name='options'][value='{oid}']")  # noqa: E731
    reason = lambda oid: page.locator(f"[data-refusal='{oid}']")  # noqa: E731
    assert ending("11.3:1863").is_enabled()
    # "Time per move" is for by-turn games only
    assert not page.get_by_label("Time per move").is_visible()
    page.get_by_label("By turn", exact=False).check()
    assert page.get_by_label("Time per move").is_visible()
    page.get_by_label("Live", exact=False).check()
    assert not page.get_by_label("Time per move").is_visible()
    # one March ending: the others and sudden death are greyed, with the engine's reason
    ending("11.3:1862").check()
    page.wait_for_function("() => document.querySelector(\"input[value='11.3:1863']\").disabled")
    assert "at most one" in reason("11.3:1863").inner_text()
    assert "Campaign Game ending" in reason("11.3:sudden-death").inner_text()
    assert ending("11.3:1862").is_enabled()
    page.screenshot(path=str(artifacts / "decisions-create-form.png"))
    # unticked, they come back
    ending("11.3:1862").uncheck()
    page.wait_for_function("() => !document.querySelector(\"input[value='11.3:1863']\").disabled")
    assert not reason("11.3:1863").is_visible()
    # a ticked option the scenario does not allow: said next to the options, and creating refuses
    ending("11.3:1862").check()
    page.locator("select[name='scenario']").select_option("1863")
    err = page.locator("[data-error-for='options']")
    err.wait_for(state="visible")
    assert "starts after 03/1862" in err.inner_text()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_timeout(300)
    assert "/new" in page.url and "starts after 03/1862" in err.inner_text()
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_create_form_makes_a_rated_game(server, browser):
    _gid, ctxs = new_game(browser, server, "1861")
    page = ctxs["union"].new_page()
    page.goto(server + "/new")
    page.get_by_label("Rated", exact=False).check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(f"{server}/games/*")
    gid = page.url.rstrip("/").split("/")[-1]
    assert ctxs["union"].request.get(f"{server}/api/games/{gid}").json()["rated"] is True
    for c in ctxs.values():
        c.close()


def _act_where(ctx, base, gid, pick):
    legal = ctx.request.get(f"{base}/api/games/{gid}/legal").json()["actions"]
    action = next(a for a in legal if pick(a))
    _post(ctx, base, f"/api/games/{gid}/actions", {"action": action})


def test_battle_board_shows_odds_and_leaves_the_box_in_sight(server, browser, artifacts):
    gid, ctxs = new_game(browser, server, "1861")
    u = ctxs["union"]
    _act_where(u, server, gid, lambda a: a == {"type": "activate", "box": "washington"})
    _act_where(u, server, gid, lambda a: a["type"] == "move" and a["path"][-1] == "manassas_junction")
    _act_where(u, server, gid, lambda a: a["type"] == "end_march")
    _act_where(u, server, gid, lambda a: a["type"] == "end_movement")
    _act_where(u, server, gid, lambda a: a["type"] == "fight")
    errors: list[str] = []
    for width, height in SIZES:
        ctx = browser.new_context(viewport={"width": width, "height": height}, storage_state=u.storage_state())
        page = _open(ctx, server, gid, errors)
        page.wait_for_selector("#battle:not([hidden]) .odds")
        # the defender fires first: its to-hit number is shown before it chooses a target
        odds = page.locator("#battle .line.firing .odds")
        assert odds.count() == page.locator("#battle .line.firing .bunit").count()
        assert odds.first.inner_text().startswith("hits on")
        page.wait_for_timeout(200)
        board = page.locator("#battle").bounding_box()
        box = page.locator("#map [data-box='manassas_junction'] .frame").bounding_box()
        apart = (board["x"] >= box["x"] + box["width"] or box["x"] >= board["x"] + board["width"]
                 or board["y"] >= box["y"] + box["height"] or box["y"] >= board["y"] + board["height"])
        assert apart, (width, height, board, box)
        page.screenshot(path=str(artifacts / f"decisions-battle-{width}x{height}.png"))
        ctx.close()
    assert not errors, errors
    for c in ctxs.values():
        c.close()
