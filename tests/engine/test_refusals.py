"""Each restriction is written once: the refusal of an action (``Game._why_<type>``)
is None exactly for the actions ``legal_actions()`` lists, in every position random
games reach. Candidates are the legal actions and near misses made from them."""
from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

import rules_engine
from rules_engine.game import Game
from rules_engine.options import IMPLEMENTED

BOX_FIELDS = ("box", "to")
UNIT_FIELDS = ("unit", "target")


def _why(g: Game, action: dict[str, Any]) -> str | None | bool:
    """The refusal of ``action``, or False when its type has no refusal function."""
    fn = getattr(g, "_why_" + action["type"], None)
    if fn is None:
        return False
    args = {k: v for k, v in action.items() if k != "type"}
    try:
        inspect.signature(fn).bind(**args)
    except TypeError:
        return False
    return fn(**args)


def _near_misses(g: Game, legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    boxes = sorted(g.map.boxes)
    units = sorted(u for u in g.units if g.units[u].loc in g.at)
    out: list[dict[str, Any]] = []
    for a in rng.sample(legal, min(len(legal), 12)):
        for field in BOX_FIELDS + UNIT_FIELDS + ("path",):
            if field not in a:
                continue
            b = dict(a)
            if field in BOX_FIELDS:
                b[field] = rng.choice(boxes)
            elif field in UNIT_FIELDS:
                b[field] = rng.choice(units)
            else:
                b["path"] = list(a["path"]) + [rng.choice(boxes)]
                b["by"] = list(a["by"]) + [rng.choice(["road", "rail", "river"])]
            out.append(b)
    for kind in g._vocabulary():
        if not hasattr(g, "_why_" + kind):
            continue
        params = set(inspect.signature(getattr(g, "_why_" + kind)).parameters)
        if params <= {"box", "to", "unit", "target"}:
            b = {"type": kind}
            for p in params:
                b[p] = rng.choice(boxes if p in BOX_FIELDS else units)
            out.append(b)
    return out


def _check_position(g: Game, rng: random.Random) -> None:
    legal = g.legal_actions()
    for a in rng.sample(legal, min(len(legal), 30)):
        assert _why(g, a) in (None, False), (a, _why(g, a))
    for b in _near_misses(g, legal, rng):
        if b not in legal:
            reason = _why(g, b)
            assert reason is False or reason, (b, g.state()["phase"])


@pytest.mark.parametrize("n", range(8))
def test_refusal_is_none_exactly_for_legal_actions(n: int) -> None:
    rng = random.Random(77 + n)
    engine = 1 if n % 3 == 0 else 2
    scenario = ("1861", "1862", "1863", "1864")[n % 4]
    options = [o for o in sorted(IMPLEMENTED) if rng.random() < 0.4 and not o.startswith("11.3")]
    g = rules_engine.new_game(scenario, options, seed=f"refusals-{n}", engine=engine)
    for _ in range(160):
        if g.result is not None:
            break
        _check_position(g, rng)
        g.apply(rng.choice(g.legal_actions()))
