"""Mails and webhook texts in the recipient's language: a by-turn game between a
Hungarian and a German account, each "your turn" mail (text, HTML and subject) in the
reader's own language with its deadline's month in that language; the confirmation mail
in the account's language; an English account still reads English. Real server
processes, a real SMTP server on loopback."""
from __future__ import annotations

import random
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx

from .helpers import Player
from .mailkit import Receiver, body, by_turn_match, link, seats, step, verified_player
from .test_mail import html_body

# the months as each language abbreviates them in a date (CLDR)
MONTHS = {
    "hu": ["jan.", "febr.", "márc.", "ápr.", "máj.", "jún.", "júl.", "aug.", "szept.", "okt.", "nov.", "dec."],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
}
# what an English mail says: none of it may be left in a translated one
ENGLISH = ("Your turn", "You play", "Scenario:", "Your time runs out", "Since your last move", "Open the game",
           "Notices from", "Unsubscribe from all mail", "How often", "your turn")


def speaking(p: Player, lang: str) -> Player:
    r = p.http.post("/api/language", json={"language": lang})
    assert r.status_code == 200 and r.json() == {"language": lang}, r.text
    return p


def play_until_waiting_for(sts: dict, gid: str, side: str, rng) -> None:
    for _ in range(400):
        g = sts["union"].game(gid)
        if g["status"] != "active" or g["to_act"] == side:
            assert g["status"] == "active", g
            return
        step(sts[g["to_act"]], gid, rng)
    raise AssertionError("the game never waited for " + side)


def deadline_month(p: Player, gid: str, zone: str, lang: str) -> str:
    deadline = p.http.get(f"/api/games/{gid}/clock").json()["deadline"]
    return MONTHS[lang][datetime.fromisoformat(deadline).astimezone(ZoneInfo(zone)).month - 1]


def subject(m) -> str:
    """The subject as a mail program shows it (a long non-ASCII one arrives folded)."""
    return " ".join(str(m["Subject"]).split())


def assert_no_english(*parts: str) -> None:
    for part in parts:
        left = [e for e in ENGLISH if e in part]
        assert not left, (left, part)


def test_each_player_reads_the_turn_mail_in_their_own_language(srv, smtp):
    a, b = verified_player(srv.base, smtp), verified_player(srv.base, smtp)
    speaking(a, "hu"), speaking(b, "de")
    assert a.http.put("/api/me/notifications", json={"time_zone": "Europe/Budapest"}).status_code == 200
    rcv = Receiver()
    try:
        assert a.http.put("/api/me/webhook", json={"url": rcv.url}).status_code == 200
        gid = by_turn_match(srv.base, a, b, days=3)  # the Union (a, Hungarian) moves first
        [m] = smtp.box.wait(a.email, 1)
        text, page = body(m), html_body(m)
        assert subject(m) == f"[A House Divided] Te következel ({gid} játék)"
        assert text.startswith(f"{gid} játék: te következel (Unió).")
        assert f"Oldalad: Unió, ellenfeled: {b.username} (Konföderáció)." in text
        assert "Forgatókönyv: " in text and ", forduló: 1. forduló (" in text
        month = deadline_month(a, gid, "Europe/Budapest", "hu")
        assert re.search(rf"Az időd lejár: \d{{4}}\. {re.escape(month)} \d+\., \w+ \d\d:\d\d CES?T "
                         rf"\(Europe/Budapest\)\.", text), text
        assert '<html lang="hu">' in page and f"<p>{gid} játék: te következel (Unió).</p>" in page
        assert '<th align="left">Oldalad</th><td>Unió</td>' in page and "A játék megnyitása</a>" in page
        assert "Leiratkozás minden levélről egy kattintással" in text and "Leiratkozás minden levélről" in page
        assert_no_english(text, page, subject(m))
        [hook] = rcv.wait(1)
        assert hook["content"].startswith(f"{gid} játék: te következel (Unió).")
    finally:
        rcv.close()

    play_until_waiting_for(seats(a, b), gid, "confederate", random.Random(5))
    [mb] = smtp.box.wait(b.email, 1)
    text, page = body(mb), html_body(mb)
    assert subject(mb) == f"[A House Divided] Du bist am Zug (Partie {gid})"
    assert text.startswith(f"Partie {gid}: du bist am Zug (Konföderierte).")
    assert f"Du spielst Konföderierte gegen {a.username} (Union)." in text
    month = deadline_month(b, gid, "UTC", "de")
    assert re.search(rf"Deine Zeit läuft ab: \w+\., \d+\. {re.escape(month)} \d{{4}}, \d\d:\d\d UTC \(UTC\)\.",
                     text), text
    # what the Hungarian player did, in German
    assert re.search(r"Seit deinem letzten Zug:\r?\n- ", text) and "<li>" in page, text
    assert '<html lang="de">' in page and '<th align="left">Frist</th><td>Deine Zeit läuft ab: ' in page
    assert "Partie öffnen</a>" in page and "Mit einem Klick von allen Mails abmelden" in page
    assert_no_english(text, page, subject(mb))
    # the notice the site lists is the Hungarian one for a, the German one for b
    assert b.http.get("/api/me/notices").json()["notices"][0]["text"].startswith(f"Partie {gid}: du bist am Zug")
    assert a.http.get("/api/me/notices").json()["notices"][-1]["text"].startswith(f"{gid} játék: te következel")


