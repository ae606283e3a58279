"""Fit the board warp (rules_engine/board_layout.py) to the boxes and write its data file.

    python tools/fit_board_layout.py            # needs numpy and scipy (not run by the site)

The warp is  board = scale * p + D(p)  for a projected point p, where D is a uniform cubic
B-spline over a grid of control displacements. The fit chooses the displacements that
minimise, over the boxes of every map version at once:

* overlap: two boxes (sizes from board_layout.box_size) closer than GAP on both axes;
* lines under boxes: a line passing through a third box, which would read as a connection;
* turned lines: a line whose compass direction differs from the real one, so that a box
  stays east of the box it is east of (the Carolina coast does not slide south);
* the frame: a box sticking out of the board;
* folds: the warp's Jacobian determinant below MIN_DET anywhere on the board, so the plane
  never turns over and neighbours keep their geographic order;
* bending: the second differences of the control grid, so the warp stays smooth and
  magnifies crowded theatres locally instead of moving single boxes.

Nothing is placed by hand: the only inputs are the boxes' positions, names and lines.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_engine import board_layout as BL  # noqa: E402
from rules_engine.map import DATA_VERSIONS, VIEWPORT_HEIGHT, VIEWPORT_WIDTH, load_map, project  # noqa: E402

FRAME = (1000.0, 750.0)   # board size: the shape of the map area of a 1366x900 screen
MARGIN = 6.0              # free border inside the frame
SPACING = 50.0            # control grid spacing, projected units
GAP = 8.0                 # free space between two boxes (lines, shields and anchors sit there)
LINE_CLEAR = 4.0          # free space between a line and a box it does not join
MIN_DET = 0.3             # least local area ratio of the warp
BEND = 0.01               # weight of smoothness
DIRECTION = 300.0         # weight of a line's turn away from its geographic direction
# (iterations, weight of overlapping boxes, weight of a box sticking out of the board):
# the fit starts soft, so boxes can slide past each other to their side of a crowd, then
# holds the frame, then presses the last overlaps apart. Started with all weights at
# their final values it settles with Richmond on Petersburg.
SCHEDULE = ((2500, 20.0, 10.0), (1200, 20.0, 200.0), (800, 60.0, 200.0))


def boxes_and_lines():
    """Every box of every map version (a box id seen twice at the same place counts once)
    and every line, as index pairs."""
    pts, sizes, ids, idx = [], [], [], {}
    pairs = set()
    for version in sorted(DATA_VERSIONS):
        m = load_map(version)
        for b in m.boxes.values():
            key = (b.id, b.lat, b.lon, b.name)
            if key not in idx:
                idx[key] = len(pts)
                pts.append(project(b.lat, b.lon))
                sizes.append(BL.box_size(b.name, len(b.shields)))
                ids.append(b.id)
        local = {b.id: idx[(b.id, b.lat, b.lon, b.name)] for b in m.boxes.values()}
        for ln in m.lines:
            pairs.add(tuple(sorted((local[ln.a], local[ln.b]))))
    return np.array(pts), np.array(sizes), ids, np.array(sorted(pairs))


def basis(x, y, origin, nx, ny, deriv=None):
    """Matrix of the B-spline weights of the control nodes at points (x, y)."""
    def b(t):
        t = np.abs(t)
        return np.where(t >= 2, 0.0, np.where(t >= 1, (2 - t) ** 3 / 6, (4 - 6 * t ** 2 + 3 * t ** 3) / 6))

    def db(t):
        a = np.abs(t)
        s = np.sign(t)
        return s * np.where(a >= 2, 0.0, np.where(a >= 1, -(2 - a) ** 2 / 2, (-12 * a + 9 * a ** 2) / 6))

    u = (x[:, None] - (origin[0] + SPACING * np.arange(nx))[None, :]) / SPACING
    v = (y[:, None] - (origin[1] + SPACING * np.arange(ny))[None, :]) / SPACING
    bu, bv = b(u), b(v)
    if deriv == "x":
        bu = db(u) / SPACING
    elif deriv == "y":
        bv = db(v) / SPACING
    return (bv[:, :, None] * bu[:, None, :]).reshape(len(x), ny * nx)


def fit(iterations: int, start: dict | None = None, overlap: float = SCHEDULE[-1][1],
        frame_weight: float = SCHEDULE[-1][2]):
    P0, S, ids, L = boxes_and_lines()
    n = len(P0)
    scale = np.array([FRAME[0] / VIEWPORT_WIDTH, FRAME[1] / VIEWPORT_HEIGHT])
    origin = (-3 * SPACING, -3 * SPACING)
    nx = int((VIEWPORT_WIDTH + 6 * SPACING) / SPACING) + 1
    ny = int((VIEWPORT_HEIGHT + 6 * SPACING) / SPACING) + 1
    B = basis(P0[:, 0], P0[:, 1], origin, nx, ny)
    gx, gy = np.meshgrid(np.linspace(0, VIEWPORT_WIDTH, 80), np.linspace(0, VIEWPORT_HEIGHT, 64))
    gx, gy = gx.ravel(), gy.ravel()
    Bx, By = basis(gx, gy, origin, nx, ny, "x"), basis(gx, gy, origin, nx, ny, "y")
    base = P0 * scale
    iu, ju = np.triu_indices(n, 1)
    need_x = (S[iu, 0] + S[ju, 0]) / 2 + GAP
    need_y = (S[iu, 1] + S[ju, 1]) / 2 + GAP
    # lines against the boxes they do not join
    la, lb = L[:, 0], L[:, 1]
    lk = np.arange(n)
    LL, KK = np.meshgrid(np.arange(len(L)), lk, indexing="ij")
    # only boxes near the line's geographic course can end up under it
    A0, B0, K0 = P0[la[LL]], P0[lb[LL]], P0[KK]
    e0 = B0 - A0
    t0 = np.clip(np.sum((K0 - A0) * e0, -1) / np.maximum(np.sum(e0 * e0, -1), 1e-9), 0, 1)
    near = np.hypot(*np.moveaxis(A0 + t0[..., None] * e0 - K0, -1, 0)) < 120
    keep = (KK != la[LL]) & (KK != lb[LL]) & near
    LL, KK = LL[keep], KK[keep]
    ax_ = (S[KK, 0] / 2 + LINE_CLEAR)
    ay_ = (S[KK, 1] / 2 + LINE_CLEAR)
    m = nx * ny
    v0 = P0[L[:, 1]] - P0[L[:, 0]]
    U0 = v0 / np.hypot(v0[:, 0], v0[:, 1])[:, None]

    def objective(c):
        cx, cy = c[:m], c[m:]
        P = base + np.stack([B @ cx, B @ cy], axis=1)
        G = np.zeros_like(P)
        # overlap
        d = P[iu] - P[ju]
        ox = need_x - np.abs(d[:, 0])
        oy = need_y - np.abs(d[:, 1])
        hit = (ox > 0) & (oy > 0)
        use_x = hit & (ox <= oy)
        use_y = hit & (ox > oy)
        f = overlap * (np.sum(ox[use_x] ** 2) + np.sum(oy[use_y] ** 2))
        gdx = np.where(use_x, -2 * overlap * ox * np.sign(d[:, 0]), 0.0)
        gdy = np.where(use_y, -2 * overlap * oy * np.sign(d[:, 1]), 0.0)
        np.add.at(G, iu, np.stack([gdx, gdy], 1))
        np.add.at(G, ju, -np.stack([gdx, gdy], 1))
        # lines under boxes: nearest point of the segment to the box centre, in units of
        # the box's half size (an ellipse round the box)
        A, Bp, K = P[la[LL]], P[lb[LL]], P[KK]
        sc = np.stack([ax_, ay_], 1) * 1.25
        a, bb = (A - K) / sc, (Bp - K) / sc
        e = bb - a
        ee = np.maximum(np.sum(e * e, 1), 1e-9)
        t = np.clip(-np.sum(a * e, 1) / ee, 0, 1)
        q = a + t[:, None] * e
        dist = np.sqrt(np.maximum(np.sum(q * q, 1), 1e-12))
        short = np.maximum(0, 1 - dist)
        w_line = 60.0
        f += w_line * np.sum(short ** 2)
        gq = (w_line * -2 * short / dist)[:, None] * q / sc      # d f / d (point q in board units)
        np.add.at(G, la[LL], gq * (1 - t)[:, None])
        np.add.at(G, lb[LL], gq * t[:, None])
        np.add.at(G, KK, -gq)
        # turned lines: squared distance between the unit vectors, board and geography
        v = P[L[:, 1]] - P[L[:, 0]]
        nv = np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-6)
        uh = v / nv[:, None]
        f += DIRECTION * np.sum((uh - U0) ** 2)
        gv = DIRECTION * (2 / nv)[:, None] * (uh * np.sum(uh * U0, 1)[:, None] - U0)
        np.add.at(G, L[:, 1], gv)
        np.add.at(G, L[:, 0], -gv)
        # frame
        lo = MARGIN + S / 2
        hi = np.array(FRAME) - MARGIN - S / 2
        under, over = np.maximum(0, lo - P), np.maximum(0, P - hi)
        f += frame_weight * (np.sum(under ** 2) + np.sum(over ** 2))
        G += frame_weight * (-2 * under + 2 * over)
        gc = np.concatenate([B.T @ G[:, 0], B.T @ G[:, 1]])
        # folds
        jxx, jxy = scale[0] + Bx @ cx, By @ cx
        jyx, jyy = Bx @ cy, scale[1] + By @ cy
        det = jxx * jyy - jxy * jyx
        lack = np.maximum(0, MIN_DET - det)
        w_det = 4000.0
        f += w_det * np.sum(lack ** 2)
        gd = -2 * w_det * lack
        gc[:m] += Bx.T @ (gd * jyy) - By.T @ (gd * jyx)
        gc[m:] += By.T @ (gd * jxx) - Bx.T @ (gd * jxy)
        # bending
        for arr, off in ((cx, 0), (cy, m)):
            g2 = arr.reshape(ny, nx)
            gg = np.zeros_like(g2)
            for axis in (0, 1):
                d2 = np.diff(g2, 2, axis=axis)
                f += BEND * np.sum(d2 ** 2)
                k = 2 * BEND * d2
                if axis == 0:
                    gg[:-2] += k; gg[1:-1] -= 2 * k; gg[2:] += k
                else:
                    gg[:, :-2] += k; gg[:, 1:-1] -= 2 * k; gg[:, 2:] += k
            gc[off:off + m] += gg.ravel()
        return f, gc

    c0 = np.zeros(2 * m)
    if start and start.get("columns") == nx and len(start["dx"]) == m:   # go on from an earlier fit
        c0 = np.array(start["dx"] + start["dy"], dtype=float)
    t0 = time.monotonic()
    res = minimize(objective, c0, jac=True, method="L-BFGS-B", options={"maxiter": iterations, "maxfun": iterations * 2})
    c = res.x
    P = base + np.stack([B @ c[:m], B @ c[m:]], 1)
    d = P[iu] - P[ju]
    overl = int(np.sum((need_x - GAP - np.abs(d[:, 0]) > 0) & (need_y - GAP - np.abs(d[:, 1]) > 0)))
    det = (scale[0] + Bx @ c[:m]) * (scale[1] + By @ c[m:]) - (By @ c[:m]) * (Bx @ c[m:])
    print(f"{res.nit} iterations, {time.monotonic() - t0:.1f} s, objective {res.fun:.1f}; "
          f"overlapping pairs among all versions' boxes together (boxes of one version never meet "
          f"another's on the page): {overl}; least area ratio {det.min():.2f}, greatest {det.max():.2f}", file=sys.stderr)
    return {"frame": list(FRAME), "origin": list(origin), "spacing": SPACING, "columns": nx,
            "scale": [round(float(s), 6) for s in scale],
            "dx": [round(float(v), 2) for v in c[:m]], "dy": [round(float(v), 2) for v in c[m:]]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=Path, help="go on from this earlier fit with the final weights")
    ap.add_argument("--iterations", type=int, default=SCHEDULE[-1][0], help="with --start")
    ap.add_argument("-o", "--out", type=Path, default=BL.DATA_FILE)
    args = ap.parse_args(argv)
    if args.start:
        params = fit(args.iterations, json.loads(args.start.read_text()))
    else:
        params = None
        for iterations, overlap, frame_weight in SCHEDULE:
            params = fit(iterations, params, overlap, frame_weight)
    args.out.write_text(json.dumps(params, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
