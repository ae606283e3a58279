"""Matches between two computer players, swapping sides every game."""
from __future__ import annotations

import json
import os
import re
import statistics
import time
from typing import Any

from ..game import Game, new_game
from ..verify import state_sha256
from .players import make_player
from .quality import SideQuality, analyse_game, match_quality

#: A game that has not ended after this many decisions is stopped as unfinished
#: (a safety net: every scenario ends by its last turn long before).
MAX_DECISIONS = 20_000


def play_game(players: dict[str, Any], scenario: str, options: list[str], seed: str,
              clock: dict[str, list[tuple[float, float, int]]] | None = None) -> Any:
    """One game; ``players`` maps each side to a player. The wall-clock and CPU
    seconds of each decision, and the number of legal actions it had, go into
    ``clock`` under the side (on a shared machine the CPU time says what one free
    core would take)."""
    g = new_game(scenario=scenario, options=options, seed=seed)
    for _ in range(MAX_DECISIONS):
        side = g.to_act
        if side is None:
            break
        choices = len(g.legal_actions())
        t0, c0 = time.perf_counter(), time.process_time()
        action = players[side].choose(g)
        if clock is not None:
            clock.setdefault(side, []).append(
                (time.perf_counter() - t0, time.process_time() - c0, choices))
        g.apply(action)
    return g


def play_match(a: str, b: str, games: int, scenario: str = "1861",
               options: list[str] | None = None, seed: str = "match",
               first: int = 0, save: str | None = None, quality: bool = True) -> dict[str, Any]:
    """``games`` games of level ``a`` against level ``b``, numbered from ``first``;
    ``a`` is the Union in even-numbered games and the Confederacy in odd ones.
    Game i depends on the seed and i alone (so a long match can be split into
    parts run side by side); only the timings vary from run to run.

    ``save``: a directory to write each game to (see ``save_game``); ``quality``:
    add each player's play-quality figures (quality.py) under "quality"."""
    options = list(options or [])
    names = {"a": a, "b": b}
    wins = {"a": 0, "b": 0}
    by_side = {"a": {"union": 0, "confederate": 0}, "b": {"union": 0, "confederate": 0}}
    unfinished = 0
    clocks: dict[str, list[tuple[float, float, int]]] = {"a": [], "b": []}
    game_cpu: dict[str, list[float]] = {"a": [], "b": []}
    figures: list[dict[str, SideQuality]] = []
    for i in range(first, first + games):
        sides = ("a", "b") if i % 2 == 0 else ("b", "a")
        seat = dict(zip(("union", "confederate"), sides, strict=True))
        players = {side: make_player(names[who], f"{seed}/{i}/{who}") for side, who in seat.items()}
        clock: dict[str, list[tuple[float, float, int]]] = {}
        g = play_game(players, scenario, options, f"{seed}/{i}", clock)
        for side, who in seat.items():
            clocks[who].extend(clock.get(side, []))
            game_cpu[who].append(sum(c for _, c, _ in clock.get(side, [])))
        if save is not None:
            save_game(save, g, f"{seed}/{i}", {side: names[who] for side, who in seat.items()},
                      game_file_name(a, b, seed, i))
        if quality:
            by_side_figures = analyse_game(g.header, g.events, seed=f"{seed}/{i}")
            figures.append({who: by_side_figures[side] for side, who in seat.items()})
        if g.result is None:
            unfinished += 1
            continue
        winner = seat[g.result["winner"]]
        wins[winner] += 1
        by_side[winner][g.result["winner"]] += 1
    result = {"a": a, "b": b, "scenario": scenario, "options": options, "seed": seed,
              "games": games, "first": first, "wins": wins, "wins_by_side": by_side,
              "unfinished": unfinished,
              # decisions with a choice: one legal action is played without thinking
              "seconds_per_decision": {who: _timing([w for w, _, n in clocks[who] if n > 1]) for who in "ab"},
              "cpu_seconds_per_decision": {who: _timing([c for _, c, n in clocks[who] if n > 1]) for who in "ab"},
              "cpu_seconds_per_game": {who: _spread(game_cpu[who]) for who in "ab"}}
    if quality:
        result["quality"] = match_quality(figures) if figures else {}
    return result


def game_file_name(a: str, b: str, seed: str, i: int) -> str:
    """``a-vs-b-SEED-0007.json``: one name per game of a match (the game's number,
    not its place in this part, so the parts of a split match never overwrite each
    other); characters other than letters, digits, ``.``, ``_`` and ``-`` in the
    seed become ``_``."""
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", seed)
    return f"{a}-vs-{b}-{slug}-{i:04d}.json"


def save_game(directory: str, g: Game, seed: str, players: dict[str, str], name: str) -> str:
    """Write a game as the record ``python -m rules_engine verify`` checks: header,
    events, the revealed seed and the final state's SHA-256 (plus, for a reader, who
    played which side and the result). Returns the file's path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    record = {"header": g.header, "events": g.events, "seed": seed,
              "state_sha256": state_sha256(g), "players": players, "result": g.result}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, separators=(",", ":"))
    return path


def _spread(samples: list[float]) -> dict[str, float]:
    """Median and largest of one player's CPU seconds over its games."""
    if not samples:
        return {"median": 0.0, "max": 0.0}
    return {"median": round(statistics.median(samples), 2), "max": round(max(samples), 2)}


def _timing(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"decisions": 0, "median": 0.0, "p99": 0.0}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"decisions": len(ordered), "median": round(statistics.median(ordered), 5),
            "p99": round(p99, 5)}
