"""An Elo ladder of the computer levels: a round robin of matches, then ratings fitted
to every result.

    python -m rules_engine ladder --games N --levels random greedy easy --out ladder.json

Each pairing plays ``play_match`` (sides swapped every game). The ratings are the
Bradley-Terry (Elo) fit of all the games at once, with one virtual drawn game per
pairing as a prior (so a level that won every game still gets a finite rating),
anchored at ``random`` = 0 when random plays, else at a mean of 0. The error is
the half-width of a 95% interval from the fit's Fisher information. docs/ai.md
("Ladder") says more; ``published_elo()`` reads the committed ladder for the web site.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from .match import play_match

#: The committed ladder the web site shows beside each level's name.
LADDER_FILE = Path(__file__).parent / "data" / "ladder.json"
#: Elo points per natural-log unit of odds: 400 / ln(10).
_SCALE = 400.0 / math.log(10.0)
#: Virtual drawn games added to every pairing (the prior; see module docstring).
PRIOR_DRAWS = 1.0
#: z of a two-sided 95% interval.
_Z95 = 1.96


# ---------------------------------------------------------------------- playing
def pairings(levels: list[str]) -> list[tuple[str, str]]:
    """Every pair of levels once, in the order given (round robin)."""
    return [(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]]


def pairing_seed(seed: str, a: str, b: str) -> str:
    """Each pairing's own match seed, so adding a level never changes other games."""
    return f"{seed}/{a}-{b}"


def _play_pairing(task: tuple[str, str, int, str, list[str], str, int]) -> dict[str, Any]:
    a, b, games, scenario, options, seed, first = task
    return play_pairing(a, b, games, scenario, options, seed, first)


def play_pairing(a: str, b: str, games: int, scenario: str, options: list[str], seed: str,
                 first: int = 0) -> dict[str, Any]:
    """One pairing's match, as the ladder file keeps it: wins, unfinished games and
    a's score (an unfinished game counts half to each), with the match's
    play-quality figures and CPU seconds per decision."""
    m = play_match(a, b, games, scenario, options, pairing_seed(seed, a, b), first)
    return {"a": a, "b": b, "games": games, "first": first, "seed": m["seed"],
            "wins": m["wins"], "wins_by_side": m["wins_by_side"], "unfinished": m["unfinished"],
            "score": round(_points(m) / games, 4) if games else None,
            "quality": m.get("quality", {}),
            "cpu_seconds_per_decision": m["cpu_seconds_per_decision"]}


def _points(p: dict[str, Any]) -> float:
    """a's points in a pairing: a win 1, an unfinished game one half."""
    return float(p["wins"]["a"] + 0.5 * p["unfinished"])


def play_ladder(levels: list[str], games: int, scenario: str = "1861", options: list[str] | None = None,
                seed: str = "ladder", first: int = 0, jobs: int = 1) -> list[dict[str, Any]]:
    """The round robin's pairings (see ``play_pairing``), in ``pairings`` order;
    ``jobs`` > 1 plays pairings in that many processes."""
    tasks = [(a, b, games, scenario, list(options or []), seed, first) for a, b in pairings(levels)]
    if jobs <= 1 or len(tasks) <= 1:
        return [_play_pairing(t) for t in tasks]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_play_pairing, tasks))


