"""Each optional rule (1.2) and ending (11.3): what changes with it on, and that the
basic game holds with it off."""
from __future__ import annotations

import pytest

import rules_engine

from .helpers import game, move, position, refused, uid, unit


def moves_to(g, unit_id):
    return {tuple(a["path"]) for a in g.legal_actions() if a["type"] == "move" and a["unit"] == unit_id}


def test_unknown_and_duplicate_options_are_errors():
    with pytest.raises(ValueError, match="unknown option"):
        rules_engine.new_game("1861", options=["4.99"], seed="x")
    with pytest.raises(ValueError, match="twice"):
        rules_engine.new_game("1861", options=["4.8", "4.8"], seed="x")
    assert all(o["implemented"] for o in rules_engine.options_catalog())


# ---------------------------------------------------------------- 4.11
@pytest.mark.parametrize("on", [True, False])
def test_4_11_first_turn_rivers_kentucky_and_sea(on):
    opts = ["4.11"] if on else []
    g = game(turn=1, options=opts, units={"union": {"cairo": ["MI"], "washington": ["MI"]}})
    mi = uid(g, "cairo", "MI")
    g.apply({"type": "activate", "box": "cairo"})
    reach = moves_to(g, mi)
    assert (("st_louis",) in reach)
    assert (("paducah",) in reach) is not on                  # Kentucky closed
    river_two = any(len(a["path"]) == 2 and a["by"] == ["river", "river"] for a in g.legal_actions()
                    if a["type"] == "move" and a["unit"] == mi)
    assert river_two is not on                                 # one box per March by river
    sea = [a for a in g.legal_actions() if a["type"] == "sea_move"]
    assert bool(sea) is not on
    if on:
        refused(g, move(mi, ("paducah", "river")), "(4.11)")


def test_4_11_only_on_the_first_turn():
    g = game(turn=2, options=["4.11"], units={"union": {"cairo": ["MI"]}})
    g.apply({"type": "activate", "box": "cairo"})
    assert ("paducah",) in moves_to(g, uid(g, "cairo", "MI"))


# ---------------------------------------------------------------- 4.12
def test_4_12_kentucky_closed_to_the_union_until_1862():
    g = game(turn=3, options=["4.12"], units={"union": {"cairo": ["MI"]}})
    mi = uid(g, "cairo", "MI")
    g.apply({"type": "activate", "box": "cairo"})
    refused(g, move(mi, ("paducah", "river")), "(4.12)")
    late = game(turn=6, options=["4.12"], units={"union": {"cairo": ["MI"]}})
    late.apply({"type": "activate", "box": "cairo"})
    assert ("paducah",) in moves_to(late, uid(late, "cairo", "MI"))
    off = game(turn=3, units={"union": {"cairo": ["MI"]}})
    off.apply({"type": "activate", "box": "cairo"})
    assert ("paducah",) in moves_to(off, uid(off, "cairo", "MI"))


def test_4_12_lifted_when_a_confederate_enters_kentucky():
    g = game(turn=3, side="confederate", options=["4.12"], marches=1,
             units={"confederate": {"fts_henry_donelson": ["MI"]}, "union": {"cairo": ["MI"]}})
    g.apply({"type": "activate", "box": "fts_henry_donelson"})
    g.apply(move(uid(g, "fts_henry_donelson", "MI"), ("paducah", "river")))
    assert g.ky_entered
    assert g._may_enter("union", "paducah")


# ---------------------------------------------------------------- 4.71
@pytest.mark.parametrize("on", [True, False])
def test_4_71_fort_monroe_blocks_invasions_of_yorktown_and_norfolk(on):
    g = game(phase="marches_roll", dice=[6], options=["4.71"] if on else [],
             units={"union": {"washington": ["VI"]}}, control={"confederate": ["fort_monroe"]})
    g.apply({"type": "roll_marches"})
    targets = {a["to"] for a in g.legal_actions() if a["type"] == "invade"}
    assert "fort_monroe" in targets and "charleston_sc" in targets
    assert ("yorktown" in targets) is not on and ("norfolk" in targets) is not on
    if on:
        refused(g, {"type": "invade", "unit": uid(g, "washington", "VI"), "to": "norfolk"}, "(4.71)")


