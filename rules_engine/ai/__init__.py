"""The computer opponent: players of several strengths that decide through
``legal_actions()``/``apply()`` like a person and never see the dice seed.

    from rules_engine.ai import make_player
    bot = make_player("hard", seed="any text")
    g.apply(bot.choose(g))
"""
from .match import play_match
from .players import LEVELS, Player, make_player

__all__ = ["LEVELS", "Player", "make_player", "play_match"]
