"""Every page the server renders, read in Hungarian and in German, has no English of the
catalogues left (tests/english_left.py): the lobby with its challenges and "play the
computer" form, a player's profile with its rating history and challenge form, the
notices page, the settings, the administrators' pages, the API docs' page, the
unsubscribe and e-mail confirmation pages and the error pages. The notices' times are
in the reader's language and time zone."""
from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx
import pytest
from babel.dates import get_day_names
from english_left import english_left_in, page_texts

from app.notices.outbox import Notices

from .helpers import Player
from .replay_helpers import make_admin, resign

SECRET = "test-secret-key-of-at-least-32-bytes"   # the test servers' SECRET_KEY (helpers.ServerProc)
ZONE = "Europe/Berlin"
# the site's name as mail subjects carry it (stored with the mail, shown on the outbox page)
SUBJECT_BRAND = "[A House Divided]"


class Cast:
    """Who reads the pages, and what they have: a rated game lost, a challenge waiting, a
    by-turn game waiting and muted (so a notice), an administrator."""

    def __init__(self, server, lang: str):
        self.base = server.base
        self.me, self.rival, self.admin = Player(server.base), Player(server.base), make_admin(server)
        # the account's language first: a notice is said in it when it is made
        for p in (self.me, self.rival, self.admin):
            assert p.http.post("/api/language", json={"language": lang}).status_code == 200
        r = self.me.http.post("/api/games", json={"scenario": "1861-short", "side": "union", "rated": True})
        gid = r.json()["id"]
        assert self.rival.join(gid).status_code == 200
        resign(self.me, gid)
        r = self.me.http.put("/api/me/notifications", json={"email": f"{self.me.username}@example.org",
                                                            "time_zone": ZONE})
        assert r.status_code == 200, r.text
        r = self.rival.http.post(f"/api/challenges/{self.me.username}", json={"scenario": "1861-short"})
        assert r.status_code == 201, r.text
        r = self.me.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "async",
                                                  "days_per_move": 3})
        self.waiting = r.json()["id"]
        assert self.rival.join(self.waiting).status_code == 200
        assert self.me.http.put(f"/api/games/{self.waiting}/mute", json={}).status_code == 200
        # someone who reads the site in English: their confirmation mail waits in the
        # outbox in English (stored data, in its recipient's language)
        bystander = Player(server.base)
        r = bystander.http.put("/api/me/notifications", json={"email": f"{bystander.username}@example.org"})
        assert r.status_code == 200, r.text
        self.names = [self.me.username, self.rival.username, self.admin.username, bystander.username, gid,
                      self.waiting, SUBJECT_BRAND]

    def tokens(self) -> dict[str, str]:
        notices = Notices(self.base, SECRET, None)
        return {"unsubscribe": notices.unsubscribe_token(self.me.user_id),
                "verify": notices.verify_token(self.me.user_id, f"{self.me.username}@example.org")}


def pages_of(cast: Cast) -> list[tuple[httpx.Client, str, int]]:
    me, admin, rival = cast.me.http, cast.admin.http, cast.rival.username
    tokens = cast.tokens()
    return [(me, "/", 200), (me, "/new", 200), (me, "/settings", 200), (me, "/notifications", 200),
            (me, f"/players/{cast.me.username}", 200), (me, f"/players/{rival}", 200), (me, "/logout", 200),
            (me, "/docs", 200), (me, f"/games/{cast.waiting}/replay", 200),
            (me, f"/unsubscribe?t={tokens['unsubscribe']}", 200), (me, f"/verify-email?t={tokens['verify']}", 200),
            (me, "/unsubscribe?t=forged", 400), (me, "/verify-email?t=forged", 400),
            (me, "/players/nobody-by-that-name", 404), (me, "/games/no-such-game", 404), (me, "/admin", 403),
            (me, "/admin/outbox", 403), (admin, "/admin", 200), (admin, "/admin/outbox", 200)]


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_every_page_leaves_no_english(server, lang):
    cast = Cast(server, lang)
    left = {}
    for client, path, status in pages_of(cast):
        r = client.get(path)
        assert r.status_code == status, (path, r.text[:300])
        assert f'<html lang="{lang}">' in r.text, path
        found = english_left_in(page_texts(r.text), lang, names=cast.names)
        if found:
            left[path] = found[:8]
    assert not left, "\n".join(f"{path}: {found}" for path, texts in left.items() for found in texts)
    # what these pages hold did show (an empty page has no English either)
    profile = cast.me.http.get(f"/players/{cast.me.username}").text
    assert 'class="rating-history"' in profile and cast.rival.username in profile
    lobby = cast.me.http.get("/").text
    assert f'href="/players/{cast.rival.username}"' in lobby and 'id="play-computer"' in lobby
    assert 'id="challenge"' in cast.me.http.get(f"/players/{cast.rival.username}").text
    notices = cast.me.http.get("/notifications").text
    assert 'id="waiting-list"' in notices and 'id="muted-list"' in notices and 'id="notice-list"' in notices


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_notice_times_are_in_the_readers_language_and_zone(server, lang):
    cast = Cast(server, lang)
    page = cast.me.http.get("/notifications").text
    times = re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', page)
    assert times, page
    for stamp, shown in times:
        local = datetime.fromisoformat(stamp).astimezone(ZoneInfo(ZONE))
        assert local.strftime("%H:%M") in shown and shown.endswith(local.tzname()), shown
        weekday = get_day_names("abbreviated", locale=lang)[local.weekday()]
        assert weekday in shown, (shown, weekday)