def test_an_english_account_still_reads_english(srv, smtp):
    c, d = verified_player(srv.base, smtp), speaking(verified_player(srv.base, smtp), "de")
    gid = by_turn_match(srv.base, c, d)
    [m] = smtp.box.wait(c.email, 1)
    text, page = body(m), html_body(m)
    assert subject(m) == f"[A House Divided] Your turn (game {gid})"
    assert text.startswith(f"Game {gid}: your turn (Union).")
    assert f"You play the Union against {d.username} (Confederate)." in text and "No time limit." in text
    assert '<html lang="en">' in page and "Open the game</a>" in page
    assert not any(w in text + page for w in ("Partie", "Konföderierte", "Keine Zeitbegrenzung", "Du spielst"))


def test_the_confirmation_mail_speaks_the_accounts_language(srv, smtp):
    p = speaking(Player(srv.base), "hu")
    p.email = f"{p.username}@example.org"
    assert p.http.put("/api/me/notifications", json={"email": p.email}).status_code == 200
    [m] = smtp.box.wait(p.email, 1)
    assert subject(m) == "[A House Divided] Erősítsd meg az e-mail címedet"
    text, page = body(m), html_body(m)
    assert f"a(z) {p.username} fiókhoz erre a címre érkezzenek" in text
    assert "Erősítsd meg egy kattintással (a link 7 napig érvényes)." in text
    assert re.search(r'<a href="http://\S+/verify-email\?t=\S+">Erősítsd meg egy kattintással</a> '
                     r"\(a link 7 napig érvényes\)\.", page), page
    assert "Someone" not in text and "Confirm" not in text + page
    r = httpx.get(link(m, r"http://\S+/verify-email\?t=\S+"))
    assert r.status_code == 200
    assert p.http.get("/api/me/notifications").json()["email_verified"] is True


def test_the_clocks_words_reach_each_player_in_their_language(srv, smtp, clock):
    a, b = speaking(verified_player(srv.base, smtp), "hu"), speaking(verified_player(srv.base, smtp), "de")
    gid = by_turn_match(srv.base, a, b, days=1)
    smtp.box.wait(a.email, 1)                 # "your turn" to the Union (a)
    clock.advance(25 * 3600)                  # a's day is up
    up = smtp.box.wait(a.email, 2)[-1]
    assert subject(up) == f"[A House Divided] Lejárt az időd ({gid} játék)"
    assert body(up).startswith(f"{gid} játék: lejárt a lépésre szánt időd (1 nap).")
    [late] = smtp.box.wait(b.email, 1)
    assert subject(late) == f"[A House Divided] Die Zeit deines Gegners ist abgelaufen (Partie {gid})"
    assert body(late).startswith(f"Partie {gid}: Union hat nicht innerhalb von 1 Tag gezogen.")
    r = b.http.post(f"/api/games/{gid}/extend", json={"days": 2})
    assert r.status_code == 200, r.text
    more = smtp.box.wait(a.email, 3)[-1]
    assert subject(more) == f"[A House Divided] Több idő ({gid} játék)"
    assert body(more).startswith(f"{gid} játék: {b.username} (Konföderáció) további 2 napot ad Unió játékosnak.")
    assert_no_english(body(up), body(late), body(more), html_body(more))


def test_the_daily_digest_in_the_readers_language(srv, smtp, clock):
    a = speaking(verified_player(srv.base, smtp, mode="digest"), "de")
    b = verified_player(srv.base, smtp)
    gid = by_turn_match(srv.base, a, b, days=7)
    gid2 = by_turn_match(srv.base, a, b)
    clock.advance(25 * 3600)
    [m] = smtp.box.wait(a.email, 1)
    text, page = body(m), html_body(m)
    assert subject(m) == "[A House Divided] 2 Partien warten auf dich"
    assert text.startswith(f"Hallo {a.username},") and "2 Partien warten auf dich:" in text
    assert text.count(f"- Partie {gid}: ") == 1 and text.count(f"- Partie {gid2}: ") == 1
    assert f"Du spielst Union gegen {b.username} (Konföderierte)." in text and "Keine Zeitbegrenzung." in text
    assert '<html lang="de">' in page and f">Partie {gid}</a>" in page
    assert_no_english(text, page, subject(m))
    assert not any(w in text + page for w in ("Hello", "games wait", "No time limit"))
