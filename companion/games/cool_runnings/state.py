"""The options a game of Cool Runnings starts with, and the state of a game in play."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from companion.config import COUNT_PACE_S
from companion.errors import BadOptions
from companion.games.cool_runnings.cards import Card, deck_from_notation, default_deck, load_deck
from companion.games.cool_runnings.track import (
    Space,
    TrackData,
    default_track,
    load_track,
    parse_spaces,
    too_few_parts,
)
from companion.games.deck import Deck
from companion.games.evolving import Evolving
from companion.games.frame import GameState
from companion.games.outcome import How
from companion.games.refereeing import first_seat_option, known_options
from companion.games.sentence import Sentence

HAND_SIZE = 4
TEN = 10
REVEALED = "revealed"

Phase = Literal["play", "deflect", "count", "carry-out", "over"]
"""Where a game stands: its phases, by name."""
PLAY: Final = "play"
DEFLECT: Final = "deflect"
COUNT: Final = "count"
CARRY_OUT: Final = "carry-out"
OVER: Final = "over"


def hand(seat: int) -> str:
    """The deck pile that holds a seat's hand."""
    return f"hand:{seat}"


@dataclass(frozen=True)
class Options:
    """How a game is set up. The deck and track travel with the game, so exports replay exactly."""

    parts: int = 5
    part_order: tuple[str, ...] | None = None
    first_seat: int | None = None
    count_pace_s: float = 0.8
    deck: tuple[Card, ...] = field(default_factory=default_deck)
    track: TrackData = field(default_factory=default_track)


def options_from_json(raw: Mapping[str, Any] | None) -> Options:
    """Options from JSON; missing ones take their defaults, unknown ones are refused."""
    raw = known_options(raw, {"parts", "part_order", "first_seat", "count_pace_s", "deck", "track"})
    parts = raw.get("parts", 5)
    if type(parts) is not int or parts not in (3, 4, 5):
        raise BadOptions(
            Sentence(
                f"parts must be 3, 4 or 5, not {parts!r}",
                f"parts muss 3, 4 oder 5 sein, nicht {parts!r}",
            )
        )
    order = raw.get("part_order")
    if order is not None and (
        not isinstance(order, list | tuple) or not all(isinstance(p, str) for p in order)
    ):
        raise BadOptions(
            Sentence(
                "part_order must be a list of part names, like ['C', 'A', 'E']",
                "part_order muss eine Liste von Teilen sein, wie ['C', 'A', 'E']",
            )
        )
    first = first_seat_option(raw)
    pace = raw.get("count_pace_s", 0.8)
    low, high = COUNT_PACE_S
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not low <= pace <= high:
        raise BadOptions(
            Sentence(
                f"count_pace_s must be from {low:g} to {high:g} seconds, not {pace!r}",
                f"count_pace_s muss {low:g} bis {high:g} Sekunden sein, nicht {pace!r}",
            )
        )
    deck = deck_from_notation(raw["deck"]) if "deck" in raw else default_deck()
    track = track_from_json(raw["track"]) if "track" in raw else default_track()
    if len(track.parts) < parts:
        raise BadOptions(too_few_parts(len(track.parts), parts))
    return Options(parts, tuple(order) if order else None, first, float(pace), deck, track)


def options_to_json(options: Options) -> dict[str, Any]:
    return {
        "parts": options.parts,
        "part_order": list(options.part_order) if options.part_order else None,
        "first_seat": options.first_seat,
        "count_pace_s": options.count_pace_s,
        "deck": [card.notation() for card in options.deck],
        "track": _track_to_json(options.track),
    }


DATA_FILES: Mapping[str, Callable[[Path], dict[str, Any]]] = {
    "deck": lambda path: {"deck": [card.notation() for card in load_deck(path)]},
    "track": lambda path: {"track": _track_to_json(load_track(path))},
}
"""The table's own box: each data file a table config may name for the game
(``[games.cool-runnings]``), read and checked (errors name the file and its line), as options."""


def _track_to_json(track: TrackData) -> dict[str, Any]:
    return {
        "parts": dict(track.parts),
        "goal": track.goal,
        "five_parts_up_to_c": track.five_parts_up_to_c,
        "four_parts_up_to_c": track.four_parts_up_to_c,
    }


def track_from_json(raw: Any) -> TrackData:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("parts"), Mapping):
        raise BadOptions(
            Sentence(
                "track must be an object with 'parts' and 'goal'",
                "track muss ein Objekt mit 'parts' und 'goal' sein",
            )
        )
    try:
        parts = {str(k): " ".join(v.split()) for k, v in raw["parts"].items()}
        for text in (*parts.values(), raw["goal"]):
            parse_spaces(text)
        five = float(raw.get("five_parts_up_to_c", 24.0))
        four = float(raw.get("four_parts_up_to_c", 28.0))
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise BadOptions(Sentence.join(": ", "track", str(exc))) from None
    if four < five:
        raise BadOptions(
            Sentence(
                "track: four_parts_up_to_c must not be below five_parts_up_to_c",
                "track: four_parts_up_to_c darf nicht unter five_parts_up_to_c liegen",
            )
        )
    return TrackData(parts, " ".join(raw["goal"].split()), five, four)


@dataclass(frozen=True)
class Pending(Evolving):
    """An attack on its way: the cards played so far, who is targeted, and who carries it out.

    ``chain`` holds ``(by, card, target)`` for every card played; a lava attack has an empty
    chain and its ``revealed`` card.
    """

    attack: str
    source: str
    chain: tuple[tuple[int, int, int], ...]
    target: int
    carrier: int
    guesses: int = 0
    revealed: int | None = None


@dataclass(frozen=True)
class State(GameState):
    """Everything about a game in play; ``positions`` holds only the seats still in the game."""

    phase: Phase
    options: Options
    parts: tuple[str, ...]
    track: tuple[Space, ...]
    deck: Deck
    positions: dict[int, int]
    melted: tuple[int, ...]
    pending: Pending | None
    winner: int | None
    won_by: How | None

    def in_game(self, number: int) -> bool:
        return number in self.positions

    def hand(self, number: int) -> tuple[int, ...]:
        return self.deck.piles.get(hand(number), ())

    def card(self, card: int) -> Card:
        return self.options.deck[card]

    def on_ice(self, number: int) -> bool:
        position = self.positions.get(number, 0)
        return 1 <= position <= len(self.track) and self.track[position - 1].kind == "ice"

    def left_of(self, number: int) -> int:
        """The next seat clockwise that is still in the game (ruling 1)."""
        return next((s for s in self.clockwise_after(number) if self.in_game(s)), number)

    def targets(self, attacker: int) -> list[int]:
        """The seats ``attacker`` may attack or deflect onto (rulings 5 and 6)."""
        return [s for s in self.positions if s != attacker and not self.on_ice(s)]
