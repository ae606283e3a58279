"""A player starts a game against the computer from the lobby's "Play the computer"
form and asks for a hint on the game page."""
from __future__ import annotations

import uuid

import httpx

from .test_play import _page, ready, register


def test_play_the_computer_from_the_lobby_and_ask_for_a_hint(server, browser):
    errors: list[str] = []
    ctx, page = _page(browser, errors)
    try:
        register(page, server, "c" + uuid.uuid4().hex[:8])
        form = page.locator("#play-computer")
        assert form.locator("input[name=level]").count() == 4 and form.get_by_role("radio", name="Expert").count() == 1
        form.get_by_role("radio", name="Easy").check()
        form.get_by_role("radio", name="Union").check()
        form.get_by_label("Scenario against the computer").select_option("1861-short")
        form.get_by_role("button", name="Play the computer").click()
        page.wait_for_url(f"{server}/games/*")
        ready(page)
        assert page.locator("#seat-confederate").text_content() == "Computer (easy)"
        page.locator("#computer-tools").get_by_role("button", name="Hint").click()
        page.wait_for_function("() => document.querySelector('#computer-tools .hint').textContent.includes('would play')")
        # said in the words of the action buttons: the Union's first decision is a March
        hint = page.locator("#computer-tools .hint").text_content()
        assert "The expert level would play: Activate " in hint and "{" not in hint
        assert errors == []
    finally:
        ctx.close()


def test_challenge_from_a_profile_and_accept_in_the_lobby(server, browser):
    other = "o" + uuid.uuid4().hex[:8]
    r = httpx.post(server + "/api/auth/register", json={"username": other, "password": "correct horse battery"})
    other_http = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {r.json()['token']}"})
    errors: list[str] = []
    ctx, page = _page(browser, errors)
    try:
        me = "c" + uuid.uuid4().hex[:8]
        register(page, server, me)
        page.goto(f"{server}/players/{other}")
        form = page.locator("#challenge")
        form.get_by_label("Scenario of the challenge").select_option("1861-short")
        form.get_by_label("Rated").check()
        form.get_by_role("button", name="Send the challenge").click()
        page.wait_for_selector("#challenge [data-sent]:not([hidden])")
        [sent] = other_http.get("/api/challenges").json()["challenges"]
        assert sent["challenger"] == me and sent["rated"] is True and sent["scenario"] == "1861-short"
        # a challenge the other way, accepted in the lobby
        back = other_http.post(f"/api/challenges/{me}", json={"scenario": "1861-short", "side": "union"}).json()
        page.goto(server + "/")
        page.locator(f"[data-accept='{back['id']}']").click()
        page.wait_for_url(f"{server}/games/*")
        ready(page)
        assert page.locator("#seat-union").text_content() == other
        assert errors == []
    finally:
        ctx.close()
        other_http.close()
