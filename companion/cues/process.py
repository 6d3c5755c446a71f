"""The cues in a process of their own, so a ten-count keeps its beat whatever the daemon does.

In the daemon's process the count's thread waits for the GIL behind the web server and the
estimator, and its beats land 5-40 ms late (``bench/ten_count.py`` measures it). In a process of
its own that asks to run ahead of others (:func:`companion.host.realtime.raise_priority`), a count
lands within a millisecond. The child owns every cue pin: the buzzer, the LEDs, the bar and the
buttons. The parent sends it commands and hears back, on a thread of its own, what happened:
each count as it sounds, the end of a count, a button press, or why the cues failed.

The child is a :class:`companion.host.workers.Worker`: it imports this module and the cues, no
more, and its pins travel as plain numbers (:class:`~companion.cues.pins.CuePinNumbers`), not
as the table's config. A child that cannot open its pins, or dies, is reported as
:class:`CuesFailed`; the daemon carries on without cues and may :meth:`CueProcess.start` them
again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Final

from companion.cues.pins import CuePinNumbers, CuePins
from companion.cues.ten_count import DEFAULT_PACE_S, TEN_S, CountRunning, TenCount
from companion.cues.tunes import CueName
from companion.host import workers
from companion.host.realtime import raise_priority

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from companion.cues.board import CueBoard

STOP_WAIT_S: Final = 2.0


@dataclass(frozen=True)
class CueSettings:
    """What the child needs to open the cues; plain values, so it pickles.

    ``pin_factory`` names a gpiozero pin factory (``"lgpio"``, ``"mock"``); ``None`` lets
    gpiozero choose, honouring ``GPIOZERO_PIN_FACTORY``. ``"mock"`` gets PWM-capable pins.
    ``chip`` is the config's GPIO chip (``None``: gpiozero finds the header's).
    """

    pins: CuePins
    seats: int
    pace_s: float = DEFAULT_PACE_S
    ten_s: float = TEN_S
    pin_factory: str | None = None
    chip: int | None = None


@dataclass(frozen=True)
class PlayCount:
    """Start the ten-count for ``seat`` at ``pace_s`` a count, the long tone ``ten_s`` long
    (the settings' own when ``None``)."""

    seat: int
    pace_s: float | None = None
    ten_s: float | None = None


@dataclass(frozen=True)
class CancelCount:
    """Stop the running count, if any."""


@dataclass(frozen=True)
class PlayCue:
    """Play the short cue ``name``, lighting ``seats``' LEDs."""

    name: CueName
    seats: tuple[int, ...]


@dataclass(frozen=True)
class StopCues:
    """Everything off, the pins given back, and the child ends."""


CueCommand = PlayCount | CancelCount | PlayCue | StopCues
"""What the parent tells the child."""


@dataclass(frozen=True)
class Counted:
    """Count ``n`` sounded for ``seat``, ``late_s`` after its ideal time, at monotonic ``t``."""

    seat: int
    n: int
    late_s: float
    t: float


@dataclass(frozen=True)
class CountEnded:
    """The count for ``seat`` ended: ``finished``, or cancelled (or refused: one was running)."""

    seat: int
    finished: bool
    t: float


@dataclass(frozen=True)
class Pressed:
    """``seat``'s button was pressed at monotonic ``t``."""

    seat: int
    t: float


@dataclass(frozen=True)
class Held:
    """``seat``'s button was held down for its hold time."""

    seat: int


@dataclass(frozen=True)
class CuesStarted:
    """The child has opened its pins; ``priority`` says how it runs (``real-time FIFO 10``)."""

    priority: str


@dataclass(frozen=True)
class CuesFailed:
    """The cues cannot play: the child could not open its pins, or it died."""

    reason: str


CueEvent = Counted | CountEnded | Pressed | Held | CuesStarted | CuesFailed


class CueProcess:
    """The parent's handle on the cue child: commands out, events to ``on_event``.

    ``on_event`` runs on the listening thread: keep it short (a queue put).
    """

    def __init__(self, settings: CueSettings, on_event: Callable[[CueEvent], object]) -> None:
        self.settings = settings
        self.on_event = on_event
        self._process: workers.Worker | None = None
        self._conn: Connection | None = None
        self._listener: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closing = False

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def start(self) -> None:
        """Start the child; :class:`CuesStarted` or :class:`CuesFailed` follows."""
        if self.alive:
            return
        self._closing = False
        settings = replace(self.settings, pins=CuePinNumbers.of(self.settings.pins))
        self._process = workers.Worker("companion-cues", serve, (settings,))
        self._process.start()
        self._conn = self._process.connection
        self._listener = threading.Thread(
            target=self._listen, args=(self._conn, self._process), name="cue events", daemon=True
        )
        self._listener.start()

    def count(self, seat: int, pace_s: float | None = None, ten_s: float | None = None) -> None:
        """Start the ten-count for ``seat`` (refused, as :class:`CountEnded`, if one runs), at
        ``pace_s`` a count and a long tone of ``ten_s`` (the settings' when ``None``)."""
        self._send(PlayCount(seat, pace_s, ten_s))

    def cancel(self) -> None:
        """Stop the running count, if any; its :class:`CountEnded` says ``finished=False``."""
        self._send(CancelCount())

    def cue(self, name: CueName, seats: Sequence[int] = ()) -> None:
        """Play a short cue lighting ``seats``' LEDs."""
        self._send(PlayCue(name, tuple(seats)))

    def close(self) -> None:
        """Stop the child (everything off, pins given back) and the listening thread."""
        self._closing = True
        self._send(StopCues())
        process, self._process = self._process, None
        if process is not None:
            process.join(STOP_WAIT_S)
            if process.is_alive():
                process.terminate()
                process.join(STOP_WAIT_S)
        if self._listener is not None and self._listener is not threading.current_thread():
            self._listener.join(STOP_WAIT_S)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> CueProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, message: CueCommand) -> None:
        with self._lock:
            conn = self._conn
            if conn is None:
                return
            with contextlib.suppress(OSError, ValueError):
                conn.send(message)

    def _listen(self, conn: Connection, process: workers.Worker) -> None:
        failed = False
        while True:
            try:
                event = conn.recv()
            except (EOFError, OSError):
                break
            failed = failed or isinstance(event, CuesFailed)
            self.on_event(event)
        if not self._closing and not failed:
            process.join(STOP_WAIT_S)
            self.on_event(CuesFailed(f"the cue player stopped (exit code {process.exitcode})"))


