"""Which optional and Advanced rules a game uses: chosen at creation, fixed for the game."""
from __future__ import annotations

from typing import Any

from .data import options_table
from .errors import Word, because
from .map import CURRENT_DATA_VERSION, load_scenario

# Options the engine plays today. Choosing any other known option is refused
# (never silently ignored) until its rules are in.
IMPLEMENTED = frozenset({"4.11", "4.12", "4.71", "4.8", "4.9", "5.2", "5.41", "5.71", "6.1",
                         "6.2", "7.3", "7.4", "7.5", "9.1", "10.1",
                         "11.3:1862", "11.3:1863", "11.3:1864", "11.3:sudden-death",
                         "A2.0", "A3.0", "A4.0", "A5.0", "A6.0", "A7.0", "A8.1", "A8.2", "A8.3", "A8.4"})
MARCH_ENDING_YEAR = {"11.3:1862": 1862, "11.3:1863": 1863, "11.3:1864": 1864}
SUDDEN_DEATH = "11.3:sudden-death"
#: The first engine version that refuses sudden death outside the Campaign Game ending.
SUDDEN_DEATH_CHECKED_SINCE = 2


def validate_options(options: Any, scenario: str, engine: int = CURRENT_DATA_VERSION) -> list[str]:
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise ValueError(because("options must be a list of option ids, e.g. [\"4.8\", \"7.5\"]"))
    table = options_table()
    chosen = []
    for oid in options:
        oid = str(oid)
        if oid not in table:
            raise ValueError(because("unknown option {option}; known: {known}", option=repr(oid),
                                     known=", ".join(sorted(table))))
        if oid not in IMPLEMENTED:
            raise ValueError(because("option {option} ({title}) is not available yet", option=oid,
                                     title=Word(table[oid]["title"])))
        chosen.append(oid)
    if len(set(chosen)) != len(chosen):
        raise ValueError(because("an option is listed twice"))
    endings = [o for o in chosen if o in MARCH_ENDING_YEAR]
    if len(endings) > 1:
        raise ValueError(because("choose at most one 03 (March) ending (11.3)"))
    start = load_scenario(scenario, engine)["start"]
    for o in endings:
        if MARCH_ENDING_YEAR[o] < start["year"] or (MARCH_ENDING_YEAR[o] == start["year"] and
                                                    start["month"] > 3):
            raise ValueError(because("the {scenario} scenario starts after 03/{year} (11.3)", scenario=scenario,
                                     year=MARCH_ENDING_YEAR[o]))
    if endings and scenario == "1861-short":
        raise ValueError(because("the 1861 Short Game has its own ending (11.1)"))
    if SUDDEN_DEATH in chosen and engine >= SUDDEN_DEATH_CHECKED_SINCE:
        reason = sudden_death_refusal(scenario, endings)
        if reason:
            raise ValueError(reason)
    return sorted(chosen)


def sudden_death_refusal(scenario: str, endings: list[str]) -> str | None:
    """11.3: sudden death is checked only when a game is played to the Campaign Game
    ending (06/1865, ruling R42); None when the combination is allowed."""
    if scenario == "1861-short":
        return because("sudden death (11.3) needs the Campaign Game ending (06/1865): "
                       "the 1861 Short Game ends in 06/1862 with its own victory condition (11.1)")
    if endings:
        return because("sudden death (11.3) needs the Campaign Game ending (06/1865): it cannot be combined "
                       "with the {year} March ending ({option})", year=endings[0].split(":")[1], option=endings[0])
    return None


def options_catalog() -> list[dict[str, Any]]:
    """Every option with its rule number, title, one-line description, balance note
    (1.2) and whether the engine plays it yet, for the create-game form."""
    return [dict(info, implemented=oid in IMPLEMENTED) for oid, info in sorted(
        options_table().items(), key=lambda kv: (kv[1]["group"] != "optional", _rule_key(kv[0])))]


def _rule_key(oid: str) -> tuple:
    head = oid.lstrip("A").split(":")[0]
    return tuple(int(p) for p in head.split(".")) + (oid,)


def option_refusals(scenario: str, chosen: list[str]) -> dict[str, str]:
    """For the create-game form: each playable option that validate_options would refuse
    together with the others chosen, with its reason. A chosen option is listed when it
    does not go with the rest (or with the scenario). Asks validate_options itself, so
    the form never disagrees with what creating the game would say."""
    table = options_table()
    known = [o for o in dict.fromkeys(chosen) if o in table and o in IMPLEMENTED]
    out: dict[str, str] = {}
    for oid in sorted(IMPLEMENTED & table.keys()):
        others = [o for o in known if o != oid]
        try:
            validate_options(others, scenario)
        except ValueError:
            continue  # the others clash among themselves: their own entries say so
        try:
            validate_options(others + [oid], scenario)
        except ValueError as exc:
            out[oid] = _reason(exc)
    return out


def _reason(exc: ValueError) -> str:
    """The refusal as raised: a Reason keeps its template and values for a translation."""
    reason = exc.args[0] if exc.args else None
    return reason if isinstance(reason, str) else str(exc)
