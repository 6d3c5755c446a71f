"""Daddy Cool (Huch & friends 2004): the polar bear cubs' push-your-luck race to the wash tub.

The engine has the shape every game shares: ``new_game``, ``legal_actions``, ``apply``,
``view`` and ``outcome``, with actions and events that round-trip through JSON.
"""

from companion.games.daddy_cool.effects import effects, standing, start_options, table_defaults
from companion.games.daddy_cool.engine import (
    NAME,
    SEATS,
    TITLE,
    apply,
    legal_actions,
    new_game,
    outcome,
)
from companion.games.daddy_cool.invariants import invariants
from companion.games.daddy_cool.messages import ACTIONS
from companion.games.daddy_cool.odds import KEYS
from companion.games.daddy_cool.players import random_action
from companion.games.daddy_cool.state import DATA_FILES, options_from_json, options_to_json
from companion.games.daddy_cool.views import view
from companion.games.daddy_cool.words import narrate
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
