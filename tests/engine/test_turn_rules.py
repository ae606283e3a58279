"""Promotion (6.0), recruitment (7.0 - 7.2), control (8.0), game length (9.0) and
victory (10.0, 11.1) in the basic game."""
from __future__ import annotations

import pytest

import rules_engine
from rules_engine import load_map

from .helpers import game, move, refused, uid, unit

MISS = 6

# The Confederacy's own Recruitment Cities: gray boxes with a red shield.
CSA_CITIES = sorted(b.id for b in load_map().boxes.values()
                    if b.color == "confederate" and b.shields.get("confederate"))
SEVEN = ["new_orleans", "mobile", "atlanta", "memphis", "charleston_sc", "wilmington", "richmond"]


def finish_player_turn(g):
    """From the Promotion or Recruitment Segment to the end of the Player Turn."""
    side, turn = g.side, g.turn
    while g.result is None and (g.side, g.turn) == (side, turn):
        acts = g.legal_actions()
        for kind in ("no_promotion", "roll_recruits", "end_recruitment", "end_movement"):
            if {"type": kind} in acts:
                g.apply({"type": kind})
                break
        else:
            raise AssertionError(f"stuck in {g.phase}: {acts[:3]}")


def pool(g, side, type_):
    return sum(1 for u in g.units.values() if u.side == side and u.type == type_ and u.loc == "pool")


def fight_and_win(g, box):
    """Fight a battle in which the defender always misses and the attacker always hits."""
    g.apply({"type": "fight", "box": box})
    while g.battle is not None and g.battle["step"] != "promote":
        if g.battle["step"] == "prepare":
            g.apply({"type": "open_fire"})
        else:
            g.apply(next(a for a in g.legal_actions() if a["type"] == "target"))


# ---------------------------------------------------------------- 6.0
def battle_won_by_union():
    g = game(phase="battle_choice", dice=[MISS, 1, 1],
             units={"union": {"corinth": ["VI", "MI"], "humbolt": ["MI"]},
                    "confederate": {"corinth": ["MI"]}})
    fight_and_win(g, "corinth")
    assert g.battle["winner"] == "union" and g.to_act == "union"
    return g


def test_battle_winner_may_promote_one_surviving_participant_6_0():
    g = battle_won_by_union()
    vet, mil = uid(g, "corinth", "VI"), uid(g, "corinth", "MI")
    absent = uid(g, "humbolt", "MI")
    promotable = sorted(a["unit"] for a in g.legal_actions() if a["type"] == "promote")
    assert promotable == sorted([vet, mil])
    refused(g, {"type": "promote", "unit": absent}, "(6.0)")
    g.apply({"type": "promote", "unit": mil})
    assert unit(g, mil).loc == "pool"                          # Militia go to the pool
    assert sorted(u["type"] for u in g.units_in("corinth")) == ["VI", "VI"]
    assert g.battle is None                                   # only one promotion


def test_a_unit_promoted_in_battle_cannot_be_promoted_again_that_turn_6_0():
    g = battle_won_by_union()
    mil = uid(g, "corinth", "MI")
    g.apply({"type": "promote", "unit": mil})
    assert g.phase == "promotion"                              # the Promotion Segment
    new = [u["id"] for u in g.units_in("corinth") if u.get("prom")][0]
    reason = refused(g, {"type": "promote", "unit": new}, "(6.0)")
    assert "two promotions" in reason
    g.apply({"type": "promote", "unit": uid(g, "humbolt", "MI")})
    assert g.phase == "recruit_roll"                           # one unit a segment


def test_promotion_segment_promotes_any_one_unit_6_0():
    g = game(phase="promotion", units={"union": {"cincinnati": ["MI"], "dayton": ["VI"]}})
    vet = uid(g, "dayton", "VI")
    assert {"type": "promote", "unit": vet} in g.legal_actions()
    g.apply({"type": "promote", "unit": vet})
    assert unit(g, vet).loc == "stock"                          # Veterans go back to stock
    assert [u["type"] for u in g.units_in("dayton")] == ["CI"]
    assert g.phase == "recruit_roll"