# ---------------------------------------------------------------- 4.8
@pytest.mark.parametrize("on", [True, False])
def test_4_8_crack_infantry_moves_like_cavalry(on):
    g = game(options=["4.8"] if on else [], side="confederate", units={"confederate": {"fredericksburg": ["CI"]}})
    ci = uid(g, "fredericksburg", "CI")
    g.apply({"type": "activate", "box": "fredericksburg"})
    assert (("manassas_junction", "front_royal") in moves_to(g, ci)) is on    # road then rail
    if not on:
        refused(g, move(ci, ("manassas_junction", "road"), ("front_royal", "rail")), "(4.0)")


def test_4_8_crack_infantry_cannot_jump():
    g = game(options=["4.8"], side="confederate",
             units={"confederate": {"fredericksburg": ["CI"]}, "union": {"manassas_junction": ["MI"]}})
    ci = uid(g, "fredericksburg", "CI")
    g.apply({"type": "activate", "box": "fredericksburg"})
    assert not any(p[0] == "manassas_junction" and len(p) == 2 for p in moves_to(g, ci))
    refused(g, move(ci, ("manassas_junction", "road"), ("front_royal", "rail")), "(4.4)")


# ---------------------------------------------------------------- 4.9
@pytest.mark.parametrize("on", [True, False])
def test_4_9_union_rail_bonus_three_boxes(on):
    g = game(options=["4.9"] if on else [], units={"union": {"washington": ["MI"]}})
    mi = uid(g, "washington", "MI")
    g.apply({"type": "activate", "box": "washington"})
    reach = moves_to(g, mi)
    assert ("baltimore", "harrisburg") in reach
    assert (("baltimore", "harrisburg", "scranton") in reach) is on


# ---------------------------------------------------------------- 5.2
def test_5_2_like_targets():
    g = game(phase="battle_choice", dice=[6] * 8, options=["5.2"],
             units={"union": {"corinth": ["VI", "VC"]}, "confederate": {"corinth": ["MI", "MC"]}})
    g.apply({"type": "fight", "box": "corinth"})
    c_mi, c_mc = uid(g, "corinth", "MI", "confederate"), uid(g, "corinth", "MC", "confederate")
    u_vi, u_vc = uid(g, "corinth", "VI", "union"), uid(g, "corinth", "VC", "union")
    legal = g.legal_actions()
    # Confederate infantry may not fire at the Union cavalry while the Union infantry is untargeted
    assert {"type": "target", "unit": c_mi, "target": u_vc} not in legal
    assert {"type": "target", "unit": c_mc, "target": u_vi} not in legal      # cavalry at cavalry
    g.apply({"type": "target", "unit": c_mi, "target": u_vi})
    g.apply({"type": "target", "unit": c_mc, "target": u_vc})
    off = game(phase="battle_choice", dice=[6] * 8,
               units={"union": {"corinth": ["VI", "VC"]}, "confederate": {"corinth": ["MI", "MC"]}})
    off.apply({"type": "fight", "box": "corinth"})
    assert {"type": "target", "unit": c_mi, "target": u_vc} in off.legal_actions()


# ---------------------------------------------------------------- 5.41
@pytest.mark.parametrize("on", [True, False])
def test_5_41_naval_evacuation_to_washington(on):
    g = game(phase="marches_roll", dice=[6] * 4, options=["5.41"] if on else [],
             units={"union": {"washington": ["MI"]}, "confederate": {"charleston_sc": ["MI"]}})
    g.apply({"type": "roll_marches"})
    g.apply({"type": "invade", "unit": uid(g, "washington", "MI"), "to": "charleston_sc"})
    g.apply({"type": "end_movement"})
    g.apply({"type": "fight", "box": "charleston_sc"})
    c = uid(g, "charleston_sc", "MI", "confederate")
    u = uid(g, "charleston_sc", "MI", "union")
    g.apply({"type": "target", "unit": c, "target": u})       # misses on 6
    g.apply({"type": "target", "unit": u, "target": c})
    g.apply({"type": "open_fire"})                           # Confederate round 2
    g.apply({"type": "target", "unit": c, "target": u})
    retreats = {a["to"] for a in g.legal_actions() if a["type"] == "retreat"}
    assert ("washington" in retreats) is on
    if on:
        g.apply({"type": "retreat", "to": "washington"})
        assert unit(g, u).loc == "washington"


