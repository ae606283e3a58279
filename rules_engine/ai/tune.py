"""Tuning the expert's judgement by self-play (logistic regression of the result on
the features, as chess engines' "Texel tuning" does).

    python -m rules_engine.ai.tune play --games 200 --seed g1 --out games.jsonl [--first K]
    python -m rules_engine.ai.tune fit games.jsonl [...] --out rules_engine/ai/data/expert_weights.json

``play`` has computer players of mixed levels play games of every scenario and writes
each game (its actions and who won). ``fit`` replays them, measures the position at
each Player Turn's start (judge.features) and finds the weights whose log-odds best
predict those results (Newton's method on the log-likelihood), pulled towards the
hand-set prior (judge.PRIOR) by a ridge penalty, every weight within a factor of
four of its prior (a feature the games say little about can neither turn into
nonsense nor vanish). The
penalty's strength is the one whose weights best predict games they were not
fitted to (five folds by game); the fit reports that log-loss beside the prior's
and keeps the weights only if they predict better. Game i depends only on the seed
and i, so ``--first`` splits a run over several processes."""
from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import sys
import zlib
from typing import Any

from ..game import new_game
from .judge import NAMES, PRIOR, WEIGHTS_FILE, features, judge
from .expert import ExpertPlayer
from .players import make_player

#: The levels that play the Union and the Confederacy: the Union has to be played
#: well for it to win at all (the seven cities, 10.0), so a game teaches something
#: about the Union's chances only when a strong level plays it.
PAIRINGS = (("hard", "normal"), ("hard", "hard"), ("hard", "easy"), ("expert", "hard"),
            ("hard", "expert"), ("expert", "normal"), ("expert", "expert"))
SCENARIOS = ("1861", "1861", "1862", "1863", "1864", "1861-short")
MAX_DECISIONS = 20_000


def play(games: int, seed: str, first: int, out: Any) -> None:
    """Play games ``first``..``first + games - 1``; write each as a JSON line: the
    scenario, the dice seed, every action, the actions' indexes where a Player
    Turn began, and who won. The features are worked out from these when fitting,
    so a change to them needs no new games."""
    for i in range(first, first + games):
        rng = random.Random(f"{seed}/{i}")
        a, b = rng.choice(PAIRINGS)
        scenario = rng.choice(SCENARIOS)
        dice = f"{seed}/{i}"
        g = new_game(scenario=scenario, seed=dice)
        actions, marks = record_game(g, {"union": _player(a, f"{dice}/u"), "confederate": _player(b, f"{dice}/c")})
        if g.result is None:
            continue
        out.write(json.dumps({"game": i, "seed": seed, "scenario": scenario, "dice": dice, "union": a,
                              "confederate": b, "actions": actions, "marks": marks,
                              "y": 1 if g.result["winner"] == "union" else 0}) + "\n")
        out.flush()


def record_game(g: Any, players: dict[str, Any]) -> tuple[list[dict[str, Any]], list[int]]:
    """Play ``g`` out; every action, and the indexes of the actions where a Player
    Turn began."""
    actions: list[dict[str, Any]] = []
    marks: list[int] = []
    seen = None
    for _ in range(MAX_DECISIONS):
        if g.to_act is None:
            break
        if (g.turn, g.side) != seen:
            seen = (g.turn, g.side)
            marks.append(len(actions))
        action = players[g.to_act].choose(g)
        g.apply(action)
        actions.append(action)
    return actions, marks


def _player(level: str, seed: str) -> Any:
    """A level's player; the expert judges with the judgement's prior, so that the
    games of a seed stay the same whatever weights are tuned from them later."""
    if level == "expert":
        prior = tuple(PRIOR[name] for name in NAMES)
        return ExpertPlayer(seed, judgement=lambda g, side: judge(g, side, prior))
    return make_player(level, seed)


