"""A sentence in each language the pages speak, English and German: what the engines say.

The engines narrate events and explain refusals with a :class:`Sentence`; the pages show it in
their own language, the command line in English (``str``). An exception raised with one keeps
it, so the API can answer a German page in German (:func:`told`).

>>> turn = Sentence("It is Karen's turn.", "Karen ist am Zug.")
>>> str(turn), turn.said("de")
("It is Karen's turn.", 'Karen ist am Zug.')
>>> told(ValueError(turn), "de"), told(ValueError("plain"), "de")
('Karen ist am Zug.', 'plain')
>>> Sentence.join(": ", Sentence("deck card 3", "Karte 3 des Stapels"), turn).de
'Karte 3 des Stapels: Karen ist am Zug.'

A number of things reads right for one and for many (:func:`counted`):

>>> counted(1, ("{n} floe", "{n} floes"), ("eine Scholle", "{n} Schollen")).de
'eine Scholle'

A seat nobody named is called as the pages call it:

>>> Sentence("It is Seat 2's turn.", "Seat 2 ist am Zug.").de
'Platz 2 ist am Zug.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

LANGUAGES = ("en", "de")
COLOURS_DE = {
    "red": "rot",
    "yellow": "gelb",
    "green": "grün",
    "blue": "blau",
    "purple": "lila",
    "orange": "orange",
    "pink": "pink",
}
"""The colours in German as the pages name them (``colour.*`` of their catalogue)."""
UNNAMED = re.compile(r"\bSeat ([1-6])\b")
"""A seat nobody named is "Seat 3" (:mod:`.seats`); in German it is "Platz 3", as the pages
call it."""


@dataclass(frozen=True)
class Sentence:
    """One sentence, written in English and in German."""

    en: str
    de: str
    board: str = ""
    """A picture of the board in one line of text, which the command line prints after the
    sentence (``start[KT] . M L |finish``); the pages draw the board instead."""
    aloud: bool = False
    """Worth saying aloud: a page that speaks (the table's, with its sound on) says it as it
    comes, as a player at the table would call it out (an attack landing, a winner)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "de", UNNAMED.sub(r"Platz \1", self.de))

    def __str__(self) -> str:
        return f"{self.en}  {self.board}" if self.board else self.en

    def out_loud(self) -> Sentence:
        """The same sentence, marked to be said aloud (:attr:`aloud`).

        >>> Sentence("Lava!", "Lava!").out_loud().aloud
        True
        """
        return replace(self, aloud=True)

    def said(self, lang: str) -> str:
        """The sentence in ``lang`` (English for a language it is not written in)."""
        return self.de if lang == "de" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "de": self.de}

    @classmethod
    def join(cls, sep: str, *parts: Sentence | str) -> Sentence:
        """Parts joined in each language; a plain text part (a name, a number) is the same in
        both."""
        return cls(
            sep.join(p.en if isinstance(p, Sentence) else p for p in parts),
            sep.join(p.de if isinstance(p, Sentence) else p for p in parts),
        )


def counted(n: int, en: tuple[str, str], de: tuple[str, str]) -> Sentence:
    """``n`` things in each language: ``en`` and ``de`` are the words for one and for many, with
    ``{n}`` where the number goes; a form without it says the number in words ("a die", "eine
    Scholle"). In both languages only exactly 1 takes the singular: 0 is many.

    >>> counted(1, ("{n} chip", "{n} chips"), ("{n} Chip", "{n} Chips")).to_json()
    {'en': '1 chip', 'de': '1 Chip'}
    >>> counted(0, ("{n} point", "{n} points"), ("{n} Punkt", "{n} Punkte")).to_json()
    {'en': '0 points', 'de': '0 Punkte'}
    """
    form = 0 if n == 1 else 1
    return Sentence(en[form].replace("{n}", str(n)), de[form].replace("{n}", str(n)))


def said_of(exc: BaseException) -> Sentence | str:
    """What an exception says: the :class:`Sentence` it was raised with, or its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Sentence) else str(exc)


def told(exc: BaseException, lang: str) -> str:
    """An exception's message in ``lang``, where it was raised with a :class:`Sentence`."""
    said = said_of(exc)
    return said.said(lang) if isinstance(said, Sentence) else said
