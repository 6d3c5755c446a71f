"""What the table shows everyone: the public status as typed objects, and their JSON.

``/api/status`` and every event of ``/api/stream`` are a :class:`Status`; the API's document
derives its schemas from these classes, so a field added here is a field described there.

>>> Ice(5.2, 0.3, 86.7, (76.5, 96.9), 3600, (2900, 4400), False, False).to_json()["eta_range_s"]
[2900, 4400]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from companion.games import GAMES
from companion.games.fair import Dealt
from companion.sensors.calibration import PadStep

WeighIn = Literal["requested", "weighing", "unsettled"]
"""Where a seat's weigh-in stands: asked for, the cap on the pad, or the pad not settling."""
Lacks = tuple[PadStep, ...]
"""The calibration steps a seat's pad still lacks before it weighs ice."""

Seat = Annotated[int, {"minimum": 1, "maximum": 6}]
SensorStatus = Annotated[str, {"pattern": r"^(ok|absent|none|fault: .+)$"}]


class Shown:
    """A typed part of the status: ``to_json()`` gives its fields in order, nested ones too."""

    def to_json(self) -> dict[str, Any]:
        names = _NAMES.get(type(self))
        if names is None:  # dataclasses.fields builds them at every call: once a kind is enough
            names = _NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return {name: _plain(getattr(self, name)) for name in names}


_NAMES: dict[type, tuple[str, ...]] = {}
"""Each kind of part's field names, in order."""


def _plain(value: Any) -> Any:
    if isinstance(value, Shown):
        return value.to_json()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Ice(Shown):
    """The estimate of a seat's cube: grams left and their uncertainty, the share of the cube
    left before the table calls it gone, the countdown to that moment with its range, and
    whether the table calls it gone now. A seat without a pad gets only the countdown, from the
    air alone (``basis`` ``air``): no grams, no share, and never called gone by the table."""

    grams: Annotated[
        float | None,
        {
            "description": (
                "The ice left, the estimate's mean: near 0 g a little above its median, which is "
                "what the table calls melted below 0.1 g (so 0.11 g may show beside melted). "
                "Null without a pad."
            )
        },
    ]
    sigma_g: Annotated[float | None, {"minimum": 0}]
    percent: Annotated[
        float | None,
        {
            "minimum": 0,
            "maximum": 100,
            "description": (
                "The share of the cube left above the melted line (0.1 g): 0 when the table "
                "proposes melted, as the countdown is."
            ),
        },
    ]
    band: Annotated[
        tuple[float, float] | None,
        {"description": "The gauge's band: the percent at 2 sigma below and above the grams."},
    ]
    eta_s: Annotated[
        int | None,
        {
            "description": (
                "The countdown: seconds until the table will propose the cube melted, at this "
                "air and without further attacks (0 once it does; null when it never melts)."
            )
        },
    ]
    eta_range_s: Annotated[
        tuple[int, int] | None,
        {"description": "The countdown's range, about 95 % sure: the soonest and the latest."},
    ]
    learning: Annotated[
        bool,
        {
            "description": (
                "The countdown is still learning: its range spans more than a factor of two "
                "(too few weigh-ins yet to know how fast this cube melts)."
            )
        },
    ]
    melted: bool
    basis: Annotated[
        Literal["scale", "air"],
        {
            "description": (
                "What the estimate stands on: the seat's pad (``scale``), or the air alone "
                "(``air``: a seat without a pad, at a table that knows its air; a model-only "
                "countdown, its seat says when the cube has melted)."
            )
        },
    ] = "scale"


@dataclass(frozen=True)
class Sensors(Shown):
    """Each sensor of a seat: ``ok``, ``absent`` (not heard from), ``none`` (the table has none
    at this seat) or ``fault: <reason>``."""

    thermometer: SensorStatus
    scale: SensorStatus


@dataclass(frozen=True)
class SeatStatus(Shown):
    """One seat: who sits there, whether it plays the game (and a phone holds it), its ice, air
    and sensors."""

    seat: Seat
    name: str
    colour: str | None
    playing: bool
    joined: Annotated[bool, {"description": "A phone claimed the seat and holds it."}]
    ice: Ice | None
    air_c: Annotated[float | None, {"description": "The air by the station, in C."}]
    sensors: Sensors
    weigh_in: WeighIn | None
    pad_zero_g: Annotated[
        float | None,
        {
            "description": (
                "The pad's tracked zero, in grams from its tare: the slow drift of the empty pad "
                "the table follows and takes off every weigh-in (within 1 g: past it the scale "
                "is a fault, to tare again). Null until the empty pad has held still for 4 s, "
                "without a calibrated pad, or with zero tracking off."
            )
        },
    ]
    uncalibrated: Annotated[
        Lacks,
        {
            "description": (
                "What the seat's pad still lacks before it weighs ice (the referee's set-up, "
                "or companion calibrate): its tare, a known weight (its counts per gram), its "
                "empty cap. Until it has all, the pad weighs nothing in: the pages say the seat "
                "is not calibrated. Empty once it is, and at a seat without a pad."
            ),
            "uniqueItems": True,
        },
    ]


