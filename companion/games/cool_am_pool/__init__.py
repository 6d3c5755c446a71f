"""Cool am Pool (Piatnik 2016): the dice game of towels on sun loungers, refereed by the device.

The engine has the shape every game shares: ``new_game``, ``legal_actions``, ``apply``,
``view`` and ``outcome``, with actions and events that round-trip through JSON. The views
show the exact odds of the push-your-luck choice of the seat on turn (:mod:`.odds`).
"""

from companion.games.cool_am_pool.effects import effects, standing, start_options, table_defaults
from companion.games.cool_am_pool.engine import (
    NAME,
    SEATS,
    TITLE,
    apply,
    legal_actions,
    new_game,
    outcome,
)
from companion.games.cool_am_pool.invariants import invariants
from companion.games.cool_am_pool.messages import ACTIONS
from companion.games.cool_am_pool.odds import KEYS
from companion.games.cool_am_pool.players import random_action
from companion.games.cool_am_pool.state import DATA_FILES, options_from_json, options_to_json
from companion.games.cool_am_pool.views import view
from companion.games.cool_am_pool.words import narrate
from companion.games.fair import Dealt

ODDS: tuple[str, ...] = KEYS
"""The keys of the chances its views' odds list."""

DEALT: Dealt = "dice"
"""It rolls dice: every roll comes from the committed seed."""

USES_ICE = False
"""It plays without ice cubes: the table shows no ice for it."""

__all__ = [
    "ACTIONS",
    "DATA_FILES",
    "DEALT",
    "NAME",
    "ODDS",
    "SEATS",
    "TITLE",
    "USES_ICE",
    "apply",
    "effects",
    "invariants",
    "legal_actions",
    "narrate",
    "new_game",
    "options_from_json",
    "options_to_json",
    "outcome",
    "random_action",
    "standing",
    "start_options",
    "table_defaults",
    "view",
]
