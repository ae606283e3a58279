"""Combat Segment restrictions and mechanics, rules 5.0 - 5.7 (basic game)."""
from __future__ import annotations

import pytest

from .helpers import game, move, refused, uid, unit

MISS = 6


def fight(g, box):
    g.apply({"type": "fight", "box": box})


def volley(g, *pairs):
    """The firing side's half-round: open fire if preparing, then announce targets
    (the given pairs first, then the first legal target for every other unit)."""
    side = g.to_act
    if g.battle["step"] == "prepare":
        g.apply({"type": "open_fire"})
    for shooter, target in pairs:
        g.apply({"type": "target", "unit": shooter, "target": target})
    while g.battle is not None and g.to_act == side and g.battle["step"] == "target":
        g.apply(next(a for a in g.legal_actions() if a["type"] == "target"))


def rolls(g):
    return [e for e in g.events if e["type"] == "roll" and e["purpose"] == "fire"]


def corinth(dice=(), **units):
    return game(phase="battle_choice", dice=list(dice),
                units={"union": {"corinth": units.get("union", ["VI"])},
                       "confederate": {"corinth": units.get("confederate", ["MI"])}})


# ---------------------------------------------------------------- 5.0 / 5.1
def test_the_defender_fires_first_5_0():
    g = corinth()
    fight(g, "corinth")
    vet, mil = uid(g, "corinth", "VI"), uid(g, "corinth", "MI")
    assert g.battle["firing"] == "confederate" and g.to_act == "confederate"
    assert g.legal_actions() == [{"type": "target", "unit": mil, "target": vet}]
    refused(g, {"type": "target", "unit": vet, "target": mil}, "(5.0)")


def test_the_defender_fires_first_in_every_round_5_0():
    g = corinth(dice=[MISS] * 4)
    fight(g, "corinth")
    volley(g)
    volley(g)
    assert (g.battle["round"], g.to_act) == (2, "confederate")


def test_targets_are_announced_before_any_die_is_rolled_5_1():
    g = corinth(dice=[MISS] * 3, union=["VI", "VI"], confederate=["MI"])
    fight(g, "corinth")
    volley(g)
    v1, v2 = g.battle["units"]["union"]
    mil = g.battle["units"]["confederate"][0]
    before = len(rolls(g))
    g.apply({"type": "target", "unit": v1, "target": mil})
    assert len(rolls(g)) == before                       # nothing fires yet
    refused(g, {"type": "target", "unit": v1, "target": mil}, "(5.1)")   # no change of target
    g.apply({"type": "target", "unit": v2, "target": mil})
    assert [(e["unit"], e["target"]) for e in rolls(g)[before:]] == [(v1, mil), (v2, mil)]


def test_a_hit_reduces_then_eliminates_militia_to_pool_crack_to_stock_5_1():
    g = corinth(dice=[MISS, MISS, 1, 1, MISS, MISS, 1, 1],
                union=["VI", "VI"], confederate=["MI", "CI"])
    fight(g, "corinth")
    mil, crack = uid(g, "corinth", "MI", "confederate"), uid(g, "corinth", "CI", "confederate")
    v1, v2 = g.battle["units"]["union"]
    volley(g)
    volley(g, (v1, mil), (v2, crack))
    assert unit(g, mil).red and unit(g, crack).red and unit(g, mil).loc == "corinth"
    volley(g)
    volley(g, (v1, mil), (v2, crack))
    assert (unit(g, mil).loc, unit(g, crack).loc) == ("pool", "stock")
    assert not unit(g, mil).red and not unit(g, crack).red
    assert g.battle["winner"] == "union"


def test_a_reduced_unit_is_eliminated_by_one_hit_veteran_to_stock_5_1():
    g = corinth(dice=[1], union=["VI-"], confederate=["VI"])
    vet = uid(g, "corinth", "VI", "union")
    fight(g, "corinth")
    volley(g)
    assert unit(g, vet).loc == "stock" and g.battle["winner"] == "confederate"


