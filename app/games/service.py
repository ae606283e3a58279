"""GameService: the one public API through which anything reads or changes a game.

    lobby and commands (app.games.commands)   create_game, join, act, undo, resign, abort
    agreed endings (app.games.endings)        offer_draw, answer_draw, rematch
    reads (app.games.reads)                   get_game, legal, events, snapshot, lobby, ...
    command pipeline (app.games.core)         run_command(gid, fn), state, append, publish:
                                              what other services (deadlines, standing
                                              orders, administrators' decisions) build on
"""
from __future__ import annotations

from .endings import EndingCommands


class GameService(EndingCommands):
    """Commands and reads of games on top of the rules engine and the event store."""
