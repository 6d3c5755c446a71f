"""Pure rules: one module (or subpackage) per game, with dice, deck and fair randomness.

Every game has the same shape (:class:`Engine`), so the table, self-play and ``companion verify``
treat them alike; what a game asks of the table it says in the words of :mod:`.effects`.
``GAMES`` maps the names the API and the command line use to the engines.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from companion.errors import BadOptions
from companion.games import cool_am_pool, cool_runnings, daddy_cool, ice_trays
from companion.games.effects import Effect, TableFacts
from companion.games.fair import Dealt, FairRandom
from companion.games.frame import GameState
from companion.games.messages import Actor
from companion.games.outcome import Outcome
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence
from companion.games.start_options import Option


class Engine(Protocol):
    """What a game module provides (OpenSpiel and boardgame.io are the models).

    A state is the game's own ``State`` (a :class:`GameState`), and each function takes only
    its own game's: hence ``Any`` where a state goes in.
    """

    NAME: str
    TITLE: str
    SEATS: range
    RULES: int
    """The edition of its rules: one more each time a change would replay an older game
    differently, so an export made under another edition is not taken for a changed one."""
    ACTIONS: tuple[type, ...]
    ODDS: tuple[str, ...]
    """The keys of the chances its views' odds list (none: it shows no odds)."""
    DEALT: Dealt
    """What its fair randomness deals, cards or dice: the table page titles its fair-dealing
    box by it."""
    USES_ICE: bool
    """Whether its seats play with real ice cubes (the pages show their ice)."""

    @property
    def DATA_FILES(self) -> Mapping[str, Callable[[Path], dict[str, Any]]]:
        """The data files a table config may name for it (``[games.<name>]``), each read into
        the options a game starts with: the table's own box."""
        ...

    def new_game(
        self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo], rng: FairRandom
    ) -> tuple[GameState, list[Any]]: ...

    def legal_actions(self, state: Any, actor: Actor) -> list[Any]: ...

    def apply(self, state: Any, action: Any, rng: FairRandom) -> tuple[GameState, list[Any]]: ...

    def view(
        self, state: Any, viewer: Actor, public: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def options_from_json(self, raw: Mapping[str, Any] | None) -> Any: ...

    def options_to_json(self, options: Any) -> dict[str, Any]: ...

    def invariants(self, state: Any) -> list[str]: ...

    def random_action(self, state: Any, rnd: random.Random) -> Any: ...

    def narrate(self, events: list[Any], state: Any) -> list[Sentence]: ...

    def effects(self, events: Iterable[Any], state: Any) -> list[Effect]: ...

    def standing(self, state: Any) -> list[Effect]: ...

    def table_defaults(self, facts: TableFacts) -> dict[str, Any]: ...

    def start_options(self, facts: TableFacts) -> list[Option]: ...


GAMES: dict[str, Engine] = {
    game.GAME.NAME: game.GAME for game in (cool_runnings, cool_am_pool, daddy_cool, ice_trays)
}


def engine(name: str) -> Engine:
    """The engine of a game by its name; :class:`BadOptions` lists the names there are."""
    try:
        return GAMES[name]
    except KeyError:
        listed = ", ".join(GAMES)
        raise BadOptions(
            Sentence(
                f"unknown game {name!r}; the games are {listed}",
                f"unbekanntes Spiel {name!r}; die Spiele sind {listed}",
            )
        ) from None
