"""Forced moves applied by the server, and standing battle orders answering for an
absent defender after the grace time (movable clock)."""
from __future__ import annotations

import random
import shutil
import time

import pytest

from app.notices.words import narrator

from .conftest import need_postgres
from .helpers import Player, ServerProc, events, said_by_the_browser
from .mailkit import Clock, SmtpServer, by_turn_match, server_env

H = 3600
# the orders given below, as a Hungarian and a German reader's log names them
ORDERS_HU = ("a védekező lovasság helytáll", "szétosztott tűz", "visszavonulás a(z) 2. kör után",
             "soha nincs erősítés", "előléptetés győzelem után", "nincs előléptetés")
ORDERS_DE = ("verteidigende Kavallerie hält stand", "Feuer verteilen", "Rückzug nach Runde 2", "nie verstärken",
             "nach einem Sieg befördern", "keine Beförderung")






def test_forced_moves_are_applied_at_once_in_by_turn_games(srv):
    a, b = Player(srv.base), Player(srv.base)
    gid = by_turn_match(srv.base, a, b)
    sts = {"union": a, "confederate": b}
    rng = random.Random(7)
    for _ in range(100):
        g = a.game(gid)
        if g["status"] != "active":
            break
        lg = sts[g["to_act"]].legal(gid)
        assert len(lg["actions"]) > 1, lg  # never left waiting on a single choice
        r = sts[g["to_act"]].act(gid, rng.choice(lg["actions"]), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
    auto = [e for e in events(srv.base, gid) if e["type"] == "auto"]
    assert auto and all(e["data"]["reason"] == "forced" for e in auto)
    assert auto[0]["data"]["text"].startswith("Automatic (")
    # live games are left alone
    c, d = Player(srv.base), Player(srv.base)
    lid = c.create(side="union", mode="live")["id"]
    d.join(lid)
    live_auto = [e for e in events(srv.base, lid) if e["type"] == "auto"]
    assert live_auto == []


def _to_defender_battle(a, b, gid, rng):
    """Random play until the game waits for the Confederate (b) to answer in a battle
    the Union attacks (b defends)."""
    sts = {"union": a, "confederate": b}
    for _ in range(3000):
        g = a.game(gid)
        assert g["status"] == "active"
        st = g["state"]
        bt = st.get("battle")
        if st["phase"] == "battle" and bt and bt["defender"] == "confederate" and g["to_act"] == "confederate":
            return g
        p = sts[g["to_act"]]
        lg = p.legal(gid)
        acts = lg["actions"]
        # the Union seeks battles; the Confederate ends its turns quickly
        if g["to_act"] == "confederate" and st["phase"] != "battle":
            ends = [x for x in acts if x["type"] in ("end_movement", "end_recruitment", "no_promotion")]
            if ends:
                acts = ends
        r = p.act(gid, rng.choice(acts), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
    raise AssertionError("no battle")


def test_standing_orders_resolve_a_battle_while_the_defender_is_away(srv, clock, tmp_path):
    a, b = Player(srv.base), Player(srv.base)
    gid = by_turn_match(srv.base, a, b)
    orders = {"stand": True, "targets": "spread", "retreat_after_round": 2, "never_reinforce": True,
              "promotion": "first"}
    r = b.http.put(f"/api/games/{gid}/orders", json={"orders": orders})
    assert r.status_code == 200, r.text
    assert "spread fire" in r.json()["summary"]
    assert b.http.get(f"/api/games/{gid}/orders").json()["orders"] == {**orders, "retreat_when_outnumbered": False}
    assert a.http.put(f"/api/games/{gid}/orders", json={"orders": {"bogus": 1}}).status_code == 422
    # the server deals every game's dice from the test seed: this play always reaches a battle
    g = _to_defender_battle(a, b, gid, random.Random(100))
    seq = g["seq"]
    time.sleep(0.5)  # inside the grace time nothing happens
    assert a.game(gid)["seq"] == seq
    clock.advance(31 * 60)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        g2 = a.game(gid)
        if g2["seq"] > seq:
            break
        time.sleep(0.05)
    time.sleep(0.3)
    g2 = a.game(gid)
    assert g2["seq"] > seq
    evs = events(srv.base, gid, after=seq)
    auto = [e for e in evs if e["type"] == "auto" and e["data"]["reason"] == "orders"]
    assert auto, evs
    assert all(e["actor"] == "confederate" for e in auto)
    assert "Standing orders (Confederate" in auto[0]["data"]["text"]
    # each reader's log (and mail) says it in their language; the English stays the event's "text"
    first = auto[0]
    assert narrator("en").describe(first) == first["data"]["text"]
    orders_said = {"hu": ("Állandó parancs (Konföderáció: {}): ", ORDERS_HU),
                   "de": ("Dauerauftrag (Konföderierte: {}): ", ORDERS_DE)}
    for lang, (frame, names) in orders_said.items():
        said = narrator(lang).describe(first)
        assert any(said.startswith(frame.format(name)) for name in names), said
        if shutil.which("node"):
            assert said_by_the_browser([first], tmp_path, lang) == [said]
    # the orders answered every battle decision of the defender they cover
    st = g2["state"]
    bt = st.get("battle")
    assert not (g2["status"] == "active" and bt and g2["to_act"] == "confederate"
                and bt.get("step") in ("withdraw", "target")), (bt, g2["to_act"])
