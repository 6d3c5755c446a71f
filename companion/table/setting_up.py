"""The referee's set-up: the steps of ``companion calibrate``, run inside the daemon from the
referee's page while the table runs, so nothing is stopped and no shell is needed.

The sensing hands every pass's sensor states to :meth:`SettingUp.feed`, which keeps the last
seconds of every sensor (a probe's warmth before a hand closes on it) and gives a step's run
(:mod:`.setting_up_steps`) what it reads. A run waits for the go at each stage, reads for the
stage's seconds, and is judged by the command's own checks
(:mod:`companion.sensors.calibration_checks`); after its last stage it proposes what it would
write, and nothing is written until the referee accepts: then ``calibration.toml`` is saved as
the command saves it (whole, the previous one kept as ``.bak``), and the sensing takes it up at
its next pass. Aborted, refused or written, the run ends, and a simulated table is put back as
it was. While a step runs, the states of the sensors it reads are its own, not the stations': a
pressed pad is no weigh-in, and a probe in ice water no air. Only the referee runs it; one step
at a time.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import BadMessage, CompanionError
from companion.games.messages import Actor
from companion.games.sentence import Sentence
from companion.sensors.calibration import (
    load_calibration,
    save_calibration,
)
from companion.sensors.calibration_checks import (
    BASELINE_SECONDS,
    MIN_SAMPLES,
    PAD_SECONDS,
    PROBE_SECONDS,
    CalibrationRefused,
)
from companion.sensors.pipeline import SensorState
from companion.sensors.reading import OK, SCALE, THERMOMETER, Reading
from companion.sensors.sim import SimTable
from companion.table.calibration_reload import FileMark, file_mark
from companion.table.setting_up_asked import (
    Asked,
    NothingToAccept,
    check_go,
    referee,
    seats_for,
)
from companion.table.setting_up_judging import judge_stage
from companion.table.setting_up_shown import (
    KNOWN_WEIGHTS,
    MOST_GRAMS,
    Calibrating,
    CalibratingStage,
    CalibrationChange,
    StepRefusal,
    changes,
)
from companion.table.setting_up_steps import (
    NotHeard,
    Planned,
    Run,
    Sensor,
    plan,
    play_along,
    samples,
)


class SettingUp:
    """The set-up of one table; see the module's description. ``probe_seats`` and
    ``pad_seats`` are the seats with a probe and with a pad, ``sweep_s`` the table seconds
    between two sweeps of the probes as the sensing reads them."""

    def __init__(
        self,
        seats: Sequence[int],
        path: Path,
        *,
        probe_seats: Sequence[int],
        pad_seats: Sequence[int],
        sweep_s: float,
        clock: Callable[[], float],
        wall: Callable[[], float],
        sim: Callable[[], SimTable | None] = lambda: None,
    ) -> None:
        self.seats = tuple(seats)
        self.path = path
        self.probe_seats = tuple(probe_seats)
        self.pad_seats = tuple(pad_seats)
        self.recent_s = max(BASELINE_SECONDS, 2 * sweep_s)
        """How long back the readings before a go are kept: a probe's two sweeps at least."""
        self.probe_s = max(PROBE_SECONDS, (MIN_SAMPLES + 1) * sweep_s)
        """How long probes are read: enough sweeps to judge them settled."""
        self.clock = clock
        self.wall = wall
        self.sim = sim
        self._lock = threading.Lock()
        self._recent: deque[Reading] = deque()
        self._seat_of: dict[Sensor, int | None] = {}
        self._run: Run | None = None
        self._refusal: StepRefusal | None = None
        self._mark: FileMark = None

    # -- the sensing pass (the sensor loop's thread)

    def feed(self, states: Sequence[SensorState], now: float) -> list[SensorState]:
        """Take a pass's states; the ones that are the table's (not held by a step)."""
        with self._lock:
            run = self._run
            for state in states:
                self._seat_of[(state.kind, state.id)] = state.seat
                reading = Reading(
                    state.seat,
                    state.kind,
                    state.id,
                    state.raw,
                    OK if state.raw is not None else state.status,  # a zero-tracking fault too
                    state.t,
                )
                self._recent.append(reading)
                measuring = run is not None and run.phase == "measuring"
                if measuring and run is not None and run.started <= state.t < run.until:
                    run.readings.append(reading)
            while self._recent and self._recent[0].t < now - self.recent_s:
                self._recent.popleft()
            if run is not None and run.phase == "measuring" and now >= run.until:
                self._judge(run)
            if run is None or not run.active:
                return list(states)
            return [s for s in states if not run.holds(s.kind, s.seat)]

    def _judge(self, run: Run) -> None:
        for lift in run.lift:
            lift()
        run.lift.clear()
        stage = run.stage
        try:
            file = load_calibration(self.path)
            mark = file_mark(self.path)
            judge_stage(run, self._seat_of, file, self._stamp())
        except (CalibrationRefused, NotHeard) as refused:
            facts = dict(refused.facts)
            seat = facts.pop("seat", stage.seat)
            self._end(run, "refused")
            self._refusal = StepRefusal(
                refused.reason, seat if isinstance(seat, int) else None, facts, str(refused)
            )
        except CompanionError as broken:  # a calibration.toml that does not read
            self._end(run, "refused")
            self._refusal = StepRefusal("file", None, {}, str(broken))
        else:
            if run.proposal is not None and run.index == len(run.planned) - 1:
                run.phase, run.base, self._mark = "proposed", file, mark
            else:
                run.index += 1
                run.phase = "waiting"

    def _stamp(self) -> datetime:
        return datetime.fromtimestamp(self.wall(), UTC).replace(microsecond=0)

    # -- what the referee asks (the web's threads)

    def shown(self, actor: Actor) -> Calibrating:
        """The set-up now."""
        referee(actor)
        with self._lock:
            return self._shown()

    def begin(self, actor: Actor, asked: Asked) -> Calibrating:
        """Start a step; or, for the step under way, the go for its stage (a further known
        weight, once the weight step has proposed)."""
        referee(actor)
        with self._lock:
            run = self._run
            if run is None or not run.active:
                self._start(asked)
                return self._shown()
            check_go(run, asked)
            if run.phase == "proposed":  # a further known weight
                run.planned.append(Planned("put-weight", run.seats[0], PAD_SECONDS))
                run.index += 1
            if run.stage.do == "put-weight":
                run.stage.grams = asked.grams or run.stage.grams or run.grams
                if run.stage.grams is None:
                    raise BadMessage(
                        Sentence(
                            "give the known weight's grams",
                            "gib an, wie viel Gramm das bekannte Gewicht wiegt",
                        )
                    )
            self._go(run)
            return self._shown()

    def accept(self, actor: Actor) -> Calibrating:
        """Write what the step proposed; the table uses it from its next pass."""
        referee(actor)
        with self._lock:
            run = self._run
            if run is None or run.phase != "proposed" or run.proposal is None:
                raise NothingToAccept(
                    Sentence(
                        "no step has found anything to write yet",
                        "noch hat kein Schritt etwas zum Speichern gefunden",
                    )
                )
            if file_mark(self.path) != self._mark:
                self._end(run, "refused")
                self._refusal = StepRefusal(
                    "changed",
                    None,
                    {},
                    f"{self.path} was changed by another program while the step ran: "
                    "run the step again",
                )
                return self._shown()
            save_calibration(self.path, run.proposal)  # CalibrationNotSaved: the run stays
            self._end(run, "written")
            return self._shown()

    def abort(self, actor: Actor) -> Calibrating:
        """End the step under way (or the last one's words): nothing is written."""
        referee(actor)
        with self._lock:
            if self._run is not None:
                self._run.end()
            self._run, self._refusal = None, None
            return self._shown()

    # -- the run

    def _start(self, asked: Asked) -> None:
        seats = seats_for(asked, self.seats, self.probe_seats, self.pad_seats)
        if self._run is not None:
            self._run.end()
        run = plan(asked.step, seats, self.probe_seats, self.pad_seats, self.probe_s)
        run.reference_c = asked.reference_c if asked.reference_c is not None else 0.0
        run.grams = asked.grams
        self._run, self._refusal = run, None

    def _go(self, run: Run) -> None:
        """The person at the table has done what the stage asks (or starts now): read."""
        now = self.clock()
        run.phase, run.started, run.readings = "measuring", now, []
        if run.stage.do in ("hold-probe", "press-pad"):
            kind = THERMOMETER if run.stage.do == "hold-probe" else SCALE
            run.baseline = samples(self._recent, kind, self.recent_s)
        sim = self.sim()
        if sim is not None:
            play_along(run, sim, now)

    def _end(self, run: Run, phase: str) -> None:
        run.end()
        run.phase = "refused" if phase == "refused" else "written"

    def _shown(self) -> Calibrating:
        run = self._run
        stage = None
        if run is not None and run.phase in ("waiting", "measuring"):
            done = 0.0
            if run.phase == "measuring":
                done = min(max((self.clock() - run.started) / run.stage.seconds, 0.0), 1.0)
            s = run.stage
            grams = (s.grams or run.grams) if s.do == "put-weight" else None
            stage = CalibratingStage(s.do, s.seat, grams, s.seconds, round(done, 3))
        writes: tuple[CalibrationChange, ...] = ()
        if run is not None and run.proposal is not None and run.phase in ("proposed", "written"):
            writes = changes(run.base, run.proposal)
        return Calibrating(
            step=run.step if run is not None else None,
            seats=run.seats if run is not None else (),
            phase=run.phase if run is not None else "idle",
            stage=stage,
            measured=tuple(run.measured) if run is not None else (),
            refused=self._refusal,
            writes=writes,
            probes=bool(self.probe_seats),
            pads=bool(self.pad_seats),
            table_seats=self.seats,
            coins=KNOWN_WEIGHTS,
            most_grams=MOST_GRAMS,
        )
