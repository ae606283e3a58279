"""Make static/map-background.svg: coastline, land and state lines, laid out like the board.

Source: the `us-atlas` package from the npm registry (TopoJSON made from the US Census
Bureau's cartographic boundary files, public domain; the package's code is ISC). Fetch it
once outside the repository, then run this script:

    npm install --prefix /tmp/atlas us-atlas@3
    python tools/make_map_background.py /tmp/atlas/node_modules/us-atlas/states-10m.json

The TopoJSON arcs are decoded here (quantised, delta-encoded) and every point goes through
rules_engine.map.project() and then rules_engine.board_layout.warp_xy(), the projection and
the warp that place the boxes, so the boxes sit on their towns however much the warp
magnifies their theatre. Rivers are not taken from the geodata: the game draws its own
river lines. Run it again whenever board_layout's data file changes.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_engine import board_layout  # noqa: E402
from rules_engine.map import load_map, project  # noqa: E402

VIEWPORT_WIDTH, VIEWPORT_HEIGHT = board_layout.frame()

PAD = 40.0           # keep geometry this far outside the viewport (it is clipped by the viewBox)
TOLERANCE = 0.45     # Douglas-Peucker tolerance in viewport units (about half a pixel at 1x)

# 1861 names where they differ (West Virginia was still part of Virginia until 1863)
LABELS = {
    "Pennsylvania": "PENNSYLVANIA", "Ohio": "OHIO", "Indiana": "INDIANA", "Illinois": "ILLINOIS",
    "Kentucky": "KENTUCKY", "Tennessee": "TENNESSEE", "Virginia": "VIRGINIA", "West Virginia": "W. VA.",
    "North Carolina": "NORTH CAROLINA", "South Carolina": "S. CAROLINA", "Georgia": "GEORGIA",
    "Alabama": "ALABAMA", "Mississippi": "MISSISSIPPI", "Louisiana": "LOUISIANA", "Arkansas": "ARKANSAS",
    "Missouri": "MISSOURI", "Florida": "FLORIDA", "Maryland": "MD.", "New Jersey": "N.J.",
    "New York": "NEW YORK", "Iowa": "IOWA", "Kansas": "KANSAS", "Texas": "TEXAS",
    "Oklahoma": "INDIAN TERRITORY", "Michigan": "MICHIGAN", "Delaware": "DEL.",
}


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """TopoJSON arcs -> lists of (lon, lat) (quantised + delta-encoded when transformed)."""
    tr = topo.get("transform")
    out = []
    for arc in topo["arcs"]:
        pts = []
        x = y = 0
        for p in arc:
            if tr:
                x += p[0]
                y += p[1]
                pts.append((x * tr["scale"][0] + tr["translate"][0], y * tr["scale"][1] + tr["translate"][1]))
            else:
                pts.append((p[0], p[1]))
        out.append(pts)
    return out


def ring_points(ring: list[int], arcs: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for i in ring:
        a = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
        pts.extend(a if not pts else a[1:])
    return pts


def polygons(geom: dict) -> list[list[list[int]]]:
    if geom["type"] == "Polygon":
        return [geom["arcs"]]
    if geom["type"] == "MultiPolygon":
        return geom["arcs"]
    return []


def proj(pts):
    return [board_layout.warp_xy(*project(lat, lon)) for lon, lat in pts]


def clamp(pts):
    lo_x, hi_x, lo_y, hi_y = -PAD, VIEWPORT_WIDTH + PAD, -PAD, VIEWPORT_HEIGHT + PAD
    out = []
    for x, y in pts:
        p = (min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y))
        if not out or out[-1] != p:
            out.append(p)
    return out


def inside(p) -> bool:
    return -PAD <= p[0] <= VIEWPORT_WIDTH + PAD and -PAD <= p[1] <= VIEWPORT_HEIGHT + PAD


def simplify(pts, tol=TOLERANCE):
    """Douglas-Peucker (iterative)."""
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        ax, ay = pts[a]
        bx, by = pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, idx = -1.0, -1
        for i in range(a + 1, b):
            px, py = pts[i]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if norm else math.hypot(px - ax, py - ay)
            if d > best:
                best, idx = d, i
        if best > tol and idx > 0:
            keep[idx] = True
            stack += [(a, idx), (idx, b)]
    return [p for p, k in zip(pts, keep) if k]


def fmt(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def path_d(pts, close=False) -> str:
    if len(pts) < 2:
        return ""
    d = ["M" + fmt(pts[0][0]) + " " + fmt(pts[0][1])]
    px, py = pts[0]
    for x, y in pts[1:]:  # relative moves are shorter
        d.append("l" + fmt(x - px) + " " + fmt(y - py))
        px, py = px + float(fmt(x - px)), py + float(fmt(y - py))
    return "".join(d) + ("z" if close else "")


def open_segments(pts):
    """Split a projected polyline into the runs that come near the viewport (each run
    keeps one outside point at either end so it reaches the edge), clamped to the pad."""
    runs, cur, prev = [], [], None
    for p in pts:
        if inside(p):
            if not cur and prev is not None:
                cur.append(prev)
            cur.append(p)
        elif cur:
            cur.append(p)
            runs.append(cur)
            cur = []
        prev = p
    if cur:
        runs.append(cur)
    return [clamp(r) for r in runs if len(r) > 1]


# a state's name is set in 11-unit capitals spaced 3 units apart: about this wide per letter
LABEL_CHAR = 10.5
LABEL_HALF_HEIGHT = 6.0
LABEL_MARGIN = 3.0   # clear room kept round a name


def label_room(name: str) -> tuple[float, float]:
    """Half the width and half the height a state's name takes, with its margin."""
    return len(name) * LABEL_CHAR / 2 + LABEL_MARGIN, LABEL_HALF_HEIGHT + LABEL_MARGIN


