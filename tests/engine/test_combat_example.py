"""The rulebook's Comprehensive Combat Example at Cairo, round by round, with the
dice the text names (rulings R3 and R4 in docs/rulings.md)."""
from __future__ import annotations

from .helpers import game, move, refused, uid, unit

# Round 1: Union 3 (hit); CSA 6 (miss; the Militia Cavalry's shot is impossible).
# Round 2: Union 4 (hit), 1 (hit), 5 (miss); CSA 5 (Crack Cavalry misses), 2 (Crack Infantry hits).
# Round 3: Union 3 (Veteran misses the Crack), 1 (Vet Cav eliminates the Militia Cavalry),
#          2 (the new Militia hits the Crack Cavalry); the wasted shot rolls no die.
DICE = [3, 6, 4, 1, 5, 5, 2, 3, 1, 2]


def setup():
    g = game(side="confederate", marches=1, dice=DICE,
             units={"union": {"cairo": ["VC*"], "vandalia": ["VI"], "st_louis": ["MI", "MI"]},
                    "confederate": {"fts_henry_donelson": ["VC", "MC"], "paducah": ["CC"],
                                    "humbolt": ["CI", "VI"]}})
    return g


def fire(g, *pairs):
    for shooter, target in pairs:
        g.apply({"type": "target", "unit": shooter, "target": target})


def test_comprehensive_combat_example():
    g = setup()
    c_vc, c_mc = uid(g, "fts_henry_donelson", "VC"), uid(g, "fts_henry_donelson", "MC")
    c_cc, c_ci, c_vi = uid(g, "paducah", "CC"), uid(g, "humbolt", "CI"), uid(g, "humbolt", "VI")
    u_vc, u_vi = uid(g, "cairo", "VC"), uid(g, "vandalia", "VI")
    u_mi1, u_mi2 = [u["id"] for u in g.units_in("st_louis")]

    # One March: both cavalry two boxes down the river through Paducah to Cairo.
    g.apply({"type": "activate", "box": "fts_henry_donelson"})
    g.apply(move(c_vc, ("paducah", "river"), ("cairo", "river")))
    g.apply(move(c_mc, ("paducah", "river"), ("cairo", "river")))
    assert unit(g, c_vc).river and unit(g, c_mc).river          # crossing Cairo's river side
    assert g.phase == "battle_choice"
    g.apply({"type": "fight", "box": "cairo"})
    # All attackers are cavalry: the defending cavalry is pinned (5.6).
    assert g.battle["step"] == "target" and g.to_act == "union"

    # Round 1: the Union fires first, +1 for the river: hits the Veteran Cavalry on a 3.
    assert g.shot_value(u_vc, c_vc) == 3
    fire(g, (u_vc, c_vc))
    assert unit(g, c_vc).red
    assert g.shot_value(c_mc, u_vc) == 0 and g.shot_value(c_vc, u_vc) == 1
    fire(g, (c_mc, u_vc), (c_vc, u_vc))
    assert not unit(g, u_vc).red

    # Round 2: the Union may retreat instead, but reinforces from Vandalia and St. Louis.
    assert g.battle["round"] == 2 and g.to_act == "union"
    legal = g.legal_actions()
    assert {"type": "retreat", "to": "vandalia"} in legal
    g.apply({"type": "reinforce", "unit": u_vi})
    g.apply({"type": "reinforce", "unit": u_mi1})
    refused(g, {"type": "reinforce", "unit": u_mi2}, "(5.5)")    # one per adjacent box a round
    g.apply({"type": "open_fire"})
    assert [g.shot_value(s, t) for s, t in ((u_vi, c_vc), (u_vc, c_mc), (u_mi1, c_mc))] == [4, 3, 3]
    fire(g, (u_vi, c_vc), (u_vc, c_mc), (u_mi1, c_mc))
    assert unit(g, c_vc).loc == "stock"                        # Veteran eliminated to stock
    assert unit(g, c_mc).red and unit(g, c_mc).loc == "cairo"

    # The Confederates reinforce from Paducah (no Control marker stays there) and Humbolt.
    g.apply({"type": "reinforce", "unit": c_cc})
    g.apply({"type": "reinforce", "unit": c_ci})
    assert g.controller("paducah") is None
    g.apply({"type": "open_fire"})
    fire(g, (c_mc, u_vc), (c_cc, u_vi), (c_ci, u_mi1))
    assert not unit(g, u_vi).red and unit(g, u_mi1).red

    # Round 3: no more river bonus; the last Militia from St. Louis arrives.
    assert g.battle["round"] == 3
    g.apply({"type": "reinforce", "unit": u_mi2})
    g.apply({"type": "open_fire"})
    assert g.shot_value(u_vi, c_ci) == 2                        # Crack Infantry -1 (5.32)
    fire(g, (u_vi, c_ci), (u_vc, c_mc), (u_mi1, c_mc), (u_mi2, c_cc))
    assert any(e["type"] == "shot_wasted" and e["unit"] == u_mi1 for e in g.events)
    assert unit(g, c_mc).loc == "pool"                          # Militia eliminated to the pool
    assert unit(g, c_cc).red and not unit(g, c_ci).red
    # The Confederate begins his Round 3 by reinforcing with the Veteran from Humbolt.
    assert g.to_act == "confederate"
    g.apply({"type": "reinforce", "unit": c_vi})
    assert set(g.battle["units"]["confederate"]) == {c_cc, c_ci, c_vi}
