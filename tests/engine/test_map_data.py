"""Checks of the map and scenario data against every figure the rulebook gives.
All results are computed from the YAML data (the fact-by-fact comparison with the
board's published facts is in test_board_facts.py)."""
from __future__ import annotations

import json
from collections import Counter, deque

import pytest

from rules_engine.map import (
    SCENARIO_IDS, VIEWPORT_HEIGHT, VIEWPORT_WIDTH, load_map, load_scenario, project,
)

SIDES = ("union", "confederate")
# Game Piece Inventory (rulebook, after 11.7).
INVENTORY = {
    "union": {"MI": 24, "VI": 20, "CI": 9, "MC": 1, "VC": 8, "CC": 4},
    "confederate": {"MI": 8, "VI": 20, "CI": 9, "MC": 1, "VC": 8, "CC": 4},
}
# 2.0 / 7.1 / 11.5-11.7: the printed Army Maximum Sizes.
PRINTED = {
    "1861": (34, 29), "1861-short": (34, 29), "1861-first-printing": (34, 29),
    "1862": (35, 27), "1863": (35, 23), "1864": (36, 20),
}
# 7.2: Union Militia Infantry available (board + pool) after that year's April draft.
UNION_MI_AVAILABLE = {"1861": 12, "1861-short": 12, "1861-first-printing": 12, "1862": 16, "1863": 20, "1864": 24}
# 11.5-11.7 / seed_diffs K2: number of entrenched locations.
ENTRENCHED_BOXES = {"1861": 0, "1861-short": 0, "1861-first-printing": 0, "1862": 4, "1863": 15, "1864": 11}


@pytest.fixture(scope="module")
def m():
    return load_map()


def other(side):
    return "confederate" if side == "union" else "union"


def controller(m, sc, box_id):
    """Rule 8.0 at a scenario start: occupation or a marker beats the box colour."""
    occupied = {s for s in SIDES for u in sc["units"][s] if u["box"] == box_id}
    assert len(occupied) < 2, f"{box_id} occupied by both sides at setup"
    if occupied:
        return occupied.pop()
    for s in SIDES:
        if box_id in sc["control_markers"][s]:
            return s
    color = m.boxes[box_id].color
    return None if color == "neutral" else color


def army_max(m, sc, side):
    return sum(b.shields.get(side, 0) for b in m.boxes.values() if controller(m, sc, b.id) == side)


def by_name(m, name):
    return m.boxes[m.resolve(name)]


def rec_cities(m, **where):
    return {b.id for b in m.boxes.values() if b.recruitment_city and all(getattr(b, k) == v for k, v in where.items())}


