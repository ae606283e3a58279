"""Command line: ``python -m rules_engine selfplay --games N --seed S``.

Plays random legal games to the end and prints each result and the speed;
``match --a hard --b random --games N`` plays computer players against each other;
``ladder --games N`` rates the computer levels by a round robin (Elo);
``build-native`` compiles the engine (native.py) and ``native-status`` says whether it is used."""
from __future__ import annotations

import argparse
import random
import sys
import time

from . import native, new_game, replay, SCENARIO_IDS


def play_random(scenario: str, options: list[str], seed: str, rng: random.Random,
                max_decisions: int = 200_000):
    g = new_game(scenario=scenario, options=options, seed=seed)
    decisions = 0
    while g.result is None and decisions < max_decisions:
        actions = g.legal_actions()
        g.apply(rng.choice(_prefer_progress(actions, rng)))
        decisions += 1
    return g, decisions


def _prefer_progress(actions: list[dict], rng: random.Random) -> list[dict]:
    """A random bot that mostly plays on rather than ending phases at once, so games
    see marches, battles and recruits; every choice is still a legal action."""
    enders = {"end_movement", "end_march", "end_recruitment", "no_promotion"}
    rest = [a for a in actions if a["type"] not in enders]
    if rest and rng.random() < 0.85:
        return rest
    return actions