# ---------------------------------------------------------------- 5.3
def test_modifiers_entrenchment_and_crack_infantry_5_31_5_32_5_33():
    """The Union defends (Confederate Player Turn), so it fires first."""
    g = game(side="confederate", phase="battle_choice", dice=[MISS] * 10,
             units={"union": {"corinth": ["MI", "VI", "CI", "MC", "VC", "CC"]},
                    "confederate": {"corinth": ["MI*", "VI", "CI", "CI*"]}})
    fight(g, "corinth")
    u = {t: uid(g, "corinth", t, "union") for t in ("MI", "VI", "CI", "MC", "VC", "CC")}
    c_mi, c_vi = uid(g, "corinth", "MI", "confederate"), uid(g, "corinth", "VI", "confederate")
    c_ci, c_ci_ent = [x["id"] for x in g.units_in("corinth", "confederate") if x["type"] == "CI"]
    if unit(g, c_ci).ent:
        c_ci, c_ci_ent = c_ci_ent, c_ci
    assert g.shot_value(u["VI"], c_vi) == 3
    assert g.shot_value(u["VI"], c_mi) == 2                      # 5.31 entrenched -1
    assert g.shot_value(u["VI"], c_ci) == 2                      # 5.32 Crack Infantry -1
    assert g.shot_value(u["CI"], c_ci) == 2                      # even Crack at Crack
    assert g.shot_value(u["VI"], c_ci_ent) == 1                  # both: -2
    assert g.shot_value(u["CC"], c_ci_ent) == 1
    for weak in ("MI", "MC", "VC"):                               # cannot hit it at all
        assert g.shot_value(u[weak], c_ci_ent) < 1
    g.apply({"type": "target", "unit": u["MI"], "target": c_ci_ent})
    volley(g)
    assert not [e for e in rolls(g) if e["unit"] == u["MI"]]      # 5.33: no die rolled
    assert any(e["type"] == "impossible_shot" and e["unit"] == u["MI"] for e in g.events)


def river_battle():
    """Union Militia attack Fredericksburg across the Rappahannock from Manassas
    (river side) and by rail from Richmond (no river)."""
    g = game(marches=2, dice=[MISS] * 20,
             units={"union": {"manassas_junction": ["MI"], "richmond": ["MI"], "washington": ["MI"]},
                    "confederate": {"fredericksburg": ["MI"], "yorktown": ["MI"]}})
    wet, dry = uid(g, "manassas_junction", "MI"), uid(g, "richmond", "MI")
    g.apply({"type": "activate", "box": "manassas_junction"})
    g.apply(move(wet, ("fredericksburg", "road")))
    g.apply({"type": "activate", "box": "richmond"})
    g.apply(move(dry, ("fredericksburg", "rail")))
    assert unit(g, wet).river and not unit(g, dry).river
    fight(g, "fredericksburg")
    return g, wet, dry


def test_river_bonus_only_against_units_that_crossed_5_34():
    g, wet, dry = river_battle()
    c_mi = uid(g, "fredericksburg", "MI", "confederate")
    assert g.shot_value(c_mi, wet) == 3 and g.shot_value(c_mi, dry) == 2


def test_river_bonus_rounds_one_and_two_also_for_defending_reinforcements_5_34():
    g, wet, dry = river_battle()
    c_mi = uid(g, "fredericksburg", "MI", "confederate")
    reserve = uid(g, "yorktown", "MI", "confederate")
    volley(g, (c_mi, wet))
    volley(g)
    g.apply({"type": "reinforce", "unit": reserve})                # round 2, defender
    g.apply({"type": "open_fire"})
    assert g.shot_value(reserve, wet) == 3 and g.shot_value(reserve, dry) == 2
    assert g.shot_value(c_mi, wet) == 3
    volley(g)
    # the attacker reinforces across the Potomac: no bonus against it (nor any more in round 3)
    late = uid(g, "washington", "MI", "union")
    g.apply({"type": "reinforce", "unit": late})
    volley(g)
    assert g.battle["round"] == 3 and g.to_act == "confederate"
    g.apply({"type": "open_fire"})
    assert not unit(g, late).river
    assert [g.shot_value(c_mi, t) for t in (wet, dry, late)] == [2, 2, 2]


