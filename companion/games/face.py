"""A game's face, written once: the :class:`Game` every game package shows the table.

A game's package holds its parts in modules of fixed names (``engine``, ``effects``, ``state``,
``views``, ``words``, ``players``, ``invariants``, ``messages``, and ``odds`` where its views
show odds), and its ``__init__`` is one call of :func:`face`, which gathers them. A fifth game
cannot drift from the others: a part it lacks fails its import, and the engine contract tests
(``tests/games/test_engine_contract.py``) hold every face to :class:`companion.games.Engine`.

>>> from companion.games import ice_trays
>>> ice_trays.GAME.NAME, ice_trays.GAME.DEALT, ice_trays.GAME.USES_ICE
('ice-trays', 'dice', False)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.games.fair import Dealt


@dataclass(frozen=True)
class Game:
    """What a game provides, by the names :class:`companion.games.Engine` gives them."""

    NAME: str
    TITLE: str
    SEATS: range
    RULES: int
    ACTIONS: tuple[type, ...]
    ODDS: tuple[str, ...]
    DEALT: Dealt
    USES_ICE: bool
    DATA_FILES: Mapping[str, Callable[[Path], dict[str, Any]]]
    new_game: Callable[..., Any]
    legal_actions: Callable[..., list[Any]]
    apply: Callable[..., Any]
    view: Callable[..., dict[str, Any]]
    outcome: Callable[..., Any]
    options_from_json: Callable[..., Any]
    options_to_json: Callable[..., dict[str, Any]]
    invariants: Callable[..., list[str]]
    random_action: Callable[..., Any]
    narrate: Callable[..., list[Any]]
    effects: Callable[..., list[Any]]
    standing: Callable[..., list[Any]]
    table_defaults: Callable[..., dict[str, Any]]
    start_options: Callable[..., list[Any]]


def face(package: str, *, dealt: Dealt, uses_ice: bool) -> Game:
    """The face of the game in ``package`` (its ``__name__``), from its parts: ``dealt`` says
    what its fair randomness deals (cards or dice), ``uses_ice`` whether its seats play with
    real ice cubes (the pages show their ice)."""

    def part(name: str) -> ModuleType:
        return importlib.import_module(f"{package}.{name}")

    engine, effects, state = part("engine"), part("effects"), part("state")
    try:
        odds: tuple[str, ...] = tuple(part("odds").KEYS)
    except ModuleNotFoundError:
        odds = ()
    return Game(
        NAME=engine.NAME,
        TITLE=engine.TITLE,
        SEATS=engine.SEATS,
        RULES=engine.RULES,
        ACTIONS=part("messages").ACTIONS,
        ODDS=odds,
        DEALT=dealt,
        USES_ICE=uses_ice,
        DATA_FILES=state.DATA_FILES,
        new_game=engine.new_game,
        legal_actions=engine.legal_actions,
        apply=engine.apply,
        view=part("views").view,
        outcome=engine.outcome,
        options_from_json=state.options_from_json,
        options_to_json=state.options_to_json,
        invariants=part("invariants").invariants,
        random_action=part("players").random_action,
        narrate=part("words").narrate,
        effects=effects.effects,
        standing=effects.standing,
        table_defaults=effects.table_defaults,
        start_options=effects.start_options,
    )
