"""Rules engine benchmark (not a test): decisions per second, seconds per complete
random game, replay speed, and replay against merely parsing the same log.

    python bench/engine_bench.py [--games 30] [--scenario 1861] [--repeat 3]
                                 [--engine PATH]

A decision = legal_actions() + apply() of one uniformly random legal action.
Replay = rules_engine.replay(header, events) of the finished game (no legality checks):
the fold of the recorded changes for games of engine version 3 on, the recorded actions
executed again for older engines (``--engine PATH``).
json.loads = parsing the same games' events from JSON text, the floor a replay of a
stored log cannot beat; the ratio says how many times that floor the replay takes. The
events' size in JSON is printed with it (version 3 events carry their changes).

The machine may be shared: times are the process's CPU time (one core's work, not
the waits for a busy core), each figure is timed ``--repeat`` times and the best is
kept. ``--engine PATH`` benchmarks the ``rules_engine`` package found under PATH
(e.g. an export of an older commit), so a before/after pair can be timed in turn in
the same window. The load average is printed with the figures, and which engine ran:
the compiled build when it is current (``python -m rules_engine build-native``), the
.py files otherwise or with RULES_ENGINE_PURE=1 in the environment.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any


def _import_engine(root: str | None) -> Any:
    sys.path.insert(0, root or str(Path(__file__).resolve().parents[1]))
    import rules_engine
    return rules_engine


def play_games(engine: Any, scenario: str, n_games: int) -> tuple[list[Any], int, float]:
    """n random games to the end: the games, the decisions made and the seconds taken.
    Each round starts with no March paths remembered from an earlier round (an engine
    that shares them between games would otherwise meet every situation again)."""
    forget = getattr(getattr(engine, "movement", None), "forget_paths_seen", None)
    if forget is not None:
        forget()
    rng = random.Random(2026)
    games, decisions, seconds = [], 0, 0.0
    for i in range(n_games):
        g = engine.new_game(scenario=scenario, options=[], seed=f"bench-{i}")
        t0 = time.process_time()
        while g.result is None:
            g.apply(rng.choice(g.legal_actions()))
            decisions += 1
        seconds += time.process_time() - t0
        games.append(g)
    return games, decisions, seconds


def time_replays(engine: Any, games: list[Any]) -> float:
    t0 = time.process_time()
    for g in games:
        engine.replay(g.header, g.events)
    return time.process_time() - t0


def time_json_loads(texts: list[str]) -> float:
    t0 = time.process_time()
    for text in texts:
        json.loads(text)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--scenario", default="1861")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engine", default=None, help="directory holding the rules_engine package")
    args = ap.parse_args()
    engine = _import_engine(args.engine)
    engine.new_game(scenario=args.scenario, seed="warm-up")      # load data files
    load_before = os.getloadavg()
    playouts = [play_games(engine, args.scenario, args.games) for _ in range(args.repeat)]
    games, decisions, play_seconds = min(playouts, key=lambda p: p[2])
    for g in games:
        assert engine.replay(g.header, g.events).state_json() == g.state_json()
    texts = [json.dumps(g.events) for g in games]
    replay_seconds = min(time_replays(engine, games) for _ in range(args.repeat))
    loads_seconds = min(time_json_loads(texts) for _ in range(args.repeat))
    events = sum(len(g.events) for g in games)
    actions = sum(1 for g in games for e in g.events if e["type"] == "action")
    native = getattr(engine, "native", None)        # engines before the compiled build have none
    print(f"engine {engine.__file__}: {native.status() if native else 'pure Python engine'}")
    print(f"scenario {args.scenario}, {args.games} random games to the end, best of {args.repeat}; "
          f"load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"decisions (legal_actions + apply): {decisions / play_seconds:,.0f} per second "
          f"({decisions / args.games:,.0f} decisions, {events / args.games:,.0f} events per game, "
          f"{play_seconds / args.games:.3f} s per game)")
    print(f"replay: {1000 * replay_seconds / args.games:.1f} ms per game, "
          f"{actions / replay_seconds:,.0f} actions/s, {events / replay_seconds:,.0f} events/s")
    print(f"json.loads of the same events: {events / loads_seconds:,.0f} events/s "
          f"({sum(map(len, texts)) / events:,.0f} bytes an event); "
          f"replay takes {replay_seconds / loads_seconds:.1f}x the time of json.loads")


if __name__ == "__main__":
    main()
