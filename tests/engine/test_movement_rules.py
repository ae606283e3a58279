"""Movement Segment restrictions and mechanics, rules 4.0 - 4.7 (basic game)."""
from __future__ import annotations

import pytest

import rules_engine

from .helpers import game, move, refused, uid, unit

ACT = "activate"


def activate(g, box):
    g.apply({"type": ACT, "box": box})


def end_march(g):
    """Close the March (the engine closes it itself once nobody in the box can act)."""
    if {"type": "end_march"} in g.legal_actions():
        g.apply({"type": "end_march"})


def forced(g, **changes):
    """The same game with some state fields overwritten (for situations play cannot reach)."""
    return rules_engine.from_position({**g.state(), **changes})


def roll_event_purposes(g):
    return [e["purpose"] for e in g.events if e["type"] == "roll"]


# ---------------------------------------------------------------- 4.0 procedure
@pytest.mark.parametrize("die, marches, invasion", [(1, 2, False), (2, 2, False), (3, 3, False),
                                                    (5, 5, False), (6, 6, True)])
def test_march_roll_a_one_gives_two_marches_4_0(die, marches, invasion):
    g = game(phase="marches_roll", dice=[die], units={"union": {"cincinnati": ["MI"]}})
    assert g.legal_actions() == [{"type": "roll_marches"}]
    refused(g, {"type": "activate", "box": "cincinnati"}, "roll_marches")
    g.apply({"type": "roll_marches"})
    assert (g.phase, g.marches, g.invasion) == ("movement", marches, invasion)


def test_infantry_may_not_mix_line_types_4_0():
    g = game(units={"union": {"gettysburg": ["MI", "MC"]}})
    mil, cav = uid(g, "gettysburg", "MI"), uid(g, "gettysburg", "MC")
    activate(g, "gettysburg")
    reason = refused(g, move(mil, ("harpers_ferry", "road"), ("baltimore", "rail")), "(4.0)")
    assert "two different types" in reason
    g.apply(move(cav, ("harpers_ferry", "road"), ("baltimore", "rail")))  # cavalry may combine road and rail
    assert unit(g, cav).loc == "baltimore"


def test_infantry_moves_one_box_by_road_4_0():
    g = game(units={"union": {"gettysburg": ["MI", "MC"]}})
    mil, cav = uid(g, "gettysburg", "MI"), uid(g, "gettysburg", "MC")
    activate(g, "gettysburg")
    refused(g, move(mil, ("harpers_ferry", "road"), ("washington", "road")), "4.0")
    g.apply(move(cav, ("harpers_ferry", "road"), ("washington", "road")))   # cavalry: two by road
    g.apply(move(mil, ("harpers_ferry", "road")))
    assert (unit(g, mil).loc, unit(g, cav).loc) == ("harpers_ferry", "washington")


def test_infantry_two_boxes_by_friendly_railroad_only_4_0():
    """Lexington (Kentucky) is neutral: the railroad through it is not friendly (4.0, 8.0)."""
    g = game(marches=2, units={"union": {"cincinnati": ["MI"], "indianapolis": ["MI"]}})
    a, b = uid(g, "cincinnati", "MI"), uid(g, "indianapolis", "MI")
    activate(g, "cincinnati")
    reason = refused(g, move(a, ("lexington_ky", "rail"), ("louisville", "rail")), "(4.0)")
    assert "unfriendly railroad" in reason
    end_march(g)
    activate(g, "indianapolis")
    g.apply(move(b, ("dayton", "rail"), ("columbus_oh", "rail")))   # Union boxes: friendly
    assert unit(g, b).loc == "columbus_oh"


def test_cavalry_may_not_combine_river_with_road_or_rail_4_0():
    g = game(units={"union": {"cincinnati": ["VC"]}})
    cav = uid(g, "cincinnati", "VC")
    activate(g, "cincinnati")
    refused(g, move(cav, ("louisville", "river"), ("munfordville", "rail")), "(4.0)")
    g.apply(move(cav, ("louisville", "river"), ("evansville", "river")))
    assert unit(g, cav).loc == "evansville"


