"""Browser: the account's safety on the settings page (changing the password logs the
other browsers out; the list of sessions and "log out my other sessions"), the forgotten
password pages, and a registration made in Hungarian keeping Hungarian. All under the
Content-Security-Policy."""
from __future__ import annotations

import uuid

import httpx

from .test_csp import WATCH_VIOLATIONS, _logged_in_page


def _account(base: str) -> str:
    name = f"s{uuid.uuid4().hex[:10]}"
    r = httpx.post(base + "/api/auth/register", json={"username": name, "password": "password123"})
    assert r.status_code == 201, r.text
    return name


def _page(ctx):
    page = ctx.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    return page


def test_changing_the_password_on_the_settings_page_logs_the_other_browsers_out(server, browser):
    name = _account(server)
    home, phone = _logged_in_page(browser, server, name), _logged_in_page(browser, server, name)
    page = _page(home)
    page.goto(f"{server}/settings")
    page.fill("#password [name=current_password]", "wrong one")
    page.fill("#password [name=new_password]", "a much better password")
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password .form-error:not([hidden])")
    assert "current password is not right" in page.text_content("#password .form-error")
    page.fill("#password [name=current_password]", "password123")
    page.click("#password button[type=submit]")
    page.wait_for_url("**/settings?password=changed#password")
    assert "Your password is changed" in page.text_content("#password")
    other = _page(phone)
    other.goto(f"{server}/settings")
    assert "/login" in other.url                  # logged out there
    assert page.evaluate("window.__csp") == []
    home.close()
    phone.close()


def test_the_sessions_list_logs_out_the_other_sessions(server, browser):
    name = _account(server)
    home, phone = _logged_in_page(browser, server, name), _logged_in_page(browser, server, name)
    page = _page(home)
    page.goto(f"{server}/settings#sessions")
    rows = page.locator("#sessions li")
    assert rows.count() == 3                      # registration, home, phone
    registration = rows.nth(2).locator("form")
    registration.locator("button").click()        # one session logged out by itself
    page.wait_for_url("**/settings?ended=*#sessions")
    assert rows.count() == 2
    assert "this session" in rows.first.text_content()
    page.click("#sessions [data-api='/api/auth/sessions/logout-others'] button")
    page.wait_for_url("**/settings?ended=others#sessions")
    assert rows.count() == 1 and "this session" in rows.first.text_content()
    other = _page(phone)
    other.goto(f"{server}/settings")
    assert "/login" in other.url
    assert page.evaluate("window.__csp") == []
    home.close()
    phone.close()


def test_the_forgotten_password_pages(server, browser):
    ctx = browser.new_context()
    page = _page(ctx)
    page.goto(f"{server}/login")
    page.click("a[href='/password-reset']")
    page.fill("[name=email]", "nobody@example.org")
    page.click("button[type=submit]")
    page.wait_for_url("**/password-reset?sent=1")
    assert "If an account has this confirmed address" in page.text_content("main")
    page.goto(f"{server}/reset-password?t=not-a-real-token")
    page.fill("[name=new_password]", "a much better password")
    page.click("button[type=submit]")
    page.wait_for_selector(".form-error:not([hidden])")
    assert "not valid" in page.text_content(".form-error")
    assert page.evaluate("window.__csp") == []
    ctx.close()


def test_registering_in_hungarian_keeps_hungarian(server, browser):
    ctx = browser.new_context(locale="en-US")
    ctx.add_cookies([{"name": "hd_lang", "value": "hu", "url": server}])
    page = _page(ctx)
    page.goto(f"{server}/register")
    name = f"h{uuid.uuid4().hex[:10]}"
    page.fill("[name=username]", name)
    page.fill("[name=password]", "password123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{server}/")
    assert page.request.get(f"{server}/api/auth/me").json()["language"] == "hu"
    ctx.close()
    fresh = browser.new_context(locale="de-DE")          # another browser, asking for German
    assert fresh.request.post(f"{server}/api/auth/login", data={"username": name, "password": "password123"}).ok
    page = fresh.new_page()
    page.goto(f"{server}/settings")
    assert page.get_attribute("html", "lang") == "hu"
    fresh.close()
