"""Rules engine benchmark (not a test): decisions per second, seconds per complete
random game, and replay speed.

    python bench/engine_bench.py [--games 30] [--scenario 1861]

A decision = legal_actions() + apply() of one uniformly random legal action.
Replay = rules_engine.replay(header, events) of the finished game (no legality checks).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules_engine  # noqa: E402


def one_game(scenario: str, seed: str, rng: random.Random):
    g = rules_engine.new_game(scenario=scenario, options=[], seed=seed)
    n = 0
    t0 = time.perf_counter()
    while g.result is None:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g, n, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--scenario", default="1861")
    args = ap.parse_args()
    rng = random.Random(2026)
    rules_engine.new_game(scenario=args.scenario, seed="warm-up")      # load data files
    games, decisions, play_times = [], 0, []
    for i in range(args.games):
        g, n, dt = one_game(args.scenario, f"bench-{i}", rng)
        games.append(g)
        decisions += n
        play_times.append(dt)
    replay_times, events = [], 0
    for g in games:
        t0 = time.perf_counter()
        again = rules_engine.replay(g.header, g.events)
        replay_times.append(time.perf_counter() - t0)
        events += len(g.events)
        assert again.state_json() == g.state_json()
    actions = sum(1 for g in games for e in g.events if e["type"] == "action")
    print(f"scenario {args.scenario}, {args.games} random games to the end")
    print(f"decisions (legal_actions + apply): {decisions / sum(play_times):,.0f} per second")
    print(f"seconds per complete game: mean {statistics.mean(play_times):.3f}, "
          f"max {max(play_times):.3f} ({decisions / args.games:,.0f} decisions, "
          f"{events / args.games:,.0f} events per game)")
    print(f"replay: mean {1000 * statistics.mean(replay_times):.1f} ms per game, "
          f"{actions / sum(replay_times):,.0f} actions/s, {events / sum(replay_times):,.0f} events/s")


if __name__ == "__main__":
    main()
