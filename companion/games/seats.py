"""The seats at the table: numbered 1..N clockwise, each with a player's name and colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.config import COLOURS, unsafe_character
from companion.errors import BadOptions
from companion.games.sentence import Sentence


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    colour: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "colour": self.colour}


def default_seats(count: int) -> tuple[SeatInfo, ...]:
    """``count`` seats named by number, in the default colours."""
    return tuple(
        SeatInfo(i, f"Seat {i}", COLOURS[(i - 1) % len(COLOURS)]) for i in range(1, count + 1)
    )


GERMAN = {"name": "der Name", "colour": "die Farbe"}


def seats_from_json(raw: Any, allowed: range) -> tuple[SeatInfo, ...]:
    """Seats from JSON (a list of numbers, or of ``{"seat", "name"?, "colour"?}``), checked.

    A name is shown on every phone at the table, so it may hold no control character and no
    bidirectional control (:func:`~companion.config.unsafe_character`); a colour is one of the
    table's (:data:`~companion.config.COLOURS`). The order of the result is clockwise: by seat
    number.
    """
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise BadOptions(Sentence("seats must be a list", "seats muss eine Liste sein"))
    if not allowed.start <= len(raw) < allowed.stop:
        low, high = allowed.start, allowed.stop - 1
        raise BadOptions(
            Sentence(
                f"this game is for {low} to {high} seats, not {len(raw)}",
                f"dieses Spiel ist für {low} bis {high} Plätze, nicht {len(raw)}",
            )
        )
    seats = []
    for entry in raw:
        if isinstance(entry, int) and not isinstance(entry, bool):
            entry = {"seat": entry}
        if not isinstance(entry, dict):
            raise BadOptions(
                Sentence(
                    f"a seat must be a number or an object, not {entry!r}",
                    f"ein Platz ist eine Zahl oder ein Objekt, nicht {entry!r}",
                )
            )
        unknown = sorted(set(entry) - {"seat", "name", "colour"})
        if unknown:
            raise BadOptions(
                Sentence(
                    f"unknown seat field {unknown[0]!r}",
                    f"unbekanntes Feld {unknown[0]!r} im Platz",
                )
            )
        number = entry.get("seat")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 6:
            raise BadOptions(
                Sentence(
                    f"a seat number is a whole number from 1 to 6, not {number!r}",
                    f"die Nummer eines Platzes ist eine ganze Zahl von 1 bis 6, nicht {number!r}",
                )
            )
        name = entry.get("name", f"Seat {number}")
        colour = entry.get("colour", COLOURS[(number - 1) % len(COLOURS)])
        for label, value in (("name", name), ("colour", colour)):
            if not isinstance(value, str) or not value.strip() or len(value) > 40:
                raise BadOptions(
                    Sentence(
                        f"seat {number}: the {label} must be 1 to 40 characters",
                        f"Platz {number}: {GERMAN[label]} muss 1 bis 40 Zeichen lang sein",
                    )
                )
            unsafe = unsafe_character(value.strip())
            if unsafe is not None:
                raise BadOptions(
                    Sentence(
                        f"seat {number}: the {label} holds {unsafe}: leave it out",
                        f"Platz {number}: {GERMAN[label]} enthält {unsafe}: bitte weglassen",
                    )
                )
        if colour.strip() not in COLOURS:
            listed = ", ".join(COLOURS)
            raise BadOptions(
                Sentence(
                    f"seat {number}: the colour {colour.strip()!r} is not one of the table's: "
                    + listed,
                    f"Platz {number}: die Farbe {colour.strip()!r} hat der Tisch nicht: " + listed,
                )
            )
        seats.append(SeatInfo(number, name.strip(), colour.strip()))
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise BadOptions(
            Sentence("each seat can play only once", "jeder Platz kann nur einmal mitspielen")
        )
    return tuple(sorted(seats, key=lambda s: s.seat))
