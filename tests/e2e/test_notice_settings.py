"""Browser: muting a game from /notifications, the unsubscribe page (asks first, its
button unsubscribes, all under the Content-Security-Policy) and the webhook's signing
secret shown once in the settings."""
from __future__ import annotations

import os
import re

import pytest

from app.core.clock import Clock
from app.notices.outbox import Notices

from .test_csp import WATCH_VIOLATIONS, _logged_in_page
from .test_replay import _player


@pytest.fixture(scope="module", autouse=True)
def _loopback_webhooks_allowed():
    """The module's server (started after this) accepts a webhook on loopback."""
    old = os.environ.get("WEBHOOK_ALLOW_HOSTS")
    os.environ["WEBHOOK_ALLOW_HOSTS"] = "127.0.0.1"
    yield
    if old is None:
        del os.environ["WEBHOOK_ALLOW_HOSTS"]
    else:
        os.environ["WEBHOOK_ALLOW_HOSTS"] = old


def _username(http) -> str:
    return http.get("/api/auth/me").json()["username"]


def test_muting_a_game_from_the_notifications_page(server, browser):
    a, b = _player(server), _player(server)
    gid = a.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "async"}).json()["id"]
    assert b.post(f"/api/games/{gid}/join", json={}).status_code == 200  # waits for a
    ctx = _logged_in_page(browser, server, _username(a))
    page = ctx.new_page()
    page.goto(f"{server}/notifications")
    page.click(f'#waiting-list [data-mute="{gid}"]')
    page.wait_for_selector(f'#muted-list a[href="/games/{gid}"]')
    assert page.text_content(f'#waiting-list [data-mute="{gid}"]').strip() == "Unmute"
    assert [g["game_id"] for g in a.get("/api/me/muted-games").json()["games"]] == [gid]
    page.click(f'#muted-list [data-mute="{gid}"]')
    page.wait_for_selector("#muted-list", state="detached")
    assert a.get("/api/me/muted-games").json()["games"] == []
    ctx.close()


def test_the_unsubscribe_page_asks_and_its_button_unsubscribes(server, browser):
    a = _player(server)
    me = a.get("/api/auth/me").json()
    url = Notices(server, "e2e-secret-key-of-at-least-32-bytes", Clock()).unsubscribe_url(me["id"])
    ctx = browser.new_context()  # from a mail program: not logged in
    page = ctx.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto(url)
    assert f"for the account {me['username']}" in page.text_content("main")
    assert a.get("/api/me/notifications").json()["mail_mode"] == "turn"
    page.click("#unsubscribe-confirm")
    page.wait_for_selector("text=no more mail")
    assert a.get("/api/me/notifications").json()["mail_mode"] == "never"
    assert page.evaluate("window.__csp") == []
    ctx.close()


def test_the_settings_forms_open_only_once_they_show_what_is_saved(server, browser):
    """Typing into a form before its saved values arrive would be overwritten by them."""
    a = _player(server)
    ctx = _logged_in_page(browser, server, _username(a))
    page = ctx.new_page()
    held = []
    page.route("**/api/me/notifications", lambda route: held.append(route))  # the saved values, held back
    page.goto(f"{server}/settings#notices")
    for _ in range(200):  # the page's script asks for them once it has run
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not ask for the saved settings"
    assert all(page.is_disabled(f) for f in ("#mail-email", "#hook-url", "#vacation-days"))
    held[0].continue_()
    page.wait_for_selector("#hook-url:enabled")
    assert page.input_value("#mail-zone") == "UTC" and page.is_enabled("#mail-email")
    ctx.close()


def test_the_settings_show_the_webhook_secret_once(server, browser):
    a = _player(server)
    ctx = _logged_in_page(browser, server, _username(a))
    page = ctx.new_page()
    page.goto(f"{server}/settings#notices")
    page.fill("#hook-url", "http://127.0.0.1:9/hook")
    page.click("#hook-form button[type=submit]")
    # the secret, or the refusal the form shows (so that a failure says why)
    page.wait_for_selector("#hook-secret code, #hook-form .form-error:not([hidden])", timeout=60_000)
    assert page.is_visible("#hook-secret code"), page.text_content("#hook-form .form-error")
    first = page.text_content("#hook-secret code")
    assert re.fullmatch(r"[0-9a-f]{64}", first)
    page.reload()
    page.wait_for_function("() => document.querySelector('#hook-url').value !== ''")  # a function: the CSP forbids eval
    assert page.is_hidden("#hook-secret")
    page.click("#hook-rotate")
    page.wait_for_selector("#hook-secret code")
    assert re.fullmatch(r"[0-9a-f]{64}", page.text_content("#hook-secret code")) and \
        page.text_content("#hook-secret code") != first
    ctx.close()


def test_logging_in_from_the_unsubscribe_page_comes_back_to_it(server, browser):
    a = _player(server)
    me = a.get("/api/auth/me").json()
    url = Notices(server, "e2e-secret-key-of-at-least-32-bytes", Clock()).unsubscribe_url(me["id"])
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(url)
    page.click("#unsubscribe-login")
    page.fill("input[name=username]", me["username"])
    page.fill("input[name=password]", "password123")
    page.click("form button[type=submit]")
    page.wait_for_url(url)
    page.wait_for_selector("#unsubscribe-confirm")
    assert a.get("/api/me/notifications").json()["mail_mode"] == "turn"  # coming back changed nothing
    ctx.close()


def test_the_settings_set_the_mail_time_zone_and_digest_hour(server, browser):
    a = _player(server)
    ctx = _logged_in_page(browser, server, _username(a))
    page = ctx.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto(f"{server}/settings#notices")
    page.wait_for_function("() => document.querySelector('#mail-zone').value === 'UTC'")
    page.fill("#mail-zone", "Mars/Olympus")
    page.click("#mail-form button[type=submit]")
    page.wait_for_selector("#mail-form .form-error:not([hidden])")
    assert "unknown time zone" in page.text_content("#mail-form .form-error")
    assert a.get("/api/me/notifications").json()["time_zone"] == "UTC"  # nothing changed
    page.fill("#mail-zone", "Europe/Paris")
    page.select_option("#mail-hour", "21")
    page.click("#mail-form button[type=submit]")
    for _ in range(100):  # the form saves in the background
        got = a.get("/api/me/notifications").json()
        if got["time_zone"] != "UTC":
            break
        page.wait_for_timeout(50)
    assert (got["time_zone"], got["digest_hour"]) == ("Europe/Paris", 21)
    assert page.is_hidden("#mail-form .form-error")
    page.reload()
    page.wait_for_function("() => document.querySelector('#mail-zone').value === 'Europe/Paris'")
    assert page.input_value("#mail-hour") == "21"
    assert page.evaluate("window.__csp") == []
    ctx.close()
