"""Computer player benchmark (not a test): the hard level against uniform random
play and against the greedy one-move baseline, from both sides, with seconds per
decision.

    python bench/ai_bench.py [--games 10] [--scenario 1861] [--seed bench]
                             [--opponents random greedy] [--first 0]

Prints one JSON line per opponent (the match result, as ``python -m rules_engine
match`` prints it) with the load average before and after, since the timings
depend on what else the machine runs. Game i of a match depends only on the seed
and i, so ``--first`` lets a long match be split into parts run side by side.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine.ai import play_match  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--scenario", default="1861")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"])
    parser.add_argument("--options", nargs="*", default=[])
    args = parser.parse_args()
    for opponent in args.opponents:
        load_before = os.getloadavg()
        t0 = time.time()
        out = play_match(args.level, opponent, args.games, args.scenario, args.options,
                         args.seed, args.first)
        out["wall_seconds"] = round(time.time() - t0, 1)
        out["loadavg_before"] = [round(x, 2) for x in load_before]
        out["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(out, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
