"""The board of Cool am Pool: colour columns, rows of loungers, the lifeguard's track, the towels.

The board comes from ``data/cool-am-pool.toml`` or a table's own copy; what no rulebook fixes is
marked UNVERIFIED DEFAULT there. Loungers are numbered by their place in :func:`loungers`: the
5-point loungers by the pool first, then the rows from the pool outwards (4, 3, 2), each row
colour by colour. A lifeguard position is an index into the track, clockwise from the diving
board.

>>> board = default_board()
>>> [lounger.label for lounger in loungers(board)][:4]
['5-point a', '5-point b', 'red 4', 'yellow 4']
>>> closed(board, 0), closed(board, 5)
(('column', 'red'), ('row', 4))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from companion.datafile import DataFile
from companion.errors import BadOptions, DataFileError
from companion.games.sentence import Sentence

BOARD_FILE = "cool-am-pool.toml"
ROWS = (4, 3, 2)
"""The rows of towels, from the pool outwards; each is worth its number."""
FIVE = 5
"""The value of the loungers by the pool, and the dice of one colour they need."""
LIFEGUARD = "lifeguard"
"""The sixth face of every die."""
COLOURS = 5
TOWELS_EACH = 16
SEAT_COUNTS = (2, 3, 4)

COLUMN, ROW = "column", "row"
T = TypeVar("T")


@dataclass(frozen=True)
class BoardData:
    """A board as the data file describes it; hashable, so derived tables are cached."""

    colours: tuple[str, ...]
    rows: tuple[tuple[int, tuple[int, ...]], ...]
    """``(value, loungers per colour)`` for rows 4, 3 and 2, in that order."""
    five_point: int
    track: tuple[str, ...]
    """The lifeguard's spaces clockwise from the diving board: colours and row numbers."""
    towels: tuple[tuple[int, int], ...]
    """``(players, towels each player lays at setup)`` for 2, 3 and 4 players."""

    @property
    def faces(self) -> tuple[str, ...]:
        """The faces of each die: the five colours and the lifeguard."""
        return (*self.colours, LIFEGUARD)

    def towels_for(self, players: int) -> int:
        return dict(self.towels)[players]


@dataclass(frozen=True)
class Lounger:
    """One lounger: its column's colour (None by the pool), its row (its value) and a label."""

    number: int
    colour: str | None
    row: int
    label: str


@cache
def loungers(board: BoardData) -> tuple[Lounger, ...]:
    """Every lounger of the board: the 5-point ones, then rows 4, 3 and 2, colour by colour."""
    out: list[Lounger] = []
    for i in range(board.five_point):
        suffix = f" {_letter(i)}" if board.five_point > 1 else ""
        out.append(Lounger(len(out), None, FIVE, f"{FIVE}-point{suffix}"))
    for value, counts in board.rows:
        for colour, count in zip(board.colours, counts, strict=True):
            for i in range(count):
                suffix = _letter(i) if count > 1 else ""
                out.append(Lounger(len(out), colour, value, f"{colour} {value}{suffix}"))
    return tuple(out)


