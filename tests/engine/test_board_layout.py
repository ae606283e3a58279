"""The drawn board (rules_engine.board_layout): one smooth warp of geography that gives
every box of every map version room for its name and counters."""
from __future__ import annotations

import itertools

import pytest

from rules_engine import board_layout as BL
from rules_engine.map import DATA_VERSIONS, load_map, project


def rects(version):
    m = load_map(version)
    out = {}
    for b in m.boxes.values():
        x, y = BL.warp(b.lat, b.lon)
        w, h = BL.box_size(b.name, len(b.shields))
        out[b.id] = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    return out


@pytest.mark.parametrize("version", sorted(DATA_VERSIONS))
def test_no_two_boxes_overlap_and_all_fit_the_board(version):
    r = rects(version)
    W, H = BL.frame()
    for bid, (x0, y0, x1, y1) in r.items():
        assert 0 <= x0 and x1 <= W and 0 <= y0 and y1 <= H, bid
    overlaps = [(a, b) for a, b in itertools.combinations(sorted(r), 2)
                if min(r[a][2], r[b][2]) > max(r[a][0], r[b][0]) and min(r[a][3], r[b][3]) > max(r[a][1], r[b][1])]
    assert not overlaps


def _area_ratio(x, y, d=2.0):
    (ax, ay), (bx, by), (cx, cy) = BL.warp_xy(x, y), BL.warp_xy(x + d, y), BL.warp_xy(x, y + d)
    return ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / (d * d)


def test_the_warp_never_folds_and_magnifies_the_crowded_theatres():
    W, H = 1000.0, 800.0
    least = min(_area_ratio(W * i / 40, H * j / 32) for i in range(41) for j in range(33))
    assert least > 0.1                      # the plane never turns over
    mag = lambda lat, lon: _area_ratio(*project(lat, lon))   # noqa: E731
    west = mag(35.39, -94.42)              # Fort Smith, far from any crowd
    for place in ((38.9, -77.0), (36.16, -86.78), (35.9, -89.4)):   # Washington, Nashville, Mississippi above Memphis
        assert mag(*place) > 1.5 * west, place


def test_map_json_carries_the_board_positions():
    m = load_map()
    data = m.to_json()
    box = {b["id"]: b for b in data["boxes"]}
    for b in m.boxes.values():
        assert (box[b.id]["x"], box[b.id]["y"]) == BL.warp(b.lat, b.lon)
        assert (box[b.id]["lat"], box[b.id]["lon"]) == (b.lat, b.lon)
    assert (data["viewport"]["width"], data["viewport"]["height"]) == BL.frame()
    assert data["viewport"]["box"]["counter"] == BL.COUNTER


def test_long_names_go_on_two_lines():
    assert BL.name_lines("Fts. Henry & Donelson") == ["Fts. Henry", "& Donelson"]
    assert BL.name_lines("Fredericksburg") == ["Fredericksburg"]
    assert BL.box_size("Cairo", 2)[0] > BL.box_size("Cairo", 0)[0]   # room for two shields beside the name


def test_the_state_names_of_the_background_stay_clear_of_every_box():
    """The background's state names (tools/make_map_background.py) are set where no box
    of the current map hides them: each name's rectangle (11-unit capitals spaced 3 apart,
    its y the baseline) against every box's rectangle."""
    import re
    from pathlib import Path

    svg = (Path(__file__).resolve().parents[2] / "static" / "map-background.svg").read_text()
    found = re.findall(r'<text x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', svg)
    labels = [(float(x), float(y), name) for x, y, name in found]
    assert len(labels) >= 15
    boxes = rects(max(DATA_VERSIONS))
    under = []
    for x, y, name in labels:
        half = len(name) * 10.5 / 2 - 3   # the letter spacing after the last letter is not ink
        top, bottom = y - 8, y
        for bid, (x0, y0, x1, y1) in boxes.items():
            if x - half < x1 and x + half > x0 and top < y1 and bottom > y0:
                under.append((name, bid))
    assert not under, f"state names under boxes: {under}"