# ---------------------------------------------------------------- 5.4
def test_no_retreat_or_reinforcement_in_round_one_5_4_5_5():
    g = game(phase="battle_choice", units={"union": {"corinth": ["VI"], "humbolt": ["MI"]},
                                           "confederate": {"corinth": ["MI"], "okolona": ["MI"]}})
    fight(g, "corinth")
    refused(g, {"type": "retreat", "to": "okolona"}, "(5.4)")
    refused(g, {"type": "reinforce", "unit": uid(g, "okolona", "MI")}, "(5.5)")


def test_retreat_from_round_two_ends_the_battle_the_other_side_wins_5_4():
    g = corinth(dice=[MISS, MISS])
    fight(g, "corinth")
    volley(g)
    volley(g)
    assert {"type": "retreat", "to": "okolona"} in g.legal_actions()
    mil = uid(g, "corinth", "MI")
    g.apply({"type": "retreat", "to": "okolona"})
    assert unit(g, mil).loc == "okolona"
    assert g.battle["winner"] == "union" and g.battle["step"] == "promote"


def defender_retreat():
    """Union Militia attack Gordonsville by rail from Manassas; other Union units hold
    Richmond and Lynchburg. Gordonsville's neighbours: Lynchburg, Manassas, Richmond,
    Staunton."""
    g = game(marches=1, dice=[MISS] * 4,
             units={"union": {"manassas_junction": ["MI"], "richmond": ["MI"], "lynchburg": ["MI"]},
                    "confederate": {"gordonsville": ["MI"]}})
    g.apply({"type": "activate", "box": "manassas_junction"})
    g.apply(move(uid(g, "manassas_junction", "MI"), ("gordonsville", "rail")))
    fight(g, "gordonsville")
    volley(g)
    volley(g)
    assert g.to_act == "confederate" and g.battle["step"] == "prepare"
    return g


def test_no_retreat_into_a_box_with_enemy_units_5_4():
    g = defender_retreat()
    reason = refused(g, {"type": "retreat", "to": "richmond"}, "(5.4)")
    assert "enemy units" in reason


def test_defenders_may_not_retreat_where_the_attackers_came_from_5_4():
    g = defender_retreat()
    assert [a for a in g.legal_actions() if a["type"] == "retreat"] == [{"type": "retreat", "to": "staunton"}]
    reason = refused(g, {"type": "retreat", "to": "manassas_junction"}, "(5.4)")
    assert "entered" in reason
    g.apply({"type": "retreat", "to": "staunton"})


def attacker_retreat():
    """The Union attacks Nashville; it holds Forts Henry & Donelson, the Confederacy
    holds Bowling Green (a Recruitment City) and Murfreesboro is occupied."""
    g = game(phase="battle_choice", dice=[MISS] * 4,
             control={"union": ["fts_henry_donelson"], "confederate": ["bowling_green"]},
             units={"union": {"nashville": ["VI"]},
                    "confederate": {"nashville": ["MI"], "murfreesboro": ["MI"]}})
    fight(g, "nashville")
    volley(g)
    volley(g)
    g.apply({"type": "open_fire"})
    volley(g)
    assert g.to_act == "union" and g.battle["step"] == "prepare"
    return g


def test_no_retreat_into_an_enemy_controlled_recruitment_city_5_4():
    g = attacker_retreat()
    reason = refused(g, {"type": "retreat", "to": "bowling_green"}, "(5.4)")
    assert "Recruitment City" in reason
    refused(g, {"type": "retreat", "to": "murfreesboro"}, "(5.4)")


def test_retreat_to_a_friendly_box_when_one_exists_5_4():
    g = attacker_retreat()
    assert [a for a in g.legal_actions() if a["type"] == "retreat"] == [
        {"type": "retreat", "to": "fts_henry_donelson"}]
    reason = refused(g, {"type": "retreat", "to": "decatur"}, "(5.4)")
    assert "friendly" in reason
    vet = uid(g, "nashville", "VI")
    g.apply({"type": "retreat", "to": "fts_henry_donelson"})
    assert unit(g, vet).loc == "fts_henry_donelson" and g.battle["winner"] == "confederate"


