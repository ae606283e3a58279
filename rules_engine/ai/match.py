"""Matches between two computer players, swapping sides every game."""
from __future__ import annotations

import statistics
import time
from typing import Any

from ..game import new_game
from .players import make_player

#: A game that has not ended after this many decisions is stopped as unfinished
#: (a safety net: every scenario ends by its last turn long before).
MAX_DECISIONS = 20_000


def play_game(players: dict[str, Any], scenario: str, options: list[str], seed: str,
              clock: dict[str, list[tuple[float, float]]] | None = None) -> Any:
    """One game; ``players`` maps each side to a player. The wall-clock and CPU
    seconds of each decision go into ``clock`` under the side (on a shared
    machine the CPU time says what one free core would take)."""
    g = new_game(scenario=scenario, options=options, seed=seed)
    for _ in range(MAX_DECISIONS):
        side = g.to_act
        if side is None:
            break
        t0, c0 = time.perf_counter(), time.process_time()
        action = players[side].choose(g)
        if clock is not None:
            clock.setdefault(side, []).append(
                (time.perf_counter() - t0, time.process_time() - c0))
        g.apply(action)
    return g


def play_match(a: str, b: str, games: int, scenario: str = "1861",
               options: list[str] | None = None, seed: str = "match",
               first: int = 0) -> dict[str, Any]:
    """``games`` games of level ``a`` against level ``b``, numbered from ``first``;
    ``a`` is the Union in even-numbered games and the Confederacy in odd ones.
    Game i depends on the seed and i alone (so a long match can be split into
    parts run side by side); only the timings vary from run to run."""
    options = list(options or [])
    names = {"a": a, "b": b}
    wins = {"a": 0, "b": 0}
    by_side = {"a": {"union": 0, "confederate": 0}, "b": {"union": 0, "confederate": 0}}
    unfinished = 0
    clocks: dict[str, list[tuple[float, float]]] = {"a": [], "b": []}
    for i in range(first, first + games):
        sides = ("a", "b") if i % 2 == 0 else ("b", "a")
        seat = dict(zip(("union", "confederate"), sides, strict=True))
        players = {side: make_player(names[who], f"{seed}/{i}/{who}") for side, who in seat.items()}
        clock: dict[str, list[tuple[float, float]]] = {}
        g = play_game(players, scenario, options, f"{seed}/{i}", clock)
        for side, who in seat.items():
            clocks[who].extend(clock.get(side, []))
        if g.result is None:
            unfinished += 1
            continue
        winner = seat[g.result["winner"]]
        wins[winner] += 1
        by_side[winner][g.result["winner"]] += 1
    return {"a": a, "b": b, "scenario": scenario, "options": options, "seed": seed,
            "games": games, "first": first, "wins": wins, "wins_by_side": by_side,
            "unfinished": unfinished,
            "seconds_per_decision": {who: _timing([w for w, _ in clocks[who]]) for who in "ab"},
            "cpu_seconds_per_decision": {who: _timing([c for _, c in clocks[who]]) for who in "ab"}}


def _timing(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"decisions": 0, "median": 0.0, "p99": 0.0}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"decisions": len(ordered), "median": round(statistics.median(ordered), 5),
            "p99": round(p99, 5)}
