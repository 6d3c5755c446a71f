"""Ice Trays (the ice-tray sowing game): roll the colour die, sow a tray's cubes around the
board into your own cup, snag blueberries, steal cubes, refereed by the device.

The engine has the shape every game shares: ``new_game``, ``legal_actions``, ``apply``,
``view`` and ``outcome``, with actions and events that round-trip through JSON.
"""

from companion.games.fair import Dealt
from companion.games.ice_trays.effects import effects, standing, start_options, table_defaults
from companion.games.ice_trays.engine import (
    NAME,
    SEATS,
    TITLE,
    apply,
    legal_actions,
    new_game,
    outcome,
)
from companion.games.ice_trays.invariants import invariants
from companion.games.ice_trays.messages import ACTIONS
from companion.games.ice_trays.odds import KEYS
from companion.games.ice_trays.players import random_action
from companion.games.ice_trays.state import DATA_FILES, options_from_json, options_to_json
from companion.games.ice_trays.views import view
from companion.games.ice_trays.words import narrate

ODDS: tuple[str, ...] = KEYS
"""The keys of the chances its views' odds list."""

DEALT: Dealt = "dice"
"""It rolls its colour die: every roll comes from the committed seed."""

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
