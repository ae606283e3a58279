"""Small helpers for engine tests: positions, unit lookup, legal-action checks."""
from __future__ import annotations

import pytest

import rules_engine


def position(side="union", phase="movement", turn=3, **kw):
    """A compact position (docs/rules-api.md). Turn 3 = 09/1861, not a first turn."""
    pos = {"scenario": "1861", "turn": turn, "side": side, "phase": phase,
           "units": {"union": {}, "confederate": {}}}
    pos.update(kw)
    return pos


def game(dice=(), options=(), **kw):
    return rules_engine.from_position(position(**kw), options=list(options), dice=list(dice))


def ids(g, box, side=None, type_=None):
    return [u["id"] for u in g.units_in(box, side) if type_ is None or u["type"] == type_]


def uid(g, box, type_, side=None):
    found = ids(g, box, side, type_)
    assert found, f"no {type_} in {box}"
    return found[0]


def unit(g, uid_):
    return g.units[uid_]


def refused(g, action, rule):
    """The action is absent from legal_actions() and apply() refuses it naming ``rule``."""
    assert action not in g.legal_actions()
    before = g.state_json()
    with pytest.raises(rules_engine.IllegalAction) as exc:
        g.apply(action)
    assert rule in exc.value.reason, exc.value.reason
    assert g.state_json() == before
    return exc.value.reason


def move(unit_, *steps):
    """move("U-MI-01", ("monroe", "road"), ("vicksburg", "rail"))"""
    return {"type": "move", "unit": unit_, "path": [s[0] for s in steps], "by": [s[1] for s in steps]}
