"""Fixtures shared by the tests: seeded randomness, seats, hand-built Cool Runnings tables, and
the browser and phones of the page tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from commandline import Companion
from cuepins import mock_factory, opened
from gameplay import KAREN, MARY, TOM, TableBuilder
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

from companion.cues.devices import CueDevices
from companion.games.cool_runnings.cards import default_deck
from companion.games.cool_runnings.engine import new_game
from companion.games.cool_runnings.state import REVEALED, State, hand
from companion.games.cool_runnings.track import parse_spaces
from companion.games.deck import DISCARD, DRAW, Deck
from companion.games.fair import FairRandom
from companion.games.seats import SeatInfo

collect_ignore_glob = ["firmware/fakes/*", "conftest.py", "*/conftest.py"]
"""The pod's fake CircuitPython modules are run by its tests, never imported by pytest itself;
nor are the conftest files collected for doctests (they hold none): each folder's is a module
named ``conftest`` (the test folders are no packages), so pytest's doctest import of one would
find another folder's in ``sys.modules`` when two folders are given (``pytest tests/mqtt
tests/table``). Pytest still loads every conftest for its fixtures."""

# CI replays the same examples on every run, so a red run means a change broke something;
# a developer's run draws new examples each time and goes on exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

BROWSER_FIXTURES = frozenset({"browser", "phone"})
"""The fixtures of :mod:`browsing` that start Chromium: a test using one is marked ``browser``."""


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@pytest.fixture(autouse=True)
def stop_signals_kept() -> Iterator[None]:
    """Every test leaves the stop signals' handlers as it found them: a SIGTERM left ignored in
    this process is ignored by every child it starts after (an ignored signal outlives exec),
    and a later test's daemon or reader would never stop."""
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    yield
    after = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    for number, handler in before.items():
        if handler is not None:  # None: set outside Python, and so never changed by a test
            signal.signal(number, handler)
    assert after == before, "the test left the stop signals' handlers changed"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that opens a browser ``browser``, whatever its module says, so that
    ``pytest -m "not browser"`` runs all the others; and leave the ``long`` tests out unless
    ``-m`` names them (``make bench`` runs ``pytest -m long``), so that another ``-m`` keeps
    them out too. Runs before pytest's own ``-m`` chooses."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    if not re.search(r"\blong\b", config.option.markexpr or ""):
        long = [item for item in items if item.get_closest_marker("long")]
        if long:
            config.hook.pytest_deselected(items=long)
            items[:] = [item for item in items if not item.get_closest_marker("long")]


@pytest.fixture
def rng() -> FairRandom:
    """A fair random source with a fixed seed."""
    return FairRandom(bytes(range(32)))


@pytest.fixture
def rulebook_seats() -> tuple[SeatInfo, ...]:
    """Karen, Tom and Mary of the rulebook's examples, clockwise."""
    return (
        SeatInfo(KAREN, "Karen", "blue"),
        SeatInfo(TOM, "Tom", "yellow"),
        SeatInfo(MARY, "Mary", "green"),
    )


def card_ids(*notations: str) -> list[int]:
    """Distinct cards of the default deck with the given notations (``"water-bath +3"``)."""
    deck = default_deck()
    taken: list[int] = []
    for text in notations:
        attack, move = text.split()
        for i, card in enumerate(deck):
            if i not in taken and card.attack == attack and card.move == int(move):
                taken.append(i)
                break
        else:
            raise ValueError(f"no more {text} in the default deck")
    return taken


@pytest.fixture
def table(rng: FairRandom, rulebook_seats: tuple[SeatInfo, ...]) -> TableBuilder:
    """Build a game in a given position: the track, the pieces, the hands and the draw pile.

    ``hands`` and ``draw`` name cards by notation. Without ``draw`` every other card is in the
    draw pile; with it, ``draw`` is the whole draw pile (top first) and the rest is discarded.
    """

    def build(
        track: str = ". . . . . . . . . .",
        positions: Mapping[int, int] | None = None,
        hands: Mapping[int, Sequence[str]] | None = None,
        draw: Sequence[str] | None = None,
        turn: int = KAREN,
        seats: Sequence[SeatInfo] = rulebook_seats,
    ) -> State:
        state, _ = new_game({"first_seat": seats[0].seat}, seats, rng)
        hands = hands or {}
        ids = iter(card_ids(*(c for cs in hands.values() for c in cs), *(draw or ())))
        named = {seat: tuple(next(ids) for _ in cards) for seat, cards in hands.items()}
        top = tuple(ids)
        held = set(top).union(*named.values())
        rest = tuple(c for c in range(len(default_deck())) if c not in held)
        if draw is None:
            top, rest = rest, ()
        piles = {DRAW: top, DISCARD: rest, REVEALED: ()}
        piles |= {hand(s.seat): tuple(named.get(s.seat, ())) for s in seats}
        return state.evolve(
            track=parse_spaces(track),
            positions={s.seat: (positions or {}).get(s.seat, 0) for s in seats},
            deck=Deck(piles),
            turn_seat=turn,
        )

    return build


@pytest.fixture
def companion_process() -> Companion:
    """Run ``python -m companion ARGS...`` as a user would, capturing its output."""
    root = Path(__file__).resolve().parents[1]

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion", *argv],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins, PWM-capable (a tonal buzzer needs it), released afterwards."""
    with mock_factory() as factory:
        yield factory


@pytest.fixture
def cue_devices(pin_factory: MockFactory) -> Iterator[CueDevices]:
    """A 4-seat table's buzzer, LEDs, bar and buttons on mock pins, their records cleared."""
    with opened(pin_factory) as devices:
        yield devices


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium for the page tests (:mod:`browsing`), one for the whole run: each test's phones
    are browser contexts of their own, so nothing one test does carries over to the next."""
    from browsing import chromium

    yield from chromium()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone's page at the table: ``phone(url, locale=..., viewport=...)`` (:mod:`browsing`)."""
    from browsing import phones

    yield from phones(browser)
