"""The public status made from what the table holds: pure, and it changes nothing.

Every estimate was made by the sensing pass, the game's summary by its last change; the builder
only puts them together, seat by seat, so a snapshot made between two passes (an action's, a
count's beat) shows the same cube the pass did.

>>> from companion.config import default_config
>>> from companion.table.station import Station
>>> seats = default_config().seats
>>> status = build(None, {}, frozenset(), seats, {1: Station(1)}, None, None, True, 1.0, 0.0)
>>> [(s.seat, s.playing, s.ice) for s in status.seats][:2]
[(1, False, None), (2, False, None)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.config import SeatConfig
from companion.games.seats import SeatInfo
from companion.table.count import Count
from companion.table.station import ABSENT, Station
from companion.table.status import Broker, GameSummary, Restart, SeatStatus, Sensors, Status

UNHEARD = Sensors(ABSENT, ABSENT)


def build(
    game: GameSummary | None,
    playing: Mapping[int, SeatInfo],
    joined: frozenset[int],
    table_seats: Sequence[SeatConfig],
    stations: Mapping[int, Station],
    count: Count | None,
    restart: Restart | None,
    simulated: bool,
    speed: float,
    wall: float,
    read_only: str | None = None,
    referee_code: bool = False,
    broker: Broker | None = None,
) -> Status:
    """The status: the game, each seat of the table or the game (by number), the count."""
    names: dict[int, tuple[str, str | None]] = {s.seat: (s.name, s.colour) for s in table_seats}
    names.update({n: (s.name, s.colour) for n, s in playing.items()})
    seats = []
    for number in sorted(set(names) | set(stations)):
        name, colour = names.get(number, (f"Seat {number}", None))
        station = stations.get(number)
        seats.append(
            SeatStatus(
                seat=number,
                name=name,
                colour=colour,
                playing=number in playing,
                joined=number in joined,
                ice=station.ice() if station else None,
                air_c=None if station is None or station.air_c is None else round(station.air_c, 2),
                sensors=station.sensors() if station else UNHEARD,
                weigh_in=station.weigh_in if station else None,
                pad_zero_g=station.pad_zero_g if station else None,
                uncalibrated=station.uncalibrated if station else (),
            )
        )
    return Status(
        game=game,
        seats=tuple(seats),
        count=count.status() if count is not None else None,
        restart=restart,
        simulated=simulated,
        referee_code=referee_code,
        speed=speed,
        time=round(wall, 3),
        read_only=read_only,
        broker=broker,
    )