@dataclass(frozen=True)
class CountStatus(Shown):
    """The ten-count under way: for ``seat``, count ``n`` of ``of``, ``pace_s`` a count."""

    seat: Seat
    n: Annotated[int, {"minimum": 0}]
    of: Annotated[int, {"minimum": 1}]
    pace_s: Annotated[float, {"exclusiveMinimum": 0}]


@dataclass(frozen=True)
class Told(Shown):
    """Something that happened, in words in English and German, and the change it came with
    (0 for the game's set-up)."""

    change: Annotated[int, {"minimum": 0}]
    en: str
    de: str
    aloud: Annotated[
        bool,
        {
            "description": (
                "Worth saying aloud: the table page, its sound on, says it as it comes (an "
                "attack landing, a winner), in the page's language."
            )
        },
    ]


@dataclass(frozen=True)
class GameSummary(Shown):
    """The game being played (or the last one), as everyone may see it; ``view`` is its public
    view, ``actions`` the number of actions that stand, ``changes`` the number of changes
    (actions and the referee's take-backs), and ``told`` the last things that happened."""

    name: Annotated[str, {"enum": sorted(GAMES)}]
    title: str
    dealt: Annotated[
        Dealt,
        {
            "description": (
                "What the game's fair randomness deals: cards (shuffled) or dice (rolled); the "
                "table page titles its fair-dealing box by it."
            )
        },
    ]
    ice: Annotated[bool, {"description": "Its seats play with real ice cubes."}]
    phase: str | None
    turn_seat: int | None
    commitment: Annotated[str, {"pattern": "^[0-9a-f]{64}$"}]
    over: Annotated[bool, {"description": "Over by its rules (an outcome), or ended early."}]
    ended: Annotated[bool, {"description": "The referee ended it: no outcome, no action."}]
    outcome: dict[str, Any] | None
    actions: Annotated[int, {"minimum": 0}]
    changes: Annotated[int, {"minimum": 0}]
    told: tuple[Told, ...]
    view: dict[str, Any]


@dataclass(frozen=True)
class Restart(Shown):
    """The table restarted into the game being played, its estimates rebuilt from what it had
    stored; ``off_s`` is how long it was off, null when its clock cannot say (no real-time
    clock): then every cube's estimate is uncertain until its next weigh-in."""

    off_s: Annotated[float | None, {"minimum": 0}]


@dataclass(frozen=True)
class Broker(Shown):
    """The MQTT broker the table publishes to (``[mqtt]``): ``connected``, still
    ``connecting`` at start, ``unreachable`` (down, slow or gone), or ``refused`` (it refused
    the table's user or password); ``since`` is when it came to stand so (Unix s), ``detail``
    says why in words."""

    host: str
    state: Literal["connecting", "connected", "unreachable", "refused"]
    since: float
    detail: str


@dataclass(frozen=True)
class Status(Shown):
    """The public table: the game, every seat, the count, when this was made (Unix s), and
    whether it can store anything."""

    game: GameSummary | None
    seats: tuple[SeatStatus, ...]
    count: CountStatus | None
    restart: Restart | None
    simulated: bool
    referee_code: Annotated[
        bool,
        {
            "description": (
                "Seat 1's button was held down in the last 30 s: the table page shows the "
                "referee's page as a QR code (GET /api/referee-code) until then."
            )
        },
    ]
    speed: Annotated[float, {"exclusiveMinimum": 0}]
    time: Annotated[float, {"description": "Unix seconds when the status was made."}]
    read_only: Annotated[
        str | None,
        {
            "description": (
                "Why the table stores nothing (its disk refused writes when it started: every "
                "change is refused 507 until it is mended and the table restarted); null when "
                "it stores every answered action."
            )
        },
    ]
    broker: Annotated[
        Broker | None,
        {"description": "The MQTT broker the table publishes to; null when it publishes none."},
    ]
