"""A player starts a game against the computer from the lobby's "Play the computer"
form and asks for a hint on the game page."""
from __future__ import annotations

import uuid

from .test_play import _page, ready, register


def test_play_the_computer_from_the_lobby_and_ask_for_a_hint(server, browser):
    errors: list[str] = []
    ctx, page = _page(browser, errors)
    try:
        register(page, server, "c" + uuid.uuid4().hex[:8])
        form = page.locator("#play-computer")
        form.get_by_role("radio", name="Easy").check()
        form.get_by_role("radio", name="Union").check()
        form.get_by_label("Scenario against the computer").select_option("1861-short")
        form.get_by_role("button", name="Play the computer").click()
        page.wait_for_url(f"{server}/games/*")
        ready(page)
        assert page.locator("#seat-confederate").text_content() == "Computer (easy)"
        page.locator("#computer-tools").get_by_role("button", name="Hint").click()
        page.wait_for_function("document.querySelector('#computer-tools .hint').textContent.includes('would play')")
        assert "activate" in page.locator("#computer-tools .hint").text_content()
        assert errors == []
    finally:
        ctx.close()