def _stop_on_term(signum: int, frame: object) -> None:
    raise SystemExit(0)


def pin_factory(settings: CueSettings) -> Factory | None:
    """The pin factory the cues open their pins with: gpiozero's own choice (``None``) unless
    the config names the GPIO chip, which only lgpio's factory takes."""
    if settings.pin_factory is not None or settings.chip is None:
        return None
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory(chip=settings.chip)


def serve(settings: CueSettings, conn: Connection) -> None:
    """The child: open the cues, then play what the parent asks until it says stop."""
    # Only the child opens pins, so only the child imports gpiozero and the devices.
    from gpiozero.exc import PinFactoryFallback

    from companion.cues.board import CueBoard

    signal.signal(signal.SIGTERM, _stop_on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group; the parent stops us
    if settings.pin_factory is not None:
        os.environ["GPIOZERO_PIN_FACTORY"] = settings.pin_factory
        if settings.pin_factory == "mock":
            os.environ["GPIOZERO_MOCK_PIN_CLASS"] = "mockpwmpin"
    warnings.filterwarnings("ignore", category=PinFactoryFallback)  # the failure says it all
    priority = raise_priority()
    lock = threading.Lock()

    def send(event: CueEvent) -> None:
        with lock, contextlib.suppress(OSError, ValueError):
            conn.send(event)

    try:
        board = CueBoard.from_pins(
            settings.pins,
            settings.seats,
            settings.pace_s,
            ten_s=settings.ten_s,
            pin_factory=pin_factory(settings),
        )
    except Exception as error:
        send(CuesFailed(f"cannot open the cue pins: {error or type(error).__name__}"))
        conn.close()
        return
    try:
        for seat in range(1, settings.seats + 1):
            board.on_press(seat, lambda s: send(Pressed(s, time.monotonic())))
            board.on_hold(seat, lambda s: send(Held(s)))
        send(CuesStarted(priority))
        _serve(board, conn, send)
    finally:
        board.close()
        conn.close()


def _serve(board: CueBoard, conn: Connection, send: Callable[[CueEvent], None]) -> None:
    count = board.ten_count
    while True:
        try:
            command = conn.recv()
        except (EOFError, OSError):
            return
        match command:
            case StopCues():
                return
            case CancelCount():
                count.cancel()
            case PlayCue(name, seats):
                with contextlib.suppress(ValueError):
                    board.cues.play(name, seats)
            case PlayCount(seat, pace_s, ten_s):
                pace_s, ten_s = pace_s or count.pace, ten_s or count.ten_s
                if (pace_s, ten_s) != (count.pace, count.ten_s) and not count.running:
                    count = board.ten_count = TenCount(
                        board.devices, pace_s, ten_s=ten_s, stage=board.stage
                    )
                _start_count(count, seat, send)


def _start_count(count: TenCount, seat: int, send: Callable[[CueEvent], None]) -> None:
    """Count for ``seat``, telling each count and the end; refused (as an end) if one runs."""

    def counted(n: int) -> None:
        send(_counted(count, seat, n))

    def done(finished: bool) -> None:
        send(CountEnded(seat, finished, time.monotonic()))

    try:
        count.start(seat, on_count=counted, on_done=done)
    except (CountRunning, ValueError):
        send(CountEnded(seat, False, time.monotonic()))


def _counted(count: TenCount, seat: int, n: int) -> Counted:
    now = time.monotonic()
    due = (count.started_at or now) + (n - 1) * count.pace
    return Counted(seat, n, now - due, now)
