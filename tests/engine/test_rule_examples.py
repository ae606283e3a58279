"""The rulebook's own examples, played on the reconstructed map."""
from __future__ import annotations

from .helpers import game, move, refused, uid, unit


def test_movement_example_shreveport_4_0():
    """4.0: three Marches move Crack Cavalry, Militia and Veteran Infantry."""
    g = game(marches=3, units={"union": {"shreveport": ["CC", "MI"], "vicksburg": ["VI"]}})
    cav, mil, vet = uid(g, "shreveport", "CC"), uid(g, "shreveport", "MI"), uid(g, "vicksburg", "VI")
    # 1st March: cavalry two boxes by road and railroad; infantry one box by road.
    g.apply({"type": "activate", "box": "shreveport"})
    g.apply(move(cav, ("monroe", "road"), ("vicksburg", "rail")))
    refused(g, move(mil, ("monroe", "road"), ("vicksburg", "rail")), "(4.0)")
    g.apply(move(mil, ("monroe", "road")))
    # 2nd March: one box by rail to Vicksburg, not on to Jackson (unfriendly railroad).
    g.apply({"type": "activate", "box": "monroe"})
    reason = refused(g, move(mil, ("vicksburg", "rail"), ("jackson_ms", "rail")), "(4.0)")
    assert "friendly" in reason
    g.apply(move(mil, ("vicksburg", "rail")))
    # 3rd March: Vicksburg activated; Veteran Infantry two boxes by river to Alexandria,
    # the Cavalry by rail to McComb; the Militia has used its two Marches.
    g.apply({"type": "activate", "box": "vicksburg"})
    g.apply(move(vet, ("natchez", "river"), ("alexandria", "river")))
    reason = refused(g, move(mil, ("jackson_ms", "rail")), "(4.0)")
    assert "two Marches" in reason
    g.apply(move(cav, ("jackson_ms", "rail"), ("mccomb", "rail")))
    assert (unit(g, vet).loc, unit(g, cav).loc, unit(g, mil).loc) == ("alexandria", "mccomb", "vicksburg")
    assert g.marches == 0 and g.phase == "promotion"   # nothing left to move: segment over


def test_jump_examples_4_5():
    g = game(units={"union": {"fts_henry_donelson": ["MC", "MI"]},
                    "confederate": {"humbolt": ["VC"], "nashville": ["MI"], "pittsburg_landing": ["MI"]}})
    cav, inf = uid(g, "fts_henry_donelson", "MC"), uid(g, "fts_henry_donelson", "MI")
    g.apply({"type": "activate", "box": "fts_henry_donelson"})
    refused(g, move(cav, ("humbolt", "rail"), ("corinth", "rail")), "enemy Cavalry (4.4)")
    refused(g, move(cav, ("pittsburg_landing", "river"), ("corinth", "road")), "(4.0)")
    refused(g, move(inf, ("pittsburg_landing", "river"), ("decatur", "river")), "down a river (4.5)")
    g.apply(move(cav, ("nashville", "rail"), ("decatur", "rail")))
    assert unit(g, cav).loc == "decatur" and unit(g, cav).jumped


def test_union_river_jump_downriver_passes_cavalry_4_5():
    g = game(units={"union": {"decatur": ["VI"]}, "confederate": {"pittsburg_landing": ["VC"]}})
    vet = uid(g, "decatur", "VI")
    g.apply({"type": "activate", "box": "decatur"})
    g.apply(move(vet, ("pittsburg_landing", "river"), ("fts_henry_donelson", "river")))
    assert unit(g, vet).loc == "fts_henry_donelson"


def test_entrenchment_examples_4_3():
    g = game(marches=4, units={"union": {"cincinnati": ["MI"] * 5}},
             control={"union": ["manassas_junction"]})
    five = [u["id"] for u in g.units_in("cincinnati")]
    g.apply({"type": "activate", "box": "cincinnati"})
    for u in five[:3]:
        g.apply(move(u, ("dayton", "rail"), ))
    for u in five[3:]:
        g.apply({"type": "entrench", "unit": u})
    assert [unit(g, u).ent for u in five] == [False] * 3 + [True] * 2
    assert g.marches == 3


def test_entrenchment_outside_recruitment_city_takes_two_marches_4_3():
    g = game(side="confederate", marches=4, units={"confederate": {"manassas_junction": ["VI"], "gordonsville": ["MI"]}})
    vet, mil = uid(g, "manassas_junction", "VI"), uid(g, "gordonsville", "MI")
    g.apply({"type": "activate", "box": "manassas_junction"})
    g.apply({"type": "entrench", "unit": vet})
    assert unit(g, vet).dig and not unit(g, vet).ent
    g.apply({"type": "activate", "box": "manassas_junction"})
    g.apply({"type": "entrench", "unit": vet})
    assert unit(g, vet).ent
    # moving in and entrenching at Manassas in one turn would take three Marches
    g.apply({"type": "activate", "box": "gordonsville"})
    g.apply(move(mil, ("manassas_junction", "rail")))
    g.apply({"type": "activate", "box": "manassas_junction"})
    refused(g, {"type": "entrench", "unit": mil}, "(4.3)")


def test_impossible_shots_example_5_33():
    """One Militia Cavalry takes the impossible shot at entrenched Crack Infantry so
    three Veteran Infantry may gang up on the entrenched Veteran."""
    g = game(phase="battle_choice", side="union", dice=[6] * 5,
             units={"union": {"corinth": ["MC", "VI", "VI", "VI"]},
                    "confederate": {"corinth": ["VI*", "CI*"]}})
    g.apply({"type": "fight", "box": "corinth"})
    # the Confederate defender fires first (5.0): spend its shots
    cvet, ccrack = uid(g, "corinth", "VI", "confederate"), uid(g, "corinth", "CI", "confederate")
    umc = uid(g, "corinth", "MC", "union")
    uvets = [u for u in g.battle["units"]["union"] if u.startswith("U-VI")]
    g.apply({"type": "target", "unit": cvet, "target": uvets[0]})
    g.apply({"type": "target", "unit": ccrack, "target": uvets[1]})
    # Union: MC at the Crack (impossible), then all three Veterans at the Veteran.
    assert g.shot_value(umc, ccrack) < 1
    assert g.shot_value(uvets[0], cvet) == 2
    g.apply({"type": "target", "unit": umc, "target": ccrack})
    for v in uvets:
        g.apply({"type": "target", "unit": v, "target": cvet})
    fire = [e for e in g.events if e["type"] == "roll" and e["side"] == "union"]
    assert [e["need"] for e in fire] == [2, 2, 2]
    assert any(e["type"] == "impossible_shot" and e["unit"] == umc for e in g.events)


def test_gang_up_only_when_every_enemy_is_targeted_5_1():
    g = game(phase="battle_choice", dice=[6] * 5, units={"union": {"corinth": ["VI", "VI", "VI"]},
                                           "confederate": {"corinth": ["MI", "MI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    a, b = g.battle["units"]["confederate"]
    u1, u2, u3 = g.battle["units"]["union"]
    g.apply({"type": "target", "unit": a, "target": u1})
    refused(g, {"type": "target", "unit": b, "target": u1}, "(5.1)")   # fewer shooters: spread
    g.apply({"type": "target", "unit": b, "target": u2})
    g.apply({"type": "target", "unit": u1, "target": a})
    g.apply({"type": "target", "unit": u2, "target": a})       # u3 can still cover b
    refused(g, {"type": "target", "unit": u3, "target": a}, "(5.1)")
    g.apply({"type": "target", "unit": u3, "target": b})