def test_unit_entering_enemy_box_must_stop_4_0():
    g = game(marches=3, units={"union": {"vandalia": ["VI"]}, "confederate": {"st_louis": ["MI"]}})
    vet = uid(g, "vandalia", "VI")
    activate(g, "vandalia")
    # the railroad is friendly: only the enemy in St. Louis stops it
    reason = refused(g, move(vet, ("st_louis", "rail"), ("ironton", "rail")), "(4.0)")
    assert "must stop" in reason
    g.apply(move(vet, ("st_louis", "rail")))
    # nor can it move on in a later March: its box cannot be activated
    assert {"type": "activate", "box": "st_louis"} not in g.legal_actions()
    refused(g, {"type": "activate", "box": "st_louis"}, "(4.0)")
    g2 = forced(g, active="st_louis", march_units=[vet])
    refused(g2, move(vet, ("ironton", "rail")), "(4.0)")


def test_only_units_of_the_activated_box_move_4_0():
    g = game(marches=3, units={"union": {"cincinnati": ["MI", "MI"], "indianapolis": ["MI"]}})
    a, b = [u["id"] for u in g.units_in("cincinnati")]
    other = uid(g, "indianapolis", "MI")
    activate(g, "cincinnati")
    refused(g, move(other, ("dayton", "rail")), "(4.0)")
    g.apply(move(a, ("dayton", "rail")))
    # a unit that arrives in the active box this March does not join it
    end_march(g)
    activate(g, "indianapolis")
    g.apply(move(other, ("dayton", "rail"), ("cincinnati", "rail")))
    refused(g, move(b, ("dayton", "rail")), "(4.0)")


def test_no_activation_without_marches_left_4_0():
    g = game(marches=1, units={"union": {"cincinnati": ["MI", "MI"], "indianapolis": ["MI"]}})
    a = g.units_in("cincinnati")[0]["id"]
    activate(g, "cincinnati")
    g.apply(move(a, ("dayton", "rail")))
    assert g.marches == 0 and g.phase == "movement"      # the other unit may still act
    reason = refused(g, {"type": "activate", "box": "indianapolis"}, "(4.0)")
    assert "no Marches left" in reason


def test_units_may_move_to_different_boxes_in_one_march_4_0():
    g = game(marches=1, units={"union": {"cincinnati": ["MI", "MI", "MI"]}})
    a, b, c = [u["id"] for u in g.units_in("cincinnati")]
    activate(g, "cincinnati")
    g.apply(move(a, ("dayton", "rail")))
    g.apply(move(b, ("chillicothe", "rail")))
    g.apply(move(c, ("bloomington_in", "rail")))
    assert [unit(g, u).loc for u in (a, b, c)] == ["dayton", "chillicothe", "bloomington_in"]


# ---------------------------------------------------------------- 4.1
def test_first_game_turn_no_march_roll_two_marches_each_4_1():
    g = rules_engine.new_game("1861", seed="first-turn")
    assert (g.turn, g.side, g.phase, g.marches) == (1, "union", "movement", 2)
    assert {"type": "roll_marches"} not in g.legal_actions()
    refused(g, {"type": "roll_marches"}, "movement")
    g.apply({"type": "end_movement"})
    while g.side == "union":
        acts = g.legal_actions()
        g.apply(next((a for a in acts if a["type"] in ("no_promotion", "roll_recruits",
                                                       "end_recruitment")), acts[-1]))
    assert (g.turn, g.side, g.phase, g.marches) == (1, "confederate", "movement", 2)
    assert "marches" not in roll_event_purposes(g)


