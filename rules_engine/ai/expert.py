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
dice, like the hard level, with the expert's own evaluation. Everything is
deterministic for the player's seed: the search is bounded by a number of
positions looked at, never by the clock."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from .evaluate import FULL, Weights, evaluate, facts, worth
from .players import SearchPlayer
from .shadow import SampledDice, clone

#: Positions the movement search may look at for one segment (each costs a copy of
#: the game, the March's actions and an evaluation: about half a millisecond).
NODE_BUDGET = 1500
#: Plans kept after each March.
BEAM_WIDTH = 3
#: Marches of each plan expanded in full; the others keep only their best few.
TOP_MARCHES = 24


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


class ExpertPlayer(SearchPlayer):
    """Turn-level planning in the Movement Segment; a decision at a time elsewhere."""

    def __init__(self, seed: Any = 0, weights: Weights = FULL, budget: int = NODE_BUDGET,
                 beam: int = BEAM_WIDTH):
        super().__init__(seed, "expert", weights, samples=4, lookahead=8, stacks=True)
        self.budget, self.beam = budget, beam
        self.intent = _Intent()

    def choose(self, game: Game) -> dict[str, Any]:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if game.phase != "movement":
            return super().choose(game)
        step = self._next_planned(game)
        if step is None:
            base = self._mirror(game)
            steps = self._plan_movement(base)
            self.intent = _Intent(steps, len(game.events), (game.turn, game.side))
            step = self._next_planned(game)
        if step is None:                           # the plan did not fit (cannot happen: safety)
            return super().choose(game)
        return step

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
        start = _Plan([], base, evaluate(base, side, self.weights))
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
            try:
                for action in march:
                    g.apply(action)
            except Exception:                     # a step another step made illegal
                continue
            done = g.phase != "movement" or g.side != side
            out.append(_Plan(plan.actions + march, g, evaluate(g, side, self.weights), done))
        return out

    def _marches(self, g: Game, side: str) -> list[list[dict[str, Any]]]:
        """Candidate Marches: for every box that may be activated, its stack (all
        that can go, or all but a garrison) to each box it can reach, and digging
        in; each sea move or invasion on its own. Best-looking first."""
        legal = g.legal_actions()
        marches: list[list[dict[str, Any]]] = []
        for a in legal:
            if a["type"] == "activate":
                marches.extend(self._marches_from(g, a["box"], side))
            elif a["type"] in ("sea_move", "invade"):
                marches.append([a])
        return marches[:TOP_MARCHES * 8]

    def _marches_from(self, g: Game, box: str, side: str) -> list[list[dict[str, Any]]]:
        activated = clone(g, SampledDice(self.rng))
        activated.apply({"type": "activate", "box": box})
        if activated.active != box:
            return []
        legal = activated.legal_actions()
        by_end: dict[str, dict[str, dict[str, Any]]] = {}
        digs = []
        for a in legal:
            if a["type"] == "move":
                routes = by_end.setdefault(a["path"][-1], {})
                if a["unit"] not in routes or _better_route(a, routes[a["unit"]]):
                    routes[a["unit"]] = a
            elif a["type"] == "entrench":
                digs.append(a)
        activate = {"type": "activate", "box": box}
        units = activated.units
        keep = _garrison(activated, box, side)
        out = []
        for routes in by_end.values():
            movers = sorted(routes.values(), key=lambda m: -_unit_value(units[m["unit"]]))
            out.append([activate, *movers, {"type": "end_march"}])
            staying = len(activated.at[box]) - len(movers)
            if keep > staying and len(movers) > keep - staying:
                out.append([activate, *movers[:len(movers) - (keep - staying)], {"type": "end_march"}])
        if digs:
            out.append([activate, *digs, {"type": "end_march"}])
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
