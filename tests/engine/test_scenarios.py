"""Every scenario loads exactly as the rulebook's tables list it (2.0, 11.5 - 11.7):
units, entrenchments, control markers and both Army Maximum Sizes."""
from __future__ import annotations

from collections import Counter

import pytest

import rules_engine

# Transcribed from the rulebook: "count type place" with * = entrenched.
TABLES = {
    "1861": {
        "union": "2 Mi Washington; 1 Mi Philadelphia; 1 Mi New York; 1 Mi Harper's Ferry; "
                 "1 Mi Pittsburgh; 1 Mi Columbus; 1 Mi Cincinnati; 1 Mi Indianapolis; "
                 "1 Mi Bloomington; 1 Mi Cairo; 1 Mi St. Louis",
        "confederate": "1 Mi Manassas Junction; 1 Mi Fredericksburg; 1 Mi Front Royal; "
                       "1 Mi Charleston (South Carolina); 1 Mi Mobile; 1 Mi Nashville; "
                       "1 Mi Memphis; 1 Mi Springfield (Missouri)",
        "markers": {}, "max": (34, 29),
    },
    "1862": {
        "confederate": "1 Mi Fayetteville; 1 Mi Newport; 1 Vi Island No. 10*; 1 Mi Mobile; "
                       "2 Vi Corinth; 1 Vi Decatur; 1 Mi Chattanooga; 1 Mi Savannah; "
                       "1 Mi Charleston (South Carolina); 1 Vi Harper's Ferry; "
                       "2 Vi Manassas Junction*; 1 Mi Manassas Junction*; 1 Vc Manassas Junction*; "
                       "1 Mi Richmond; 1 Mc Fredericksburg; 1 Vi Yorktown*",
        "union": "1 Vi Springfield, Missouri; 1 Mi Ironton; 2 Vi Pittsburgh Landing; "
                 "1 Mi Pittsburgh Landing; 1 Mi Pensacola; 1 Vi Nashville; 2 Mi Nashville; "
                 "1 Vi Franklin; 1 Mi Port Royal*; 1 Vi Gettysburg; 1 Mi Gettysburg; "
                 "2 Vi Washington; 3 Mi Washington; 1 Mc Washington; 1 Mi Baltimore; 1 Mi Fort Monroe",
        "markers": {"union": "KENTUCKY; Forts Henry and Donelson; Sedalia; Jefferson City"},
        "max": (35, 27),
    },
    "1863": {
        "confederate": "1 Mi Vicksburg; 1 Vi Vicksburg; 2 Vi Meridian; 1 Mi Little Rock*; "
                       "1 Mi Alexandria*; 2 Vi Murfreesboro*; 1 Ci Murfreesboro*; 1 Vi Knoxville; "
                       "1 Mi Savannah*; 1 Mi Goldsboro*; 1 Vi Richmond; 1 Mi Petersburg*; "
                       "1 Mi Marion; 1 Vc Okolona; 1 Mc Chattanooga*; 1 Ci Fredericksburg*; "
                       "3 Vi Fredericksburg*; 1 Mi Fredericksburg*; 1 Vc Manassas Junction*",
        "union": "1 Mi Fayetteville; 1 Mi Thayer; 3 Vi Arkansas Post; 1 Mi St. Louis; "
                 "1 Vi Memphis*; 1 Mi Grand Junction; 1 Mi Humbolt; 3 Vi Nashville; 2 Mi Nashville; "
                 "1 Vc Nashville; 1 Mi Bowling Green; 2 Vi Glasgow; 1 Mi Corinth*; 6 Vi Washington; "
                 "2 Mi Washington; 1 Vc Washington; 1 Mc Washington; 1 Mi Harper's Ferry; "
                 "1 Mi Baltimore; 1 Vi Norfolk*; 1 Mi Fort Monroe; 1 Mi New Bern*; 1 Vi Port Royal*; "
                 "1 Mi New Orleans*; 1 Vi New Orleans*",
        "markers": {"union": "KENTUCKY; Forts Henry and Donelson; Sedalia; Jefferson City; "
                             "Springfield (Missouri); Newport; Island No. 10; Pittsburgh Landing"},
        "max": (35, 23),
    },
    "1864": {
        "confederate": "1 Mi Alexandria; 1 Vi Meridian; 1 Vc Okolona; 1 Mi Mobile; 1 Mi Selma; "
                       "2 Vi Chattanooga; 1 Vc Chattanooga; 1 Ci Atlanta*; 1 Mc Tallahasse; "
                       "1 Mi Savannah; 1 Ci Staunton; 1 Mi Charleston (South Carolina)*; "
                       "1 Vi Richmond; 1 Mi Petersburg*; 1 Mi Goldsboro; 1 Vc Manassas Junction; "
                       "1 Mi Wilmington; 4 Vi Fredericksburg*; 1 Vc Fredericksburg*",
        "union": "1 Mi St. Joseph; 1 Mi Fort Smith; 1 Mi Springfield (Missouri); 1 Vi Little Rock; "
                 "1 Vi Baton Rouge*; 1 Mi Baton Rouge*; 2 Vi Vicksburg; 1 Mi Arkansas Post; "
                 "1 Mi New Orleans; 1 Vi Memphis*; 1 Mi Saint Louis; 1 Mi Cairo; "
                 "1 Mi Forts Henry and Donelson*; 1 Mi Decatur; 1 Vi Nashville*; 1 Mi Murfreesboro; "
                 "3 Vi Sparta; 1 Ci Sparta; 1 Vc Sparta; 1 Vi Knoxville*; 1 Mi Jacksonville (Florida); "
                 "1 Mi Brunswick; 1 Mi Port Royal; 1 Mi Grafton; 1 Mi Harper's Ferry; "
                 "5 Vi Washington; 2 Ci Washington; 1 Vc Washington; 1 Mc Washington; "
                 "1 Vi Baltimore; 1 Vi New Bern*; 1 Vi Norfolk*; 3 Mi Fort Monroe",
        "markers": {"confederate": "Pensacola",
                    "union": "KENTUCKY; Sedalia; Jefferson City; Fayetteville; Natchez; Newport; "
                             "Island No. 10; Humbolt; Grand Junction; Pittsburgh Landing; Corinth; "
                             "Cumberland Gap; Gainesville"},
        "max": (36, 20),
    },
}
TABLES["1861-short"] = TABLES["1861"]
# The first printing's 2.0, as the Hungarian rules give it (only the positions differ).
TABLES["1861-first-printing"] = {
    "union": "3 Mi Washington; 2 Mi Chicago; 2 Mi Fort Wayne; 1 Mi Harper's Ferry; "
             "1 Mi Pittsburgh; 1 Mi Canton; 1 Mi Columbus; 1 Mi St. Louis",
    "confederate": "1 Mi Manassas Junction; 1 Mi Fredericksburg; 1 Mi Front Royal; "
                   "1 Mi Charleston (South Carolina); 1 Mi Mobile; 1 Mi Jefferson City; "
                   "1 Mi Atlanta; 1 Mi New Orleans",
    "markers": {}, "max": (34, 29),
}
PERMANENT = {"washington", "richmond", "fort_monroe", "vicksburg"}


