"""Computer players. Each one decides through the public surface only:
``legal_actions()`` and the public record (``header``, ``events``). Lookahead runs
on a seedless copy of the game (see shadow.py) with dice the player samples
itself, so no player can know the real dice before they are rolled."""
from __future__ import annotations

import random
from typing import Any

from ..game import Game
from ..state import Unit
from .evaluate import FULL, SIMPLE, Weights, evaluate, facts
from .shadow import SampledDice, Shadow, clone


# Actions that spend one of the turn's Marches (4.0, 4.6, 4.7, 5.71).
_SPENDS_A_MARCH = frozenset({"activate", "sea_move", "invade", "refit"})
# A lookahead width that takes one move to every destination of an activated box.
_EVERY_MOVE = 1_000
# Movement actions that lead to the same position, but for which of two identical
# pieces went, when they name pieces of the same look (see _shape).
_SHAPED = frozenset({"move", "entrench", "sea_move", "invade"})
# What a piece is, its id left out: identical pieces in one box are interchangeable.
_LOOK = tuple(s for s in Unit.__slots__ if s != "id")


class Player:
    """Chooses one legal action for the side to act in a game."""

    name = "player"

    def __init__(self, seed: Any = 0):
        self.rng = random.Random(str(seed))
        self.shadow: Shadow | None = None

    def choose(self, game: Game) -> dict[str, Any]:
        raise NotImplementedError

    def _mirror(self, game: Game) -> Game:
        """The seedless copy of ``game``, brought up to date from its record."""
        if self.shadow is None or not self.shadow.follows(game.header, game.events):
            self.shadow = Shadow(game.header, game.events)
        base = self.shadow.sync(game.events)
        base.legal_actions()                          # cached, so clones inherit it
        return base


class RandomPlayer(Player):
    """Uniform random play among the legal actions."""

    name = "random"

    def choose(self, game: Game) -> dict[str, Any]:
        return self.rng.choice(game.legal_actions())