def label_spot(name, rings_pts, obstacles):
    """Where a state's name goes: a point inside the state where the whole name stays clear
    of the boxes and of the names already placed (``obstacles``: centre x, y, width,
    height), not far from the state's centroid; None when the state has no such room
    (a name under a box is worse than none)."""
    best = max(rings_pts, key=lambda r: abs(_area(r)))
    cx, cy = centroid(rings_pts)
    hw, hh = label_room(name)
    xs, ys = [p[0] for p in best], [p[1] for p in best]
    spot, score = None, -1e9
    step = 6.0
    y = min(ys)
    while y <= max(ys):
        x = min(xs)
        while x <= max(xs):
            if hw < x < VIEWPORT_WIDTH - hw and hh < y < VIEWPORT_HEIGHT - hh and _inside((x, y), best):
                clear = min((max(abs(x - bx) - bw / 2 - hw, abs(y - by) - bh / 2 - hh) for bx, by, bw, bh in obstacles),
                            default=99)
                sc = min(clear, 12) - 0.02 * math.hypot(x - cx, y - cy)
                if clear >= 0 and sc > score:
                    spot, score = (x, y), sc
            x += step
        y += step
    return spot


def _inside(p, ring) -> bool:
    x, y = p
    odd = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            odd = not odd
    return odd


def centroid(rings_pts):
    """Area-weighted centroid of the largest ring (projected)."""
    best = max(rings_pts, key=lambda r: abs(_area(r)))
    a = _area(best)
    if not a:
        return best[0]
    cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(best, best[1:] + best[:1]):
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return cx / (6 * a), cy / (6 * a)


def _area(r):
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(r, r[1:] + r[:1])) / 2


def build(states_path: Path) -> str:
    topo = json.loads(states_path.read_text())
    arcs = decode_arcs(topo)
    parr = [proj(a) for a in arcs]
    geoms = topo["objects"]["states"]["geometries"]

    # how many state polygons use each arc: 2 = a state line, 1 = coast or border
    uses: dict[int, int] = {}
    for g in geoms:
        for poly in polygons(g):
            for ring in poly:
                for i in ring:
                    k = i if i >= 0 else ~i
                    uses[k] = uses.get(k, 0) + 1

    def arc_paths(keys):
        ds = []
        for k in sorted(keys):
            for run in open_segments(parr[k]):
                run = simplify(run)
                if len(run) > 1:
                    ds.append(path_d(run))
        return "".join(ds)

    state_lines = arc_paths(k for k, n in uses.items() if n >= 2)
    coast = arc_paths(k for k, n in uses.items() if n == 1)

    land = []
    labels = []
    boxes = []
    placed: list[tuple[float, float, float, float]] = []   # the names set so far, as obstacles
    for b in load_map().boxes.values():
        bx, by = board_layout.warp(b.lat, b.lon)
        boxes.append((bx, by, *board_layout.box_size(b.name, len(b.shields))))
    for g in geoms:
        name = (g.get("properties") or {}).get("name", "")
        rings_all = []
        for poly in polygons(g):
            for ring in poly:
                pts = proj(ring_points(ring, arcs))
                if not any(inside(p) for p in pts):
                    continue
                rings_all.append(pts)
                pts = simplify(clamp(pts))
                if len(pts) >= 3:
                    land.append(path_d(pts, close=True))
        if rings_all and name in LABELS:
            label = LABELS[name]
            spot = label_spot(label, rings_all, boxes + placed)
            if spot:
                labels.append((label, *spot))
                hw, hh = label_room(label)
                placed.append((*spot, 2 * hw, 2 * hh))

    w, h = fmt(VIEWPORT_WIDTH), fmt(VIEWPORT_HEIGHT)
    text = [f'<text x="{fmt(x)}" y="{fmt(y + 4)}">{name}</text>' for name, x, y in labels]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">\n'
        "<!-- Generated by tools/make_map_background.py from us-atlas (US Census cartographic boundary"
        " files, public domain), projected with rules_engine.map.project and laid out with"
        " rules_engine.board_layout.warp_xy. Do not edit by hand. -->\n"
        f'<rect width="{w}" height="{h}" fill="#c9dbe3"/>\n'
        f'<path fill="none" stroke="#e3eef2" stroke-width="7" stroke-linejoin="round" d="{coast}"/>\n'
        f'<path fill="none" stroke="#d6e6ec" stroke-width="3.5" stroke-linejoin="round" d="{coast}"/>\n'
        f'<path fill="#efe7d2" stroke="none" d="{"".join(land)}"/>\n'
        f'<path fill="none" stroke="#b7a27f" stroke-width="0.8" stroke-dasharray="3 1.6 0.8 1.6" '
        f'stroke-linejoin="round" d="{state_lines}"/>\n'
        f'<path fill="none" stroke="#6f8e9c" stroke-width="0.7" stroke-linejoin="round" d="{coast}"/>\n'
        '<g fill="#6f5b3a" font-family="Georgia, serif" font-size="11" '
        'letter-spacing="3" text-anchor="middle">' + "".join(text) + "</g>\n"
        "</svg>\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("states", type=Path, help="us-atlas states-10m.json")
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "static" / "map-background.svg")
    args = ap.parse_args(argv)
    svg = build(args.states)
    args.out.write_text(svg)
    print(f"wrote {args.out} ({len(svg.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
