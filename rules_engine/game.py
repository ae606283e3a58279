"""The Game: the public face of the rules engine.

Two paths, kept apart:
- deciding: ``apply(action)`` checks the action against ``legal_actions()``, then
  executes it, drawing dice from the game's die source and recording every event;
- applying: ``replay(header, events)`` (rebuild.py) folds the recorded events into
  the state with no legality checks and no search: from engine version 3 on each
  action event carries what the action changed (changes.py), which the fold copies
  in; games of older versions are replayed by executing their recorded actions again
  with their recorded dice. ``python -m rules_engine verify`` keeps deciding every action again.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from . import calendar
from .actions import Action, LegalActions
from .advanced import AdvancedRules
from .boxsets import BoxSets, box_bits
from .changes import ChangeRecord
from .combat import CombatRules
from .core import DieSource
from .leaders import LeaderRules
from .data import SIDES, options_table
from .dice import NoDice, ScriptedDice, SeededDice, commitment
from .errors import IllegalAction, Word, because
from .map import CURRENT_DATA_VERSION, DATA_VERSIONS, load_map, load_scenario, scenario_ids
from .movement import MovementRules
from .options import validate_options
from .setup import place_scenario, place_position
from .state import canonical_json, make_counter_mix
from .turn import TurnRules

#: The rules and data version new games are made with; it is written into every
#: game's header. Version 1: the reconstructed map and the rules as first shipped.
#: Version 2: the printed board and the rule corrections of docs/rulings.md that name
#: it. A stored game always replays with the version it was made with
#: (``Game.engine_version``), so a correction never rewrites a game already played.
ENGINE_VERSION = CURRENT_DATA_VERSION


class Game(MovementRules, CombatRules, TurnRules, AdvancedRules, LeaderRules, ChangeRecord, BoxSets):
    """One game of A House Divided. Create it with new_game, replay or from_position."""

    def __init__(self, header: dict[str, Any], dice: DieSource):
        # every attribute set here is declared, with what it means, in GameCore
        self.header = header
        # a header without "engine" was written before versions were: version 1
        self.engine_version = _known_version(header.get("engine", 1))
        self.map = load_map(self.engine_version)
        self.options = frozenset(header["options"])
        self._dice = dice
        self._recording = True
        self.events = []
        self._legal = None
        self._reverted = False
        self._undo_floor = 0
        self._index_map()
        self.units = make_counter_mix(self.options)
        self._garrisons = self._make_garrisons()           # A5.0
        self._make_foreign_units()                         # A8.4
        self._init_board_indexes()
        self.scenario = load_scenario(header["scenario"], self.engine_version)
        self._init_play_state()

    def _init_board_indexes(self) -> None:
        """The indexes of where the pieces are, kept in step with every move, and the
        memos of the legal-action lists."""
        self.at = {b: [] for b in self.map.boxes}
        self._on_map = {s: 0 for s in SIDES}
        self._occupied = set()
        self._held = {s: set() for s in SIDES}
        self._side_n = {s: dict.fromkeys(self.map.boxes, 0) for s in SIDES}
        self._held_bits = {s: 0 for s in SIDES}
        self._held_lists = {}
        self._amax = {}
        self._by_control = {}
        self._pieces_at = {}
        self._flagged = set()
        self._touched = set()
        self._looks = self._last_state = None
        self._can_march, self._can_march_key = {}, ()
        self._placed = {s: 0 for s in SIDES}
        self._control_epoch = 0
        self._paths_memo, self._paths_token = {}, ()
        self._acts_memo = {}
        for uid, u in self.units.items():
            self._pieces_at.setdefault((u.side, u.type, u.loc), set()).add(uid)

    def _init_play_state(self) -> None:
        """Where the game stands before its setup: Turn 1, the Union's setup."""
        self.turn = 1
        self.side = "union"
        self.phase = "setup"
        self.marches = 0
        self.invasion = False
        self.active = None
        self.march_units = []
        self.battle = None
        self.recruit = None
        self.promotions = 0
        self.control = {}
        self.cav_only = set()
        self.ky_entered = False
        self.csa_losses = 0
        self.supply_boxes = []
        self.washington_loss = 0
        self.border_raised = []
        self.intervention = False
        self.leader_resume = None
        self.contained = []
        self.march_spent = False
        self.invaded_ports = []
        self._init_leaders()                  # A8.2
        self.result = None
        self.rolls = 0

    def _index_map(self) -> None:
        """Facts about the map the rules ask for again and again, computed once per
        map and shared by its games (never changed)."""
        self.__dict__.update(_map_facts(self.engine_version))

    # ------------------------------------------------------------------ public API
    def legal_actions(self) -> list[dict[str, Any]]:
        """Every decision open now, each shaped as one of the ``Action`` TypedDicts
        (typed as plain dicts so that callers may keep treating them as JSON).

        The list is worked out once per position and handed out as it is: callers
        read it and must not change it or its actions (copy first to shuffle)."""
        if self._legal is None:
            self._legal = LegalActions([] if self.result is not None else self._phase_legal())
        return self._legal

    def apply(self, action: Action | dict[str, Any]) -> list[dict[str, Any]]:
        """Check the action against legal_actions() and carry it out. Plain dicts are
        welcome (JSON from the server): anything else, or a dict that is not one of the
        legal actions, raises IllegalAction with the reason."""
        if self.result is not None:
            raise IllegalAction(because("The game is over."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(because('An action is a JSON object with a "type", e.g. {"type": "roll_marches"}.'))
        if self._legal is None:
            self._legal = LegalActions(self._phase_legal())
        if not self._legal.holds(action):
            raise IllegalAction(self.explain(action))
        start, rolls_before, side_before = len(self.events), self.rolls, self.to_act
        try:
            self._run(action, side_before)
        except Exception:
            self._restore(start)          # e.g. scripted dice ran out: leave g unchanged
            raise
        if self.to_act != side_before or self.rolls != rolls_before:     # it rolled a die
            self._undo_floor = len(self.events)
        return self.events[start:]

    def undo_floor(self) -> int:
        """Events before this index can never be taken back: the last die roll or the
        last change of who acts (the undo policy of the best play-by-web sites)."""
        return self._undo_floor

    def units_in(self, box_id: str, side: str | None = None) -> list[dict[str, Any]]:
        return [self.units[u].to_dict() for u in self.at[box_id]
                if side is None or self.units[u].side == side]

    def state(self) -> dict[str, Any]:
        st = self._state_v1()
        if self.rules_since(2):
            st["march_spent"] = self.march_spent          # A4.0 (ruling R43)
        return st

    def _state_v1(self) -> dict[str, Any]:
        """The state as engine version 1 wrote it: a stored game's final-state hash
        must not change."""
        return {
            "engine": self.engine_version,
            "scenario": self.scenario["id"],
            "options": sorted(self.options),
            "turn": self.turn,
            "date": calendar.label(self.turn),
            "side": self.side,
            "phase": self.phase,
            "to_act": self.to_act,
            "marches": self.marches,
            "invasion": self.invasion,
            "active": self.active,
            "march_units": list(self.march_units),
            "battle": copy.deepcopy(self.battle),
            "recruit": copy.deepcopy(self.recruit),
            "promotions": self.promotions,
            "control": dict(sorted(self.control.items())),
            "cav_only": sorted(self.cav_only),
            "ky_entered": self.ky_entered,
            "csa_losses": self.csa_losses,
            "supply_boxes": list(self.supply_boxes),
            "washington_loss": self.washington_loss,
            "border_raised": list(self.border_raised),
            "intervention": self.intervention,
            "leaders": dict(sorted(self.leaders.items())),
            "leader_values": {lid: self.leader_value(lid) for lid in sorted(self.leaders)},
            "leader_moves": dict(sorted(self.leader_moves.items())),
            "sea_trips": [list(t) for t in self.sea_trips],
            "leader_resume": self.leader_resume,
            "contained": list(self.contained),
            "invaded_ports": list(self.invaded_ports),
            "army_max": {s: self.army_maximum(s) for s in SIDES},
            "on_map": {s: self.units_on_map(s) for s in SIDES},
            "result": copy.deepcopy(self.result),
            "rolls": self.rolls,
            "units": [self.units[u].to_dict() for u in sorted(self.units)],
        }

    def state_json(self) -> str:
        return canonical_json(self.state())

    # ------------------------------------------------------------------ machinery
    def _run(self, action: Mapping[str, Any], side: str | None) -> None:
        """Carry out a legal action of ``side`` (to_act) and record it."""
        event = {"type": "action", "side": side, "action": _copy_action(action)}
        self._emit(event)
        if self._recording and self.records_changes:
            self._prepare_record()
            self._execute(action)
            event["changes"] = self._record_changes()
        else:
            self._execute(action)
        self._legal = None

    def _execute(self, action: Mapping[str, Any]) -> None:
        args = dict(action)
        handler = getattr(self, "_do_" + args.pop("type"))
        handler(**args)
        self._advance()

    def _restore(self, n_events: int) -> None:
        """Rebuild this game from its first n_events events, keeping its die source."""
        dice, events = self._dice, self.events[:n_events]
        again = replay(self.header, events)
        self.__dict__.update(again.__dict__)
        self._dice = dice

    def explain(self, action: Mapping[str, Any]) -> str:
        """Why an action that is not in legal_actions() is refused."""
        kind = action.get("type")
        expected = sorted({a["type"] for a in (self._legal or [])})
        explainer = getattr(self, "_why_" + str(kind), None)
        if kind in self._vocabulary() and explainer is not None and _kwargs_ok(explainer, action):
            reason = explainer(**{k: v for k, v in action.items() if k != "type"})
            if reason:
                return reason
        if kind in expected:
            return because("That {kind} is not one of the legal choices now.", kind=kind)
        if expected:
            who = Word(self.to_act.capitalize()) if self.to_act else Word("Nobody")
            return because("'{kind}' is not possible now: {who} is to act in the {phase} and may: {actions}.",
                           kind=kind, who=who, phase=Word(self.phase.replace("_", " ")), actions=", ".join(expected))
        return because("No action is possible now.")

    def _vocabulary(self) -> frozenset[str]:
        if self.phase == "battle":
            return BATTLE_STEPS[self._current_battle["step"]]
        return PHASE_ACTIONS.get(self.phase, frozenset())


PHASE_ACTIONS = {
    "marches_roll": frozenset({"roll_marches"}),
    "movement": frozenset({"move", "entrench", "activate", "sea_move", "invade", "end_march",
                           "end_movement", "refit", "move_leader", "breakout"}),
    "battle_choice": frozenset({"fight", "contain", "end_combat"}),
    "promotion": frozenset({"promote", "no_promotion"}),
    "recruit_roll": frozenset({"roll_recruits"}),
    "recruitment": frozenset({"recruit", "end_recruitment", "refit"}),
    "replacement_roll": frozenset({"roll_replacements"}),
    "supply": frozenset({"supply_loss"}),
    "leaders": frozenset({"place_leader"}),
}
_IN_BATTLE = frozenset({"fight", "withdraw", "retreat", "reinforce", "target"})
BATTLE_STEPS = {
    "withdraw": _IN_BATTLE | {"stand"},
    "prepare": _IN_BATTLE | {"open_fire", "reinforce_leader"},
    "bonus": _IN_BATTLE | {"leader_bonus", "bonus_done"},
    "target": _IN_BATTLE,
    "promote": _IN_BATTLE | {"promote", "no_promotion"},
    "rally": _IN_BATTLE | {"rally", "no_rally"},
    "rout_retreat": _IN_BATTLE,
}


def _copy_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """Actions hold strings and numbers, and moves two flat lists: a cheap exact copy."""
    copied = dict(action)
    if "path" in copied:
        copied["path"] = list(copied["path"])
        copied["by"] = list(copied["by"])
    return copied


def _kwargs_ok(fn: Any, action: Mapping[str, Any]) -> bool:
    import inspect
    try:
        inspect.signature(fn).bind(**{k: v for k, v in action.items() if k != "type"})
        return True
    except TypeError:
        return False


@functools.cache
def _map_facts(version: int) -> dict[str, Any]:
    """The attributes _index_map gives every game on the map of this version."""
    boxes = load_map(version).boxes
    kentucky = frozenset(b for b, box in boxes.items() if box.color == "neutral")
    return {
        # the activate action of each box, one dict shared by every legal list (read only)
        "_activations": {b: {"type": "activate", "box": b} for b in boxes},
        "_box_bit": box_bits(version),
        "_ports": [b for b, box in boxes.items() if box.port],
        "_cities": frozenset(b for b, box in boxes.items() if box.recruitment_city),
        "_forts": frozenset(b for b, box in boxes.items() if box.fort),
        "_default_owner": {b: (None if box.color == "neutral" else box.color)
                           for b, box in boxes.items()},
        "_colour_boxes": {s: frozenset(b for b, box in boxes.items() if box.color == s)
                          for s in SIDES},
        "_colour_bits": {s: sum(bit for b, bit in box_bits(version).items() if boxes[b].color == s)
                         for s in SIDES},
        "_kentucky": kentucky,
        "_a_kentucky_box": min(kentucky),
        "_shields": {s: [(b, box.shields[s]) for b, box in boxes.items() if box.shields.get(s)]
                     for s in SIDES},
        # 10.0: the Union wins holding every Confederate city of value 2 or 3 at once
        "_union_objectives": tuple(sorted(
            b for b, box in boxes.items()
            if box.color == "confederate" and box.shields.get("confederate", 0) >= 2)),
    }


# ---------------------------------------------------------------------- factories
def _known_version(version: Any) -> int:
    """The version if this engine plays it, else ValueError naming the ones it does."""
    if version not in DATA_VERSIONS:
        raise ValueError(f"this game was made by engine version {version!r}; this engine "
                         f"plays versions {', '.join(map(str, DATA_VERSIONS))}")
    return version


def _header(scenario: str, options: Any, extra: dict[str, Any],
            engine: int = ENGINE_VERSION) -> dict[str, Any]:
    return {"engine": engine, "scenario": scenario,
            "options": validate_options(options, scenario, engine), **extra}


def _dice_for(seed: str | None, dice: Any) -> Any:
    if dice is not None:
        return ScriptedDice(dice)
    if seed is None:
        raise ValueError("new_game needs a seed (text) or scripted dice")
    return SeededDice(str(seed))


def new_game(scenario: str = "1861", options: Any = (), seed: str | None = None,
             dice: Any = None, engine: int = ENGINE_VERSION) -> Game:
    """A new game at the scenario's start. ``dice`` scripts the die rolls (tests);
    ``engine`` makes it with an older engine version's map and rules."""
    extra = {"seed_commitment": commitment(str(seed))} if dice is None and seed is not None else {}
    engine = _known_version(engine)
    if scenario not in scenario_ids(engine):
        raise ValueError(because("unknown scenario {scenario}; known: {known}", scenario=repr(scenario),
                                 known=", ".join(scenario_ids(engine))))
    g = Game(_header(scenario, options, extra, engine), _dice_for(seed, dice))
    silently(g, lambda: place_scenario(g))
    return g


def from_position(position: dict[str, Any], options: Any = (), seed: str | None = None,
                  dice: Any = None) -> Game:
    """A game from a position (see docs/rules-api.md): any situation, mid turn.
    ``position["engine"]`` picks an older engine version (its map and rules)."""
    scenario = position.get("scenario", "1861")
    opts = position.get("options", options)
    engine = _known_version(position.get("engine", ENGINE_VERSION))
    g = Game(_header(scenario, opts, {"position": copy.deepcopy(position)}, engine),
             _dice_for(seed, dice) if (seed is not None or dice is not None) else NoDice())
    silently(g, lambda: place_position(g, position))
    return g


def silently(g: Game, fn: Any) -> None:
    """Run fn (a setup) on g without recording events."""
    g._recording = False
    fn()
    g._recording = True
    g._legal = None


def option_ids() -> list[str]:
    return sorted(options_table())


# the applying path lives in rebuild.py; replay is part of this module's public face
from .rebuild import replay  # noqa: E402
