"""What the tests of every game share: random legal play as a hypothesis strategy, the checks
that hold for every engine, and loaded dice that show planned faces."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.games import Engine
from companion.games.cool_runnings.state import State
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE, from_json, to_json
from companion.games.seats import SeatInfo, default_seats

ACTORS = (1, 2, 3, 4, 5, 6, REFEREE, TABLE)
PROPERTIES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KAREN, TOM, MARY = 1, 2, 3
"""The seats of the rulebook's examples."""

TableBuilder = Callable[..., State]
"""The ``table`` fixture: a Cool Runnings game built in a given position."""


@dataclass
class Played:
    """A game played from its start: its options, seats, seed and every state along the way."""

    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    seed: bytes
    states: list[Any]
    actions: list[Any]


def all_actions(engine: Engine, state: Any) -> list[Any]:
    """Every legal action of every actor: the seats, the referee and the table."""
    return [a for actor in ACTORS for a in engine.legal_actions(state, actor)]


OptionsOf = Callable[[st.DrawFn, tuple[SeatInfo, ...]], dict[str, Any]]


def first_seat_option(draw: st.DrawFn, seats: tuple[SeatInfo, ...]) -> dict[str, Any]:
    """Options that start the game at a drawn seat."""
    return {"first_seat": draw(st.sampled_from([s.seat for s in seats]))}


@st.composite
def played_games(
    draw: st.DrawFn,
    engine: Engine,
    options: OptionsOf = lambda draw, seats: {},
    max_actions: int = 200,
    rare: Callable[[Any], bool] = lambda action: False,
) -> Played:
    """A game of a drawn number of seats, played by drawn legal actions.

    Actions for which ``rare`` is true (a melted cube, say) are taken about once in 30 choices,
    so that long games are explored too.
    """
    seats = default_seats(draw(st.integers(engine.SEATS.start, engine.SEATS.stop - 1)))
    chosen = options(draw, seats)
    seed = draw(st.binary(min_size=32, max_size=32))
    rng = FairRandom(seed)
    state, _ = engine.new_game(chosen, seats, rng)
    played = Played(chosen, seats, seed, [state], [])
    for _ in range(draw(st.integers(0, max_actions))):
        legal = all_actions(engine, state)
        if not legal:
            break
        common = [a for a in legal if not rare(a)]
        pool = legal if not common or draw(st.integers(0, 30)) == 0 else common
        action = pool[draw(st.integers(0, len(pool) - 1))]
        state, _ = engine.apply(state, action, rng)
        played.states.append(state)
        played.actions.append(action)
    return played


def assert_invariants_hold(engine: Engine, played: Played) -> None:
    for state in played.states:
        assert engine.invariants(state) == []


def assert_replay_equals_live(engine: Engine, played: Played) -> None:
    state, _ = engine.new_game(played.options, played.seats, FairRandom(played.seed))
    assert state == played.states[0]
    for action, live in zip(played.actions, played.states[1:], strict=True):
        state, _ = engine.apply(state, action, FairRandom(played.seed))
        assert state == live


def assert_exactly_the_listed_actions_are_legal(
    engine: Engine,
    is_legal: Callable[[Any, Any], bool],
    state: Any,
    candidates: Iterable[Any],
) -> None:
    """Every listed action is legal and applies; every other candidate is refused in words."""
    rng = FairRandom(bytes(32))
    legal = all_actions(engine, state)
    for action in legal:
        assert is_legal(state, action)
    listed = {json.dumps(to_json(a)) for a in legal}
    for action in candidates:
        if json.dumps(to_json(action)) in listed:  # as JSON text, where true is not seat 1
            engine.apply(state, action, rng)
            continue
        assert not is_legal(state, action)
        try:
            engine.apply(state, action, rng)
        except IllegalAction as exc:
            assert len(str(exc)) > 10 and str(exc)[-1] in ".!", str(exc)
        else:
            raise AssertionError(f"{action} was applied but is not listed as legal")


class Loaded(FairRandom):
    """A random source whose dice show the planned faces, roll after roll.

    >>> Loaded(["floe", "blank"]).choice(["floe", "blank"])
    'floe'
    """

    def __init__(self, faces: Iterable[str]) -> None:
        super().__init__(bytes(32))
        self.planned = list(faces)

    def at(self, counter: int) -> Loaded:
        self.counter = counter
        return self

    def choice(self, items: Sequence[Any]) -> Any:
        assert self.planned, "the dice were rolled more often than planned"
        face = self.planned.pop(0)
        assert face in items, f"a die without a {face!r} face"
        self.counter += 1
        return face

    @property
    def spent(self) -> bool:
        return not self.planned


def assert_view_actions_apply(engine: Engine, state: Any, viewer: Any) -> int:
    """Every action a viewer's ``legal_actions`` lists, sent back as JSON text, applies as that
    viewer and changes the game; there is at least one. Returns how many were tried."""
    listed = engine.view(state, viewer)["legal_actions"]
    assert listed, f"{viewer} is shown nothing to do in phase {getattr(state, 'phase', '?')}"
    for raw in listed:
        action = from_json(json.loads(json.dumps(raw)), engine.ACTIONS)
        assert action.by == viewer
        after, events = engine.apply(state, action, FairRandom(bytes(32)))
        assert events and after != state, action
    return len(listed)