def expected_units(m, text):
    want = Counter()
    for part in text.split(";"):
        count, code, place = part.strip().split(" ", 2)
        entrenched = place.endswith("*")
        want[(m.resolve(place.rstrip("*")), code.upper(), entrenched)] += int(count)
    return want


@pytest.mark.parametrize("scenario", rules_engine.SCENARIO_IDS)
def test_scenario_matches_the_rulebook_table(scenario):
    table = TABLES[scenario]
    m = rules_engine.load_map()
    g = rules_engine.new_game(scenario=scenario, seed="setup check")
    kentucky = sorted(b for b, box in m.boxes.items() if box.color == "neutral")
    for side in ("union", "confederate"):
        got = Counter((u.loc, u.type, u.ent and u.loc not in PERMANENT)
                      for u in g.units.values() if u.side == side and u.loc in g.at)
        want = expected_units(m, table[side])
        want = Counter({(b, t, e and b not in PERMANENT): n for (b, t, e), n in want.items()})
        assert got == want, side
        for name in table["markers"].get(side, "").split(";"):
            name = name.strip()
            if not name:
                continue
            for box in (kentucky if name == "KENTUCKY" else [m.resolve(name)]):
                assert g.controller(box) == side, f"{side} marker on {box}"
    assert (g.army_maximum("union"), g.army_maximum("confederate")) == table["max"]
    assert g.scenario["printed_army_max"] == {"union": table["max"][0], "confederate": table["max"][1]}


@pytest.mark.parametrize("scenario,start,union_pool_mi", [
    ("1861", "07 1861", 0), ("1861-first-printing", "07 1861", 0), ("1862", "04 1862", 4), ("1863", "04 1863", 4), ("1864", "04 1864", 5)])
def test_scenario_start_date_first_player_and_draft(scenario, start, union_pool_mi):
    """11.2: April start, the Union first, drafting that year's Militia; two Marches."""
    g = rules_engine.new_game(scenario=scenario, seed="start")
    s = g.state()
    assert s["date"] == start and g.to_act == "union"
    assert g.phase == "movement" and g.marches == 2
    pool = [u for u in g.units.values() if u.side == "union" and u.type == "MI" and u.loc == "pool"]
    assert len(pool) == union_pool_mi
    total = sum(1 for u in g.units.values() if u.side == "union" and u.type == "MI")
    assert total == 24


def test_units_over_the_maximum_stay_but_cannot_recruit():
    """11.6/11.7: the Union starts over its maximum; nothing is removed (7.1)."""
    g = rules_engine.new_game(scenario="1863", seed="over")
    assert g.units_on_map("union") == 37 and g.army_maximum("union") == 35
    assert g.units_on_map("confederate") == 23 and g.army_maximum("confederate") == 23