# ---------------------------------------------------------------- 5.71
def test_5_71_no_recovery_and_refitting():
    g = game(phase="battle_choice", dice=[1, 6, 2], options=["5.71"],
             units={"union": {"corinth": ["VI", "VI"]}, "confederate": {"corinth": ["VI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    c = uid(g, "corinth", "VI", "confederate")
    a, b = g.battle["units"]["union"]
    g.apply({"type": "target", "unit": c, "target": a})       # 1: hit, a reduced
    g.apply({"type": "target", "unit": a, "target": c})       # 6 miss
    g.apply({"type": "target", "unit": b, "target": c})       # 2 hit
    g.apply({"type": "retreat", "to": "okolona"})             # the Confederate retreats (round 2)
    g.apply({"type": "no_promotion"})
    assert unit(g, a).red and unit(g, c).red                    # no recovery (5.71)
    assert g.phase == "promotion"


def test_5_71_refit_with_a_recruitment_point_or_a_march():
    g = game(phase="recruit_roll", dice=[2], options=["5.71"],
             units={"union": {"washington": ["VI-", "VI-"]}})
    a, b = [u["id"] for u in g.units_in("washington")]
    g.apply({"type": "roll_recruits"})
    g.apply({"type": "refit", "unit": a})
    assert not unit(g, a).red and g.recruit["points"] == 1
    m = game(marches=2, options=["5.71"], units={"union": {"washington": ["VI-"]}})
    v = uid(m, "washington", "VI")
    m.apply({"type": "refit", "unit": v})
    assert not unit(m, v).red and m.marches == 1 and unit(m, v).m == 1
    plain = game(phase="recruit_roll", dice=[2], units={"union": {"washington": ["VI-"]}})
    plain.apply({"type": "roll_recruits"})
    assert not any(a["type"] == "refit" for a in plain.legal_actions())


# ---------------------------------------------------------------- 6.1
@pytest.mark.parametrize("on", [True, False])
def test_6_1_veterans_become_crack_only_in_battle(on):
    g = game(phase="promotion", options=["6.1"] if on else [], units={"union": {"washington": ["VI", "MI"]}})
    vi, mi = uid(g, "washington", "VI"), uid(g, "washington", "MI")
    legal = g.legal_actions()
    assert {"type": "promote", "unit": mi} in legal
    assert ({"type": "promote", "unit": vi} in legal) is not on
    if on:
        refused(g, {"type": "promote", "unit": vi}, "(6.1)")


# ---------------------------------------------------------------- 6.2
@pytest.mark.parametrize("die,losses,promotions", [(1, 0, 2), (2, 0, 1), (3, 2, 2), (4, 2, 1)])
def test_6_2_replacement_training(die, losses, promotions):
    g = game(side="confederate", phase="battle_choice", dice=[die], options=["6.2"], csa_losses=losses,
             units={"confederate": {"richmond": ["MI", "MI", "MI"]}})
    assert g.phase == "replacement_roll"
    g.apply({"type": "roll_replacements"})
    assert g.phase == "promotion" and g.promotions == promotions


def test_6_2_off_means_one_promotion_and_no_roll():
    g = game(side="confederate", phase="battle_choice", units={"confederate": {"richmond": ["MI", "MI"]}})
    assert g.phase == "promotion" and g.promotions == 1


# ---------------------------------------------------------------- 7.3
def test_7_3_draft_riots_spread_the_1863_draft():
    def pool_after(turn, options):
        g = game(turn=turn, side="confederate", phase="recruit_roll", dice=[2], options=options,
                 units={"union": {"washington": ["MI"]}, "confederate": {"richmond": ["MI"]}},
                 pool={"union": {}, "confederate": {}})
        g.apply({"type": "roll_recruits"})
        if g.phase == "recruitment":
            g.apply({"type": "end_recruitment"})
        return sum(1 for u in g.units.values() if u.side == "union" and u.type == "MI" and u.loc == "pool")
    april_1863 = 17                         # the turn before 04/1863
    assert pool_after(april_1863, []) == 4
    assert pool_after(april_1863, ["7.3"]) == 1


# ---------------------------------------------------------------- 7.4
def test_7_4_more_union_units_but_not_for_victory():
    g = game(turn=9, units={"union": {"washington": ["MI"]}})
    base = g.army_maximum("union")
    assert g.army_limit("union") == base
    h = game(turn=9, options=["7.4"], units={"union": {"washington": ["MI"]}})
    assert h.army_limit("union") == base + 4 and h.army_maximum("union") == base
    late = game(turn=30, options=["7.4"], units={"union": {"washington": ["MI"]}})
    assert late.army_limit("union") == late.army_maximum("union") + 12


def test_7_4_extra_units_do_not_count_for_confederate_victory():
    """7.4 is economic: a Confederate maximum above the Union's still wins (10.0)."""
    g = game(turn=30, side="confederate", phase="battle_choice", options=["7.4"],
             units={"confederate": {"new_york": ["MI"], "philadelphia": ["MI"], "pittsburgh": ["MI"]}})
    assert g.army_limit("union") > g.army_maximum("confederate") > g.army_maximum("union")
    assert g.result["winner"] == "confederate" and "Army Maximum" in g.result["reason"]


def test_options_catalog_lists_every_option_with_its_balance():
    catalog = {o["id"]: o for o in rules_engine.options_catalog()}
    assert catalog["4.9"]["balance"] == "pro-union" and catalog["4.11"]["balance"] == "pro-confederate"
    assert catalog["5.2"]["balance"] == "neutral" and catalog["4.8"]["title"] == "Crack Infantry"
    assert all(catalog[o]["implemented"] for o in ("4.11", "4.12", "4.71", "4.8", "4.9", "5.2", "5.41",
                                                   "5.71", "6.1", "6.2", "7.3", "7.4", "7.5", "9.1", "10.1"))
    assert all(o["description"] for o in catalog.values())


# ---------------------------------------------------------------- 7.5
@pytest.mark.parametrize("side,die,points", [("union", 1, 3), ("union", 2, 3), ("union", 5, 5),
                                             ("confederate", 6, 4), ("confederate", 1, 2)])
def test_7_5_historical_recruitment_points(side, die, points):
    g = game(side=side, phase="recruit_roll", dice=[die], options=["7.5"],
             units={"union": {"washington": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    assert g.recruit["points"] == points


def test_7_5_two_recruits_in_cities_of_value_three():
    g = game(phase="recruit_roll", dice=[4], options=["7.5"], units={"union": {"washington": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    g.apply({"type": "recruit", "unit_type": "MI", "box": "new_york"})
    g.apply({"type": "recruit", "unit_type": "MI", "box": "new_york"})
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "new_york"}, "(7.0)")
    plain = game(phase="recruit_roll", dice=[4], units={"union": {"washington": ["MI"]}})
    plain.apply({"type": "roll_recruits"})
    plain.apply({"type": "recruit", "unit_type": "MI", "box": "new_york"})
    refused(plain, {"type": "recruit", "unit_type": "MI", "box": "new_york"}, "(7.0)")


# ---------------------------------------------------------------- 9.1
def test_9_1_extended_game_lasts_to_turn_45():
    g = rules_engine.new_game("1861", options=["9.1"], seed="x")
    assert g.last_turn == 45
    assert rules_engine.new_game("1861", seed="x").last_turn == 40


# ---------------------------------------------------------------- 10.1
@pytest.mark.parametrize("on", [True, False])
def test_10_1_confederate_victory_checked_only_after_the_union_turn(on):
    g = game(side="confederate", phase="battle_choice", dice=[3] * 6, options=["10.1"] if on else [],
             units={"confederate": {"washington": ["MI"]}})
    if not on:
        assert g.result["winner"] == "confederate"
        return
    assert g.result is None and g.controller("washington") == "confederate"
    # the Union Player Turn comes; if Washington is still lost at its end, the South wins
    while g.result is None:
        acts = g.legal_actions()
        enders = [a for a in acts if a["type"] in ("end_movement", "end_recruitment", "no_promotion")]
        rolls = [a for a in acts if a["type"].startswith("roll")]
        g.apply((enders or rolls or acts)[0])
    assert g.result["winner"] == "confederate" and g.side == "union"


# ---------------------------------------------------------------- 11.3
@pytest.mark.parametrize("union_extra,level", [(0, "Union Decisive"), (None, None)])
def test_11_3_march_ending_levels(union_extra, level):
    from rules_engine.turn import march_level
    assert march_level(1862, 11) == ("union", "Union Decisive")
    assert march_level(1862, 8) == (None, "Draw (Historical)")
    assert march_level(1863, 9) == ("confederate", "Confederate Decisive")
    assert march_level(1864, 17) == ("union", "Union Pyrrhic")


def test_11_3_game_ends_after_the_chosen_march():
    g = game(turn=17, side="confederate", phase="recruit_roll", dice=[2], options=["11.3:1863"],
             units={"union": {"washington": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    while g.result is None:
        g.apply({"type": "end_recruitment"} if g.phase == "recruitment" else g.legal_actions()[0])
    assert g.turn == 17 and "(11.3)" in g.result["reason"] and g.result["level"]
    with pytest.raises(ValueError):
        rules_engine.new_game("1863", options=["11.3:1862"], seed="x")


# 03/1862 with the Union holding four Confederate cities of value 2: a Union Decisive
# difference (11.3 table) on a sudden-death check.
DECISIVE_MARCH_1862 = dict(
    turn=7, side="confederate", phase="recruit_roll",
    units={"union": {"washington": ["MI"]}, "confederate": {"nashville": ["MI"]}},
    control={"union": ["new_orleans", "mobile", "wilmington", "charleston_sc"]})


def finish_the_game_turn(g):
    g.apply({"type": "roll_recruits"})
    while g.result is None and g.turn == 7:
        g.apply({"type": "end_recruitment"} if g.phase == "recruitment" else g.legal_actions()[0])


@pytest.mark.parametrize("scenario, options", [
    ("1861-short", ["11.3:sudden-death"]),
    ("1861", ["11.3:1863", "11.3:sudden-death"]),
    ("1862", ["11.3:sudden-death", "11.3:1864"]),
])
def test_11_3_sudden_death_only_with_the_campaign_game_ending(scenario, options):
    with pytest.raises(ValueError, match=r"sudden death \(11\.3\) needs the Campaign Game ending"):
        rules_engine.new_game(scenario, options=options, seed="x")
    with pytest.raises(ValueError, match=r"sudden death \(11\.3\)"):
        rules_engine.from_position(dict(position(**DECISIVE_MARCH_1862), scenario=scenario),
                                   options=options)


def test_11_3_sudden_death_with_the_campaign_game_ending_stops_at_a_decisive_march():
    g = rules_engine.from_position(position(**DECISIVE_MARCH_1862), dice=[2],
                                   options=["11.3:sudden-death"])
    finish_the_game_turn(g)
    assert g.result["level"] == "Union Decisive" and g.turn == 7


def test_11_3_version_1_games_keep_sudden_death_with_a_march_ending():
    """Engine version 1 accepted the combination: such games replay as they were played."""
    g = rules_engine.from_position(position(engine=1, **DECISIVE_MARCH_1862), dice=[2],
                                   options=["11.3:1863", "11.3:sudden-death"])
    finish_the_game_turn(g)
    assert g.result["level"] == "Union Decisive" and g.turn == 7
    again = rules_engine.replay(g.header, g.events)
    assert again.state_json() == g.state_json()
    short = rules_engine.replay({"engine": 1, "scenario": "1861-short",
                                 "options": ["11.3:sudden-death"]}, [])
    assert "11.3:sudden-death" in short.options


def kentucky_battle(engine=2, dice=(), defender=("MC",), others_union=False):
    """09/1861, the Union attacks Confederate units in Nashville, beside Bowling Green."""
    pos = dict(turn=3, phase="battle_choice", options=["4.12"],
               units={"union": {"nashville": ["VI"]}, "confederate": {"nashville": list(defender)}})
    if others_union:          # the only friendly way out of Nashville is into Kentucky
        probe = rules_engine.from_position(position(engine=engine, **pos))
        pos["control"] = {"union": [n for n in probe._adjacent("nashville", "confederate")
                                    if n != "bowling_green"]}
    g = rules_engine.from_position(position(engine=engine, **pos), dice=list(dice))
    g.apply({"type": "fight", "box": "nashville"})
    return g


@pytest.mark.parametrize("engine", [2, 1])
def test_4_12_lifted_by_a_confederate_withdrawal_into_kentucky(engine):
    g = kentucky_battle(engine)
    g.apply({"type": "withdraw", "to": "bowling_green"})              # 5.6
    assert g.units_in("bowling_green", "confederate")
    lifted = engine >= 2                    # version 1 counted only moves (ruling R41)
    assert g.ky_entered is lifted and g._may_enter("union", "bowling_green") is lifted
    assert any(e["type"] == "kentucky_entered" for e in g.events) is lifted


@pytest.mark.parametrize("engine", [2, 1])
def test_4_12_lifted_by_a_confederate_retreat_into_kentucky(engine):
    g = kentucky_battle(engine, dice=[6, 6], defender=("MI",), others_union=True)
    for _ in range(2):                                   # round 1: both sides miss
        g.apply(next(a for a in g.legal_actions() if a["type"] == "target"))
    assert g.battle["step"] == "prepare" and g.to_act == "confederate"
    g.apply({"type": "retreat", "to": "bowling_green"})              # 5.4
    lifted = engine >= 2
    assert g.ky_entered is lifted and g._may_enter("union", "bowling_green") is lifted
