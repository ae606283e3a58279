"""Advanced Game rules (Advanced Rules booklet), each with scripted dice."""
from __future__ import annotations

import pytest

import rules_engine
from rules_engine.advanced import command_value

from .helpers import game, ids, refused, uid, unit


# ---------------------------------------------------------------- A3.0
@pytest.mark.parametrize("turn,side,die,marches", [(8, "union", 5, 4), (8, "confederate", 5, 5),
                                                   (3, "union", 1, 2), (30, "union", 6, 5)])
def test_a3_0_marches_from_the_command_table(turn, side, die, marches):
    g = game(turn=turn, side=side, phase="marches_roll", dice=[die], options=["A3.0"],
             units={side: {"richmond" if side == "confederate" else "washington": ["MI"]}})
    g.apply({"type": "roll_marches"})
    assert g.marches == marches


def test_command_table_reads_union_then_confederate():
    assert command_value(1861, 1, "union") == 2 and command_value(1861, 6, "confederate") == 5
    assert command_value(1865, 6, "union") == 6 and command_value(1865, 1, "confederate") == 2


# ---------------------------------------------------------------- A6.0
def test_a6_0_capturing_washington_costs_a_die_not_the_game():
    g = game(side="confederate", phase="battle_choice", dice=[1], options=["A6.0"],
             units={"confederate": {"washington": ["MI"]}})
    before = 34 - 1                              # Washington's blue 1 is lost with the city
    assert g.result is None
    assert g.washington_loss == 2                # a roll of 1 takes off two
    assert g.army_maximum("union") == before - 2
    plain = game(side="confederate", phase="battle_choice", units={"confederate": {"washington": ["MI"]}})
    assert plain.result["winner"] == "confederate"


def test_a6_0_recapture_adds_only_the_city_value():
    g = game(side="union", phase="battle_choice", options=["A6.0"], washington_loss=4,
             units={"union": {"washington": ["MI"]}}, control={"confederate": ["washington"]})
    assert g.controller("washington") == "union"
    assert g.army_maximum("union") == 34 - 4


# ---------------------------------------------------------------- A2.0
def test_a2_0_an_isolated_stack_loses_a_piece_of_its_owners_choice():
    g = game(side="union", phase="recruit_roll", dice=[2], options=["A2.0"],
             units={"union": {"washington": ["MI"], "sparta": ["VI", "MI"], "nashville": ["MI"]},
                    "confederate": {"richmond": ["MI"]}},
             control={"union": ["sparta", "nashville"]})
    g.apply({"type": "roll_recruits"})
    while g.phase == "recruitment":
        g.apply({"type": "end_recruitment"})
    # the Confederate turn starts: only its own pieces are checked, and Richmond holds one
    assert g.side == "confederate" and g.phase != "supply"
    h = game(side="union", phase="marches_roll", options=["A2.0"],
             units={"union": {"sparta": ["VI", "MI"]}}, control={"union": ["sparta"]})
    assert h.phase == "marches_roll"              # positions start after the supply check
    h._start_player_turn("union")
    assert h.phase == "supply" and h.supply_boxes == ["sparta"]
    vi = uid(h, "sparta", "VI")
    refused(h, {"type": "roll_marches"}, "supply")
    h.apply({"type": "supply_loss", "unit": vi})
    assert unit(h, vi).loc == "stock" and h.phase == "marches_roll"


def test_a2_1_supply_lines():
    g = game(options=["A2.0"], units={"union": {"sparta": ["VI", "MI"], "cincinnati": ["MI", "MI"],
                                                  "new_york": ["VI", "VI"]},
                                        "confederate": {"knoxville": ["MI", "MI"], "sparta": []}},
             control={"union": ["sparta"]})
    supplied = g._supplied_boxes("union")
    assert "cincinnati" in supplied                 # a city linked by rail to other cities
    assert "sparta" not in supplied                 # joined to nothing by rail or river
    assert g._unsupplied_boxes("union") == ["sparta"]
    assert "new_york" not in g._unsupplied_boxes("union")           # a Union port
    assert g._unsupplied_boxes("confederate") == []                  # Knoxville links by rail


def test_a2_0_a_piece_alone_is_always_supplied():
    g = game(options=["A2.0"], units={"union": {"sparta": ["VI"]}}, control={"union": ["sparta"]})
    assert g._unsupplied_boxes("union") == []


