"""The expert level: plans a whole Movement Segment before its first step.

A person does not choose a turn one piece at a time; they look at the Marches the
die gave them and decide where each army goes. The expert does the same with a beam
search over *Marches*: a March is one activation and the moves of its units (all of
them to one box, or all but a garrison, or dig in), so a plan of four Marches is
four such steps, and battles are judged only once the whole segment is laid out
(one strong attack scores better than two weak ones). Movement rolls no dice, so
the plan is carried out step by step as made; if the game ever departs from it
(an undo, a rebuilt copy) the rest of the segment is planned again.

Battles, promotions and recruitment are judged a decision at a time on sampled
dice, like the hard level. Positions are judged by the hard level's evaluation
with the expert's weights (evaluate.EXPERT: threats by what the enemy can reach,
the Army Maximum's sudden death, true battle odds) unless another judgement is
given (the one learned from self-play, judge.py, played worse: docs/ai.md). Everything is
deterministic for the player's seed: the search is bounded by a number of
positions looked at, never by the clock."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction
from ..game import Game
from .evaluate import EXPERT, evaluate, facts, worth
from .players import Player
from .shadow import SampledDice, clone

#: Positions the movement search may look at for one segment (each costs a copy of
#: the game, the March's actions and an evaluation: about half a millisecond).
NODE_BUDGET = 1500
#: Plans kept after each March.
BEAM_WIDTH = 4
#: Actions that belong to an open March (or end the segment): the planner makes
#: them itself as part of a March, never as steps of their own.
_WITHIN_A_MARCH = frozenset(("move", "entrench", "end_march", "end_movement", "move_leader"))


@dataclass
class _Plan:
    """A sequence of actions and the position reached after them."""
    actions: list[dict[str, Any]]
    game: Game
    value: float
    done: bool = False


@dataclass
class _Intent:
    """The plan being carried out: the actions still to play and the number of
    events the game had when the previous one was played."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    events: int = -1
    turn: tuple[int, str] = (0, "")
    pending: dict[str, Any] | None = None


