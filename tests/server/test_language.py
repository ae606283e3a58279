"""The reader's language: the browser's Accept-Language, the header's select (saved in a
cookie and, logged in, in the account: the account wins), refusals of a language the site
does not speak, and two readers of one game reading it in two languages."""
from __future__ import annotations

import html
import json
import re

import httpx

from .helpers import Player, new_match


def page_lang(text: str) -> str:
    return re.search(r'<html lang="(\w+)">', text).group(1)


def selected_language(text: str) -> str:
    select = re.search(r'<select id="language".*?</select>', text, re.S).group(0)
    return re.search(r'<option value="(\w+)" selected', select).group(1)


def page_words(text: str) -> dict:
    return json.loads(html.unescape(re.search(r'<script type="application/json" id="words">(.*?)</script>',
                                              text, re.S).group(1)))


def test_accept_language_chooses_the_pages_language(server):
    cases = {"de-AT,de;q=0.9,en;q=0.5": "de", "fr-FR, hu;q=0.8, de;q=0.7": "hu", "fr, it": "en", "": "en"}
    for header, lang in cases.items():
        r = httpx.get(server.base + "/login", headers={"Accept-Language": header})
        assert r.status_code == 200
        assert page_lang(r.text) == lang and selected_language(r.text) == lang
    de = httpx.get(server.base + "/", headers={"Accept-Language": "de"}).text
    assert "Anmelden" in de and "Registrieren" in de and ">Log in<" not in de
    hu = httpx.get(server.base + "/", headers={"Accept-Language": "hu"}).text
    assert ">Belépés<" in hu and 'aria-label="Nyelv"' in hu
    missing = httpx.get(server.base + "/games/no-such-game", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and "<p>Diese Partie gibt es nicht.</p>" in missing.text


def test_the_select_sets_a_cookie_that_beats_accept_language(server):
    with httpx.Client(base_url=server.base, headers={"Accept-Language": "de"}) as browser:
        r = browser.post("/api/language", json={"language": "hu"})
        assert r.status_code == 200 and r.json() == {"language": "hu"}
        assert browser.cookies.get("hd_lang") == "hu"
        page = browser.get("/login").text
        assert page_lang(page) == "hu" and selected_language(page) == "hu"
        # a language the site does not speak changes nothing
        for bad in ("fr", "", "x" * 300):
            r = browser.post("/api/language", json={"language": bad})
            assert r.status_code == 422 and r.json()["code"] == "unknown_language"
        assert browser.post("/api/language", json={"lang": "de"}).status_code == 422
        assert browser.cookies.get("hd_lang") == "hu"
        assert page_lang(browser.get("/login").text) == "hu"


def test_the_account_language_beats_cookie_and_browser(server):
    p = Player(server.base)
    r = p.http.post("/api/language", json={"language": "de"})
    assert r.status_code == 200
    with httpx.Client(base_url=server.base, headers={"Accept-Language": "hu"}, cookies={"hd_lang": "en"}) as browser:
        r = browser.post("/api/auth/login", json={"username": p.username, "password": p.password})
        csrf = r.json()["csrf_token"]
        page = browser.get("/settings").text
        assert page_lang(page) == "de" and selected_language(page) == "de" and "<h1>Einstellungen</h1>" in page
        assert "Boxnamen zeigen</label>" in page and "Show box names" not in page
        # a cookie session changes the account's language only with the CSRF token
        browser.cookies.set("hd_lang", "en")
        r = browser.post("/api/language", json={"language": "hu"})
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        assert page_lang(browser.get("/settings").text) == "de"
        r = browser.post("/api/language", json={"language": "hu"}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200
        assert page_lang(browser.get("/settings").text) == "hu"
    # the account keeps it: another browser, another Accept-Language, the same language
    page = p.http.get("/", headers={"Accept-Language": "de"}).text
    assert page_lang(page) == "hu"


def test_two_readers_read_one_game_in_two_languages(server):
    a, b, gid = new_match(server.base)
    assert a.http.post("/api/language", json={"language": "hu"}).status_code == 200
    player_page = a.http.get(f"/games/{gid}").text
    spectator_page = httpx.get(f"{server.base}/games/{gid}", headers={"Accept-Language": "de-DE"}).text
    english_page = b.http.get(f"/games/{gid}").text
    hu, de, en = page_words(player_page), page_words(spectator_page), page_words(english_page)
    assert (hu["lang"], de["lang"], en["lang"]) == ("hu", "de", "en")
    assert page_lang(player_page) == "hu" and page_lang(spectator_page) == "de"
    # the same event's sentence, the same prompt and the page scripts' words in each reader's language
    assert en["events"]["server.join"] == "{username} takes the {side} seat."
    assert hu["events"]["server.join"] == "{username} elfoglalja a helyet: {side}."
    assert de["events"]["server.join"] == "{username} übernimmt den Platz: {side}."
    assert de["prompts"]["marches_roll"]["theirs"] == "würfelt für Märsche."
    assert hu["ui"]["Battle over"] == "Vége a csatának" and de["ui"]["Battle over"] == "Schlacht beendet"
    assert en["ui"] == {}
    assert ">Listenansicht<" in spectator_page and ">Lista nézet<" in player_page and ">List view<" in english_page
    # what the game page's scripts read (the words element) stays data for the CSP: no inline script
    assert '<script type="application/json" id="words">' in player_page
