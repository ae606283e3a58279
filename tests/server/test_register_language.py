"""A new account keeps the language its registration page was read in: the one the
form sends, else the page's cookie or the browser's; its mails (the confirmation at
once) come in that language, and it stays when the player logs in from a browser that
asks for another. Real server processes, the real SMTP server on loopback."""
from __future__ import annotations

import uuid

import httpx

from .mailkit import body


def register(base: str, **extra) -> httpx.Response:
    cookies = extra.pop("cookies", None)
    headers = extra.pop("headers", None)
    name = f"l{uuid.uuid4().hex[:10]}"
    return httpx.post(base + "/api/auth/register", cookies=cookies, headers=headers,
                      json={"username": name, "password": "password123", **extra})


def page_language(base: str, username: str, accept: str = "en") -> str:
    """The language a fresh browser (no cookie, asking for `accept`) gets after logging in."""
    web = httpx.Client(base_url=base, headers={"Accept-Language": accept})
    assert web.post("/api/auth/login", json={"username": username, "password": "password123"}).status_code == 200
    html = web.get("/settings").text
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_language_chosen_on_the_page_is_kept_and_the_mails_speak_it(srv, smtp):
    page = httpx.get(srv.base + "/register", cookies={"hd_lang": "hu"})
    assert 'name="language" value="hu"' in page.text          # the form sends the page's language
    email = f"{uuid.uuid4().hex[:10]}@example.org"
    r = register(srv.base, email=email, language="hu")
    assert r.status_code == 201 and r.json()["user"]["language"] == "hu", r.text
    [m] = smtp.box.wait(email, 1)
    assert "Erősítsd meg az e-mail címedet" in m["Subject"], m["Subject"]
    assert "Confirm" not in m["Subject"]
    assert page_language(srv.base, r.json()["username"], accept="de") == "hu"


def test_the_page_cookie_or_the_browser_language_count_when_the_form_says_none(srv):
    by_cookie = register(srv.base, cookies={"hd_lang": "de"}, headers={"Accept-Language": "hu"})
    assert by_cookie.status_code == 201 and by_cookie.json()["user"]["language"] == "de"
    by_browser = register(srv.base, headers={"Accept-Language": "hu-HU,hu;q=0.9,en;q=0.5"})
    assert by_browser.json()["user"]["language"] == "hu"
    assert page_language(srv.base, by_browser.json()["username"]) == "hu"
    program = register(srv.base)        # says nothing: the reader's browser decides, each time
    assert program.json()["user"]["language"] is None
    assert page_language(srv.base, program.json()["username"], accept="de") == "de"


def test_an_unknown_language_is_refused_and_no_account_is_made(srv):
    name = f"x{uuid.uuid4().hex[:10]}"
    r = httpx.post(srv.base + "/api/auth/register", json={"username": name, "password": "password123",
                                                          "language": "tlh"})
    assert r.status_code == 422 and r.json()["code"] == "unknown_language", r.text
    assert httpx.post(srv.base + "/api/auth/login", json={"username": name, "password": "password123"}
                      ).status_code == 401
    r = httpx.post(srv.base + "/api/auth/register", json={"username": name, "password": "password123",
                                                          "language": "x" * 17})
    assert r.status_code == 422
