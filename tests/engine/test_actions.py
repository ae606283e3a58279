"""The typed actions (rules_engine.actions) name every action the engine takes, with
the keys its handler takes."""
from __future__ import annotations

import inspect

import rules_engine
from rules_engine.actions import action_fields
from rules_engine.game import BATTLE_STEPS, PHASE_ACTIONS, Game


def test_every_action_type_is_typed_once():
    vocabulary = set().union(*PHASE_ACTIONS.values(), *BATTLE_STEPS.values())
    assert set(action_fields()) == vocabulary


def test_typed_keys_are_the_handler_arguments():
    for kind, fields in action_fields().items():
        handler = getattr(Game, "_do_" + kind)
        params = set(inspect.signature(handler).parameters) - {"self"}
        assert params == fields, kind


def test_legal_actions_carry_the_typed_keys():
    g = rules_engine.new_game("1861", seed="typed")
    fields = action_fields()
    for _ in range(60):
        for a in g.legal_actions():
            assert set(a) - {"type"} == fields[a["type"]], a
        g.apply(g.legal_actions()[-1])


def test_apply_takes_plain_json_dicts():
    g = rules_engine.new_game("1861", seed="typed")
    action = dict(g.legal_actions()[0])
    assert g.apply(action)[0]["action"] == action