class SearchPlayer(Player):
    """Weighs every legal action by the evaluation of the position it leads to.

    samples: simulated dice per action that rolls (battles, marches, recruits);
    lookahead: width of the second look after activating a box, whose worth is
    that of the best move it allows; noise: chance of a random action (easy);
    stacks: judge a move as the move of every unit of its box that can follow it
    to the same place (one unit alone rarely wins a battle a stack would win);
    merge: judge once the movement actions that differ only in which of two
    identical pieces they name (the same piece type and state in the same box,
    the same path), a saving and no change of judgement; last_look: before ending
    the Movement Segment with a March left, weigh every March each box could make
    (every destination, not only the lookahead's few), so the player never gives
    up its Marches while one of them would improve its evaluation.

    Without a lookahead a player never starts a land March: activating a box
    changes nothing the evaluation sees, and between equals the March is kept, so
    ending the Movement Segment always looks better (the greedy baseline plays so;
    easy marches only by its random actions)."""

    def __init__(self, seed: Any = 0, name: str = "search", weights: Weights = FULL,
                 samples: int = 1, lookahead: int = 0, noise: float = 0.0,
                 stacks: bool = False, merge: bool = False, last_look: bool = False):
        super().__init__(seed)
        self.name, self.weights = name, weights
        self.samples, self.lookahead, self.noise = samples, lookahead, noise
        self.stacks, self.merge, self.last_look = stacks, merge, last_look

    def choose(self, game: Game) -> dict[str, Any]:
        actions = list(game.legal_actions())          # the game's own list: shuffled below
        if len(actions) == 1:
            return actions[0]
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(actions)
        base = self._mirror(game)
        side = game.to_act
        assert side is not None                       # a game with legal actions has a side to act
        self.rng.shuffle(actions)                     # ties go to a random action
        best, best_value = actions[0], float("-inf")
        judged: set[tuple] = set()
        for action in actions:
            if self.merge and action["type"] in _SHAPED:
                shape = _shape(base, action)
                if shape in judged:                   # an identical piece's twin: same worth
                    continue
                judged.add(shape)
            value = self._value(base, action, side, self.lookahead)
            if action["type"] in _SPENDS_A_MARCH:
                value -= 0.01                         # between equals, keep the March
            if value > best_value:
                best, best_value = action, value
        if self.last_look and self.lookahead and best["type"] == "end_movement":
            # rare (a March usually helps somewhere), so looking at every one is cheap
            for action in actions:
                if action["type"] == "activate":
                    value = self._value(base, action, side, _EVERY_MOVE) - 0.01
                    if value > best_value:
                        best, best_value = action, value
        return best

    def _value(self, base: Game, action: dict, side: str, lookahead: int) -> float:
        """Mean evaluation after ``action`` over sampled dice."""
        total = 0.0
        for n in range(1, self.samples + 1):
            g = clone(base, SampledDice(self.rng))
            try:
                g.apply(action)
            except Exception:                         # e.g. a die the copy cannot roll
                return float("-inf")
            if lookahead and action["type"] == "activate" and g.to_act == side:
                total += self._best_follow_up(g, side, lookahead)
            elif self.stacks and action["type"] == "move":
                total += self._alone_or_with_stack(g, action, base.units[action["unit"]].loc, side)
            else:
                total += evaluate(g, side, self.weights)
            if g.rolls == base.rolls:                 # no dice: one look is enough
                return total / n
        return total / self.samples

    def _alone_or_with_stack(self, g: Game, move: dict, origin: str, side: str) -> float:
        """The better of the unit moving alone and its whole stack following it:
        moving unit by unit, the player can stop once what stays behind (a
        garrison for the capital, say) is worth more than one more unit. A
        quarter of the stack staying behind is weighed too, since single steps
        towards it can each look worse than staying put."""
        best = evaluate(g, side, self.weights)
        garrison = len(g.at[origin]) // 4
        if garrison:
            # the units that follow go in the same order either way: the stack
            # leaving its garrison is the first part of the whole stack's move
            _move_stack(g, move, origin, garrison)
            best = max(best, evaluate(g, side, self.weights))
        _move_stack(g, move, origin)
        return max(best, evaluate(g, side, self.weights))

    def _best_follow_up(self, g: Game, side: str, width: int) -> float:
        best = evaluate(g, side, self.weights)
        for action in self._promising_moves(g, side, width):
            best = max(best, self._value(g, action, side, 0))
        return best

    def _promising_moves(self, g: Game, side: str, width: int) -> list[dict]:
        """One move per destination (the rest of the stack follows it), battles
        and cities first."""
        follow = list(g.legal_actions())            # the game's own list: shuffle a copy
        self.rng.shuffle(follow)
        by_end: dict[str, dict] = {}
        for a in follow:
            if a["type"] == "move":
                by_end.setdefault(a["path"][-1], a)

        cities = facts(g.map).cities

        def rank(end: str) -> int:
            enemy = any(g.units[u].side != side for u in g.at[end])
            return 2 * enemy + (end in cities)
        ends = sorted(by_end, key=rank, reverse=True)[:width]
        return [by_end[e] for e in ends]


def _shape(g: Game, action: dict) -> tuple:
    """The action with the piece it names replaced by the piece's look."""
    unit = g.units[action["unit"]]
    look = tuple(getattr(unit, slot) for slot in _LOOK)
    return (action["type"], look, tuple(action.get("path") or ()), tuple(action.get("by") or ()),
            action.get("to"))


def _move_stack(g: Game, move: dict, origin: str, garrison: int = 0) -> None:
    """Move every other unit of the box the move left (``origin``) to where it
    went, when the March allows it, but ``garrison`` units."""
    end = move["path"][-1]
    units = g.units
    for _ in range(20):
        if len(g.at[origin]) <= garrison:
            return
        follow = next((a for a in g.legal_actions() if a["type"] == "move"
                       and a["path"][-1] == end and units[a["unit"]].loc == origin), None)
        if follow is None:
            return
        g.apply(follow)


LEVELS = ("random", "greedy", "easy", "normal", "hard", "expert")


def make_player(level: str, seed: Any = 0) -> Player:
    """A computer player of a strength level (see LEVELS)."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":                 # the one-move baseline: simple evaluation
        # an activation is worth its best single move (without it: no land March)
        return SearchPlayer(seed, "greedy", SIMPLE, lookahead=1, last_look=True)
    if level == "easy":
        return SearchPlayer(seed, "easy", FULL, lookahead=2, stacks=True, merge=True, last_look=True,
                            noise=0.3)
    if level == "normal":
        # activating a box is worth the best March it opens (see SearchPlayer)
        return SearchPlayer(seed, "normal", FULL, samples=2, lookahead=2, stacks=True,
                            merge=True, last_look=True)
    if level == "hard":
        return SearchPlayer(seed, "hard", FULL, samples=4, lookahead=8, stacks=True)
    if level == "expert":
        from .expert import ExpertPlayer      # expert.py imports this module: imported late
        return ExpertPlayer(seed)
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