def distance(m, start, goal, kind):
    """Fewest boxes from start to goal along lines of one kind."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        for nb, ln in m.neighbours(cur):
            if ln.kind == kind and nb not in seen:
                seen[nb] = seen[cur] + 1
                todo.append(nb)
    return seen.get(goal)


# ----------------------------------------------------------------- Army Maximum Size
@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_army_maximum_matches_rulebook(m, sid):
    sc = load_scenario(sid)
    got = (army_max(m, sc, "union"), army_max(m, sc, "confederate"))
    assert got == PRINTED[sid]
    assert got == (sc["printed_army_max"]["union"], sc["printed_army_max"]["confederate"])


# ----------------------------------------------------------------- recruitment cities
def test_confederate_two_or_three_cities_are_the_victory_seven(m):
    got = {b.id for b in m.boxes.values() if b.shields.get("confederate", 0) in (2, 3)}
    want = {m.resolve(n) for n in ("New Orleans", "Mobile", "Atlanta", "Memphis",
                                   "Charleston (South Carolina)", "Wilmington", "Richmond")}
    assert got == want
    assert all(b.shields.get("confederate", 0) <= 3 for b in m.boxes.values())


def test_value_three_or_more_cities(m):
    seven_five = {m.resolve(n) for n in ("Pittsburgh", "New York", "Philadelphia", "Richmond")}
    assert {b.id for b in m.boxes.values() if b.two_recruits} == seven_five
    # the board's Scranton 3 counts for the Army Maximum, not for 7.5 (ruling R46)
    got = {b.id for b in m.boxes.values() if max(b.shields.values(), default=0) >= 3}
    assert got == seven_five | {"scranton"}


def test_named_shields_and_forts(m):
    w = by_name(m, "Washington D.C.")
    assert w.color == "union" and dict(w.shields) == {"union": 1}
    cairo = by_name(m, "Cairo")
    assert cairo.shields.get("union", 0) > 0 and cairo.shields.get("confederate", 0) > 0
    assert by_name(m, "Cincinnati").recruitment_city
    assert not by_name(m, "Manassas Jct.").recruitment_city
    louisville = by_name(m, "Louisville")
    assert louisville.color == "neutral" and louisville.recruitment_city
    assert {b.id for b in m.boxes.values() if b.fort} == {
        m.resolve(n) for n in ("Washington", "Richmond", "Fort Monroe", "Vicksburg")}


def test_border_state_recruitment_cities(m):
    ky = {m.resolve(n) for n in ("Bowling Green", "Louisville")}
    mo = {m.resolve(n) for n in ("St. Joseph", "Springfield (Missouri)", "St. Louis")}
    assert rec_cities(m, state="KY") == ky
    assert rec_cities(m, state="MO") == mo
    assert rec_cities(m, state="MD") == {m.resolve("Baltimore")}


def test_neutral_boxes_are_exactly_kentucky(m):
    assert {b.id for b in m.boxes.values() if b.color == "neutral"} == {
        b.id for b in m.boxes.values() if b.state == "KY"}


def test_colours_required_by_rules(m):
    # 8.0 example, 4.71, Adv 4.0, and Control markers of 11.5-11.7.
    for name in ("St. Louis", "Ironton", "Fort Monroe", "Pensacola", "Cairo"):
        assert by_name(m, name).color == "union", name
    for sid in ("1862", "1863", "1864"):
        sc = load_scenario(sid)
        for side in SIDES:
            for bid in sc["control_markers"][side]:
                # markers only go on captured tan or enemy-colour boxes (8.0)
                assert m.boxes[bid].color in ("neutral", other(side)), (sid, bid)


# ----------------------------------------------------------------- scenarios
@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_scenario_pieces_fit_inventory(m, sid):
    sc = load_scenario(sid)
    for side in SIDES:
        counts = Counter()
        for u in sc["units"][side]:
            assert u["box"] in m.boxes
            counts[u["type"]] += u["count"]
        for t, n in counts.items():
            assert n <= INVENTORY[side][t], (side, t, n)
        for ld in sc["leaders"][side]:
            assert ld["box"] in m.boxes
        for bid in sc["control_markers"][side]:
            assert bid in m.boxes
    union_mi = sum(u["count"] for u in sc["units"]["union"] if u["type"] == "MI")
    if sid.startswith("1861"):
        assert union_mi == 12
    else:
        assert union_mi <= UNION_MI_AVAILABLE[sid]


@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_entrenched_locations(m, sid):
    sc = load_scenario(sid)
    boxes = {(s, u["box"]) for s in SIDES for u in sc["units"][s] if u["entrenched"]}
    assert len(boxes) == ENTRENCHED_BOXES[sid]
    # "all the units there begin the game Entrenched" (11.4)
    for s, bid in boxes:
        assert all(u["entrenched"] for u in sc["units"][s] if u["box"] == bid), bid


@pytest.mark.parametrize("sid", ("1862", "1863", "1864"))
def test_all_of_kentucky_is_marked(m, sid):
    sc = load_scenario(sid)
    ky = {b.id for b in m.boxes.values() if b.color == "neutral"}
    assert ky <= set(sc["control_markers"]["union"])


def test_scenario_calendar():
    # 40-turn track: 07,08,09,10,11/12 (1861); 01/02,03..10,11/12 (1862-64); 01/02..06 (1865)
    months = [(1861, m) for m in (7, 8, 9, 10, 11)]
    for y in (1862, 1863, 1864):
        months += [(y, m) for m in (1, 3, 4, 5, 6, 7, 8, 9, 10, 11)]
    months += [(1865, m) for m in (1, 3, 4, 5, 6)]
    assert len(months) == 40
    for sid in SCENARIO_IDS:
        sc = load_scenario(sid)
        turn = months.index((sc["start"]["year"], sc["start"]["month"])) + 1
        if "first_turn" in sc:
            assert sc["first_turn"] == turn
        assert sc["last_turn"] == (10 if sid == "1861-short" else 40)
    assert load_scenario("1861-short")["units"] == load_scenario("1861")["units"]


def test_unknown_scenario():
    with pytest.raises(KeyError, match="1861-short"):
        load_scenario("1999")


# ----------------------------------------------------------------- example geometry
def line(m, a, b, kind):
    return m.line_between(m.resolve(a), m.resolve(b), kind)


def non_river(m, a, b):
    a, b = m.resolve(a), m.resolve(b)
    return any(m.line_between(a, b, k) for k in ("road", "rail"))


def test_movement_example_4_0(m):
    assert line(m, "Shreveport", "Monroe", "road")
    assert line(m, "Monroe", "Vicksburg", "rail")
    assert line(m, "Vicksburg", "Jackson", "rail")
    assert distance(m, m.resolve("Vicksburg"), m.resolve("McComb"), "rail") == 2
    assert line(m, "Jackson", "McComb", "rail")
    assert distance(m, m.resolve("Vicksburg"), m.resolve("Alexandria"), "river") == 2
    assert line(m, "Vicksburg", "Natchez", "river") and line(m, "Natchez", "Alexandria", "river")
    # the example's Union units find Monroe and Jackson gray (not Union controlled)
    assert by_name(m, "Monroe").color == by_name(m, "Jackson").color == "confederate"


def test_jump_move_example_4_5(m):
    fhd, pl, dec = (m.resolve(n) for n in ("Fts Henry & Donelson", "Pittsburg Landing", "Decatur"))
    assert non_river(m, "Forts Henry and Donelson", "Humbolt")
    assert non_river(m, "Humbolt", "Corinth")
    up = m.line_between(fhd, pl, "river")
    assert up and not up.is_downriver_from(fhd) and up.is_downriver_from(pl)
    assert non_river(m, "Pittsburgh Landing", "Corinth")
    pd = m.line_between(pl, dec, "river")
    assert pd and pd.is_downriver_from(dec)
    assert line(m, "Fts. Henry & Donelson", "Nashville", "rail")
    assert line(m, "Nashville", "Decatur", "rail")


def test_comprehensive_combat_example(m):
    fp = line(m, "Fts. Henry & Donelson", "Paducah", "river")
    assert fp
    pc = line(m, "Paducah", "Cairo", "river")
    assert pc and pc.crosses_river_into("cairo") and pc.is_downriver_from("paducah")
    cairo_nbs = {nb for nb, _ in m.neighbours("cairo")}
    assert {m.resolve(n) for n in ("Vandalia", "St. Louis", "Humboldt", "Paducah")} <= cairo_nbs


def test_potomac(m):
    pot = line(m, "Washington", "Fredericksburg", "river")
    assert pot and pot.river == "Potomac"
    assert [ln.id for ln in m.lines if ln.river == "Potomac"] == [pot.id]


def test_control_example_8_0(m):
    for n in ("St. Louis", "Cairo", "Ironton"):
        assert m.resolve(n) in m.boxes
    assert by_name(m, "St. Louis").recruitment_city and by_name(m, "Cairo").recruitment_city


def test_hungarian_combat_example_little_rock(m):
    ln = line(m, "Fort Smith", "Little Rock", "river")
    assert ln and ln.is_downriver_from("fort_smith") and not ln.crosses_river_into("little_rock")


# ----------------------------------------------------------------- ports
def test_ports(m):
    ports = {b.id for b in m.boxes.values() if b.port}
    need = ("Washington", "Fort Monroe", "Yorktown", "Norfolk", "Pensacola",
            # and the real sea ports the board marks with an anchor
            "New York", "Atlantic City", "Baltimore", "New Bern", "Wilmington",
            "Charleston (South Carolina)", "Port Royal", "Savannah", "Brunswick",
            "Jacksonville (Florida)", "Mobile", "New Orleans")
    assert {m.resolve(n) for n in need} <= ports
    for n in ("Tallahasse", "Gainesville", "Philadelphia"):
        assert not by_name(m, n).port


# ----------------------------------------------------------------- structure / API
def test_every_rulebook_name_resolves(m):
    names = """Washington D.C.|Philadelphia|New York|Harper's Ferry|Pittsburgh|Columbus|Cincinnati|
    Indianapolis|Bloomington|Cairo|Saint Louis|Manassas Junction|Manassas Jct.|Fredericksburg|Front Royal|
    Charleston (South Carolina)|Charleston|Mobile|Nashville|Memphis|Springfield (Missouri)|Springfield, Missouri|
    Shreveport|Monroe|Vicksburg|Jackson|Alexandria|McComb|Fts Henry & Donelson|Fts. Henry & Donelson|
    Forts Henry and Donelson|Corinth|Humbolt|Humboldt|Pittsburg Landing|Pittsburgh Landing|Decatur|Richmond|
    Fort Monroe|Ft. Monroe|Yorktown|Norfolk|Paducah|Vandalia|Louisville|Ironton|New Orleans|Atlanta|Wilmington|
    Fayetteville|Newport|Island No. 10|Chattanooga|Savannah|Pensacola|Franklin|Port Royal|Gettysburg|Baltimore|
    Sedalia|Jefferson City|Meridian|Little Rock|Murfreesboro|Knoxville|Goldsboro|Petersburg|Marion|Okolona|
    Thayer|Arkansas Post|Grand Junction|Bowling Green|Glasgow|New Bern|Selma|Tallahasse|Tallahassee|Staunton|
    St. Joseph|Fort Smith|Baton Rouge|Sparta|Jacksonville (Florida)|Brunswick|Grafton|Natchez|Cumberland Gap|
    Gainesville|Chicago|Fort Wayne|Canton|Evansville|Harrisburg|Scranton|Atlantic City|Kansas City|Quincy|
    Springfield, Ill.|Charleston, W.V.|Bloomington, Ill.|Fayetteville, Ark."""
    for n in (s.strip() for s in names.split("|")):
        assert m.resolve(n) in m.boxes, n
    assert m.resolve("  pittsburgh LANDING ") == "pittsburg_landing"
    with pytest.raises(KeyError, match="Atlantis"):
        m.resolve("Atlantis")


def test_map_structure(m):
    assert 95 <= len(m.boxes) <= 135
    keys = Counter()
    for ln in m.lines:
        assert ln.a in m.boxes and ln.b in m.boxes and ln.a != ln.b
        keys[(frozenset((ln.a, ln.b)), ln.kind)] += 1
        if ln.kind == "river":
            assert ln.river and ln.downstream in (ln.a, ln.b)
            assert ln.is_downriver_from(ln.other(ln.downstream))
        else:
            assert ln.river is None and ln.downstream is None
        assert set(ln.river_side) <= {ln.a, ln.b}
        assert m.line_between(ln.b, ln.a, ln.kind) is ln
    assert max(keys.values()) == 1
    assert len({ln.id for ln in m.lines}) == len(m.lines)
    # connected
    start = next(iter(m.boxes))
    seen, todo = {start}, [start]
    while todo:
        for nb, _ in m.neighbours(todo.pop()):
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == set(m.boxes)
    # aliases unique
    labels = Counter(a.casefold() for b in m.boxes.values() for a in b.aliases)
    assert max(labels.values()) == 1
    # ids are snake_case ascii
    assert all(b.id.isascii() and b.id == b.id.lower() and " " not in b.id for b in m.boxes.values())


def test_projection_and_json(m):
    for b in m.boxes.values():
        assert (b.x, b.y) == project(b.lat, b.lon)
        assert 0 < b.x < VIEWPORT_WIDTH and 0 < b.y < VIEWPORT_HEIGHT
    # east is right, north is up
    assert by_name(m, "New York").x > by_name(m, "St. Louis").x
    assert by_name(m, "Chicago").y < by_name(m, "New Orleans").y
    data = json.loads(json.dumps(m.to_json()))
    assert len(data["boxes"]) == len(m.boxes) and len(data["lines"]) == len(m.lines)
    # neighbour order is deterministic
    assert m.neighbours("nashville") == tuple(sorted(m.neighbours("nashville"), key=lambda t: (t[0], t[1].kind)))