# ---------------------------------------------------------------- A7.0
def test_a7_0_worked_example_leadership_3_then_4_then_6():
    """1862: the Union rolls 4 (value 3), then 1 (2 + 2 = 4), then 5 (4 + 2 = 6)."""
    # each day: the Confederate die (6), the Union die, then misses for four rounds of
    # (Confederate + Union) shots: day 1 5 + 3, day 2 8 (capped) + 4.
    dice = [6, 4] + [6] * 32 + [6, 1] + [6] * 48 + [6, 5] + [6] * 60
    g = game(turn=8, phase="battle_choice", dice=dice, options=["A7.0"],
             units={"union": {"corinth": ["VI"] * 8}, "confederate": {"corinth": ["VI"] * 8}})
    g.apply({"type": "fight", "box": "corinth"})
    seen = []
    while g.battle and g.battle["round"] <= 9:
        lead = g.battle["leadership"]["union"]
        if not seen or seen[-1] != lead:
            seen.append(lead)
        acts = g.legal_actions()
        if g.battle["step"] == "target" and g.battle["firing"] == "union":
            targets = sum(1 for a in acts if a["type"] == "target")
            assert targets and len(g.battle["targets"]) < lead
        opener = [a for a in acts if a["type"] == "open_fire"]
        g.apply(opener[0] if opener else next(a for a in acts if a["type"] == "target"))
    assert seen == [3, 4, 6]


def test_a7_0_at_most_eight_fire_per_round():
    g = game(turn=38, phase="battle_choice", dice=[6, 6] + [6] * 40, options=["A7.0"],
             units={"union": {"corinth": ["VI"] * 10}, "confederate": {"corinth": ["VI"] * 10}},
             )
    g.apply({"type": "fight", "box": "corinth"})
    assert g._shots_allowed("confederate") == min(10, g.battle["leadership"]["confederate"], 8)


# ---------------------------------------------------------------- A8.3
def test_a8_3_missouri_militia_joins_the_pool():
    g = game(side="union", phase="recruit_roll", turn=4, dice=[2, 3], options=["A8.3"],
             units={"union": {"washington": ["MI"]},
                    "confederate": {"st_louis": ["MI"], "st_joseph": ["MI"]}},
             control={"confederate": ["st_louis", "st_joseph"]})
    g.apply({"type": "roll_recruits"})
    while g.side == "union":
        g.apply(g.legal_actions()[-1])
    roll = next(e for e in g.events if e["type"] == "roll" and e["purpose"] == "border_support")
    assert roll["state"] == "missouri" and roll["modifier"] >= 1       # 1861: +1
    assert unit(g, "C-BM-MO").loc == "pool" and g.border_raised == ["missouri"]


def test_a8_3_border_militia_are_off_the_map_without_the_rule():
    assert "C-BM-MO" not in rules_engine.new_game("1861", seed="x").units
    g = rules_engine.new_game("1861", options=["A8.3"], seed="x")
    assert g.units["C-BM-MO"].loc == "border"