def test_second_game_turn_rolls_for_marches_4_1():
    g = game(turn=1, side="confederate", phase="recruit_roll", dice=[3],
             units={"union": {"washington": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    if g.phase == "recruitment":
        g.apply({"type": "end_recruitment"})
    assert (g.turn, g.side, g.phase) == (2, "union", "marches_roll")


# ---------------------------------------------------------------- 4.2
def test_confederates_never_move_along_the_potomac_4_2():
    g = game(side="confederate", units={"confederate": {"fredericksburg": ["MI", "MC"]}})
    mil, cav = uid(g, "fredericksburg", "MI"), uid(g, "fredericksburg", "MC")
    activate(g, "fredericksburg")
    refused(g, move(mil, ("washington", "river")), "(4.2)")
    refused(g, move(cav, ("washington", "river")), "(4.2)")
    g.apply(move(mil, ("richmond", "rail")))


def test_union_may_move_along_the_potomac_4_2():
    g = game(units={"union": {"washington": ["MI"]}})
    mil = uid(g, "washington", "MI")
    activate(g, "washington")
    g.apply(move(mil, ("fredericksburg", "river")))
    assert unit(g, mil).loc == "fredericksburg"


# ---------------------------------------------------------------- 4.3
def test_no_entrenching_in_a_box_with_enemy_units_4_3():
    g = game(marches=2, units={"union": {"dayton": ["MI"]}, "confederate": {"cincinnati": ["MI"]}})
    mil = uid(g, "dayton", "MI")
    activate(g, "dayton")
    g.apply(move(mil, ("cincinnati", "rail")))       # a Recruitment City: one March would do
    refused(g, {"type": "activate", "box": "cincinnati"}, "(4.0)")
    g2 = forced(g, active="cincinnati", march_units=[mil])
    reason = refused(g2, {"type": "entrench", "unit": mil}, "(4.3)")
    assert "enemy" in reason


def test_recruitment_city_entrenches_in_one_march_4_3():
    g = game(marches=2, units={"union": {"cincinnati": ["MI", "MI"]}})
    a, b = [u["id"] for u in g.units_in("cincinnati")]
    activate(g, "cincinnati")
    g.apply({"type": "entrench", "unit": a})
    assert unit(g, a).ent and g.marches == 1
    refused(g, {"type": "entrench", "unit": a}, "already entrenched")


def test_a_unit_that_moves_loses_entrenchment_4_3():
    g = game(units={"union": {"cincinnati": ["MI*", "MI*"]}})
    a, b = [u["id"] for u in g.units_in("cincinnati")]
    activate(g, "cincinnati")
    g.apply(move(a, ("dayton", "rail")))
    assert not unit(g, a).ent and unit(g, b).ent


def test_units_joining_entrenched_friends_are_not_entrenched_4_3():
    g = game(units={"union": {"cincinnati": ["MI*"], "dayton": ["MI"]}})
    dug, mover = uid(g, "cincinnati", "MI"), uid(g, "dayton", "MI")
    activate(g, "dayton")
    g.apply(move(mover, ("cincinnati", "rail")))
    assert unit(g, dug).ent and not unit(g, mover).ent


def test_entrenching_outside_a_city_needs_units_that_have_not_moved_4_3():
    g = game(marches=3, units={"union": {"gettysburg": ["MI"]}})
    mil = uid(g, "gettysburg", "MI")
    activate(g, "gettysburg")
    g.apply(move(mil, ("harrisburg", "rail")))        # Gettysburg has no shield
    end_march(g)
    activate(g, "harrisburg")
    g.apply(move(mil, ("gettysburg", "rail")))
    assert unit(g, mil).m == 2
    assert {"type": "activate", "box": "gettysburg"} not in g.legal_actions()


@pytest.mark.parametrize("fort, start, kind", [("washington", "baltimore", "rail"),
                                               ("richmond", "petersburg", "rail"),
                                               ("fort_monroe", "yorktown", "river"),
                                               ("vicksburg", "monroe", "rail")])
def test_permanent_entrenchments_entrench_at_the_start_of_a_player_turn_4_3(fort, start, kind):
    g = game(marches=1, dice=[2], units={"union": {start: ["MI"]}})
    mil = uid(g, start, "MI")
    activate(g, start)
    g.apply(move(mil, (fort, kind)))
    assert unit(g, mil).loc == fort and not unit(g, mil).ent      # not on arrival
    g.apply({"type": "no_promotion"})
    g.apply({"type": "roll_recruits"})
    if g.phase == "recruitment":
        g.apply({"type": "end_recruitment"})
    assert g.side == "confederate" and g.phase == "marches_roll"
    assert unit(g, mil).ent                                        # the next Player Turn


# ---------------------------------------------------------------- 4.4
def test_only_one_jump_move_per_segment_4_4():
    g = game(marches=2, units={"union": {"fts_henry_donelson": ["CC"]},
                               "confederate": {"nashville": ["MI"], "corinth": ["MI"]}})
    cav = uid(g, "fts_henry_donelson", "CC")
    activate(g, "fts_henry_donelson")
    g.apply(move(cav, ("nashville", "rail"), ("decatur", "rail")))
    activate(g, "decatur")
    reason = refused(g, move(cav, ("corinth", "rail"), ("grand_junction", "rail")), "(4.4)")
    assert "only one Jump" in reason
    g.apply(move(cav, ("chattanooga", "rail"), ("atlanta", "rail")))   # no jump: fine


def test_jump_move_may_not_end_in_an_enemy_box_4_4():
    g = game(units={"union": {"fts_henry_donelson": ["CC"]},
                    "confederate": {"nashville": ["MI"], "decatur": ["MI"]}})
    cav = uid(g, "fts_henry_donelson", "CC")
    activate(g, "fts_henry_donelson")
    reason = refused(g, move(cav, ("nashville", "rail"), ("decatur", "rail")), "(4.4)")
    assert "may not end" in reason
    g.apply(move(cav, ("nashville", "rail"), ("murfreesboro", "rail")))


def test_infantry_may_not_make_cavalry_jumps_4_4():
    """All-Union boxes make the railroad friendly, so only the jump itself is at stake."""
    g = game(units={"union": {"indianapolis": ["VI"]}, "confederate": {"dayton": ["MI"]}})
    vet = uid(g, "indianapolis", "VI")
    activate(g, "indianapolis")
    reason = refused(g, move(vet, ("dayton", "rail"), ("cincinnati", "rail")), "(4.4)")
    assert "only cavalry may jump" in reason.lower()
    g.apply(move(vet, ("fort_wayne", "rail"), ("dayton", "rail")))   # may attack it, though


# ---------------------------------------------------------------- 4.5
def test_confederacy_may_not_river_jump_4_5():
    g = game(side="confederate", units={"confederate": {"decatur": ["VI", "VC"]},
                                        "union": {"pittsburg_landing": ["MI"]}})
    vet, cav = uid(g, "decatur", "VI"), uid(g, "decatur", "VC")
    activate(g, "decatur")
    for u in (vet, cav):
        refused(g, move(u, ("pittsburg_landing", "river"), ("fts_henry_donelson", "river")), "(4.5)")


def test_union_river_jump_counts_as_the_one_jump_and_may_not_end_among_enemies_4_5():
    g = game(marches=2, units={"union": {"decatur": ["VC"]},
                               "confederate": {"pittsburg_landing": ["MI"], "nashville": ["MI"]}})
    cav = uid(g, "decatur", "VC")
    activate(g, "decatur")
    g.apply(move(cav, ("pittsburg_landing", "river"), ("fts_henry_donelson", "river")))
    assert unit(g, cav).jumped
    activate(g, "fts_henry_donelson")
    refused(g, move(cav, ("nashville", "rail"), ("murfreesboro", "rail")), "(4.4)")


def test_union_river_jump_may_not_end_in_an_enemy_box_4_5():
    g = game(units={"union": {"decatur": ["VI"]},
                    "confederate": {"pittsburg_landing": ["MI"], "fts_henry_donelson": ["MI"]}})
    vet = uid(g, "decatur", "VI")
    activate(g, "decatur")
    refused(g, move(vet, ("pittsburg_landing", "river"), ("fts_henry_donelson", "river")), "(4.4)")


# ---------------------------------------------------------------- 4.6
def test_sea_movement_is_union_only_4_6():
    g = game(side="confederate", units={"confederate": {"mobile": ["MI"]}})
    mil = uid(g, "mobile", "MI")
    assert not [a for a in g.legal_actions() if a["type"] == "sea_move"]
    refused(g, {"type": "sea_move", "unit": mil, "to": "new_orleans"}, "(4.6)")


def test_sea_movement_starts_in_a_port_and_unmoved_4_6():
    g = game(marches=3, units={"union": {"philadelphia": ["MI", "MI"]}})
    a, b = [u["id"] for u in g.units_in("philadelphia")]
    refused(g, {"type": "sea_move", "unit": a, "to": "baltimore"}, "(4.6)")   # not a port
    activate(g, "philadelphia")
    g.apply(move(a, ("new_york", "rail")))             # now in a port, but it has moved
    end_march(g)
    refused(g, {"type": "sea_move", "unit": a, "to": "baltimore"}, "(4.6)")


def test_sea_movement_only_to_union_controlled_ports_4_6():
    g = game(marches=3, units={"union": {"new_york": ["MI", "MI", "MI"]}},
             control={"union": ["new_orleans"], "confederate": ["pensacola"]})
    a, b, c = [u["id"] for u in g.units_in("new_york")]
    refused(g, {"type": "sea_move", "unit": a, "to": "charleston_sc"}, "(4.6)")
    refused(g, {"type": "sea_move", "unit": a, "to": "pensacola"}, "(4.6)")
    refused(g, {"type": "sea_move", "unit": a, "to": "philadelphia"}, "(4.6)")    # not a port
    g.apply({"type": "sea_move", "unit": a, "to": "new_orleans"})          # a Union marker
    g.apply({"type": "sea_move", "unit": b, "to": "baltimore"})
    assert (unit(g, a).loc, unit(g, b).loc) == ("new_orleans", "baltimore")


def test_each_unit_moved_by_sea_is_one_march_4_6():
    g = game(marches=3, units={"union": {"new_york": ["MI", "MI", "MI"]}})
    a, b, c = [u["id"] for u in g.units_in("new_york")]
    g.apply({"type": "sea_move", "unit": a, "to": "atlantic_city"})
    g.apply({"type": "sea_move", "unit": b, "to": "atlantic_city"})
    assert g.marches == 1


def test_no_other_movement_after_sea_movement_but_entrench_in_a_city_4_6():
    g = game(marches=3, units={"union": {"new_york": ["MI"]}})
    mil = uid(g, "new_york", "MI")
    g.apply({"type": "sea_move", "unit": mil, "to": "atlantic_city"})
    activate(g, "atlantic_city")
    refused(g, move(mil, ("philadelphia", "rail")), "(4.6)")
    refused(g, {"type": "sea_move", "unit": mil, "to": "baltimore"}, "(4.6)")
    g.apply({"type": "entrench", "unit": mil})          # the second March: entrenched
    assert unit(g, mil).ent and unit(g, mil).m == 2


def test_no_entrenching_after_sea_movement_outside_a_city_4_6():
    g = game(marches=3, units={"union": {"new_york": ["MI"], "philadelphia": ["MI"]}})
    mil = uid(g, "new_york", "MI")
    g.apply({"type": "sea_move", "unit": mil, "to": "pensacola"})      # a port with no shield
    assert {"type": "activate", "box": "pensacola"} not in g.legal_actions()


# ---------------------------------------------------------------- 4.7
def test_invasion_only_after_a_march_roll_of_six_4_7():
    g = game(phase="marches_roll", dice=[5], units={"union": {"washington": ["VI"]}})
    vet = uid(g, "washington", "VI")
    g.apply({"type": "roll_marches"})
    assert not [a for a in g.legal_actions() if a["type"] == "invade"]
    reason = refused(g, {"type": "invade", "unit": vet, "to": "wilmington"}, "(4.7)")
    assert "6" in reason
    g = game(phase="marches_roll", dice=[6], units={"union": {"washington": ["VI"]}})
    g.apply({"type": "roll_marches"})
    assert {"type": "invade", "unit": vet, "to": "wilmington"} in g.legal_actions()


def test_invasion_only_from_washington_4_7():
    g = game(marches=6, invasion=True, units={"union": {"washington": ["VI"], "baltimore": ["VI"]}})
    here, there = uid(g, "washington", "VI"), uid(g, "baltimore", "VI")
    reason = refused(g, {"type": "invade", "unit": there, "to": "wilmington"}, "(4.7)")
    assert "Washington" in reason
    g.apply({"type": "invade", "unit": here, "to": "wilmington"})
    assert unit(g, here).loc == "wilmington" and g.marches == 5


def test_invasion_only_to_confederate_controlled_ports_4_7():
    g = game(marches=6, invasion=True, units={"union": {"washington": ["VI", "VI"]}},
             control={"union": ["norfolk"]})
    a, b = [u["id"] for u in g.units_in("washington")]
    refused(g, {"type": "invade", "unit": a, "to": "philadelphia"}, "(4.7)")
    refused(g, {"type": "invade", "unit": a, "to": "norfolk"}, "(4.7)")
    refused(g, {"type": "invade", "unit": a, "to": "richmond"}, "(4.7)")    # not a port
    g.apply({"type": "invade", "unit": a, "to": "savannah"})
    g.apply({"type": "invade", "unit": b, "to": "mobile"})                # separate ports
    assert (unit(g, a).loc, unit(g, b).loc) == ("savannah", "mobile")


def test_invading_units_move_no_further_and_entrench_in_an_empty_city_port_4_7():
    g = game(marches=6, invasion=True, units={"union": {"washington": ["VI"]}})
    vet = uid(g, "washington", "VI")
    g.apply({"type": "invade", "unit": vet, "to": "savannah"})
    activate(g, "savannah")
    refused(g, move(vet, ("macon", "rail")), "(4.6)")
    g.apply({"type": "entrench", "unit": vet})
    assert unit(g, vet).ent


def test_invasion_battle_gives_the_defender_the_river_bonus_4_7_5_34():
    g = game(phase="marches_roll", dice=[6] + [6] * 6,
             units={"union": {"washington": ["VI"]}, "confederate": {"wilmington": ["MI"]}})
    vet, mil = uid(g, "washington", "VI"), uid(g, "wilmington", "MI")
    g.apply({"type": "roll_marches"})
    g.apply({"type": "invade", "unit": vet, "to": "wilmington"})
    g.apply({"type": "end_movement"})
    g.apply({"type": "fight", "box": "wilmington"})
    assert g.battle["entered_from"] == []
    for rnd, bonus in ((1, 1), (2, 1), (3, 0)):
        assert g.battle["round"] == rnd and g.to_act == "confederate"
        if rnd > 1:
            g.apply({"type": "open_fire"})
        assert g.shot_value(mil, vet) == 2 + bonus
        g.apply({"type": "target", "unit": mil, "target": vet})
        if rnd < 3:
            if rnd > 1:
                g.apply({"type": "open_fire"})
            g.apply({"type": "target", "unit": vet, "target": mil})


# 4.3 as corrected in engine version 2 (ruling R40). Manassas Jct. (no shield) and
# Nashville (a Recruitment City) are on both the old and the printed board.
def entrench_position(engine=2):
    return rules_engine.from_position({
        "engine": engine, "scenario": "1861", "turn": 3, "side": "confederate",
        "phase": "movement", "marches": 3,
        "units": {"union": {"washington": ["MI"]},
                  "confederate": {"manassas_junction": ["MI", "MI"], "nashville": ["MI"]}}})


def test_entrenching_outside_a_city_takes_two_separate_marches_4_3():
    g = entrench_position()
    a, b = [u["id"] for u in g.units_in("manassas_junction")]
    activate(g, "manassas_junction")
    g.apply({"type": "entrench", "unit": a})
    assert unit(g, a).dig and not unit(g, a).ent and g.marches == 2
    reason = refused(g, {"type": "entrench", "unit": a}, "(4.3)")
    assert "two Marches" in reason
    g.apply(move(b, ("fredericksburg", "road")))          # the same March moves the others
    end_march(g)
    activate(g, "manassas_junction")                       # the second March
    g.apply({"type": "entrench", "unit": a})
    assert unit(g, a).ent and unit(g, a).m == 2 and g.marches == 1


def test_a_unit_that_entrenches_does_not_move_in_that_march_4_3():
    g = entrench_position()
    a = ids_in(g, "manassas_junction")[0]
    activate(g, "manassas_junction")
    g.apply({"type": "entrench", "unit": a})
    assert not [x for x in g.legal_actions() if x.get("unit") == a]
    refused(g, move(a, ("fredericksburg", "road")), "(4.3)")
    end_march(g)
    city = ids_in(g, "nashville")[0]
    activate(g, "nashville")
    g.apply({"type": "entrench", "unit": city})           # one March in a Recruitment City
    assert unit(g, city).ent and g.active is None          # nobody left to act: closed
    g2 = rules_engine.from_position({**g.state(), "active": "nashville", "march_units": []})
    refused(g2, move(city, ("murfreesboro", "rail")), "(4.3)")


def test_version_1_games_keep_entrenching_in_one_activation_4_3():
    """Engine version 1 let both digging steps share one activation, and moves after."""
    g = entrench_position(engine=1)
    a = ids_in(g, "manassas_junction")[0]
    activate(g, "manassas_junction")
    g.apply({"type": "entrench", "unit": a})
    assert move(a, ("fredericksburg", "road")) in g.legal_actions()
    g.apply({"type": "entrench", "unit": a})
    assert unit(g, a).ent and g.marches == 2
    assert rules_engine.replay(g.header, g.events).state_json() == g.state_json()


def ids_in(g, box):
    return [u["id"] for u in g.units_in(box)]
