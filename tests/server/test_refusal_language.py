"""The refusals a player sees, in the reader's language: the account's language, else the
browser's; the machine code stays the same in every language, the rules engine's reasons
are said in that language too (in English word for word as the engine writes them), and
a refused request changes nothing."""
from __future__ import annotations

import httpx

from .helpers import Player, new_match


def speaking(p: Player, lang: str) -> Player:
    r = p.http.post("/api/language", json={"language": lang})
    assert r.status_code == 200, r.text
    return p


def refusal(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text
    return r.json()["detail"]


def test_game_refusals_in_the_accounts_language(server):
    a, b, gid = new_match(server.base)  # a plays the Union, who moves first
    speaking(a, "hu"), speaking(b, "de")
    seq = b.game(gid)["seq"]
    legal = a.legal(gid)["actions"]

    said = refusal(b.act(gid, legal[0]), 409, "not_your_turn")
    assert said == "du bist nicht am Zug: Union ist am Zug"
    said = refusal(a.act(gid, {"type": "fly_to_the_moon"}), 422, "illegal_action")
    assert said.startswith("szabálytalan lépés: ") and len(said) > len("szabálytalan lépés: ")
    said = refusal(a.act(gid, legal[0], expected_seq=seq - 1), 409, "stale")
    assert said == f"elavult: a játék a(z) {seq}. lépésnél tart, nem a(z) {seq - 1}. lépésnél"
    assert refusal(b.http.post(f"/api/games/{gid}/undo"), 409, "undo_refused") == \
        "es gibt keine Entscheidung zum Zurücknehmen"
    assert refusal(a.http.post(f"/api/games/{gid}/accept-draw"), 409, "no_draw_offer") == \
        "nincs megválaszolandó döntetlenajánlat"
    assert b.game(gid)["seq"] == seq  # nothing changed

    # a third reader: the seat is taken, said in the language the browser asks for
    c = Player(server.base)
    r = c.http.post(f"/api/games/{gid}/join", json={"side": "union"}, headers={"Accept-Language": "de-AT"})
    assert refusal(r, 409, "game_not_open") == "dieser Partie kann man nicht beitreten"
    # and in English when nothing says otherwise
    r = c.http.post(f"/api/games/{gid}/join", json={"side": "union"})
    assert refusal(r, 409, "game_not_open") == "this game is not open for joining"


def test_an_english_account_reads_english_refusals_whatever_its_browser_says(server):
    a, b, gid = new_match(server.base)
    speaking(b, "en")
    r = b.http.post(f"/api/games/{gid}/actions", json={"action": a.legal(gid)["actions"][0]},
                    headers={"Accept-Language": "hu"})
    assert refusal(r, 409, "not_your_turn") == "it is not your turn: the Union player is to act"
    open_game = Player(server.base).create(side="union")["id"]
    speaking(b, "hu")
    r = b.join(open_game, side="union")
    assert refusal(r, 409, "seat_taken") == "a(z) Unió hely foglalt"


def test_the_rules_engines_reasons_are_said_in_the_readers_language(server):
    a, b, gid = new_match(server.base)  # a plays the Union, who moves first
    speaking(a, "hu")
    seq = a.game(gid)["seq"]
    said = refusal(a.act(gid, {"type": "roll_recruits"}), 422, "illegal_action")
    assert said.startswith("szabálytalan lépés: 'roll_recruits' most nem lehetséges: Unió lép ebben a "
                           "szakaszban: mozgás, "), said
    assert "és ezek közül választhat: " in said and "end_movement" in said, said
    said = refusal(a.act(gid, {"type": "activate", "box": "atlantis"}), 422, "illegal_action")
    assert said == "szabálytalan lépés: Nincs ilyen mező: 'atlantis'."
    speaking(a, "de")
    said = refusal(a.act(gid, {"type": "activate", "box": "atlantis"}), 422, "illegal_action")
    assert said == "unzulässige Aktion: Es gibt keine Box 'atlantis'."
    said = refusal(a.act(gid, {"type": "move", "unit": "C-MI-01", "path": ["richmond"], "by": ["road"]}),
                   422, "illegal_action")
    assert said == "unzulässige Aktion: C-MI-01 gehört nicht dir, du darfst sie nicht ziehen."
    # the same refusal in English is the engine's own sentence, word for word
    speaking(a, "en")
    said = refusal(a.act(gid, {"type": "activate", "box": "atlantis"}), 422, "illegal_action")
    assert said == "illegal action: There is no box 'atlantis'."
    assert a.game(gid)["seq"] == seq  # the refused actions changed nothing


def test_a_new_games_options_are_refused_in_the_readers_language(server):
    p = speaking(Player(server.base), "de")
    r = p.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live",
                                        "options": ["11.3:1862", "11.3:1863"]})
    assert refusal(r, 422, "invalid_request") == "wähle höchstens ein Ende im 03 (März) (11.3)"
    r = p.http.get("/api/options/refusals", params=[("scenario", "1861-short"), ("chosen", "4.8")])
    refused = r.json()["refused"]
    assert refused["11.3:sudden-death"].startswith("Sudden Death (11.3) braucht das Ende des Kampagnenspiels")


def test_clock_and_settings_refusals_in_the_readers_language(server):
    a, b, gid = new_match(server.base)  # a live game: no time limit
    speaking(a, "hu"), speaking(b, "de")
    assert refusal(a.http.post(f"/api/games/{gid}/claim"), 409, "no_clock") == \
        "ennek a játéknak nincs időkorlátja"
    # a reason inside a reason: both in the reader's language
    assert refusal(b.http.post(f"/api/games/{gid}/extend", json={"days": 2}), 409, "cannot_extend") == \
        "du kannst keine Zeit mehr geben: diese Partie hat kein Zeitlimit"
    said = refusal(b.http.post("/api/me/vacation", json={"days": 4000}), 422, "invalid_request")
    assert said.startswith("ein Urlaub ist eine ganze Zahl von Tagen, 1 bis "), said

    r = a.http.put("/api/me/notifications", json={"mail_mode": "sometimes"})
    assert refusal(r, 422, "invalid_request") == "a mail_mode értéke turn, digest vagy never lehet"
    r = b.http.put("/api/me/notifications", json={"email": "bob@localhost"})
    assert refusal(r, 422, "invalid_email") == "die Domain braucht einen Punkt, etwa example.org"
    r = b.http.put("/api/me/notifications", json={"email": "x" * 65 + "@example.org"})
    assert refusal(r, 422, "invalid_email") == "der Teil vor dem @ hat höchstens 64 Zeichen"
    r = a.http.put("/api/me/notifications", json={"time_zone": "Mars/Olympus"})
    assert refusal(r, 422, "invalid_time_zone").startswith("ismeretlen időzóna: 'Mars/Olympus'")
    r = b.http.put("/api/me/webhook", json={"url": "http://10.0.0.7/hook"})
    assert refusal(r, 422, "blocked_destination") == (
        "diese Webhook-Adresse kann nicht verwendet werden: '10.0.0.7' ist eine private, lokale oder reservierte "
        "Adresse (10.0.0.7); Benachrichtigungen gehen nur an öffentliche Adressen")
    r = a.http.post("/api/me/webhook/test")
    assert refusal(r, 409, "no_webhook") == "előbb regisztrálj egy webhookot"
    # nothing changed
    prefs = a.http.get("/api/me/notifications").json()
    assert prefs["mail_mode"] == "turn" and prefs["time_zone"] == "UTC"
    assert b.http.get("/api/me/notifications").json()["email"] is None
    assert b.http.get("/api/me/notifications").json()["webhook"] is None