def test_crack_units_cannot_be_promoted_6_0():
    g = game(phase="promotion", units={"union": {"cincinnati": ["CI", "CC", "MI"]}})
    for t in ("CI", "CC"):
        refused(g, {"type": "promote", "unit": uid(g, "cincinnati", t)}, "(6.0)")


def test_no_promotion_beyond_the_counter_mix_6_0_11_6():
    g = game(phase="promotion", units={"union": {"cincinnati": ["VI"] * 20, "dayton": ["MI", "MC"]}})
    mil, mc = uid(g, "dayton", "MI"), uid(g, "dayton", "MC")
    assert not any(u.type == "VI" and u.side == "union" and u.loc == "stock" for u in g.units.values())
    reason = refused(g, {"type": "promote", "unit": mil}, "(11.6)")
    assert "counter mix" in reason
    g.apply({"type": "promote", "unit": mc})                   # Veteran Cavalry remain


def test_a_promoted_unit_keeps_its_entrenchment_6_0():
    g = game(phase="promotion", units={"union": {"cincinnati": ["MI*"]}})
    g.apply({"type": "promote", "unit": uid(g, "cincinnati", "MI")})
    (new,) = g.units_in("cincinnati")
    assert new["type"] == "VI" and new.get("ent")


def test_a_promoted_unit_keeps_its_reduced_status_6_0():
    g = game(phase="battle_choice", dice=[1, 1, 1],           # a second battle keeps the segment open
             units={"union": {"corinth": ["MI"], "humbolt": ["VI"]},
                    "confederate": {"corinth": ["MI-"], "humbolt": ["MI"]}})
    mil = uid(g, "corinth", "MI", "union")
    g.apply({"type": "fight", "box": "corinth"})
    g.apply(g.legal_actions()[0])                               # the defender reduces it
    assert unit(g, mil).red
    g.apply(g.legal_actions()[0])                               # and is eliminated
    g.apply({"type": "promote", "unit": mil})
    (new,) = g.units_in("corinth")
    assert g.phase == "battle_choice"
    assert new["type"] == "VI" and new.get("red")               # until 5.7 recovery


# ---------------------------------------------------------------- 7.0
@pytest.mark.parametrize("die, points", [(1, 2), (2, 2), (4, 4), (6, 6)])
def test_recruitment_roll_a_one_counts_as_two_7_0(die, points):
    g = game(phase="recruit_roll", dice=[die], units={"union": {"cincinnati": ["MI"]}})
    g.apply({"type": "roll_recruits"})
    assert g.phase == "recruitment" and g.recruit["points"] == points


def recruiting(side="union", **kw):
    g = game(side=side, phase="recruit_roll", dice=[6], **kw)
    g.apply({"type": "roll_recruits"})
    return g


def test_recruit_only_in_own_controlled_cities_with_own_shield_7_0():
    g = recruiting(control={"union": ["nashville"], "confederate": ["cincinnati"]},
                   units={"union": {"nashville": ["MI"]}})
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "nashville"}, "(7.0)")   # red shield only
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "cincinnati"}, "7.0")    # not controlled
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "gettysburg"}, "(7.0)")  # no shield
    g.apply({"type": "recruit", "unit_type": "MI", "box": "canton"})
    assert [u["type"] for u in g.units_in("canton")] == ["MI"]


def test_one_recruit_per_city_per_segment_7_0():
    g = recruiting()
    g.apply({"type": "recruit", "unit_type": "MI", "box": "canton"})
    refused(g, {"type": "recruit", "unit_type": "MC", "box": "canton"}, "(7.0)")
    g.apply({"type": "recruit", "unit_type": "MC", "box": "new_york"})
    assert g.recruit["points"] == 4


