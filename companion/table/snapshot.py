"""The public status made from what the table holds: pure, and it changes nothing.

Every estimate was made by the sensing pass, the game's summary by its last change; the builder
only puts them together, seat by seat, so a snapshot made between two passes (an action's, a
count's beat) shows the same cube the pass did.

>>> from companion.config import default_config
>>> from companion.table.station import Station
>>> seats = default_config().seats
>>> status = build(Held(table_seats=seats, stations={1: Station(1)}, simulated=True))
>>> [(s.seat, s.playing, s.ice) for s in status.seats][:2]
[(1, False, None), (2, False, None)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.config import SeatConfig
from companion.games.seats import SeatInfo
from companion.table.count import Count
from companion.table.station import ABSENT, Station
from companion.table.status import Broker, GameSummary, Restart, SeatStatus, Sensors, Status

UNHEARD = Sensors(ABSENT, ABSENT)


@dataclass(frozen=True)
class Held:
    """What the table holds that its status is made from: the game's summary, its seats (by
    number) and the ones a phone holds, the table's own seats and their stations, the count,
    the restart, whether it is simulated and how fast, the wall's time, why it stores nothing,
    whether the referee's code shows, and where the MQTT broker stands."""

    game: GameSummary | None = None
    playing: Mapping[int, SeatInfo] = field(default_factory=dict)
    joined: frozenset[int] = frozenset()
    table_seats: Sequence[SeatConfig] = ()
    stations: Mapping[int, Station] = field(default_factory=dict)
    count: Count | None = None
    restart: Restart | None = None
    simulated: bool = False
    speed: float = 1.0
    wall: float = 0.0
    read_only: str | None = None
    referee_code: bool = False
    broker: Broker | None = None


def build(held: Held) -> Status:
    """The status: the game, each seat of the table or the game (by number), the count."""
    game, playing, stations, count = held.game, held.playing, held.stations, held.count
    names: dict[int, tuple[str, str | None]] = {
        s.seat: (s.name, s.colour) for s in held.table_seats
    }
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
                joined=number in held.joined,
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
        restart=held.restart,
        simulated=held.simulated,
        referee_code=held.referee_code,
        speed=held.speed,
        time=round(held.wall, 3),
        read_only=held.read_only,
        broker=held.broker,
    )
