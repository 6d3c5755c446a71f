"""The engine contract of DESIGN.md, held by every game in ``GAMES``.

Seats handed over in any order play clockwise by seat number; a view hides every other seat's
hand and the order of the draw pile from every viewer; a replay of the log from the same seed
equals the live game; every refusal is a sentence a player reads.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from companion.errors import IllegalAction
from companion.games import GAMES, Engine
from companion.games.deck import DRAW, Deck
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE, Actor, from_json, to_json
from companion.games.seats import SeatInfo

NAMES = sorted(GAMES)
SEED = bytes(range(32))
SHUFFLED_SEATS = [(3, 1, 2), (1, 3, 2), (2, 4, 5), (5, 2, 4), (4, 3, 2, 1), (6, 1)]
SENTENCE = re.compile(r"(?s)(?:[A-Z0-9]|'[^']*' ).*[.!?]")
"""A capitalised sentence with its full stop; it may open on the value a player sent
(``'nobody' is not a seat ...``, ``True is not ...``) but never on a lower-case word."""


@dataclass
class Game:
    """A game played from its start by the engine's random player."""

    engine: Engine
    seats: tuple[SeatInfo, ...]
    states: list[Any]
    actions: list[Any]


def seats_of(numbers: tuple[int, ...]) -> tuple[SeatInfo, ...]:
    """Seats in the order given, named so that a name tells the number."""
    return tuple(SeatInfo(n, f"Player {n}", "blue") for n in numbers)


def fits(engine: Engine, numbers: tuple[int, ...]) -> bool:
    return len(numbers) in engine.SEATS


def play(name: str, numbers: tuple[int, ...], seed: int, most: int = 400) -> Game:
    """Up to ``most`` actions of random play, seats handed over in the order of ``numbers``."""
    engine = GAMES[name]
    seats = seats_of(numbers)
    state, _ = engine.new_game({}, seats, FairRandom(SEED))
    game = Game(engine, seats, [state], [])
    rnd = random.Random(f"{name}:{seed}")
    while engine.outcome(state) is None and len(game.actions) < most:
        action = engine.random_action(state, rnd)
        state, _ = engine.apply(state, action, FairRandom(SEED))
        game.states.append(state)
        game.actions.append(action)
    return game


def seat_numbers(engine: Engine, state: Any) -> list[int]:
    return [s["seat"] for s in engine.view(state, "public")["seats"]]


def in_game(engine: Engine, state: Any) -> set[int]:
    """The seats still playing (a melted cube's seat in Cool Runnings is out)."""
    return {s["seat"] for s in engine.view(state, "public")["seats"] if s.get("in_game", True)}


def clockwise_between(numbers: list[int], start: int, end: int) -> list[int]:
    """The seats passed over going clockwise (by number) from ``start`` to ``end``."""
    ring = sorted(numbers)
    i = ring.index(start)
    passed = []
    for seat in ring[i + 1 :] + ring[: i + 1]:
        if seat == end:
            return passed
        passed.append(seat)
    raise AssertionError(f"seat {end} is not at the table")


# Seats clockwise by number


@pytest.mark.parametrize("numbers", SHUFFLED_SEATS)
@pytest.mark.parametrize("name", NAMES)
def test_seats_handed_over_in_any_order_play_as_if_sorted(
    name: str, numbers: tuple[int, ...]
) -> None:
    engine = GAMES[name]
    if not fits(engine, numbers):
        pytest.skip(f"{engine.TITLE} is not for {len(numbers)} seats")
    game = play(name, numbers, seed=1, most=200)
    state, _ = engine.new_game({}, seats_of(tuple(sorted(numbers))), FairRandom(SEED))
    assert state == game.states[0]
    assert state.turn_seat == min(numbers)
    assert seat_numbers(engine, state) == sorted(numbers)
    for action, live in zip(game.actions, game.states[1:], strict=True):
        state, _ = engine.apply(state, action, FairRandom(SEED))
        assert state == live


@pytest.mark.parametrize("numbers", SHUFFLED_SEATS)
@pytest.mark.parametrize("name", NAMES)
def test_the_turn_passes_clockwise_by_seat_number(name: str, numbers: tuple[int, ...]) -> None:
    engine = GAMES[name]
    if not fits(engine, numbers):
        pytest.skip(f"{engine.TITLE} is not for {len(numbers)} seats")
    passes = 0
    for seed in range(3):
        game = play(name, numbers, seed)
        for before, after in zip(game.states, game.states[1:], strict=False):
            if after.turn_seat != before.turn_seat:
                passes += 1
                skipped = clockwise_between(list(numbers), before.turn_seat, after.turn_seat)
                assert not set(skipped) & in_game(engine, after), (before.turn_seat, skipped)
    assert passes > 5


# Views hide what they must


def hidden_from(pile: str, viewer: Actor) -> bool:
    """The draw pile is secret from everyone; a hand from everyone but its seat."""
    return pile == DRAW or (pile.startswith("hand:") and pile != f"hand:{viewer}")


def with_secrets_shuffled(state: Any, viewer: Actor, rnd: random.Random) -> Any:
    """The state with the cards ``viewer`` may not see dealt anew among the same piles."""
    changes = {}
    for field in dataclasses.fields(state):
        deck = getattr(state, field.name)
        if not isinstance(deck, Deck):
            continue
        secret = [p for p in deck.piles if hidden_from(p, viewer)]
        cards = [c for p in secret for c in deck.piles[p]]
        rnd.shuffle(cards)
        piles = dict(deck.piles)
        for pile in secret:
            size = len(deck.piles[pile])
            piles[pile], cards = tuple(cards[:size]), cards[size:]
        changes[field.name] = Deck(piles)
    return dataclasses.replace(state, **changes)