def _letter(i: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[i]


def closed(board: BoardData, position: int) -> tuple[str, str | int]:
    """What the lifeguard's space closes: ``("column", colour)`` or ``("row", value)``."""
    space = board.track[position]
    return (COLUMN, space) if space in board.colours else (ROW, int(space))


def is_closed(board: BoardData, position: int, lounger: Lounger) -> bool:
    """Whether the lifeguard's space forbids the lounger; the 5-point loungers lie in no column
    and no row, so the lifeguard never closes them."""
    kind, what = closed(board, position)
    return lounger.colour == what if kind == COLUMN else lounger.row == what


# Checks shared by the data file and the options a game travels with (ValueError says why)


def check_colours(colours: Any) -> tuple[str, ...]:
    if not isinstance(colours, list | tuple) or not all(isinstance(c, str) for c in colours):
        raise ValueError('the colours are a list of names, like ["red", "yellow", ...]')
    names = tuple(c.strip() for c in colours)
    if len(names) != COLOURS:
        raise ValueError(f"a die has {COLOURS} colours, not {len(names)}")
    for name in names:
        if not name or " " in name or name.isdigit() or name == LIFEGUARD:
            raise ValueError(
                f"{name!r} cannot name a colour: use one word that is not a number or {LIFEGUARD!r}"
            )
    if len(set(names)) != len(names):
        raise ValueError("each colour is named once")
    return names


def parse_row(entry: str, colours: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """One row of the notation ``4  1 1 1 1 1``: its value, then loungers per colour."""
    value, *counts = entry.split()
    if value not in {str(r) for r in ROWS}:
        raise ValueError(f"a row is worth 2, 3 or 4, not {value!r}")
    if len(counts) != len(colours):
        raise ValueError(
            f"row {value} needs {len(colours)} counts, one per colour, not {len(counts)}"
        )
    if not all(c.isdigit() for c in counts):
        raise ValueError(f"row {value}: the counts must be whole numbers, not {' '.join(counts)}")
    return int(value), tuple(int(c) for c in counts)


def check_rows(
    rows: Iterable[tuple[int, tuple[int, ...]]],
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Rows 4, 3 and 2, each once, in that order."""
    by_value: dict[int, tuple[int, ...]] = {}
    for value, counts in rows:
        if value in by_value:
            raise ValueError(f"row {value} is given twice")
        by_value[value] = counts
    missing = [r for r in ROWS if r not in by_value]
    if missing:
        raise ValueError(f"row {missing[0]} is missing: the board has rows 4, 3 and 2")
    return tuple((r, by_value[r]) for r in ROWS)


def parse_track(spaces: Iterable[str], colours: Sequence[str]) -> tuple[str, ...]:
    """The lifeguard's track: each colour twice and each row number twice, in any order."""
    track = tuple(str(s).strip() for s in spaces)
    known = (*colours, *(str(r) for r in ROWS))
    for space in track:
        if space not in known:
            raise ValueError(f"unknown track space {space!r}: use a colour or 2, 3 or 4")
    counts = Counter(track)
    for space in known:
        if counts[space] != 2:
            raise ValueError(
                f"the track has {space!r} {counts[space]} times; each colour and each row "
                "number has two spaces (the two ends of its column or row)"
            )
    return track


def check_towels(
    towels: Mapping[int, int], rows: Sequence[tuple[int, tuple[int, ...]]]
) -> tuple[tuple[int, int], ...]:
    """Towels each player lays, by the number of players: together they cover rows 2-4."""
    covered = sum(sum(counts) for _, counts in rows)
    for players in SEAT_COUNTS:
        if players not in towels:
            raise ValueError(f"say how many towels each of {players} players lays")
        each = towels[players]
        if isinstance(each, bool) or not isinstance(each, int) or not 1 <= each <= TOWELS_EACH:
            raise ValueError(f"{players} players lay 1 to {TOWELS_EACH} towels each, not {each!r}")
        if players * each != covered:
            raise ValueError(
                f"{players} players x {each} towels = {players * each}, but rows 2-4 hold "
                f"{covered} loungers: the towels must cover them exactly"
            )
    extra = sorted(set(towels) - set(SEAT_COUNTS))
    if extra:
        raise ValueError(f"Cool am Pool is for 2 to 4 players, not {extra[0]}")
    return tuple((p, towels[p]) for p in SEAT_COUNTS)


# The data file


def load_board(path: str | Path | None = None) -> BoardData:
    """The board from a board file (the bundled default when ``path`` is None)."""
    doc = DataFile.bundled(BOARD_FILE) if path is None else DataFile.read(path)
    _only(doc, (), {"dice", "loungers", "lifeguard", "towels"})
    _only(doc, ("dice",), {"colours"})
    _only(doc, ("loungers",), {"rows", "five_point"})
    _only(doc, ("lifeguard",), {"track"})
    colours = _checked(doc, ("dice", "colours"), check_colours, doc.get(("dice", "colours"), list))
    rows = []
    for offset, entry in doc.notation_lines(("loungers", "rows")):
        try:
            rows.append(parse_row(entry, colours))
        except ValueError as exc:
            doc.fail(("loungers", "rows"), str(exc), offset)
    rows_checked = _checked(doc, ("loungers", "rows"), check_rows, rows)
    five = doc.get(("loungers", "five_point"), int)
    if not 0 <= five <= 4:
        doc.fail(("loungers", "five_point"), f"five_point must be 0 to 4, not {five}")
    track_text = doc.get(("lifeguard", "track"), str)
    track = _checked(
        doc, ("lifeguard", "track"), lambda t: parse_track(t, colours), track_text.split()
    )
    table = doc.get(("towels",), dict)
    towels: dict[int, int] = {}
    for key in table:
        if key not in {str(p) for p in range(1, 10)}:
            doc.fail(
                ("towels", key), f"unknown key {key!r}: the towels are given for 2, 3 and 4 players"
            )
        towels[int(key)] = table[key]
    towel_counts = _checked(doc, ("towels",), lambda t: check_towels(t, rows_checked), towels)
    return BoardData(colours, rows_checked, five, track, towel_counts)


def _only(doc: DataFile, table: tuple[str, ...], keys: set[str]) -> None:
    node = doc.get(table, dict) if table else doc.data
    for key in sorted(set(node) - keys):
        where = " in [" + ".".join(table) + "]" if table else ""
        doc.fail(
            (*table, key), f"unknown key {key!r}{where}: the keys are {', '.join(sorted(keys))}"
        )


def _checked(doc: DataFile, keys: tuple[str, ...], check: Callable[[Any], T], value: Any) -> T:
    """``check(value)``, its ValueError reported at the line of ``keys``."""
    try:
        return check(value)
    except ValueError as exc:
        line = doc.line_of(*keys)
        raise DataFileError(doc.name, line, f"{'.'.join(keys)}: {exc}") from None


@cache
def default_board() -> BoardData:
    return load_board()


# The board as it travels in a game's options


def board_to_json(board: BoardData) -> dict[str, Any]:
    return {
        "colours": list(board.colours),
        "rows": {str(value): list(counts) for value, counts in board.rows},
        "five_point": board.five_point,
        "track": list(board.track),
        "towels": {str(players): each for players, each in board.towels},
    }


def board_from_json(raw: Any) -> BoardData:
    """A board from the options JSON; :class:`BadOptions` says what is wrong."""
    if not isinstance(raw, Mapping):
        raise BadOptions(
            Sentence(
                "board must be an object with colours, rows, five_point, track, towels",
                "board muss ein Objekt mit colours, rows, five_point, track, towels sein",
            )
        )
    known = {"colours", "rows", "five_point", "track", "towels"}
    unknown = sorted(set(raw) - known)
    missing = sorted(known - set(raw))
    if unknown or missing:
        keys = ", ".join(sorted(known))
        if unknown:
            what = Sentence(f"unknown key {unknown[0]!r}", f"unbekannter Schlüssel {unknown[0]!r}")
        else:
            what = Sentence(f"missing key {missing[0]!r}", f"es fehlt der Schlüssel {missing[0]!r}")
        raise BadOptions(
            Sentence(
                f"board: {what.en}; a board has {keys}", f"board: {what.de}; ein board hat {keys}"
            )
        )
    try:
        colours = check_colours(raw["colours"])
        if not isinstance(raw["rows"], Mapping):
            raise _bad(
                'rows must be an object like {"4": [1, 1, 1, 1, 1], ...}',
                'rows muss ein Objekt wie {"4": [1, 1, 1, 1, 1], ...} sein',
            )
        rows = []
        for value, counts in raw["rows"].items():
            if not isinstance(counts, list | tuple) or not all(
                type(c) is int and c >= 0 for c in counts
            ):
                raise _bad(
                    f"row {value}: the counts must be whole numbers",
                    f"Reihe {value}: Die Anzahlen müssen ganze Zahlen sein",
                )
            rows.append(parse_row(" ".join([str(value), *map(str, counts)]), colours))
        checked_rows = check_rows(rows)
        five = raw["five_point"]
        if type(five) is not int or not 0 <= five <= 4:
            raise _bad(
                f"five_point must be 0 to 4, not {five!r}",
                f"five_point muss 0 bis 4 sein, nicht {five!r}",
            )
        if not isinstance(raw["track"], list | tuple):
            raise _bad("track must be a list of spaces", "track muss eine Liste von Feldern sein")
        track = parse_track(raw["track"], colours)
        if not isinstance(raw["towels"], Mapping):
            raise _bad(
                'towels must be an object like {"2": 12, "3": 8, "4": 6}',
                'towels muss ein Objekt wie {"2": 12, "3": 8, "4": 6} sein',
            )
        if not all(str(k) in {"1", "2", "3", "4", "5", "6"} for k in raw["towels"]):
            raise _bad(
                "towels are given for 2, 3 and 4 players",
                "towels wird für 2, 3 und 4 Spieler angegeben",
            )
        towels = {int(k): v for k, v in raw["towels"].items()}
        towel_counts = check_towels(towels, checked_rows)
    except BadOptions:
        raise
    except (ValueError, TypeError) as exc:
        raise BadOptions(Sentence.join(": ", "board", str(exc))) from None
    return BoardData(colours, checked_rows, five, track, towel_counts)


def _bad(en: str, de: str) -> BadOptions:
    """A wrong part of the board option, said in both languages after "board: "."""
    return BadOptions(Sentence(f"board: {en}", f"board: {de}"))
