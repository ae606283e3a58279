"""The drawn board: where each box stands on the screen and how big it is.

A printed wargame map is not a true map: its boxes are large enough to hold a stack and
their names, so crowded theatres (Virginia and Maryland, Kentucky and Tennessee, the
Mississippi between Cairo and Memphis) are drawn larger than the empty west. This module
does the same with one smooth warp of the plane:

    board position = warp(project(lat, lon))

``project`` is the engine's Albers projection (rules_engine.map); ``warp`` adds a smooth
displacement, a uniform cubic B-spline over a grid of control points. Because the warp is
a fixed function of geographic position, it applies alike to the boxes of every map
version, to the lines (drawn between the warped boxes) and to the background
(tools/make_map_background.py runs every coastline and state-line point through it).

The control points are not placed by hand: tools/fit_board_layout.py fits them once to
the boxes of every map version (no two boxes closer than a gap, no line passing under a
third box, no fold of the plane, everything inside the frame) and stores them in
``data/board_layout.json``. Re-run it when a map's boxes change.

Box sizes follow from the names and the counters (``box_size``); the browser draws them
with the constants that ``lay_out`` puts in the map JSON's ``viewport``, so the page and
the fit agree on how much room every box takes.

Pure: no I/O except reading the data file once.
"""
from __future__ import annotations

import functools
import json
import math

from .data import DATA_DIR

DATA_FILE = DATA_DIR / "board_layout.json"

# --------------------------------------------------------------------------
# Box geometry, in board units. The board frame is FRAME_WIDTH x FRAME_HEIGHT; at the
# opening full view on a 1366x900 screen one unit is about one pixel, so these sizes
# are chosen to give names of at least 10 px and counters of at least 18 px there.
# --------------------------------------------------------------------------
NAME_SIZE = 10.0        # font size of a box name
NAME_CHAR = 5.0         # room allowed per character (the page squeezes a longer name into it)
NAME_LINE = 10.5        # height of one line of a name
NAME_MAX_CHARS = 12     # a longer name with a space is set on two lines
COUNTER = 18.0          # side of a unit counter
PAD = 2.5               # inner margin of a box, and the gap between side-by-side counters
SHIELD = 9.0            # room beside the name for a shield (blue on the left, red on the right)
MIN_WIDTH = 2 * COUNTER + 3 * PAD   # two counters side by side


def name_lines(name: str) -> list[str]:
    """The name as set in its box: one line, or two split at the space nearest the middle."""
    if len(name) <= NAME_MAX_CHARS or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1:]]


def box_size(name: str, shields: int = 0) -> tuple[float, float]:
    """(width, height) of a box: its name (between its shields) on top, one row of
    counters below."""
    lines = name_lines(name)
    text_w = max(len(s) for s in lines) * NAME_CHAR + shields * SHIELD
    w = max(MIN_WIDTH, text_w + 2 * PAD)
    h = PAD + len(lines) * NAME_LINE + COUNTER + PAD
    return round(w, 1), round(h, 1)


# --------------------------------------------------------------------------
# The warp
# --------------------------------------------------------------------------
def _bspline(t: float) -> float:
    """Uniform cubic B-spline basis, centred on 0, support (-2, 2)."""
    t = abs(t)
    if t >= 2.0:
        return 0.0
    if t >= 1.0:
        return (2.0 - t) ** 3 / 6.0
    return (4.0 - 6.0 * t * t + 3.0 * t ** 3) / 6.0


@functools.cache
def _params() -> dict:
    with open(DATA_FILE, encoding="utf-8") as fh:
        p = json.load(fh)
    return p


def frame() -> tuple[float, float]:
    """(width, height) of the board."""
    p = _params()
    return float(p["frame"][0]), float(p["frame"][1])


def warp_xy(x: float, y: float) -> tuple[float, float]:
    """Board position of a point given in projected coordinates (rules_engine.map.project)."""
    p = _params()
    x0, y0 = p["origin"]
    s = p["spacing"]
    nx = p["columns"]
    dx, dy = p["dx"], p["dy"]
    rows = len(dx) // nx
    u, v = (x - x0) / s, (y - y0) / s
    ox = oy = 0.0
    for j in range(max(0, math.floor(v) - 1), min(rows, math.floor(v) + 3)):
        by = _bspline(v - j)
        if not by:
            continue
        for i in range(max(0, math.floor(u) - 1), min(nx, math.floor(u) + 3)):
            w = _bspline(u - i) * by
            if w:
                ox += w * dx[j * nx + i]
                oy += w * dy[j * nx + i]
    sx, sy = p["scale"]
    return round(x * sx + ox, 2), round(y * sy + oy, 2)


def warp(lat: float, lon: float) -> tuple[float, float]:
    """Board position of a geographic position."""
    from .map import project   # map.py imports this module in to_json: import late
    return warp_xy(*project(lat, lon))


def lay_out(map_json: dict) -> dict:
    """A map's JSON (Map.to_json) with every box at its board position and the viewport
    set to the board frame plus the box geometry the page draws with. Latitude and
    longitude stay as they are."""
    w, h = frame()
    boxes = []
    for b in map_json["boxes"]:
        x, y = warp(b["lat"], b["lon"])
        boxes.append({**b, "x": x, "y": y})
    viewport = {"width": w, "height": h,
                "box": {"name_size": NAME_SIZE, "name_char": NAME_CHAR, "name_line": NAME_LINE,
                        "name_max_chars": NAME_MAX_CHARS, "counter": COUNTER, "pad": PAD, "shield": SHIELD,
                        "min_width": MIN_WIDTH}}
    return {**map_json, "boxes": boxes, "viewport": viewport}