# ---------------------------------------------------------------------- the fit
def fit_elo(results: Iterable[dict[str, Any]], levels: list[str] | None = None,
            anchor: str | None = None, prior_draws: float = PRIOR_DRAWS) -> dict[str, dict[str, float]]:
    """Elo ratings and 95% errors from pairing results (each with "a", "b", "games",
    "wins" {"a", "b"} and "unfinished"; several results of one pair add up).

    The maximum of the Bradley-Terry likelihood, P(i beats j) = 1 / (1 + 10^((r_j -
    r_i) / 400)), with ``prior_draws`` virtual draws per pairing, found by Newton's
    method. ``anchor``: a level held at 0, or None for a mean of 0 (the default is
    "random" when it plays). The error is 1.96 standard errors from the inverse of
    the (negated) Hessian, the Fisher information; the anchor's is 0."""
    results = list(results)
    names = list(levels) if levels else _levels_in(results)
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    if not k:
        return {}
    n = [[0.0] * k for _ in range(k)]        # games between i and j
    s = [[0.0] * k for _ in range(k)]        # points of i against j
    for p in results:
        i, j = index[p["a"]], index[p["b"]]
        if p["games"] == 0:
            continue
        pts = _points(p)
        n[i][j] += p["games"]
        n[j][i] += p["games"]
        s[i][j] += pts
        s[j][i] += p["games"] - pts
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j]:
                n[i][j] += prior_draws
                s[i][j] += prior_draws / 2
    if anchor is None and "random" in index:
        anchor = "random"
    fixed = index[anchor] if anchor is not None else 0
    ratings = _newton(n, s, fixed)
    cov = _covariance(n, ratings, fixed)
    if anchor is None:                         # shift to a mean of 0
        ratings, cov = _centred(ratings, cov)
    return {name: {"elo": ratings[i], "error": _Z95 * math.sqrt(max(cov[i][i], 0.0))}
            for i, name in enumerate(names)}


