"""The refusals a player sees, in the reader's language: the account's language, else the
browser's; the machine code stays the same in every language, the rules engine's own
reason is quoted as it is, and a refused request changes nothing."""
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
