"""The table's MQTT messages, made from its public status and happenings: pure data.

Every topic is under ``companion/<table>/`` (:func:`root`): ``availability`` (retained,
``online`` or ``offline``, the last will), ``status`` (retained: :class:`TableStatus`),
``seat/<n>`` (retained: :class:`SeatReading`) and ``event`` (not retained: :func:`event`).
Nothing here sees more than the public status does, so no payload can hold a secret the phones'
table page does not; :mod:`companion.web.asyncapi` documents them all.

>>> seat = {"seat": 2, "name": "Tom", "playing": True, "ice": None, "air_c": 21.5,
...     "sensors": {"thermometer": "ok", "scale": "absent"}, "weigh_in": None}
>>> reading(seat, 1_700_000_000.0).to_json()["scale"]
'absent'
>>> event(Happening(7, "attack", 1_700_000_000.0, {"seat": 2, "attack": "breath"}))
{'n': 7, 'kind': 'attack', 'time': 1700000000.0, 'seat': 2, 'attack': 'breath'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from companion.table.happenings import Happening
from companion.table.status import Seat, SensorStatus, Shown

PREFIX = "companion"
ONLINE, OFFLINE = "online", "offline"


def root(table: str) -> str:
    """The topic every message of ``table`` is under (with its trailing slash)."""
    return f"{PREFIX}/{table}/"


@dataclass(frozen=True)
class TableStatus(Shown):
    """The ``status`` topic: the table's id and name, the address its phones open, the game,
    whose turn and who won at a glance, and its public status (what ``GET /api/status``
    answers)."""

    table: str
    name: str
    address: Annotated[str, {"description": "The table page's address on the table's network."}]
    game: Annotated[str | None, {"description": "The game's title; null before the first."}]
    turn: Annotated[str | None, {"description": "Whose turn it is: the seat's name."}]
    winner: Annotated[str | None, {"description": "Who won, once the rules ended the game."}]
    keepalive_s: Annotated[
        int,
        {
            "description": (
                "The table's MQTT keepalive: it publishes its status at least this often, "
                "so a reader may call it gone after this long without one."
            )
        },
    ]
    status: dict[str, Any]


@dataclass(frozen=True)
class SeatReading(Shown):
    """A ``seat/<n>`` topic: the seat's ice (grams, 1 sigma, the countdown to melted and its
    range, all null without a cube), the air by its station and its sensors."""

    seat: Seat
    name: str
    playing: bool
    grams: Annotated[float | None, {"minimum": 0}]
    sigma_g: Annotated[float | None, {"minimum": 0}]
    eta_s: Annotated[int | None, {"minimum": 0}]
    eta_range_s: tuple[int, int] | None
    melted: bool
    air_c: float | None
    thermometer: SensorStatus
    scale: SensorStatus
    weigh_in: Literal["requested", "weighing", "unsettled"] | None
    time: Annotated[float, {"description": "Unix seconds of the status it was read from."}]


def reading(seat: dict[str, Any], time: float) -> SeatReading:
    """The ``seat/<n>`` payload of one seat of a status."""
    ice = seat["ice"] or {}
    return SeatReading(
        seat=seat["seat"],
        name=seat["name"],
        playing=seat["playing"],
        grams=ice.get("grams"),
        sigma_g=ice.get("sigma_g"),
        eta_s=ice.get("eta_s"),
        eta_range_s=tuple(ice["eta_range_s"]) if ice.get("eta_range_s") else None,
        melted=bool(ice.get("melted", False)),
        air_c=seat["air_c"],
        thermometer=seat["sensors"]["thermometer"],
        scale=seat["sensors"]["scale"],
        weigh_in=seat["weigh_in"],
        time=time,
    )


def readings(status: dict[str, Any]) -> dict[int, SeatReading]:
    """Every seat's payload of a status, by seat."""
    return {s["seat"]: reading(s, status["time"]) for s in status["seats"]}


def event(happening: Happening) -> dict[str, Any]:
    """The ``event`` payload of a happening: its number, kind and time, then its facts."""
    return {"n": happening.n, "kind": happening.kind, "time": happening.time, **happening.fields}


def encoded(payload: Shown | dict[str, Any] | str) -> bytes:
    """A payload as the broker carries it: JSON (compact, UTF-8), or a plain word."""
    if isinstance(payload, str):
        return payload.encode()
    body = payload.to_json() if isinstance(payload, Shown) else payload
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