def _levels_in(results: list[dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for p in results:
        for who in (p["a"], p["b"]):
            if who not in names:
                names.append(who)
    return names


def _expected(ri: float, rj: float) -> float:
    return 1.0 / (1.0 + math.exp((rj - ri) / _SCALE))


def _log_likelihood(n: list[list[float]], s: list[list[float]], r: list[float]) -> float:
    total = 0.0
    for i in range(len(r)):
        for j in range(len(r)):
            if i != j and n[i][j]:
                total += s[i][j] * math.log(max(_expected(r[i], r[j]), 1e-300))
    return total


def _gradient_hessian(n: list[list[float]], s: list[list[float]], r: list[float]
                      ) -> tuple[list[float], list[list[float]]]:
    """Derivatives of the log-likelihood in Elo points."""
    k = len(r)
    grad = [0.0] * k
    hess = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i == j or not n[i][j]:
                continue
            e = _expected(r[i], r[j])
            grad[i] += (s[i][j] - n[i][j] * e) / _SCALE
            w = n[i][j] * e * (1.0 - e) / _SCALE ** 2
            hess[i][i] -= w
            hess[i][j] += w
    return grad, hess


def _newton(n: list[list[float]], s: list[list[float]], fixed: int) -> list[float]:
    """The ratings of greatest likelihood with ``fixed`` held at 0 (steps halved
    while they lower the likelihood)."""
    k = len(n)
    r = [0.0] * k
    free = [i for i in range(k) if i != fixed]
    for _ in range(100):
        grad, hess = _gradient_hessian(n, s, r)
        step = _solve([[-hess[i][j] for j in free] for i in free], [grad[i] for i in free])
        before = _log_likelihood(n, s, r)
        scale = 1.0
        while True:
            trial = list(r)
            for i, d in zip(free, step, strict=True):
                trial[i] += scale * d
            if _log_likelihood(n, s, trial) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        r = trial
        if max((abs(d) * scale for d in step), default=0.0) < 1e-7:
            break
    return r


def _covariance(n: list[list[float]], r: list[float], fixed: int) -> list[list[float]]:
    """The inverse Fisher information of the free ratings (0 for the fixed one)."""
    k = len(r)
    _, hess = _gradient_hessian(n, [[0.0] * k for _ in range(k)], r)
    free = [i for i in range(k) if i != fixed]
    inv = _inverse([[-hess[i][j] for j in free] for i in free])
    cov = [[0.0] * k for _ in range(k)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            cov[i][j] = inv[a][b]
    return cov


def _centred(r: list[float], cov: list[list[float]]) -> tuple[list[float], list[list[float]]]:
    """Ratings shifted to a mean of 0 and their covariance (C' = A C A^T with
    A = I - 1/k)."""
    k = len(r)
    mean = sum(r) / k
    a = [[(1.0 if i == j else 0.0) - 1.0 / k for j in range(k)] for i in range(k)]
    ac = [[sum(a[i][m] * cov[m][j] for m in range(k)) for j in range(k)] for i in range(k)]
    return ([x - mean for x in r],
            [[sum(ac[i][m] * a[j][m] for m in range(k)) for j in range(k)] for i in range(k)])


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    inv = _inverse(m)
    return [sum(row[j] * v[j] for j in range(len(v))) for row in inv]


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting; a tiny ridge keeps a pairing graph that
    does not join every level (no games at all) from failing: its ratings stay 0
    with a huge error."""
    k = len(m)
    a = [[m[i][j] + (1e-12 if i == j else 0.0) for j in range(k)] + [1.0 if i == j else 0.0 for j in range(k)]
         for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda row: abs(a[row][col]))
        a[col], a[pivot] = a[pivot], a[col]
        div = a[col][col]
        a[col] = [x / div for x in a[col]]
        for row in range(k):
            if row != col and a[row][col]:
                f = a[row][col]
                a[row] = [x - f * y for x, y in zip(a[row], a[col], strict=True)]
    return [row[k:] for row in a]


# ---------------------------------------------------------------------- the file
def ladder_report(results: list[dict[str, Any]], levels: list[str], command: str, scenario: str,
                  options: list[str], seed: str, games: int, first: int) -> dict[str, Any]:
    """The ladder file: when and how it was made, every pairing, every rating."""
    ratings = fit_elo(results, levels)
    anchor = "random" if "random" in levels else "mean"
    return {"date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": command, "scenario": scenario, "options": options, "seed": seed,
            "games": games, "first": first, "levels": levels, "anchor": anchor,
            "method": (f"Bradley-Terry maximum likelihood over all games, {PRIOR_DRAWS:g} virtual draw "
                       f"per pairing, unfinished games half a point, anchored at {anchor} = 0; "
                       "error: 95% (1.96 standard errors) from the Fisher information"),
            "pairings": results,
            "elo": {name: {"elo": round(v["elo"]), "error": round(v["error"])} for name, v in ratings.items()}}


def table(report: dict[str, Any]) -> str:
    """The ladder as text: ratings best first, then each pair's score."""
    lines = [f"{'level':10} {'elo':>6} {'±95%':>6}"]
    for name, v in sorted(report["elo"].items(), key=lambda kv: -kv[1]["elo"]):
        lines.append(f"{name:10} {v['elo']:6d} {v['error']:6d}")
    lines.append("")
    lines.append(f"{'pairing':22} {'games':>5} {'a wins':>6} {'b wins':>6} {'unfin.':>6} {'a score':>7}")
    for p in _by_pair(report["pairings"]):
        score = f"{_points(p) / p['games']:.3f}" if p["games"] else "-"
        lines.append(f"{p['a'] + ' - ' + p['b']:22} {p['games']:5d} {p['wins']['a']:6d} "
                     f"{p['wins']['b']:6d} {p['unfinished']:6d} {score:>7}")
    return "\n".join(lines)


def _by_pair(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Parts of one pairing (a split or merged ladder) added up."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for p in results:
        t = out.setdefault((p["a"], p["b"]), {"a": p["a"], "b": p["b"], "games": 0,
                                                "wins": {"a": 0, "b": 0}, "unfinished": 0})
        t["games"] += p["games"]
        t["unfinished"] += p["unfinished"]
        for who in "ab":
            t["wins"][who] += p["wins"][who]
    return list(out.values())


def published_elo(path: str | os.PathLike[str] | None = None) -> dict[str, dict[str, int]]:
    """{level: {"elo", "error"}} from the committed ladder file, {} if there is none
    (or it cannot be read). Read once per change of the file."""
    file = Path(path) if path is not None else LADDER_FILE
    try:
        stat = file.stat()
    except OSError:
        return {}
    key = (str(file), stat.st_mtime_ns, stat.st_size)
    if key not in _PUBLISHED:
        _PUBLISHED.clear()
        _PUBLISHED[key] = _read_published(file)
    return {name: dict(v) for name, v in _PUBLISHED[key].items()}


_PUBLISHED: dict[tuple[str, int, int], dict[str, dict[str, int]]] = {}


def _read_published(file: Path) -> dict[str, dict[str, int]]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return {str(name): {"elo": int(v["elo"]), "error": int(v["error"])}
                for name, v in data["elo"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
