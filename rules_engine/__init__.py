"""A House Divided: a pure, deterministic rules engine.

    import rules_engine
    g = rules_engine.new_game(scenario="1861", options=[], seed="any text")
    g.legal_actions(); g.apply(action); g.events; g.state_json()
    rules_engine.replay(g.header, g.events)
    rules_engine.fold_onto(g2, newer_events)   # a cached copy brought forward

See docs/rules-api.md."""
from . import native

# the compiled build of the modules below, when there is a current one (native.py)
__path__ = native.search_path(__path__)

from .actions import Action
from .errors import IllegalAction
from .game import ENGINE_VERSION, Game, from_position, new_game, option_ids, replay
from .rebuild import fold_onto
from .map import DATA_VERSIONS, SCENARIO_IDS, load_map, load_scenario
from .dice import commitment, seeded_roll
from .options import option_refusals, options_catalog

__all__ = ["Action", "IllegalAction", "Game", "new_game", "replay", "fold_onto", "from_position", "load_map",
           "load_scenario", "option_ids", "SCENARIO_IDS", "ENGINE_VERSION", "commitment",
           "seeded_roll", "options_catalog", "option_refusals", "DATA_VERSIONS"]