def test_retreat_to_any_box_when_none_is_friendly_5_4():
    g = game(phase="battle_choice", dice=[MISS] * 4,
             units={"union": {"nashville": ["VI"]}, "confederate": {"nashville": ["MI"]}})
    fight(g, "nashville")
    volley(g)
    volley(g)
    volley(g)
    retreats = sorted(a["to"] for a in g.legal_actions() if a["type"] == "retreat")
    assert retreats == ["bowling_green", "decatur", "fts_henry_donelson", "murfreesboro", "sparta"]


def test_no_retreat_possible_means_a_fight_to_the_death_5_4():
    g = game(phase="battle_choice", dice=[MISS] * 4,
             units={"union": {"island_no_10": ["VI"]},
                    "confederate": {"island_no_10": ["MI"], "cairo": ["MI"]}})
    fight(g, "island_no_10")
    volley(g)
    volley(g)
    volley(g)
    assert g.to_act == "union" and not [a for a in g.legal_actions() if a["type"] == "retreat"]
    refused(g, {"type": "retreat", "to": "memphis"}, "(5.4)")      # enemy Recruitment City


def test_no_retreat_after_reinforcing_that_round_5_4_5_5():
    g = game(phase="battle_choice", dice=[MISS] * 3,
             units={"union": {"corinth": ["VI"], "humbolt": ["MI"]}, "confederate": {"corinth": ["MI"]}})
    fight(g, "corinth")
    volley(g)
    volley(g)
    g.apply({"type": "open_fire"})
    volley(g)
    g.apply({"type": "reinforce", "unit": uid(g, "humbolt", "MI")})
    refused(g, {"type": "retreat", "to": "humbolt"}, "(5.5)")


# ---------------------------------------------------------------- 5.5
def test_units_that_fought_this_player_turn_cannot_reinforce_5_5():
    g = game(phase="battle_choice", dice=[MISS, 1, MISS, 1, MISS, MISS, MISS],
             units={"union": {"corinth": ["VI"], "humbolt": ["VI"], "fts_henry_donelson": ["MI"]},
                    "confederate": {"corinth": ["MI"], "humbolt": ["MI"]}})
    veteran_of_corinth = uid(g, "corinth", "VI")
    fresh = uid(g, "fts_henry_donelson", "MI")
    fight(g, "corinth")
    volley(g)
    volley(g)
    volley(g)
    g.apply({"type": "open_fire"})
    volley(g)
    assert g.battle["winner"] == "union"
    g.apply({"type": "no_promotion"})
    fight(g, "humbolt")
    volley(g)
    volley(g)
    volley(g)
    reason = refused(g, {"type": "reinforce", "unit": veteran_of_corinth}, "(5.5)")
    assert "fought" in reason
    g.apply({"type": "reinforce", "unit": fresh})


def test_attacker_may_not_reinforce_from_a_box_with_enemy_units_5_5():
    g = game(phase="battle_choice", dice=[MISS] * 3,
             units={"union": {"humbolt": ["VI"], "corinth": ["MI", "MI"], "fts_henry_donelson": ["MI"]},
                    "confederate": {"humbolt": ["MI"], "corinth": ["MI"]}})
    fight(g, "humbolt")
    volley(g)
    volley(g)
    volley(g)
    pinned = uid(g, "corinth", "MI", "union")
    reason = refused(g, {"type": "reinforce", "unit": pinned}, "(5.5)")
    assert "attacker" in reason
    g.apply({"type": "reinforce", "unit": uid(g, "fts_henry_donelson", "MI")})


