"""The first decisions of a game played in Hungarian and in German, in the browser: the
page follows the browser's language (Accept-Language), and after each decision no English
is left on the game page: no visible text (nor a label read aloud) is the English of a
catalogue message that has a translation, and no common English word shows."""
from __future__ import annotations

import uuid

import pytest
from english_left import english_left_in

from .test_board import PASSWORD, _post
from .test_play import click_map

VIEW = {"width": 1366, "height": 900}
# every visible text, and the labels a screen reader says, of the elements shown now
VISIBLE_TEXTS = """() => {
  const out = [];
  const shown = (e) => e && e.checkVisibility && e.checkVisibility({ visibilityProperty: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest("script, style, [hidden]") || !shown(p)) continue;
    if (n.textContent.trim()) out.push(n.textContent.trim());
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (e.closest("[hidden]") || e.closest("svg title")) continue;
    for (const a of ["aria-label", "title", "placeholder"]) if (e.getAttribute(a)) out.push(e.getAttribute(a).trim());
  }
  for (const p of document.querySelectorAll("#prompt, #actions, #turn-info, #log li, #battle h2, #confirm-text")) {
    if (p.textContent.trim()) out.push(p.textContent.trim());
  }
  return out;
}"""


def english_left(page, lang: str) -> list[str]:
    return english_left_in(page.evaluate(VISIBLE_TEXTS), lang)


def new_game_in(browser, base: str, lang: str):
    tag = uuid.uuid4().hex[:6]
    ctxs = {}
    for side in ("union", "confederate"):
        ctx = browser.new_context(viewport=VIEW, locale={"hu": "hu-HU", "de": "de-DE"}[lang])
        r = ctx.request.post(base + "/api/auth/register", data={"username": f"{lang}{side[:3]}{tag}", "password": PASSWORD})
        assert r.ok, r.text()
        ctxs[side] = ctx
    gid = _post(ctxs["union"], base, "/api/games", {"scenario": "1861", "side": "union"})["id"]
    _post(ctxs["confederate"], base, f"/api/games/{gid}/join", {})
    return gid, ctxs


def wait_seq_after(page, before: int) -> None:
    page.wait_for_function(f"() => +document.body.dataset.seq > {before} && document.body.dataset.ready === '1'",
                           timeout=15000)


def seq(page) -> int:
    return int(page.evaluate("() => document.body.dataset.seq"))


def no_english(page, lang: str, where: str, artifacts) -> None:
    left = english_left(page, lang)
    if left:
        page.screenshot(path=str(artifacts / f"i18n-{lang}-{where}.png"))
    assert not left, f"{lang}, {where}: " + "; ".join(left[:12])


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_first_decisions_of_a_game_leave_no_english(server, browser, artifacts, lang):
    gid, ctxs = new_game_in(browser, server, lang)
    errors: list[str] = []
    page = ctxs["union"].new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct === 'union'")
    assert page.evaluate("() => document.documentElement.lang") == lang
    no_english(page, lang, "start", artifacts)

    roll = page.locator("#actions [data-action='roll_marches']")
    if roll.count():
        before = seq(page)
        roll.click()
        wait_seq_after(page, before)
        no_english(page, lang, "rolled", artifacts)
    assert page.evaluate("() => document.body.dataset.phase") == "movement"

    # a March: activate a box, move one unit, end the March
    before = seq(page)
    click_map(page, page.locator("#map .box.legal .name").first)
    wait_seq_after(page, before)
    no_english(page, lang, "activated", artifacts)
    click_map(page, page.locator("#map .counter.legal").first)
    no_english(page, lang, "unit-selected", artifacts)
    before = seq(page)
    click_map(page, page.locator("#map .box.legal .name").first)
    wait_seq_after(page, before)
    no_english(page, lang, "moved", artifacts)
    end_march = page.locator("#actions [data-action='end_march']")
    if end_march.count():          # a March with units left to move stays open until ended
        before = seq(page)
        end_march.click()
        wait_seq_after(page, before)
        no_english(page, lang, "march-ended", artifacts)

    # then on through the Union's player turn (ending movement with Marches left asks first,
    # in the reader's language): a button's decision where there is one, else the map's
    for step in range(8):
        if page.evaluate("() => document.body.dataset.toAct") != "union":
            break
        before = seq(page)
        button = page.locator("#actions button[data-action]")
        if button.count():
            button.first.click()
        elif page.locator("#map .box.legal .name").count():
            click_map(page, page.locator("#map .box.legal .name").first)
        else:
            click_map(page, page.locator("#map .counter.legal").first)
            click_map(page, page.locator("#map .box.legal .name").first)
        if page.locator("#confirm-text").is_visible():
            no_english(page, lang, f"confirm-{step}", artifacts)
            page.locator("#confirm-yes").click()
        wait_seq_after(page, before)
        no_english(page, lang, f"decision-{step}", artifacts)

    page.locator("#t-log").click()
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 3")
    no_english(page, lang, "log", artifacts)
    page.screenshot(path=str(artifacts / f"i18n-{lang}-game.png"))
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_the_settings_pages_script_texts_leave_no_english(server, browser, artifacts):
    """What static/settings.js and static/notify.js write into the settings page (the token
    list, the address's and the vacation's state) in German, the token's date as German
    writes dates (one language: the server-rendered pages are checked in both, in
    tests/server/test_page_language.py)."""
    lang = "de"
    ctx = browser.new_context(viewport=VIEW, locale="de-DE")
    username = f"{lang}set{uuid.uuid4().hex[:6]}"
    assert ctx.request.post(server + "/api/auth/register", data={"username": username, "password": PASSWORD}).ok
    _post(ctx, server, "/api/auth/tokens", {"name": "bot"})
    token = next(c["value"] for c in ctx.cookies() if c["name"] == "hd_csrf")
    r = ctx.request.put(server + "/api/me/notifications", data={"email": f"{username}@example.org"},
                        headers={"X-CSRF-Token": token})
    assert r.ok, r.text()
    _post(ctx, server, "/api/me/vacation", {"days": 3})
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/settings")
    page.wait_for_function("() => document.querySelector('#tokens li button')"
                           " && document.getElementById('vacation-status').textContent.trim() !== ''")
    left = english_left_in(page.evaluate(VISIBLE_TEXTS), lang, names=[username, "bot"])
    if left:
        page.screenshot(path=str(artifacts / f"i18n-{lang}-settings.png"))
    assert not left, "; ".join(left[:12])
    created = page.locator("#tokens li").first.text_content()
    today = page.evaluate("() => new Intl.DateTimeFormat('de', { dateStyle: 'medium' }).format(new Date())")
    assert today in created, created
    assert page.locator("#tokens li button").first.text_content() == "Widerrufen"
    assert errors == []
    ctx.close()