def viewers(numbers: tuple[int, ...]) -> list[Actor]:
    return [*numbers, REFEREE, "public", TABLE, 9]


@pytest.mark.parametrize("name", NAMES)
def test_no_viewer_sees_another_seats_hand_or_the_draw_order(name: str) -> None:
    engine = GAMES[name]
    numbers = (3, 1, 2)
    rnd = random.Random(name)
    changed = 0
    for seed in range(3):
        for state in play(name, numbers, seed, most=150).states[::3]:
            for viewer in viewers(numbers):
                twin = with_secrets_shuffled(state, viewer, rnd)
                changed += twin != state
                seen = engine.view(state, viewer)
                assert json.loads(json.dumps(seen)) == seen
                assert engine.view(twin, viewer) == seen, viewer
    has_deck = any(isinstance(v, Deck) for v in vars(play(name, numbers, 0, 0).states[0]).values())
    assert changed > 0 or not has_deck


@pytest.mark.parametrize("name", NAMES)
def test_a_viewer_who_is_no_seat_sees_the_public_view(name: str) -> None:
    engine = GAMES[name]
    state = play(name, (3, 1, 2), seed=0, most=20).states[-1]
    public = engine.view(state, "public")
    assert public["viewer"] == "public" and "legal_actions" not in public
    for stranger in (9, TABLE, "nobody", True):
        assert engine.view(state, stranger) == public


@pytest.mark.parametrize("name", NAMES)
def test_a_view_made_from_the_public_view_the_table_keeps_is_the_same_view(name: str) -> None:
    engine = GAMES[name]
    numbers = (3, 1, 2)
    for state in play(name, numbers, seed=1, most=150).states[::5]:
        public = engine.view(state, "public")
        for viewer in viewers(numbers):
            assert engine.view(state, viewer, public) == engine.view(state, viewer), viewer


# A replay equals the live game


@pytest.mark.parametrize("name", NAMES)
def test_a_replay_of_the_log_from_the_seed_equals_the_live_game(name: str) -> None:
    engine = GAMES[name]
    for seed in range(3):
        game = play(name, (2, 3, 1), seed)
        rng = FairRandom(SEED)
        state, _ = engine.new_game({}, game.seats, rng)
        assert state == game.states[0]
        for action, live in zip(game.actions, game.states[1:], strict=True):
            state, _ = engine.apply(state, action, rng)
            assert state == live
        assert engine.outcome(state) == engine.outcome(game.states[-1])


@pytest.mark.parametrize("name", NAMES)
def test_every_action_taken_round_trips_through_json_as_one_of_the_games_actions(
    name: str,
) -> None:
    engine = GAMES[name]
    kinds = set()
    for seed in range(3):
        for action in play(name, (2, 3, 1), seed).actions:
            assert from_json(json.loads(json.dumps(to_json(action))), engine.ACTIONS) == action
            kinds.add(type(action))
    assert kinds <= set(engine.ACTIONS) and len(kinds) > 1


# Every refusal is a sentence


def random_value(hint: Any, numbers: tuple[int, ...], rnd: random.Random) -> Any:
    """A value of the type ``hint``, from the range where the rules have something to say."""
    if hint == Actor:
        return rnd.choice([*numbers, 0, 9, REFEREE, TABLE, "nobody"])
    if typing.get_origin(hint) in (typing.Union, type(int | None)):
        return random_value(rnd.choice(typing.get_args(hint)), numbers, rnd)
    if typing.get_origin(hint) is tuple:
        item = typing.get_args(hint)[0]
        return tuple(random_value(item, numbers, rnd) for _ in range(rnd.randint(0, 3)))
    if hint is int:
        return rnd.choice([*numbers, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 30, 99])
    if hint is str:
        return rnd.choice(["clockwise", "counterclockwise", "", "left"])
    if hint is bool:
        return rnd.choice([True, False])
    if hint is type(None):
        return None
    raise AssertionError(f"no random value for {hint}")


def random_actions(
    engine: Engine, state: Any, numbers: tuple[int, ...], rnd: random.Random
) -> Iterator[Any]:
    """Actions of every kind with random fields, and listed actions with one field changed."""
    for cls in engine.ACTIONS:
        hints = typing.get_type_hints(cls, include_extras=True)
        yield cls(
            **{f.name: random_value(hints[f.name], numbers, rnd) for f in dataclasses.fields(cls)}
        )
    for actor in (*numbers, REFEREE, TABLE):
        for action in rnd.sample(
            engine.legal_actions(state, actor), k=min(2, len(engine.legal_actions(state, actor)))
        ):
            field = rnd.choice(dataclasses.fields(action))
            hint = typing.get_type_hints(type(action), include_extras=True)[field.name]
            yield dataclasses.replace(action, **{field.name: random_value(hint, numbers, rnd)})


@pytest.mark.parametrize("name", NAMES)
def test_every_refusal_is_a_capitalised_sentence(name: str) -> None:
    engine = GAMES[name]
    numbers = (3, 1, 2)
    rnd = random.Random(name)
    refusals: dict[str, Any] = {}
    for seed in range(4):
        for state in play(name, numbers, seed).states:
            for action in random_actions(engine, state, numbers, rnd):
                try:
                    engine.apply(state, action, FairRandom(SEED))
                except IllegalAction as exc:
                    refusals.setdefault(str(exc), action)
    bad = {text: action for text, action in refusals.items() if not SENTENCE.fullmatch(text)}
    assert bad == {}
    assert len(refusals) > 10