@pytest.mark.parametrize("defenders_there, allowed", [(2, False), (3, True)])
def test_defender_leaves_a_screen_as_large_as_the_enemy_force_5_5(defenders_there, allowed):
    g = game(phase="battle_choice", dice=[MISS] * 2,
             units={"union": {"humbolt": ["VI"], "corinth": ["MI", "MI"]},
                    "confederate": {"humbolt": ["MI"], "corinth": ["MI"] * defenders_there}})
    fight(g, "humbolt")
    volley(g)
    volley(g)
    assert g.to_act == "confederate" and g.battle["step"] == "prepare"
    reserve = uid(g, "corinth", "MI", "confederate")
    action = {"type": "reinforce", "unit": reserve}
    if allowed:
        g.apply(action)
        assert unit(g, reserve).loc == "humbolt"
    else:
        assert "screen" in refused(g, action, "(5.5)")


def test_defenders_reinforcing_a_permanent_entrenchment_are_not_entrenched_5_5():
    g = game(phase="battle_choice", dice=[MISS] * 2, forts_entrench=False,
             units={"union": {"vicksburg": ["VI"]},
                    "confederate": {"vicksburg": ["MI*"], "jackson_ms": ["MI*"]}})
    fight(g, "vicksburg")
    vet = uid(g, "vicksburg", "VI")
    dug, late = uid(g, "vicksburg", "MI"), uid(g, "jackson_ms", "MI")
    volley(g)
    volley(g)
    g.apply({"type": "reinforce", "unit": late})
    assert unit(g, dug).ent and not unit(g, late).ent
    assert g.shot_value(late, vet) == 2
    assert (g.battle["units"]["confederate"], unit(g, late).loc) == ([dug, late], "vicksburg")


# ---------------------------------------------------------------- 5.6
def test_cavalry_may_withdraw_only_when_defending_with_cavalry_alone_5_6():
    g = corinth(union=["VI"], confederate=["VC", "CC"])
    fight(g, "corinth")
    assert g.battle["step"] == "withdraw" and g.to_act == "confederate"
    assert {"type": "stand"} in g.legal_actions()
    assert {"type": "withdraw", "to": "okolona"} in g.legal_actions()
    g = corinth(union=["VI"], confederate=["VC", "MI"])
    fight(g, "corinth")
    assert g.battle["step"] == "target"
    refused(g, {"type": "withdraw", "to": "okolona"}, "(5.6)")


def test_cavalry_attacked_by_cavalry_alone_are_pinned_5_6():
    g = corinth(union=["VC", "MC"], confederate=["VC"])
    fight(g, "corinth")
    assert g.battle["step"] == "target"
    refused(g, {"type": "withdraw", "to": "okolona"}, "(5.6)")


def test_standing_cavalry_fight_and_the_defender_fires_first_5_6():
    g = corinth(union=["VI"], confederate=["VC"])
    fight(g, "corinth")
    g.apply({"type": "stand"})
    assert g.battle["step"] == "target" and g.to_act == "confederate"


def withdrawal():
    """Confederate Militia attack Union cavalry at Munfordville by rail from Bowling
    Green; Glasgow is Confederate-occupied, Louisville a Confederate-held city."""
    g = game(side="confederate", marches=1, control={"confederate": ["louisville"]},
             units={"union": {"munfordville": ["VC"]},
                    "confederate": {"bowling_green": ["MI"], "glasgow": ["MI"]}})
    g.apply({"type": "activate", "box": "bowling_green"})
    g.apply(move(uid(g, "bowling_green", "MI"), ("munfordville", "rail")))
    fight(g, "munfordville")
    assert g.battle["step"] == "withdraw" and g.to_act == "union"
    return g


@pytest.mark.parametrize("to, why", [("louisville", "Recruitment Cit"), ("glasgow", "enemy"),
                                     ("bowling_green", "came from")])
def test_cavalry_withdrawal_destinations_5_6(to, why):
    g = withdrawal()
    assert [a for a in g.legal_actions() if a["type"] == "withdraw"] == [
        {"type": "withdraw", "to": "lebanon_ky"}]
    assert why in refused(g, {"type": "withdraw", "to": to}, "(5.6)")


def test_cavalry_withdrawal_earns_no_promotion_5_6():
    g = withdrawal()
    cav = uid(g, "munfordville", "VC")
    attacker = uid(g, "munfordville", "MI")
    g.apply({"type": "withdraw", "to": "lebanon_ky"})
    assert unit(g, cav).loc == "lebanon_ky"
    assert not [e for e in g.events if e["type"] == "battle_won"]
    assert g.battle is None and g.phase == "promotion"          # the Promotion Segment
    assert unit(g, attacker).type == "MI" and not unit(g, attacker).prom