class ExpertPlayer(Player):
    """Turn-level planning in the Movement Segment; a decision at a time elsewhere.

    judgement: how good a position is for a side (None: the hand-set evaluation
    with the expert's weights, evaluate.EXPERT; see docs/ai.md for why not the tuned one);
    budget, beam: the movement search's size; samples: dice samples per action
    that rolls, for the decisions outside movement."""

    name = "expert"

    def __init__(self, seed: Any = 0, budget: int = NODE_BUDGET, beam: int = BEAM_WIDTH, samples: int = 3,
                 judgement: Callable[[Game, str], float] | None = None):
        super().__init__(seed)
        self.judgement = judgement
        self.budget, self.beam, self.samples = budget, beam, samples
        self.intent = _Intent()

    def choose(self, game: Game) -> dict[str, Any]:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if game.phase == "movement":
            step = self._next_planned(game)
            if step is None:
                base = self._mirror(game)
                self.intent = _Intent(self._plan_movement(base), len(game.events), (game.turn, game.side))
                step = self._next_planned(game)
            if step is not None:
                return step
        base = self._mirror(game)
        if base.phase == "battle" and base.battle and base.battle.get("step") == "target":
            return self._aim(base, actions)
        return self._one_step(base, actions)

    def _value(self, g: Game, side: str) -> float:
        if self.judgement is not None:
            return self.judgement(g, side)
        return evaluate(g, side, EXPERT)

    # ------------------------------------------------------------ one decision
    def _one_step(self, base: Game, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The action with the best judgement after it, over sampled dice."""
        side = base.to_act
        assert side is not None
        order = list(actions)
        self.rng.shuffle(order)                       # ties go to a random action
        best, best_value = order[0], float("-inf")
        for action in order:
            looks = []
            for _ in range(self.samples):
                g = clone(base, SampledDice(self.rng))
                g.apply(action)
                looks.append(self._value(g, side))
                if g.rolls == base.rolls:             # no dice: one look is enough
                    break
            value = sum(looks) / len(looks)
            if value > best_value:
                best, best_value = action, value
        return best

    def _aim(self, g: Game, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """5.1: the shot worth most now. A hit on a reduced unit eliminates it; a
        unit already aimed at by enough shots to fall is not worth another."""
        battle = g.battle or {}
        aimed: dict[str, float] = {}
        for shooter, target in battle.get("targets", []):
            aimed[target] = aimed.get(target, 0.0) + max(0, g.shot_value(shooter, target)) / 6.0
        best, best_value = actions[0], float("-inf")
        for a in actions:
            if a["type"] != "target":
                return self._one_step(g, actions)
            target = g.units[a["target"]]
            hit = max(0, g.shot_value(a["unit"], a["target"])) / 6.0
            hits_to_kill = 1.0 if target.red else 2.0
            left = max(0.0, hits_to_kill - aimed.get(a["target"], 0.0))
            value = hit * worth(target, False) * min(1.0, left) / hits_to_kill
            value += 0.001 * worth(target, False)     # between equals, the stronger target
            if value > best_value:
                best, best_value = a, value
        return best

    # ------------------------------------------------------------ following a plan
    def _next_planned(self, game: Game) -> dict[str, Any] | None:
        """The plan's next action, if the game is where the plan expected it."""
        intent = self.intent
        if intent.turn != (game.turn, game.side) or not intent.steps:
            return None
        if intent.events >= 0 and not self._played_as_planned(game, intent):
            return None
        step = intent.steps[0]
        legal = game.legal_actions()
        if step not in legal:
            return None
        intent.steps = intent.steps[1:]
        intent.events = len(game.events)
        intent.pending = step
        return step

    @staticmethod
    def _played_as_planned(game: Game, intent: _Intent) -> bool:
        """True if the only action since the last planned one is that very one
        (nobody took a step back, no other decision came in between)."""
        pending = intent.pending
        if pending is None:
            return len(game.events) == intent.events
        actions = [e for e in game.events[intent.events:] if e.get("type") == "action"]
        return len(actions) == 1 and actions[0]["action"] == pending

    # ------------------------------------------------------------ planning
    def _plan_movement(self, base: Game) -> list[dict[str, Any]]:
        """The best sequence of Marches for the rest of this Movement Segment."""
        side = base.side
        start = _Plan([], base, self._value(base, side))
        beam = [start]
        best = start
        spent = 0
        while beam and spent < self.budget:
            children: list[_Plan] = []
            for plan in beam:
                if plan.done:
                    continue
                kids = self._expand(plan, side, self.budget - spent)
                spent += len(kids)
                children.extend(kids)
                if spent >= self.budget:
                    break
            if not children:
                break
            children.sort(key=lambda p: p.value, reverse=True)
            beam = _distinct(children, self.beam)
            if beam[0].value > best.value:
                best = beam[0]
        return best.actions + [{"type": "end_movement"}]

    def _expand(self, plan: _Plan, side: str, budget: int) -> list[_Plan]:
        """Each March the plan's position allows, played on a copy and judged."""
        out = []
        for march in self._marches(plan.game, side)[:budget]:
            g = clone(plan.game, SampledDice(self.rng))
            played = []
            try:
                for action in march:
                    if action["type"] == "end_march" and g.active is None:
                        break                     # the March closed itself: every unit moved
                    g.apply(action)
                    played.append(action)
            except IllegalAction:                 # a step an earlier one made illegal
                continue
            done = g.phase != "movement" or g.side != side
            out.append(_Plan(plan.actions + played, g, self._value(g, side), done))
        return out

    def _marches(self, g: Game, side: str) -> list[list[dict[str, Any]]]:
        """Candidate Marches: for every box that may be activated, its stack (all
        that can go, or all but a garrison) to each box it can reach, and digging
        in; each sea move or invasion on its own; and converging attacks: the
        stacks of two or three boxes into one enemy box, as consecutive Marches
        (the first half of such an attack alone looks like a lost battle, so a
        search that judges after every March would never start one)."""
        marches: list[list[dict[str, Any]]] = []
        strikes: dict[str, list[list[dict[str, Any]]]] = {}
        for a in g.legal_actions():
            if a["type"] == "activate":
                for march, end in self._marches_from(g, a["box"], side):
                    marches.append(march)
                    if end is not None and g._enemy_in(end, side):
                        strikes.setdefault(end, []).append(march)
            elif a["type"] not in _WITHIN_A_MARCH:
                marches.append([a])               # a sea move, invasion, break-out, refit...
        for parts in strikes.values():
            marches.extend(_converging(parts, g.marches))
        return marches

    def _marches_from(self, g: Game, box: str, side: str) -> list[tuple[list[dict[str, Any]], str | None]]:
        """The Marches of ``box``'s stack, each with the box it goes to (None: it
        stays and digs in)."""
        activated = clone(g, SampledDice(self.rng))
        activated.apply({"type": "activate", "box": box})
        if activated.active != box:
            return []
        by_end: dict[str, dict[str, dict[str, Any]]] = {}
        digs = []
        for a in activated.legal_actions():
            if a["type"] == "move":
                routes = by_end.setdefault(a["path"][-1], {})
                if a["unit"] not in routes or _better_route(a, routes[a["unit"]]):
                    routes[a["unit"]] = a
            elif a["type"] == "entrench":
                digs.append(a)
        activate = {"type": "activate", "box": box}
        units = activated.units
        keep = _garrison(activated, box, side)
        out: list[tuple[list[dict[str, Any]], str | None]] = []
        for end, routes in by_end.items():
            movers = sorted(routes.values(), key=lambda m: -_unit_value(units[m["unit"]]))
            out.append(([activate, *movers, {"type": "end_march"}], end))
            staying = len(activated.at[box]) - len(movers)
            if keep > staying and len(movers) > keep - staying:
                out.append(([activate, *movers[:len(movers) - (keep - staying)], {"type": "end_march"}], end))
        if digs:
            out.append(([activate, *digs, {"type": "end_march"}], None))
        return out


def _converging(parts: list[list[dict[str, Any]]], marches_left: int) -> list[list[dict[str, Any]]]:
    """Two or three Marches from different boxes into the same enemy box, played one
    after the other: the whole of each stack first, the biggest stacks first."""
    whole: dict[str, list[dict[str, Any]]] = {}
    for march in parts:
        box = march[0]["box"]
        if box not in whole or len(march) > len(whole[box]):
            whole[box] = march
    stacks = sorted(whole.values(), key=len, reverse=True)
    out = []
    for n in (2, 3):
        if len(stacks) >= n and marches_left >= n:
            out.append([action for march in stacks[:n] for action in march])
    return out


def _better_route(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Fewer steps, and a road or railroad rather than a river into a battle (5.34)."""
    return (len(a["path"]), a["by"][-1] == "river") < (len(b["path"]), b["by"][-1] == "river")


def _unit_value(unit: Any) -> float:
    return worth(unit, False)


def _garrison(g: Game, box: str, side: str) -> int:
    """Units worth leaving behind when a stack marches out: one in a city of
    value, the capital keeps a third of its stack."""
    if box == "washington" and side == "union":
        return max(1, len(g.at[box]) // 3)
    if box == "richmond" and side == "confederate":
        return max(1, len(g.at[box]) // 3)
    return 1 if box in facts(g.map).cities else 0


def _distinct(plans: list[_Plan], width: int) -> list[_Plan]:
    """The best ``width`` plans that reach different positions (the same Marches in
    another order reach the same place)."""
    seen: set[tuple] = set()
    out = []
    for p in plans:
        key = tuple(sorted((u.id, u.loc, u.ent) for u in p.game.units.values() if u.side == p.game.side
                           and not u.loc.startswith(("pool", "stock"))))
        if key in seen:
            continue
        seen.add(key)
        out.append(p)
        if len(out) == width:
            break
    return out
