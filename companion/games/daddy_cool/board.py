"""The board of Daddy Cool: the path of floes and the dice, in a short notation, and the rule
that makes the path longer.

The path is written from the start to the wash tub, one symbol a floe: ``.`` an ice floe, ``C``
a cracked floe, ``T`` the wash tub (once, and last). A die is written as its faces, each
``floe`` or ``blank``.

In a game every floe keeps its identity: its index in the path as first laid. The path in play
is a tuple of these identities, so floes that move or go back in the box stay the same floes.

>>> parse_path(". . C . T")
('plain', 'plain', 'cracked', 'plain', 'tub')
>>> path_notation(parse_path(" . c  t "))
'. C T'
>>> parse_die("floe floe blank")
('floe', 'floe', 'blank')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from companion.datafile import DataFile
from companion.errors import DataFileError
from companion.games.sentence import Sentence

BOARD_FILE = "daddy-cool.toml"
PLAIN, CRACKED, TUB = "plain", "cracked", "tub"
SYMBOL = {PLAIN: ".", CRACKED: "C", TUB: "T"}
FLOE, BLANK = "floe", "blank"
MAX_DICE = 12
MAX_FACES = 20


@dataclass(frozen=True)
class Board:
    """The path as first laid (floe kinds, the tub last) and each die's faces."""

    path: tuple[str, ...]
    dice: tuple[tuple[str, ...], ...]


def parse_path(text: str) -> tuple[str, ...]:
    """Floe kinds from the notation ``. C T``; ``ValueError`` says what is wrong."""
    kinds = []
    for symbol in text.split():
        kind = next((k for k, s in SYMBOL.items() if s == symbol.upper()), None)
        if kind is None:
            raise ValueError(
                f"unknown floe {symbol!r}: use '.' (an ice floe), 'C' (a cracked floe) "
                "or 'T' (the wash tub, at the end)"
            )
        kinds.append(kind)
    if not kinds or kinds[-1] != TUB:
        raise ValueError("the path must end with the wash tub 'T'")
    if kinds.count(TUB) > 1:
        raise ValueError("the path has one wash tub 'T', at its end")
    if len(kinds) < 2:
        raise ValueError("the path needs at least one floe before the wash tub")
    return tuple(kinds)


def path_notation(kinds: Sequence[str]) -> str:
    return " ".join(SYMBOL[k] for k in kinds)


def parse_die(text: str) -> tuple[str, ...]:
    """A die's faces from ``floe floe blank``; ``ValueError`` says what is wrong."""
    faces = tuple(text.split())
    for face in faces:
        if face not in (FLOE, BLANK):
            raise ValueError(f"unknown face {face!r}: a face is 'floe' or 'blank'")
    if not faces:
        raise ValueError("a die needs at least one face")
    if len(faces) > MAX_FACES:
        raise ValueError(f"a die has at most {MAX_FACES} faces, not {len(faces)}")
    return faces


def check_dice(dice: Sequence[tuple[str, ...]]) -> Sentence | None:
    """What is wrong with a whole set of dice, or None."""
    if not 1 <= len(dice) <= MAX_DICE:
        return Sentence(
            f"there must be 1 to {MAX_DICE} dice, not {len(dice)}",
            f"es muss 1 bis {MAX_DICE} Würfel geben, nicht {len(dice)}",
        )
    if not any(FLOE in faces for faces in dice):
        return Sentence(
            "no die has a floe face: Daddy Cool could never move",
            "kein Würfel hat eine Seite mit Scholle: Daddy Cool käme nie voran",
        )
    return None


def load_board(path: str | Path | None = None) -> Board:
    """The board from a data file (the bundled default when ``path`` is None)."""
    doc = DataFile.bundled(BOARD_FILE) if path is None else DataFile.read(path)
    for key in sorted(set(doc.data) - {"path", "dice"}):
        doc.fail((key,), f"unknown key {key!r}: a Daddy Cool file holds [path] and [dice]")
    for table, known in (("path", "floes"), ("dice", "faces")):
        for key in sorted(set(doc.get((table,), dict)) - {known}):
            doc.fail((table, key), f"unknown key '{table}.{key}': [{table}] holds only {known}")
    try:
        kinds = parse_path(doc.get(("path", "floes"), str))
    except ValueError as exc:
        doc.fail(("path", "floes"), f"path.floes: {exc}")
    dice = []
    for offset, entry in doc.notation_lines(("dice", "faces")):
        try:
            dice.append(parse_die(entry))
        except ValueError as exc:
            doc.fail(("dice", "faces"), f"die {len(dice) + 1}: {exc}", offset)
    problem = check_dice(dice)
    if problem:
        line = doc.line_of("dice", "faces")
        raise DataFileError(doc.name, line, f"dice.faces: {problem.en}")
    return Board(kinds, tuple(dice))


@cache
def default_board() -> Board:
    return load_board()


def lengthen(
    path: tuple[int, ...], kinds: Sequence[str], last_cub: int
) -> tuple[tuple[int, ...], int | None, tuple[int, ...]]:
    """The path after "The Path Gets Longer", the floe put back in the box, the floes relaid.

    ``last_cub`` is the position of the cub furthest behind (0: the start, ``i``: on
    ``path[i - 1]``). When at least two floes lie behind it, they are taken away: the first
    goes back in the box, the others are laid before the wash tub, cracked floes first (in
    their order on the path, then the plain ones in theirs).

    >>> kinds = parse_path(". . C . . T")
    >>> lengthen((0, 1, 2, 3, 4, 5), kinds, last_cub=4)
    ((3, 4, 2, 1, 5), 0, (2, 1))
    >>> lengthen((0, 1, 2, 3, 4, 5), kinds, last_cub=2)
    ((0, 1, 2, 3, 4, 5), None, ())
    """
    behind = path[: max(0, last_cub - 1)]
    if len(behind) < 2:
        return path, None, ()
    boxed, *rest = behind
    relaid = tuple(sorted(rest, key=lambda floe: kinds[floe] != CRACKED))
    return (*path[len(behind) : -1], *relaid, path[-1]), boxed, relaid