def positions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The features at each Player Turn's start of a recorded game, with its result."""
    g = new_game(scenario=record["scenario"], seed=record["dice"])
    marks = set(record["marks"])
    rows = []
    for n, action in enumerate(record["actions"]):
        if n in marks:
            rows.append({"game": record["game"], "seed": record["seed"], "x": features(g), "y": record["y"]})
        g.apply(action)
    return rows


#: How far the fit may move a weight from its prior: a factor each way. The games
#: of a few dozen self-play matches cannot tell everything apart (a feature that
#: always moves with another, a cause rare in the games), and a weight of zero
#: would make the expert blind to it in play (no worth in its pieces, say).
RANGE = 4.0


def fit(rows: list[dict[str, Any]], l2: float = 1.0, iterations: int = 50) -> list[float]:
    """Weights maximising the log-likelihood of the results, minus a ridge penalty
    ``l2`` * (positions / 1000) * sum((w - prior)^2 * variance of the feature) (the
    bias is free), each weight between a RANGE-th of its prior and RANGE times it
    (so it keeps its sign: more objectives never hurt the Union, whatever the games
    of one strength happened to show). A weight that would leave its range is held
    at the bound it crossed and the rest fitted again."""
    prior = [PRIOR[name] for name in NAMES]
    held: dict[int, float] = {}
    while True:
        w = _newton(rows, l2, iterations, held)
        out = {j: _clamp(v, prior[j]) for j, v in enumerate(w)
               if NAMES[j] != "bias" and j not in held and _clamp(v, prior[j]) != v}
        if not out:
            return w
        held.update(out)


def _clamp(value: float, prior: float) -> float:
    low, high = sorted((prior / RANGE, prior * RANGE))
    return min(high, max(low, value))


def _newton(rows: list[dict[str, Any]], l2: float, iterations: int, held: dict[int, float]) -> list[float]:
    """Newton's method from the prior, each step halved until it improves; the
    weights in ``held`` stay at the values given."""
    prior = [PRIOR[name] for name in NAMES]
    xs = [r["x"] for r in rows]
    ys = [r["y"] for r in rows]
    var = _variances(xs)
    penalty = [0.0 if name == "bias" else l2 * len(xs) / 1000.0 * var[j] for j, name in enumerate(NAMES)]

    def loss(w: list[float]) -> float:
        return (log_loss(rows, w) * len(rows)
                + 0.5 * sum(p * (a - b) ** 2 for p, a, b in zip(penalty, w, prior, strict=True)))

    w = [held.get(j, v) for j, v in enumerate(prior)]
    current = loss(w)
    for _ in range(iterations):
        grad, hess = _gradient_and_hessian(xs, ys, w, penalty, prior)
        for j in held:                             # no step along a held weight
            grad[j] = 0.0
            hess[j] = [0.0] * len(w)
            for row in hess:
                row[j] = 0.0
            hess[j][j] = 1.0
        step = _solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = [a - scale * b for a, b in zip(w, step, strict=True)]
            value = loss(trial)
            if value < current:
                break
            scale /= 2.0
        else:
            break                                  # no step improves: the optimum
        done = current - value < 1e-9 * max(1.0, abs(current))
        w, current = trial, value
        if done:
            break
    return w


def _gradient_and_hessian(xs: list[list[float]], ys: list[int], w: list[float], penalty: list[float],
                          prior: list[float]) -> tuple[list[float], list[list[float]]]:
    n = len(w)
    grad = [penalty[j] * (w[j] - prior[j]) for j in range(n)]
    hess = [[0.0] * n for _ in range(n)]
    for j in range(n):
        hess[j][j] = penalty[j] + 1e-9
    for x, y in zip(xs, ys, strict=True):
        p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
        d = p - y
        s = p * (1.0 - p)
        for j in range(n):
            if x[j]:
                grad[j] += d * x[j]
                sx = s * x[j]
                row = hess[j]
                for k in range(n):
                    row[k] += sx * x[k]
    return grad, hess


