"""What runs inside the computer's worker processes (app.computer.pool starts them).

A worker is a process of its own, at a lower CPU priority than the server: the
computer's search is CPU-bound Python, and in the server process it would hold the GIL
against the event loop. It imports the rules engine and nothing of the server, and it
gets only what a computer player may see: a game's public header and its effective
engine events, never the dice seed.

Each game always goes to the same worker, which keeps, bounded and least recently used
first out,
  * its copy of the game (rebuilt from the header and events, then brought forward by
    the events it has not seen: the server sends only those), and
  * its player objects, one per (game, level, side, purpose): the expert plans a whole
    Movement Segment at its first decision and then plays the plan from a cache inside
    the object, so keeping it between decisions makes its later decisions cheap.
"""
from __future__ import annotations

import ctypes
import os
import signal
from collections import OrderedDict
from typing import Any

import rules_engine
from rules_engine.ai import Player, make_player
from rules_engine.ai.analysis import evaluation_curve

#: The answer when the worker does not hold the events the server assumed it holds
#: (it was restarted, forgot the game, or the game was taken back): send them all.
RESEND = "resend"
PR_SET_PDEATHSIG = 1

_games: OrderedDict[str, tuple[dict[str, Any], Any]] = OrderedDict()   # game id -> (header, game)
_players: OrderedDict[str, Player] = OrderedDict()                     # player key -> player
_limits = {"games": 32, "players": 64}


def init(nice: int, games: int) -> None:
    """The worker's initializer: a lower CPU priority, no Ctrl-C of its own (the server
    stops it), gone with the server even when that is killed, and its memory bounds."""
    if nice:
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the worker ends when its pipe closes
        pass
    keep(games)


def keep(games: int) -> None:
    """At most `games` games and twice as many players are kept."""
    _limits["games"], _limits["players"] = max(1, games), max(2, 2 * games)
    for cache, limit in ((_games, _limits["games"]), (_players, _limits["players"])):
        while len(cache) > limit:
            cache.popitem(last=False)


def _remember(cache: OrderedDict, key: Any, value: Any, limit: int) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)


def _game(gid: str, header: dict[str, Any], base: int, last: dict[str, Any] | None,
          tail: list[dict[str, Any]]) -> Any:
    """The worker's copy of the game after `base` known events plus `tail`; None when
    the worker does not hold exactly those `base` events (the server then sends all)."""
    if base == 0:
        game = rules_engine.replay(header, tail)
    else:
        held = _games.get(gid)
        if held is None or held[0] != header or len(held[1].events) != base or held[1].events[-1] != last:
            return None
        game = held[1]
        if tail:
            try:
                rules_engine.fold_onto(game, tail)
            except Exception:  # noqa: BLE001 - a game of an older engine version: rebuild it
                game = rules_engine.replay(header, game.events[:base] + tail)
    _remember(_games, gid, (header, game), _limits["games"])
    return game


def decide(gid: str, level: str, key: str, header: dict[str, Any], base: int, last: dict[str, Any] | None,
           tail: list[dict[str, Any]]) -> dict[str, Any]:
    """`{"action": ...}`: the decision of the player `key` (its seed too) at `level` for
    the side to act; or `{"resend": True}` when the server must send every event."""
    game = _game(gid, header, base, last, tail)
    if game is None:
        return {RESEND: True}
    player = _players.get(key)
    if player is None:
        player = make_player(level, seed=key)
    _remember(_players, key, player, _limits["players"])
    try:
        return {"action": player.choose(game)}
    except Exception:
        _games.pop(gid, None)     # nothing half-done is kept
        _players.pop(key, None)
        raise


def analyse(header: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The expert's judgement of a game, turn by turn (rules_engine.ai.analysis)."""
    return evaluation_curve(header, events)


def pid() -> int:
    """This worker's process id (tests: a worker killed on purpose)."""
    return os.getpid()


def call(fn: Any, *args: Any) -> tuple[int, Any]:
    """fn(*args) here, with this worker's process id (the server ends its workers by id
    when it stops, rather than wait for a long search to finish)."""
    return os.getpid(), fn(*args)


def held() -> dict[str, int]:
    """How much the worker keeps (tests)."""
    return {"games": len(_games), "players": len(_players)}