def test_only_militia_from_the_pool_are_recruited_7_0():
    g = recruiting(pool={"union": {"MI": 0, "MC": 1}})
    refused(g, {"type": "recruit", "unit_type": "VI", "box": "canton"}, "(7.0)")
    assert "Pool" in refused(g, {"type": "recruit", "unit_type": "MI", "box": "canton"}, "(7.0)")
    g.apply({"type": "recruit", "unit_type": "MC", "box": "canton"})
    assert pool(g, "union", "MC") == 0


@pytest.mark.parametrize("holder", ["union", "confederate"])
def test_cairo_recruits_for_whichever_side_controls_it_7_0(holder):
    loser = "confederate" if holder == "union" else "union"
    g = recruiting(side=holder, control={holder: ["cairo"]})
    assert {"type": "recruit", "unit_type": "MI", "box": "cairo"} in g.legal_actions()
    g = recruiting(side=loser, control={holder: ["cairo"]})
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "cairo"}, "7.0")


def test_recruitment_stops_at_the_army_maximum_size_7_1():
    """The Union holds every Confederate city but Raleigh and Columbia: maximum 2."""
    g = recruiting(side="confederate", control={"union": [c for c in CSA_CITIES
                                                          if c not in ("raleigh", "columbia")]},
                   units={"confederate": {"raleigh": ["MI"]}})
    assert g.army_maximum("confederate") == 2 and g.recruit["points"] == 6
    g.apply({"type": "recruit", "unit_type": "MI", "box": "columbia"})
    assert g.units_on_map("confederate") == 2
    assert g.side == "union" and g.turn == 4                    # nothing more to recruit


def test_no_recruits_at_all_when_at_the_army_maximum_7_1():
    g = recruiting(side="confederate", control={"union": [c for c in CSA_CITIES if c != "raleigh"]},
                   units={"confederate": {"raleigh": ["MI"]}})
    assert g.units_on_map("confederate") == 1 and g.side == "union"
    assert not [e for e in g.events if e["type"] == "recruited"]


