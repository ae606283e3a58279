"""People on the game page, in the browser with the real server: one player in two tabs,
the rematch offered to the same opponent (and to nobody else), who is here and who is
away, the status line after the game, and panels that close when their moment is over."""
from __future__ import annotations

from .test_board import _post, new_game
from .test_decisions import _data, _open

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
