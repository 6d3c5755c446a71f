"""What a game can be started with at this table: the games and their hints, the seats.

>>> from companion.config import default_config
>>> [s.seat for s in seats_of([3, 1], range(2, 5), default_config().seats)]
[1, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.config import COLOURS, SeatConfig
from companion.games import GAMES
from companion.games.effects import TableFacts
from companion.games.seats import SeatInfo, seats_from_json


def setup(
    table_seats: Sequence[SeatConfig],
    facts: TableFacts,
    own: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """What a game can be started with: the games, each with whether it uses the ice and its
    options at the table's facts now (with the data of the table's ``own`` box, by game), and
    the table's seats and colours."""
    own = own or {}
    return {
        "games": [
            {
                "name": name,
                "title": eng.TITLE,
                "seats": {"min": eng.SEATS[0], "max": eng.SEATS[-1]},
                "ice": eng.USES_ICE,
                "options": [
                    option.to_json()
                    for option in eng.start_options(replace(facts, own=own.get(name, {})))
                ],
            }
            for name, eng in GAMES.items()
        ],
        "seats": [{"seat": s.seat, "name": s.name, "colour": s.colour} for s in table_seats],
        "colours": list(COLOURS),
    }


def seats_of(raw: Any, allowed: range, table_seats: Sequence[SeatConfig]) -> tuple[SeatInfo, ...]:
    """The seats that play: the table's own when not given; numbers take the table's names."""
    table = {s.seat: {"seat": s.seat, "name": s.name, "colour": s.colour} for s in table_seats}
    if raw is None:
        raw = list(table.values())
    if isinstance(raw, list):
        raw = [
            {**table.get(e, {}), "seat": e} if isinstance(e, int) and not isinstance(e, bool) else e
            for e in raw
        ]
    return seats_from_json(raw, allowed)