def log_loss(rows: list[dict[str, Any]], w: list[float]) -> float:
    total = 0.0
    for r in rows:
        p = min(1 - 1e-9, max(1e-9, _sigmoid(sum(a * b for a, b in zip(w, r["x"], strict=True)))))
        total -= math.log(p) if r["y"] else math.log(1.0 - p)
    return total / max(1, len(rows))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def _variances(xs: list[list[float]]) -> list[float]:
    n = len(xs)
    means = [sum(col) / n for col in zip(*xs, strict=True)]
    return [max(1e-6, sum((x - m) ** 2 for x in col) / n) for col, m in zip(zip(*xs, strict=True), means,
                                                                            strict=True)]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _cross_validated(rows: list[dict[str, Any]], l2: float, folds: int = 5) -> float:
    """Mean log-loss on each fifth of the games of weights fitted to the rest."""
    total = 0.0
    for k in range(folds):
        held = [r for r in rows if _fold(r) == k]
        if held:
            total += log_loss(held, fit([r for r in rows if _fold(r) != k], l2)) * len(held)
    return total / len(rows)


def _fold(row: dict[str, Any]) -> int:
    return zlib.crc32(f"{row['seed']}/{row['game']}".encode()) % 5


def fit_files(paths: list[str], out: str, l2: list[float], union_levels: list[str] | None, command: str) -> int:
    records = [json.loads(line) for path in paths for line in open(path, encoding="utf-8") if line.strip()]
    if union_levels:
        records = [r for r in records if r["union"] in union_levels]
    rows = [row for record in records for row in positions(record)]
    prior = [PRIOR[name] for name in NAMES]
    # the ridge's strength: whichever predicts held-out games best (five folds by
    # game: a game's positions are never split between fitting and judging)
    losses = {strength: _cross_validated(rows, strength) for strength in l2}
    chosen = min(losses, key=lambda k: losses[k])
    w = fit(rows, chosen)
    before, after = log_loss(rows, prior), losses[chosen]
    games = len({(r["seed"], r["game"]) for r in rows})
    print(f"{len(rows)} positions from {games} games; held-out log-loss by ridge strength: "
          + ", ".join(f"{k:g}: {v:.4f}" for k, v in losses.items()))
    print(f"chosen {chosen:g}; log-loss: prior {before:.4f}, tuned (held-out games) {after:.4f}")
    for name, v in zip(NAMES, w, strict=True):
        print(f"  {name:16} {PRIOR[name]:+9.4f} -> {v:+9.4f}")
    if after >= before:
        print("the tuned weights predict no better than the prior: not written", file=sys.stderr)
        return 1
    record = {"weights": dict(zip(NAMES, (round(v, 6) for v in w), strict=True)),
              "made_by": command, "date": datetime.date.today().isoformat(),
              "positions": len(rows), "games": games, "ridge": chosen,
              "log_loss": {"prior": round(before, 5), "tuned_cross_validated": round(after, 5)}}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1, sort_keys=True)
        fh.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_engine.ai.tune")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="self-play games as JSON lines (actions, turn starts, result)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", default="tune")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="weights from positions files")
    f.add_argument("files", nargs="+")
    f.add_argument("--l2", type=float, nargs="+", default=[0.3, 3.0, 30.0, 300.0],
                   help="ridge strengths to try (the best on the held-out games is kept)")
    f.add_argument("--out", default=str(WEIGHTS_FILE))
    f.add_argument("--union-levels", nargs="*", default=None,
                   help="only games whose Union was played by these levels (a weakly played Union "
                        "loses whatever the position, and so teaches nothing about its chances)")
    args = parser.parse_args(argv)
    if args.command == "play":
        with open(args.out, "a", encoding="utf-8") as out:
            play(args.games, args.seed, args.first, out)
        return 0
    command = "python -m rules_engine.ai.tune " + " ".join(argv if argv is not None else sys.argv[1:])
    return fit_files(args.files, args.out, args.l2, args.union_levels, command)


if __name__ == "__main__":
    sys.exit(main())