def selfplay(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    total_decisions = 0
    total_time = 0.0
    for i in range(args.games):
        t0 = time.perf_counter()
        g, n = play_random(args.scenario, args.options, f"{args.seed}-{i}", rng)
        dt = time.perf_counter() - t0
        total_decisions += n
        total_time += dt
        t1 = time.perf_counter()
        again = replay(g.header, g.events)
        rt = time.perf_counter() - t1
        same = again.state_json() == g.state_json()
        winner = g.result["winner"] if g.result else "none"
        print(f"game {i + 1}: {winner:12} turn {g.turn:2}  {n:6} decisions  {len(g.events):6} events  "
              f"{dt:6.2f} s  replay {rt * 1000:7.1f} ms  {'identical' if same else 'MISMATCH'}"
              f"  ({g.result['reason'] if g.result else 'unfinished'})")
        if not same:
            return 1
    if total_time:
        print(f"{total_decisions} decisions in {total_time:.2f} s: "
              f"{total_decisions / total_time:,.0f} decisions/s (legal_actions + apply)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play random legal games to the end")
    sp.add_argument("--games", type=int, default=1)
    sp.add_argument("--seed", default="selfplay")
    sp.add_argument("--scenario", default="1861", choices=SCENARIO_IDS)
    sp.add_argument("--options", nargs="*", default=[])
    mp = sub.add_parser("match", help="computer players against each other, swapping sides")
    mp.add_argument("--a", default="hard", help="level of player a (union in the first game)")
    mp.add_argument("--b", default="random", help="level of player b")
    mp.add_argument("--games", type=int, default=2)
    mp.add_argument("--seed", default="match")
    mp.add_argument("--scenario", default="1861", choices=SCENARIO_IDS)
    mp.add_argument("--options", nargs="*", default=[])
    mp.add_argument("--first", type=int, default=0, help="number of the first game (to split a match)")
    mp.add_argument("--save", metavar="DIR", help="write each game to DIR as a record `verify` checks")
    mp.add_argument("--no-quality", action="store_true", help="leave out the play-quality figures")
    lp = sub.add_parser("ladder", help="round robin of computer levels and their Elo ratings")
    lp.add_argument("--games", type=int, default=2, help="games per pairing (sides swap every game)")
    lp.add_argument("--levels", nargs="+", default=None, help="levels to rate (default: all)")
    lp.add_argument("--seed", default="ladder")
    lp.add_argument("--scenario", default="1861", choices=SCENARIO_IDS)
    lp.add_argument("--options", nargs="*", default=[])
    lp.add_argument("--first", type=int, default=0, help="number of each pairing's first game (to split a ladder)")
    lp.add_argument("--out", metavar="FILE", help="write the ladder as JSON to FILE")
    lp.add_argument("--jobs", type=int, default=1, help="pairings played side by side (processes)")
    lp.add_argument("--merge", nargs="+", default=[], metavar="FILE",
                    help="add the pairings of earlier ladder files (parts of a split ladder) or the results "
                         "of matches (the JSON line of `match`) before the fit")
    vp = sub.add_parser("verify", help="check a game record: seed, every die, every action")
    vp.add_argument("record", help="JSON file: header, events, seed (once revealed)")
    sub.add_parser("build-native", help="compile the engine to C (needs Cython and a C compiler)")
    sub.add_parser("native-status", help="say whether the compiled engine is used, and if not why (exit 1)")
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        return selfplay(args)
    if args.command == "verify":
        return verify_file(args.record)
    if args.command == "match":
        return match(args)
    if args.command == "ladder":
        return ladder(args, sys.argv[1:] if argv is None else argv)
    if args.command == "build-native":
        return build_native()
    if args.command == "native-status":
        print(native.status())
        return 0 if native.in_use() else 1
    return 2


def build_native() -> int:
    try:
        print(f"compiled engine installed in {native.build()}")
    except ImportError as missing:
        print(f"cannot build: {missing}. Install the native extra first: pip install -e '.[native]'",
              file=sys.stderr)
        return 2
    return 0


def match(args: argparse.Namespace) -> int:
    import json
    from .ai import LEVELS, play_match
    for level in (args.a, args.b):
        if level not in LEVELS:
            print(f"unknown level {level!r}; known: {', '.join(LEVELS)}", file=sys.stderr)
            return 2
    result = play_match(args.a, args.b, args.games, args.scenario, args.options, args.seed,
                        args.first, save=args.save, quality=not args.no_quality)
    print(json.dumps(result, sort_keys=True))
    return 0


def ladder(args: argparse.Namespace, argv: list[str]) -> int:
    import json
    import shlex
    from .ai import LEVELS
    from .ai.ladder import ladder_report, play_ladder, table
    levels = list(args.levels or LEVELS)
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or len(set(levels)) != len(levels):
        print(f"levels must be distinct, out of: {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    earlier: list[dict] = []
    for path in args.merge:
        with open(path, encoding="utf-8") as fh:
            part = json.load(fh)
        # a ladder file's pairings, or one match's result (python -m rules_engine match)
        earlier += part["pairings"] if "pairings" in part else [part]
        if args.games == 0 and path == args.merge[0] and "pairings" in part:     # a merge alone: the parts' settings
            args.scenario, args.options, args.seed = part["scenario"], part["options"], part["seed"]
    results = play_ladder(levels, args.games, args.scenario, args.options, args.seed, args.first,
                          args.jobs) if args.games > 0 else []
    rated = list(levels) if args.games > 0 else []
    for p in earlier + results:
        rated += [p[who] for who in ("a", "b") if p[who] not in rated]
    report = ladder_report(earlier + results, rated, "python -m rules_engine " + shlex.join(argv),
                           args.scenario, args.options, args.seed, args.games, args.first)
    print(table(report))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1, sort_keys=True)
            fh.write("\n")
    return 0


def verify_file(path: str) -> int:
    import json
    from .verify import verify_record
    with open(path, encoding="utf-8") as fh:
        record = json.load(fh)
    problems = verify_record(record)
    actions = sum(1 for e in record["events"] if e.get("type") == "action")
    rolls = sum(1 for e in record["events"] if e.get("type") == "roll")
    if problems:
        for p in problems:
            print("FAIL:", p)
        return 1
    seeded = "every die matches the revealed seed" if record.get("seed") else "seed not revealed yet: dice not checked"
    print(f"OK: {actions} actions replayed and found legal, {rolls} dice; {seeded}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