def _withdrawal_then_a_second_battle(engine=None):
    """Confederates attack Union cavalry at Munfordville, which withdraws to Lebanon,
    and a Union Veteran at Lexington next door; no die hits."""
    kw = {} if engine is None else {"engine": engine}
    g = game(side="confederate", marches=2, dice=[MISS] * 8, control={"confederate": ["louisville"]},
             units={"union": {"munfordville": ["VC"], "lexington_ky": ["VI"]},
                    "confederate": {"bowling_green": ["MI"], "glasgow": ["MI"], "london_ky": ["VI"]}}, **kw)
    g.apply({"type": "activate", "box": "bowling_green"})
    g.apply(move(uid(g, "bowling_green", "MI"), ("munfordville", "rail")))
    g.apply({"type": "activate", "box": "london_ky"})
    g.apply(move(uid(g, "london_ky", "VI"), ("lexington_ky", "road")))
    fight(g, "munfordville")
    cavalry = uid(g, "munfordville", "VC")
    g.apply({"type": "withdraw", "to": "lebanon_ky"})
    fight(g, "lexington_ky")
    volley(g)
    volley(g)
    assert (g.battle["round"], g.to_act) == (2, "union")
    return g, cavalry


def test_cavalry_that_withdrew_before_combat_has_not_fought_and_may_reinforce_5_5_5_6():
    # 5.6: the cavalry withdraws "before any Battle Rounds are conducted"; 5.5 bars
    # only "units that have already fought in a battle that Player Turn"
    g, cavalry = _withdrawal_then_a_second_battle()
    assert not unit(g, cavalry).fought
    g.apply({"type": "reinforce", "unit": cavalry})
    assert cavalry in g.battle["units"]["union"]


def test_games_of_engine_version_4_keep_withdrawn_cavalry_out_of_later_battles():
    g, cavalry = _withdrawal_then_a_second_battle(engine=4)
    assert "fought" in refused(g, {"type": "reinforce", "unit": cavalry}, "(5.5)")


# ---------------------------------------------------------------- 5.7
def test_reduced_units_recover_at_the_end_of_the_combat_segment_5_7():
    g = corinth(dice=[1, 1, 1], union=["VI", "MI"], confederate=["MI"])
    fight(g, "corinth")
    vet = uid(g, "corinth", "VI")
    c_mi = uid(g, "corinth", "MI", "confederate")
    g.apply({"type": "target", "unit": c_mi, "target": vet})
    assert unit(g, vet).red
    volley(g)                                                     # two hits: eliminated
    assert g.battle["winner"] == "union"
    g.apply({"type": "no_promotion"})
    assert g.phase == "promotion" and not unit(g, vet).red


def test_reduced_units_stay_reduced_between_battles_of_one_segment_5_7():
    g = game(phase="battle_choice", dice=[1, 1, 1],
             units={"union": {"corinth": ["VI", "MI"], "humbolt": ["VI"]},
                    "confederate": {"corinth": ["MI"], "humbolt": ["MI"]}})
    vet = uid(g, "corinth", "VI")
    c_mi = uid(g, "corinth", "MI", "confederate")
    fight(g, "corinth")
    g.apply({"type": "target", "unit": c_mi, "target": vet})
    volley(g)
    g.apply({"type": "no_promotion"})
    assert g.phase == "battle_choice" and unit(g, vet).red


def test_battles_one_at_a_time_in_the_attackers_order_5_0():
    g = game(phase="battle_choice", dice=[MISS] * 2,
             units={"union": {"corinth": ["VI"], "memphis": ["VI"]},
                    "confederate": {"corinth": ["MI"], "memphis": ["MI"]}})
    assert sorted(a["box"] for a in g.legal_actions()) == ["corinth", "memphis"]
    fight(g, "memphis")
    refused(g, {"type": "fight", "box": "corinth"}, "(5.0)")
