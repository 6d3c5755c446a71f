"""Cool Runnings (Ravensburger 2018): the ice-cube race, refereed by the device.

The engine has the shape every game shares: ``new_game``, ``legal_actions``, ``apply``,
``view`` and ``outcome``, with actions and events that round-trip through JSON.
"""

from companion.games.cool_runnings.effects import effects, standing, start_options, table_defaults
from companion.games.cool_runnings.engine import (
    NAME,
    SEATS,
    TITLE,
    apply,
    legal_actions,
    new_game,
    outcome,
)
from companion.games.cool_runnings.invariants import invariants
from companion.games.cool_runnings.messages import ACTIONS
from companion.games.cool_runnings.players import random_action
from companion.games.cool_runnings.state import DATA_FILES, options_from_json, options_to_json
from companion.games.cool_runnings.views import view
from companion.games.cool_runnings.words import narrate
from companion.games.fair import Dealt

ODDS: tuple[str, ...] = ()
"""Cool Runnings shows no odds: its draw pile is secret."""

DEALT: Dealt = "cards"
"""It deals cards: every shuffle of its deck comes from the committed seed."""

USES_ICE = True
"""Its seats play with real ice cubes: the table shows their ice and asks their weigh-ins."""

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