# ---------------------------------------------------------------- A8.1
def test_a8_1_a_newly_reduced_unit_checks_morale_and_routs():
    # Confederates fire first and miss (6, 6); the Union hits (1); the morale die 5 > 4: rout.
    g = game(turn=8, phase="battle_choice", dice=[6, 6, 1, 5], options=["A8.1"],
             units={"union": {"corinth": ["VI"]}, "confederate": {"corinth": ["VI", "MI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    cvi, cmi = uid(g, "corinth", "VI", "confederate"), uid(g, "corinth", "MI", "confederate")
    uvi = uid(g, "corinth", "VI", "union")
    g.apply({"type": "target", "unit": cvi, "target": uvi})
    g.apply({"type": "target", "unit": cmi, "target": uvi})
    assert g.battle["firing"] == "union"
    g.apply({"type": "target", "unit": uvi, "target": cvi})
    morale = next(e for e in g.events if e["type"] == "roll" and e["purpose"] == "morale")
    assert morale["unit"] == cvi and morale["morale"] == 4
    assert cvi in g.battle["routed"]["confederate"] and cvi not in g.battle["units"]["confederate"]
    assert unit(g, cvi).loc == "corinth" and unit(g, cvi).red


def test_a8_1_entrenched_units_hold_better():
    g = game(turn=8, phase="battle_choice", dice=[6, 1, 5], options=["A8.1"],
             units={"union": {"corinth": ["VI"]}, "confederate": {"corinth": ["VI*"]}})
    g.apply({"type": "fight", "box": "corinth"})
    cvi, uvi = uid(g, "corinth", "VI", "confederate"), uid(g, "corinth", "VI", "union")
    g.apply({"type": "target", "unit": cvi, "target": uvi})
    g.apply({"type": "target", "unit": uvi, "target": cvi})     # 1: hits even at -1
    assert cvi in g.battle["units"]["confederate"]              # 5 - 1 = 4: holds


def test_a8_12_desertion_after_battle():
    # The Confederate MI is hit (reduced) and the Union wins when it retreats; the
    # reduced loser then rolls desertion: 6 + 1 (lost) - 1 (not routed) = 6 > 3.
    g = game(turn=8, phase="battle_choice", dice=[6, 1, 1, 6], options=["A8.1"],
             units={"union": {"corinth": ["VI"]}, "confederate": {"corinth": ["MI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    cmi, uvi = uid(g, "corinth", "MI", "confederate"), uid(g, "corinth", "VI", "union")
    g.apply({"type": "target", "unit": cmi, "target": uvi})     # 6 miss
    g.apply({"type": "target", "unit": uvi, "target": cmi})     # 1 hit; morale 1: holds
    g.apply({"type": "retreat", "to": "okolona"})
    assert unit(g, cmi).loc == "pool"
    desertion = [e for e in g.events if e["type"] == "roll" and e["purpose"] == "desertion"]
    assert desertion and desertion[0]["modifier"] == 0


def _a_winner_deserts(engine=rules_engine.ENGINE_VERSION):
    """Two Union MI beat a Confederate MI at Corinth; U-MI-01 is reduced on the way and
    deserts after the battle (6 + 0 (won) - 1 (never routed) = 5 > 3)."""
    g = game(turn=8, phase="battle_choice", dice=[1, 1, 1, 1, 6], options=["A8.1"], engine=engine,
             units={"union": {"corinth": ["MI", "MI"]}, "confederate": {"corinth": ["MI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    g.apply({"type": "target", "unit": "C-MI-01", "target": "U-MI-01"})     # 1 hits; morale 1 holds
    g.apply({"type": "target", "unit": "U-MI-01", "target": "C-MI-01"})     # 1 hits
    g.apply({"type": "target", "unit": "U-MI-02", "target": "C-MI-01"})     # 1 eliminates it
    assert unit(g, "U-MI-01").loc == "pool"
    assert any(e["type"] == "deserted" and e["unit"] == "U-MI-01" for e in g.events)
    return g


def test_a8_12_a_unit_that_deserted_is_not_offered_a_promotion():
    """6.0: the winner promotes "one of his surviving units"; a deserter is not one (R51)."""
    g = _a_winner_deserts()
    assert g.legal_actions() == [{"type": "promote", "unit": "U-MI-02"}, {"type": "no_promotion"}]
    assert "surviving unit" in refused(g, {"type": "promote", "unit": "U-MI-01"}, "(6.0)")
    g.apply({"type": "promote", "unit": "U-MI-02"})
    assert unit(g, "U-MI-01").loc == "pool" and g.battle is None


def test_a8_12_games_of_engine_version_3_keep_their_offer_to_a_deserter():
    """Stored games replay and verify as they were played: the correction is version 4's."""
    g = _a_winner_deserts(engine=3)
    assert {"type": "promote", "unit": "U-MI-01"} in g.legal_actions()


# ---------------------------------------------------------------- A5.0
def test_a5_0_coastal_defense_garrison_fights_an_invasion():
    # 6 for marches (invasion); the garrison (Charleston, red 2) fires first: 6 misses;
    # the Union VI hits it twice (1, 1), each time needing 3 - 1 = 2.
    g = game(phase="marches_roll", dice=[6, 6, 1, 6, 1], options=["A5.0"],
             units={"union": {"washington": ["VI"]}})
    vi = uid(g, "washington", "VI")
    g.apply({"type": "roll_marches"})
    g.apply({"type": "invade", "unit": vi, "to": "charleston_sc"})
    g.apply({"type": "end_movement"})
    g.apply({"type": "fight", "box": "charleston_sc"})
    garrison = "C-CD-charleston_sc"
    assert g.battle["units"]["confederate"] == [garrison]
    assert g.shot_value(garrison, vi) == 3          # value 2, +1 against an invasion (5.34)
    assert g.shot_value(vi, garrison) == 2          # permanently entrenched (-1)
    g.apply({"type": "target", "unit": garrison, "target": vi})
    g.apply({"type": "target", "unit": vi, "target": garrison})
    assert unit(g, garrison).red                    # one hit of two
    assert not any(a["type"] == "retreat" for a in g.legal_actions())   # a garrison never retreats
    g.apply({"type": "open_fire"})
    g.apply({"type": "target", "unit": garrison, "target": vi})   # round 2: 6 misses
    g.apply({"type": "open_fire"})
    g.apply({"type": "target", "unit": vi, "target": garrison})
    assert g.battle is None and g.phase != "battle"
    assert not any(e["type"] == "promoted" for e in g.events)   # no promotion for a garrison alone
    assert g.controller("charleston_sc") == "union"


@pytest.mark.parametrize("engine, may_entrench", [(None, False), (4, True)])
def test_a5_0_invaders_may_not_entrench_while_the_garrison_holds_the_port(engine, may_entrench):
    # 4.7: invaders "may entrench (4.3) by using a second March" only "if the invaded
    # Port box is empty"; A5.0's garrison is a piece until it is destroyed. Games of
    # engine version 4 and earlier keep the entrenchment they were played with.
    kw = {} if engine is None else {"engine": engine}
    g = game(phase="marches_roll", dice=[6], options=["A5.0"], units={"union": {"washington": ["VI"]}}, **kw)
    vi = uid(g, "washington", "VI")
    g.apply({"type": "roll_marches"})
    g.apply({"type": "invade", "unit": vi, "to": "charleston_sc"})
    dig = {"type": "entrench", "unit": vi}
    if may_entrench:
        g.apply({"type": "activate", "box": "charleston_sc"})
        assert dig in g.legal_actions()
    else:
        assert "coastal defence" in refused(g, {"type": "activate", "box": "charleston_sc"}, "(A5.0, 4.7)")
        assert dig not in g.legal_actions()


def test_a5_0_no_garrison_without_the_rule_or_against_land_attacks():
    g = game(phase="marches_roll", dice=[6], units={"union": {"washington": ["VI"]}})
    g.apply({"type": "roll_marches"})
    g.apply({"type": "invade", "unit": uid(g, "washington", "VI"), "to": "charleston_sc"})
    g.apply({"type": "end_movement"})
    assert g.controller("charleston_sc") == "union"           # empty port: freely occupied


# ---------------------------------------------------------------- A8.4
INTERVENTION = {"confederate": {"washington": ["VI"], "philadelphia": ["MI"], "mobile": ["MI"]},
                "union": {"new_york": ["MI"]}}


def test_a8_4_intervention_needs_all_three_conditions():
    g = game(side="union", phase="recruit_roll", dice=[2, 2], options=["A8.4"], units=INTERVENTION,
             control={"confederate": ["washington", "philadelphia"]})
    g.apply({"type": "roll_recruits"})
    while g.side == "union":
        g.apply(g.legal_actions()[-1])
    # Union 34 - 1 - 4 = 29 vs Confederate 29; Washington and Philadelphia (4) held
    assert g.intervention
    assert {g.units[u].loc for u in ("C-FI-1", "C-FI-2", "C-FI-3", "C-FI-4")} == {"europe"}
    plain = game(side="union", phase="recruit_roll", dice=[2, 2], options=["A8.4"],
                 units={"confederate": {"washington": ["VI"]}, "union": {"new_york": ["MI"]}},
                 control={"confederate": ["washington"]})
    plain.apply({"type": "roll_recruits"})
    while plain.side == "union":
        plain.apply(plain.legal_actions()[-1])
    assert not plain.intervention                  # no Union city of value 2+ is held


def test_a8_4_foreign_units_sail_from_europe_and_do_not_count():
    g = game(side="confederate", options=["A8.4"], intervention=True, marches=2,
             units={"confederate": {"mobile": ["MI"]}})
    moves = [a for a in g.legal_actions() if a["type"] == "sea_move" and a["unit"] == "C-FI-1"]
    assert {"type": "sea_move", "unit": "C-FI-1", "to": "mobile"} in moves
    before = g.units_on_map("confederate")
    g.apply({"type": "sea_move", "unit": "C-FI-1", "to": "mobile"})
    assert g.units["C-FI-1"].loc == "mobile" and g.units_on_map("confederate") == before
    assert not g._promotable(g.units["C-FI-1"], in_battle=True)
    # Confederate units may now sail between Confederate ports too (no invasions)
    assert {"type": "sea_move", "unit": uid(g, "mobile", "MI"), "to": "charleston_sc"} in g.legal_actions()
    assert not any(a["type"] == "invade" for a in g.legal_actions())


def test_a8_4_a_lost_foreign_unit_returns_on_a_5_or_6():
    g = game(side="confederate", phase="recruit_roll", dice=[5], options=["A8.4"], intervention=True,
             units={"confederate": {"mobile": ["MI"]}})
    g._place("C-FI-3", "foreign_lost")
    g.apply({"type": "roll_recruits"})
    assert g.units["C-FI-3"].loc == "europe"


# ---------------------------------------------------------------- A8.2
def test_a8_2_scenario_leaders_and_status_change():
    g = rules_engine.new_game("1863", options=["A8.2"], seed="x")
    assert g.leaders["lee"] == "fredericksburg" and g.leaders["grant"] == "arkansas_post"
    assert g.leader_value("lee") == 3                      # 04/1863, before Jackson's death
    g.turn += 1
    assert g.leader_value("lee") == 2                      # 05/1863 status change
    assert rules_engine.new_game("1863", seed="x").leaders == {}


def test_a8_2_leader_arrives_on_a_friendly_box():
    g = game(turn=5, side="confederate", phase="recruit_roll", dice=[2], options=["A8.2"],
             units={"union": {"washington": ["MI"], "cairo": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    while g.side == "confederate":
        g.apply(g.legal_actions()[-1])
    assert g.turn == 6 and g.phase == "leaders"            # Grant arrives 01/02 1862
    boxes = {a["box"] for a in g.legal_actions()}
    assert boxes == {"washington", "cairo"}
    g.apply({"type": "place_leader", "leader": "grant", "box": "cairo"})
    assert g.leaders["grant"] == "cairo" and g.phase == "marches_roll"


def test_a8_2_leaders_move_free_twice_a_turn():
    g = game(turn=30, marches=1, options=["A8.2"], leaders={"grant": "washington"},
             units={"union": {"washington": ["MI"]}})
    g.apply({"type": "move_leader", "leader": "grant", "path": ["baltimore"], "by": ["rail"]})
    assert g.marches == 1 and g.leaders["grant"] == "baltimore"
    g.apply({"type": "move_leader", "leader": "grant", "path": ["washington"], "by": ["rail"]})
    assert not any(a["type"] == "move_leader" for a in g.legal_actions())


def test_a8_2_leader_pluses_in_battle():
    g = game(turn=18, side="confederate", phase="battle_choice", dice=[6] * 10, options=["A8.2"],
             leaders={"lee": "manassas_junction"},
             units={"confederate": {"manassas_junction": ["VI", "VI"]}, "union": {"manassas_junction": ["VI"]}})
    g.apply({"type": "fight", "box": "manassas_junction"})
    u = uid(g, "manassas_junction", "VI", "union")
    g.apply({"type": "target", "unit": u, "target": g.battle["units"]["confederate"][0]})
    assert g.battle["step"] == "bonus" and g.to_act == "confederate"
    a, b = g.battle["units"]["confederate"]
    g.apply({"type": "leader_bonus", "unit": a})
    g.apply({"type": "leader_bonus", "unit": a})
    g.apply({"type": "leader_bonus", "unit": b})            # Lee is 3 in 04/1863
    assert g.shot_value(a, u) == 5 and g.shot_value(b, u) == 4
    g.apply({"type": "bonus_done"})
    assert g.battle["step"] == "target"


def test_a8_2_a_lone_leader_is_caught_and_returns_at_recruitment():
    g = game(side="confederate", turn=30, marches=1, options=["A8.2"], leaders={"grant": "harpers_ferry"},
             units={"confederate": {"front_royal": ["VC"]}, "union": {"washington": ["MI"]}})
    g.apply({"type": "activate", "box": "front_royal"})
    cav = uid(g, "front_royal", "VC")
    path = next(a for a in g.legal_actions() if a["type"] == "move" and a["path"][-1] == "harpers_ferry")
    g.apply(path)
    assert g.leaders["grant"] == "captured"


def test_a8_2_captured_leader_returns_in_the_recruitment_segment():
    g = game(turn=30, phase="recruit_roll", dice=[3], options=["A8.2"], leaders={"grant": "captured"},
             units={"union": {"washington": ["MI"], "baltimore": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    assert g.phase == "leaders"
    g.apply({"type": "place_leader", "leader": "grant", "box": "baltimore"})
    assert g.leaders["grant"] == "baltimore" and g.phase == "recruitment"


# ---------------------------------------------------------------- A4.0
def contained_game(dice=()):
    """The Union took Mobile by invasion; Confederates have just marched in."""
    return game(side="confederate", phase="battle_choice", dice=list(dice), options=["A4.0"],
                invaded_ports=["mobile"], control={"union": ["mobile"]},
                units={"union": {"mobile": ["VI", "MI"]}, "confederate": {"mobile": ["VI", "VI"]}})


def test_a4_0_confederates_may_contain_instead_of_attacking():
    g = contained_game()
    legal = g.legal_actions()
    assert {"type": "contain", "box": "mobile"} in legal and {"type": "fight", "box": "mobile"} in legal
    g.apply({"type": "contain", "box": "mobile"})
    assert g.contained == ["mobile"] and g.phase != "battle"
    assert g.controller("mobile") == "union"                # sharing the box captures nothing


def test_a4_0_no_containment_without_the_rule_or_of_other_boxes():
    g = game(side="confederate", phase="battle_choice", options=["A4.0"], control={"union": ["mobile"]},
             units={"union": {"mobile": ["VI"]}, "confederate": {"mobile": ["VI"]}})
    assert not any(a["type"] == "contain" for a in g.legal_actions())   # not taken by invasion


def test_a4_0_contained_union_must_break_out_with_a_march():
    g = game(marches=2, dice=[6, 1, 1, 6], options=["A4.0"], contained=["mobile"],
             invaded_ports=["mobile"], control={"union": ["mobile"]},
             units={"union": {"mobile": ["VI", "VI"]}, "confederate": {"mobile": ["MI*"]}})
    a, b = ids(g, "mobile", "union")
    assert not any(x["type"] == "activate" and x["box"] == "mobile" for x in g.legal_actions())
    g.apply({"type": "breakout", "box": "mobile"})
    assert g.marches == 1 and g.phase == "battle" and g.battle["attacker"] == "union"
    c = g.battle["units"]["confederate"][0]
    assert unit(g, c).ent                                    # the defender keeps its works
    g.apply({"type": "target", "unit": c, "target": a})      # 6 misses
    g.apply({"type": "target", "unit": a, "target": c})      # 1: hit (2 vs entrenched)
    g.apply({"type": "target", "unit": b, "target": c})      # 1: eliminated
    g.apply({"type": "no_promotion"})
    assert g.phase == "movement" and g.contained == []
    assert unit(g, a).m == 1                                 # the break-out used one March


def test_a4_0_containing_confederates_may_entrench_beside_the_enemy():
    g = game(side="confederate", marches=2, options=["A4.0"], contained=["mobile"],
             invaded_ports=["mobile"], control={"union": ["mobile"]},
             units={"union": {"mobile": ["VI"]}, "confederate": {"mobile": ["VI"]}})
    c = uid(g, "mobile", "VI", "confederate")
    g.apply({"type": "activate", "box": "mobile"})
    g.apply({"type": "entrench", "unit": c})
    assert unit(g, c).ent                                    # Mobile is a Recruitment City


def test_6_2_units_lost_to_desertion_do_not_count_for_replacement_training():
    """6.2: Veterans lost through desertion (A8.12) are not battle losses."""
    g = game(turn=8, phase="battle_choice", dice=[6, 1, 1, 6], options=["A8.1", "6.2"],
             units={"union": {"corinth": ["VI"]}, "confederate": {"corinth": ["VI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    c, u = uid(g, "corinth", "VI", "confederate"), uid(g, "corinth", "VI", "union")
    g.apply({"type": "target", "unit": c, "target": u})      # 6 misses
    g.apply({"type": "target", "unit": u, "target": c})      # 1 hits; morale 1 holds
    g.apply({"type": "retreat", "to": "okolona"})            # desertion 6 + 1 - 1 > 4
    assert unit(g, c).loc == "stock" and g.csa_losses == 0


def pensacola_contained(engine=2):
    """Union units contained in Pensacola (a port on both the old and the printed board)."""
    return rules_engine.from_position(
        {"engine": engine, "scenario": "1861", "turn": 3, "side": "union", "phase": "movement",
         "marches": 3, "contained": ["pensacola"],
         "units": {"union": {"pensacola": ["VI"], "washington": ["MI"]},
                   "confederate": {"pensacola": ["MI"]}}}, options=["A4.0"])


def test_a4_0_the_break_out_comes_at_the_beginning_of_the_movement_segment():
    g = pensacola_contained()
    breakout = {"type": "breakout", "box": "pensacola"}
    assert breakout in g.legal_actions()
    g.apply({"type": "activate", "box": "washington"})       # another March first
    reason = refused(g, breakout, "(A4.0)")
    assert "beginning of the Movement Segment" in reason


def test_a4_0_contained_union_units_may_not_leave_by_sea():
    g = pensacola_contained()
    vi = uid(g, "pensacola", "VI", "union")
    assert not any(a["type"] == "sea_move" and a["unit"] == vi for a in g.legal_actions())
    refused(g, {"type": "sea_move", "unit": vi, "to": "washington"}, "(A4.0)")


def test_a4_0_version_1_games_keep_the_break_out_any_time_and_sailing_away():
    g = pensacola_contained(engine=1)
    vi = uid(g, "pensacola", "VI", "union")
    assert {"type": "sea_move", "unit": vi, "to": "washington"} in g.legal_actions()
    g.apply({"type": "activate", "box": "washington"})
    assert {"type": "breakout", "box": "pensacola"} in g.legal_actions()
    assert "march_spent" not in g.state()          # a version-1 state is written as before


# A8.2 as corrected in engine version 2 (ruling R44), on boxes of both boards.
def grant_invades(engine=2):
    """06/1862, a 6 for Marches: Grant in Washington with a unit that may invade
    Charleston, where Confederate units stand."""
    return rules_engine.from_position(
        {"engine": engine, "scenario": "1861", "turn": 10, "side": "union", "phase": "movement",
         "marches": 6, "invasion": True, "leaders": {"grant": "washington"},
         "units": {"union": {"washington": ["VI", "MI"]}, "confederate": {"charleston_sc": ["MI"]}}},
        options=["A8.2"])


@pytest.mark.parametrize("engine", [2, 1])
def test_a8_2_a_leader_may_go_along_with_an_invasion_of_a_defended_port(engine):
    g = grant_invades(engine)
    vi = uid(g, "washington", "VI")
    g.apply({"type": "invade", "unit": vi, "to": "charleston_sc"})
    along = {"type": "move_leader", "leader": "grant", "path": ["charleston_sc"], "by": ["sea"]}
    if engine == 1:                           # version 1: only into a port free of enemies
        refused(g, along, "(8.2.1)")
        return
    g.apply(along)
    assert g.leaders["grant"] == "charleston_sc"


def reinforcing_grant(engine=2):
    """06/1862, the Union attacks Nashville with three units; Grant waits in Murfreesboro."""
    return rules_engine.from_position(
        {"engine": engine, "scenario": "1861", "turn": 10, "side": "union",
         "phase": "battle_choice", "leaders": {"grant": "murfreesboro"},
         "units": {"union": {"nashville": ["VI", "VI", "VI"], "murfreesboro": ["MI"]},
                   "confederate": {"nashville": ["VI"]}}},
        options=["A7.0", "A8.2"], dice=[1, 1] + [6] * 10)


@pytest.mark.parametrize("engine", [2, 1])
def test_a8_2_a_reinforcing_leader_adds_to_the_days_leadership_at_once(engine):
    g = reinforcing_grant(engine)
    g.apply({"type": "fight", "box": "nashville"})
    assert g.battle["leadership"] == {"union": 2, "confederate": 3}     # 1862, die 1: 2/3
    while not (g.battle["step"] == "prepare" and g.to_act == "union"):
        g.apply(next(a for a in g.legal_actions() if a["type"] in ("target", "open_fire")))
    assert g.battle["round"] == 2 and g._shots_allowed("union") == 2
    g.apply({"type": "reinforce_leader", "leader": "grant"})
    expected = 3 if engine >= 2 else 2          # version 1 waited for the next day
    assert g.battle["leadership"]["union"] == expected
    assert g._shots_allowed("union") == expected
