"""The cards of Cool Runnings: seven attacks, and a deck of cards that pair one with a move.

A card is written ``attack move`` (``water-bath +3``); the deck file has one line per kind of
card with a count. Cards in a game are numbered by their place in the deck list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from companion.datafile import DataFile
from companion.errors import BadOptions
from companion.games.sentence import Sentence

DECK_FILE = "cool-runnings-deck.toml"
ATTACKS_FILE = "cool-runnings-attacks.toml"
MOVE_RANGE = range(-3, 5)


@dataclass(frozen=True)
class Attack:
    """One of the seven attacks, its names, and how it is carried out."""

    key: str
    en: str
    de: str
    ten_count: bool
    instruction_en: str
    instruction_de: str


@dataclass(frozen=True)
class Card:
    """The top half (an attack) and the bottom half (a move: blue forwards, red backwards)."""

    attack: str
    move: int

    def notation(self) -> str:
        return f"{self.attack} {self.move:+d}"


@cache
def attacks() -> dict[str, Attack]:
    """The seven attacks, by key, from the bundled data file."""
    doc = DataFile.bundled(ATTACKS_FILE)
    table = doc.get(("attacks",), dict)
    out = {}
    for key in table:
        fields = {
            name: doc.get(("attacks", key, name), kind)
            for name, kind in [
                ("en", str),
                ("de", str),
                ("ten_count", bool),
                ("instruction_en", str),
                ("instruction_de", str),
            ]
        }
        out[key] = Attack(key, **fields)
    return out


@cache
def parse_card(text: str) -> Card:
    """A card from its notation; ``ValueError`` says what is wrong.

    >>> parse_card("water-bath +3")
    Card(attack='water-bath', move=3)
    """
    parts = text.split()
    if len(parts) != 2:
        raise ValueError(f"a card is 'attack move', like 'water-bath +3', not {text!r}")
    attack, move = parts
    if attack not in attacks():
        raise ValueError(f"unknown attack {attack!r}; the attacks are {', '.join(attacks())}")
    try:
        value = int(move)
    except ValueError:
        raise ValueError(f"the move of {text!r} must be a number from -3 to +4") from None
    if value == 0 or value not in MOVE_RANGE:
        raise ValueError(f"the move of {text!r} must be -3..-1 or +1..+4")
    return Card(attack, value)


def load_deck(path: str | Path | None = None) -> tuple[Card, ...]:
    """The deck from a deck file (the bundled default when ``path`` is None)."""
    doc = DataFile.bundled(DECK_FILE) if path is None else DataFile.read(path)
    return _deck_of(doc)


@cache
def default_deck() -> tuple[Card, ...]:
    return load_deck()


def _deck_of(doc: DataFile) -> tuple[Card, ...]:
    unknown = sorted(set(doc.data) - {"cards"})
    if unknown:
        doc.fail((unknown[0],), f"unknown key {unknown[0]!r}: a deck file holds only 'cards'")
    cards: list[Card] = []
    for offset, entry in doc.notation_lines(("cards",)):
        *card_text, count_text = entry.split()
        try:
            card = parse_card(" ".join(card_text))
        except ValueError as exc:
            doc.fail(("cards",), str(exc), offset)
        if not re.fullmatch(r"[0-9]{1,3}", count_text) or int(count_text) < 1:
            doc.fail(
                ("cards",),
                f"the count {count_text!r} must be a whole number of at least 1 and at most 999, "
                "as in 'water-bath +3 2'",
                offset,
            )
        cards.extend([card] * int(count_text))
    if not cards:
        doc.fail(("cards",), "the deck has no cards")
    return tuple(cards)


def deck_from_notation(entries: list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """A deck as it travels in a game's options: one ``attack move`` string per card."""
    if not isinstance(entries, list | tuple):
        raise BadOptions(
            Sentence(
                "deck must be a list of cards like 'water-bath +3'",
                "deck muss eine Liste von Karten wie 'water-bath +3' sein",
            )
        )
    cards = []
    for i, text in enumerate(entries):
        if not isinstance(text, str):
            raise BadOptions(
                Sentence(
                    f"deck card {i + 1} must be a string like 'water-bath +3'",
                    f"Karte {i + 1} von deck muss ein Text wie 'water-bath +3' sein",
                )
            )
        try:
            cards.append(parse_card(text))
        except ValueError as exc:
            where = Sentence(f"deck card {i + 1}", f"Karte {i + 1} von deck")
            raise BadOptions(Sentence.join(": ", where, str(exc))) from None
    return tuple(cards)