# ---------------------------------------------------------------- 7.2
@pytest.mark.parametrize("turn", [7, 17, 27])
def test_union_drafts_add_four_militia_in_april_7_2(turn):
    """Turns 8, 18, 28 are 04/1862, 04/1863, 04/1864."""
    g = game(turn=turn, side="confederate", phase="recruit_roll", dice=[2],
             units={"union": {"cincinnati": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    before = pool(g, "union", "MI")
    finish_player_turn(g)
    assert (g.turn, g.side) == (turn + 1, "union")
    assert pool(g, "union", "MI") == before + 4
    assert len([e for e in g.events if e["type"] == "drafted"]) == 4
    if turn == 27:
        assert not [u for u in g.units.values() if u.loc == "draft"]   # all 24 drafted


@pytest.mark.parametrize("turn", [6, 8, 10])
def test_no_draft_in_other_months_7_2(turn):
    g = game(turn=turn, side="confederate", phase="recruit_roll", dice=[2],
             units={"union": {"cincinnati": ["MI"]}, "confederate": {"richmond": ["MI"]}})
    before = pool(g, "union", "MI")
    finish_player_turn(g)
    assert pool(g, "union", "MI") == before


# ---------------------------------------------------------------- 7.1 / 8.0
def test_capture_changes_control_only_at_the_end_of_the_combat_segment_7_1_8_0():
    g = game(side="confederate", marches=2, units={"confederate": {"humbolt": ["MI", "MI"]}})
    a = g.units_in("humbolt")[0]["id"]
    g.apply({"type": "activate", "box": "humbolt"})
    g.apply(move(a, ("cairo", "rail")))
    assert g.controller("cairo") == "union"                     # not while moving
    assert (g.army_maximum("union"), g.army_maximum("confederate")) == (34, 29)
    g.apply({"type": "end_movement"})
    assert g.phase == "promotion" and g.controller("cairo") == "confederate"
    assert (g.army_maximum("union"), g.army_maximum("confederate")) == (33, 30)


def test_passing_through_a_box_does_not_capture_it_8_0():
    g = game(marches=1, units={"union": {"cairo": ["VC"]}})
    cav = uid(g, "cairo", "VC")
    g.apply({"type": "activate", "box": "cairo"})
    g.apply(move(cav, ("humbolt", "rail"), ("corinth", "rail")))
    assert g.phase == "promotion"
    assert (g.controller("humbolt"), g.controller("corinth")) == ("confederate", "union")


@pytest.mark.parametrize("side, start, kind, maxima", [
    ("union", "cincinnati", "river", (35, 29)),
    ("confederate", "munfordville", "rail", (34, 30))])
def test_capturing_neutral_louisville_lowers_nobody_7_1(side, start, kind, maxima):
    g = game(side=side, marches=1, units={side: {start: ["MI"]}})
    assert g.controller("louisville") is None                    # Kentucky starts neutral
    g.apply({"type": "activate", "box": start})
    g.apply(move(uid(g, start, "MI"), ("louisville", kind)))
    assert g.controller("louisville") == side
    assert (g.army_maximum("union"), g.army_maximum("confederate")) == maxima


def test_kentucky_is_neutral_until_captured_8_0():
    g = recruiting(units={"union": {"cincinnati": ["MI"]}})
    assert g.controller("louisville") is None and g.controller("paducah") is None
    refused(g, {"type": "recruit", "unit_type": "MI", "box": "louisville"}, "7.0")


def test_cavalry_alone_hold_a_box_only_while_there_8_0():
    g = game(marches=1, units={"union": {"cairo": ["VC"]}})
    cav = uid(g, "cairo", "VC")
    g.apply({"type": "activate", "box": "cairo"})
    g.apply(move(cav, ("humbolt", "rail")))
    assert g.controller("humbolt") == "union" and "humbolt" in g.cav_only
    # a later turn: the cavalry ride on and Humbolt reverts at once
    g = game(marches=2, control={"union": ["humbolt"]}, cav_only=["humbolt"],
             units={"union": {"humbolt": ["VC"]}})
    g.apply({"type": "activate", "box": "humbolt"})
    g.apply(move(uid(g, "humbolt", "VC"), ("cairo", "rail")))
    assert g.phase == "movement" and g.controller("humbolt") == "confederate"


def test_infantry_leaving_a_captured_box_keep_control_8_0():
    g = game(marches=2, control={"union": ["humbolt"]}, units={"union": {"humbolt": ["MI"]}})
    g.apply({"type": "activate", "box": "humbolt"})
    g.apply(move(uid(g, "humbolt", "MI"), ("cairo", "rail")))
    assert g.controller("humbolt") == "union"


def test_infantry_joining_cavalry_make_the_hold_permanent_8_0():
    g = game(marches=2, control={"union": ["humbolt"]}, cav_only=["humbolt"],
             units={"union": {"humbolt": ["VC"], "cairo": ["MI"]}})
    g.apply({"type": "activate", "box": "cairo"})
    g.apply(move(uid(g, "cairo", "MI"), ("humbolt", "rail")))
    g.apply({"type": "activate", "box": "humbolt"})
    g.apply(move(uid(g, "humbolt", "VC"), ("corinth", "rail")))
    assert g.controller("humbolt") == "union"


def test_st_louis_cairo_ironton_example_8_0():
    g = game(side="confederate", marches=2, control={"confederate": ["st_louis", "cairo", "ironton"]},
             cav_only=["st_louis"],
             units={"confederate": {"st_louis": ["VC"], "cairo": ["MI"]}})
    assert {b: g.controller(b) for b in ("st_louis", "cairo", "ironton")} == dict.fromkeys(
        ("st_louis", "cairo", "ironton"), "confederate")
    g.apply({"type": "activate", "box": "cairo"})
    g.apply(move(uid(g, "cairo", "MI"), ("humbolt", "rail")))
    assert g.controller("cairo") == "confederate"                # a Control marker stays
    g.apply({"type": "activate", "box": "st_louis"})
    g.apply(move(uid(g, "st_louis", "VC"), ("ironton", "rail")))
    assert g.controller("st_louis") == "union"                   # reverts to its colour


def test_cavalry_raid_restores_a_box_to_its_own_colour_8_0():
    g = game(marches=1, control={"confederate": ["cairo"]}, units={"union": {"st_louis": ["VC"]}})
    assert g.army_maximum("union") == 33
    g.apply({"type": "activate", "box": "st_louis"})
    g.apply(move(uid(g, "st_louis", "VC"), ("cairo", "river")))
    assert g.controller("cairo") == "union" and "cairo" not in g.control
    assert "cairo" not in g.cav_only and g.army_maximum("union") == 34


# ---------------------------------------------------------------- 10.0
def test_union_wins_at_once_holding_the_seven_cities_10_0():
    g = game(marches=1, control={"union": SEVEN[:-1]}, units={"union": {"petersburg": ["MI"]}})
    g.apply({"type": "activate", "box": "petersburg"})
    g.apply(move(uid(g, "petersburg", "MI"), ("richmond", "rail")))
    assert g.result["winner"] == "union" and g.phase == "over"
    assert g.legal_actions() == []


def test_six_of_the_seven_cities_is_not_enough_10_0():
    g = game(marches=1, control={"union": SEVEN[:-2]}, units={"union": {"petersburg": ["MI"]}})
    g.apply({"type": "activate", "box": "petersburg"})
    g.apply(move(uid(g, "petersburg", "MI"), ("richmond", "rail")))
    assert g.result is None


def test_confederacy_wins_by_capturing_washington_10_0():
    g = game(side="confederate", marches=2, units={"confederate": {"manassas_junction": ["MI"]}})
    g.apply({"type": "activate", "box": "manassas_junction"})
    g.apply(move(uid(g, "manassas_junction", "MI"), ("washington", "rail")))
    assert g.result is None                                      # not during movement
    g.apply({"type": "end_movement"})
    assert g.result["winner"] == "confederate" and "Washington" in g.result["reason"]


@pytest.mark.parametrize("markers, wins", [(["pittsburgh", "canton"], True), (["pittsburgh"], False)])
def test_confederacy_wins_with_a_greater_army_maximum_10_0(markers, wins):
    """Cairo's capture: 29 + 1 against 34 - markers - 1; a tie is not enough."""
    g = game(side="confederate", marches=1, control={"confederate": markers},
             units={"confederate": {"humbolt": ["MI"]}})
    g.apply({"type": "activate", "box": "humbolt"})
    g.apply(move(uid(g, "humbolt", "MI"), ("cairo", "rail")))
    assert g.army_maximum("confederate") == 30
    assert (g.result is not None) == wins
    if wins:
        assert g.result["winner"] == "confederate" and g.army_maximum("union") == 29


# ---------------------------------------------------------------- 9.0 / 11.1
def end_of(turn, scenario="1861", **kw):
    g = game(scenario=scenario, turn=turn, side="confederate", phase="recruit_roll", dice=[2],
             units={"union": {"cincinnati": ["MI"]}, "confederate": {"richmond": ["MI"]}}, **kw)
    finish_player_turn(g)
    return g


def test_confederacy_wins_at_the_end_of_turn_40_10_0():
    g = end_of(40)
    assert g.result["winner"] == "confederate" and g.phase == "over"
    assert end_of(39).result is None and end_of(39).turn == 40


@pytest.mark.parametrize("markers, winner", [([], "union"), (["canton"], "confederate")])
def test_short_scenario_ends_after_turn_10_on_army_maximum_lead_11_1(markers, winner):
    g = end_of(10, scenario="1861-short", control={"confederate": markers})
    assert g.result["winner"] == winner and "11.1" in g.result["reason"]


def test_short_scenario_goes_on_before_turn_10_11_1():
    g = end_of(9, scenario="1861-short")
    assert g.result is None and (g.turn, g.side) == (10, "union")


def test_units_over_a_lowered_army_maximum_are_not_removed_7_1():
    g = recruiting(side="confederate", control={"union": [c for c in CSA_CITIES if c != "raleigh"]},
                   units={"confederate": {"raleigh": ["MI", "MI", "MI"]}})
    assert g.army_maximum("confederate") == 1 and g.units_on_map("confederate") == 3


def test_the_defender_who_wins_promotes_too_6_0():
    g = game(phase="battle_choice", dice=[1, MISS, 1],
             units={"union": {"corinth": ["MI"]}, "confederate": {"corinth": ["VI"]}})
    g.apply({"type": "fight", "box": "corinth"})
    for _ in range(2):
        g.apply(g.legal_actions()[0])                           # a hit, then a miss
    g.apply({"type": "open_fire"})
    g.apply(g.legal_actions()[0])                               # round 2: eliminated
    assert g.battle["winner"] == "confederate" and g.to_act == "confederate"
    vet = uid(g, "corinth", "VI", "confederate")
    g.apply({"type": "promote", "unit": vet})
    assert [u["type"] for u in g.units_in("corinth")] == ["CI"]


# 8.0 / 10.0 (ruling R45), on boxes of both boards: Union cavalry alone hold Nashville,
# and the Army Maximum Sizes are level while they do.
def cavalry_leaves_nashville(engine=2, options=()):
    pos = {"engine": engine, "options": list(options), "scenario": "1861", "turn": 3,
           "side": "union", "phase": "movement", "marches": 2, "cav_only": ["nashville"], "control": {"union": ["nashville"]},
           "units": {"union": {"nashville": ["MC"], "mobile": ["MI"]},
                     "confederate": {"richmond": ["MI"]}}}
    probe = rules_engine.from_position(pos)
    diff = probe.army_maximum("union") - probe.army_maximum("confederate")
    ones = sorted(b for b, box in probe.map.boxes.items() if box.color == "union"
                  and dict(box.shields) == {"union": 1} and b != "washington")
    assert 0 <= diff <= len(ones)
    pos["control"]["confederate"] = ones[:diff]               # level: Confederate = Union
    g = rules_engine.from_position(pos)
    assert g.army_maximum("union") == g.army_maximum("confederate") and g.result is None
    cav = g.units_in("nashville")[0]["id"]
    g.apply({"type": "activate", "box": "nashville"})
    g.apply({"type": "move", "unit": cav, "path": ["murfreesboro"], "by": ["rail"]})
    return g


def test_a_victory_given_by_a_cavalry_reversion_stops_play_at_once_8_0_10_0():
    g = cavalry_leaves_nashville()
    assert g.controller("nashville") == "confederate"               # reverted at once (8.0)
    assert g.result["winner"] == "confederate" and "(10.0)" in g.result["reason"]
    assert g.phase == "over" and g.side == "union"                # the Union Movement Segment


def test_version_1_games_judge_a_cavalry_reversion_at_the_end_of_the_combat_segment_8_0():
    g = cavalry_leaves_nashville(engine=1)
    assert g.controller("nashville") == "confederate" and g.result is None
    g.apply({"type": "end_movement"})        # capturing Mobile undoes the Confederate lead
    assert g.controller("mobile") == "union" and g.result is None


def test_with_10_1_a_cavalry_reversion_waits_for_the_end_of_the_union_player_turn_8_0():
    g = cavalry_leaves_nashville(options=["10.1"])
    assert g.controller("nashville") == "confederate" and g.result is None
