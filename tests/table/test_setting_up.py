"""The referee's set-up as a state machine, on a simulated table whose time the test moves: each
step waits for the go, reads, proposes or refuses as ``companion calibrate`` does, and writes
only when accepted; requests it cannot take are refused, and the sensors a step reads are its
own while it runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.errors import BadMessage
from companion.games.messages import REFEREE
from companion.sensors.calibration import (
    FILENAME,
    Calibration,
    SeatCalibration,
    load_calibration,
    save_calibration,
)
from companion.sensors.pipeline import Pipeline, SensorState
from companion.sensors.reading import SCALE, THERMOMETER
from companion.sensors.sim import SimScales, SimTable, SimThermometers
from companion.table.setting_up import SettingUp
from companion.table.setting_up_asked import Asked, NoSensors, NothingToAccept, SetUpBusy
from companion.table.setting_up_shown import Calibrating
from companion.table.tokens import Forbidden

WALL = 1_800_000_000.0
PASS_S = 0.25
SWEEP_S = 2.0


class Bench:
    """A simulated table's sources feeding a set-up, on a clock the test moves pass by pass."""

    def __init__(self, state_dir: Path, probes: bool = True, pads: bool = True) -> None:
        self.t = 0.0
        self.sim = SimTable(seats=4, seed=3)
        self.path = state_dir / FILENAME
        self._probes = SimThermometers(self.sim, lambda: self.t)
        self._pads = SimScales(self.sim, lambda: self.t)
        self._pipeline = Pipeline({})
        self._next_sweep = 0.0
        seats = [1, 2, 3, 4]
        self.setting_up = SettingUp(
            seats,
            self.path,
            probe_seats=seats if probes else [],
            pad_seats=seats if pads else [],
            sweep_s=SWEEP_S,
            clock=lambda: self.t,
            wall=lambda: WALL + self.t,
            sim=lambda: self.sim,
        )
        self.passed: list[SensorState] = []

    def run(self, seconds: float) -> None:
        """Let ``seconds`` of table time pass, a sensing pass every :data:`PASS_S`; the states
        the set-up passes on to the stations are kept in :attr:`passed`."""
        self.passed = []
        for _ in range(round(seconds / PASS_S)):
            self.t += PASS_S
            readings = self._pads.readings()
            if self.t >= self._next_sweep:
                readings += self._probes.sweep()
                self._next_sweep = self.t + SWEEP_S
            states = self._pipeline.push_all(readings)
            self.passed += self.setting_up.feed(states, self.t)

    def ask(self, step: str, **fields: Any) -> Calibrating:
        return self.setting_up.begin(REFEREE, Asked(step, **fields))  # type: ignore[arg-type]

    def until(self, phase: str, most_s: float = 60.0) -> Calibrating:
        """Run until the set-up stands in ``phase``."""
        for _ in range(round(most_s / PASS_S)):
            shown = self.setting_up.shown(REFEREE)
            if shown.phase == phase:
                return shown
            self.run(PASS_S)
        raise AssertionError(f"no {phase} in {most_s} s: {self.setting_up.shown(REFEREE)}")

    def accept(self) -> Calibrating:
        return self.setting_up.accept(REFEREE)


@pytest.fixture
def bench(tmp_path: Path) -> Bench:
    table = Bench(tmp_path)
    table.run(5.0)  # the pads and the probes have been heard from
    return table


def tared(bench: Bench) -> None:
    bench.ask("tare")
    bench.ask("tare")
    bench.until("proposed")
    assert bench.accept().phase == "written"


def weighed(bench: Bench, seat: int, grams: float = 7.5) -> None:
    bench.ask("weight", seat=seat, grams=grams)
    bench.ask("weight")
    bench.until("waiting")
    bench.ask("weight")
    bench.until("proposed")
    assert bench.accept().phase == "written"


def test_tare_waits_for_the_go_and_writes_only_when_accepted(bench: Bench) -> None:
    shown = bench.ask("tare")
    assert (shown.phase, shown.seats) == ("waiting", (1, 2, 3, 4))
    assert shown.stage is not None and (shown.stage.do, shown.stage.done) == ("empty-pads", 0.0)
    bench.run(10.0)
    assert bench.setting_up.shown(REFEREE).phase == "waiting", "nothing is read before the go"
    shown = bench.ask("tare")
    assert shown.phase == "measuring"
    bench.run(2.5)
    assert shown.stage is not None
    assert 0.3 < bench.setting_up.shown(REFEREE).stage.done < 0.7  # type: ignore[union-attr]
    shown = bench.until("proposed")
    assert not bench.path.exists(), "nothing is written before it is accepted"
    tares = {m.seat: m.value for m in shown.measured if m.quantity == "tare"}
    for seat, truth in bench.sim.seats.items():
        assert tares[seat] == pytest.approx(truth.tare_counts, abs=2000)
    keys = {(c.seat, c.key) for c in shown.writes}
    assert {(n, k) for n in range(1, 5) for k in ("scale", "tare_counts", "tared_at")} == keys
    written = bench.accept()
    assert written.phase == "written" and written.writes == shown.writes
    seats = load_calibration(bench.path).seats
    assert {n: seats[n].tare_counts for n in seats} == tares
    with pytest.raises(NothingToAccept):
        bench.accept()


def test_identify_finds_the_seat_s_probe_and_pad(bench: Bench) -> None:
    shown = bench.ask("identify", seat=2)
    assert shown.stage is not None and (shown.stage.do, shown.stage.seat) == ("hold-probe", 2)
    bench.ask("identify")
    shown = bench.until("waiting")
    assert shown.stage is not None and shown.stage.do == "press-pad"
    bench.ask("identify")
    shown = bench.until("proposed")
    truth = bench.sim.seats[2]
    assert [(m.quantity, m.sensor) for m in shown.measured] == [
        ("warmed", truth.probe_id),
        ("pressed", truth.pad_id),
    ]
    bench.accept()
    seat = load_calibration(bench.path).seat(2)
    assert (seat.thermometer, seat.scale) == (truth.probe_id, truth.pad_id)
    assert bench.sim.seats[2].weight_g == 0.0, "the finger lifted"


def test_a_known_weight_then_another_fit_the_pad_s_line(bench: Bench) -> None:
    tared(bench)
    bench.ask("weight", seat=3, grams=7.5)
    bench.ask("weight")
    shown = bench.until("waiting")
    assert shown.stage is not None and (shown.stage.do, shown.stage.grams) == ("put-weight", 7.5)
    bench.ask("weight")
    first = bench.until("proposed")
    assert bench.sim.seats[3].weight_g == 7.5
    bench.ask("weight", grams=12.5)  # the further weight: 12.5 g on the pad in all
    shown = bench.until("proposed")
    points = [(m.grams, m.unit) for m in shown.measured if m.quantity == "point"]
    assert points == [(7.5, "counts"), (12.5, "counts")]
    (slope,) = [m for m in shown.measured if m.quantity == "slope"]
    assert slope.value == pytest.approx(bench.sim.seats[3].counts_per_gram, rel=0.01)
    assert slope.spread is not None and slope.spread < 0.05  # the worst residual, in grams
    assert [m.quantity for m in first.measured] == ["point", "slope"]
    bench.accept()
    seat = load_calibration(bench.path).seat(3)
    assert seat.counts_per_gram == slope.value and seat.tare_counts is not None
    assert bench.sim.seats[3].weight_g == 0.0, "the weight is taken off as the run ends"


def test_the_empty_cap_is_weighed_on_a_weighed_pad_only(bench: Bench) -> None:
    bench.ask("cap", seat=1)
    bench.ask("cap")
    shown = bench.until("refused")
    assert shown.refused is not None
    assert (shown.refused.reason, shown.refused.seat) == ("not-tared", 1)
    tared(bench)
    weighed(bench, 1)
    bench.ask("cap", seat=1)
    bench.ask("cap")
    shown = bench.until("proposed")
    (cap,) = shown.measured
    assert (cap.quantity, cap.unit) == ("cap", "g")
    assert cap.value == pytest.approx(bench.sim.seats[1].cap_g, abs=0.05)
    bench.accept()
    assert load_calibration(bench.path).seat(1).pad_lacks() == ()


def test_a_wrong_reference_is_refused_and_nothing_is_written(bench: Bench) -> None:
    bench.ask("temperature", reference_c=10.0)
    shown = bench.ask("temperature")
    assert all(s.bath_c == 0.0 for s in bench.sim.seats.values()), "the probes stand in ice water"
    assert shown.stage is not None and shown.stage.seconds >= 12.0  # six sweeps at least
    shown = bench.until("refused")
    assert shown.refused is not None and shown.refused.reason == "probe-low"
    assert shown.refused.facts["reference"] == 10.0 and shown.refused.seat == 1
    assert "below the reference" in shown.refused.message
    assert not bench.path.exists()
    assert all(s.bath_c is None for s in bench.sim.seats.values()), "out of the water again"
    bench.ask("temperature")  # a refused run is over: the step starts again
    bench.ask("temperature")
    shown = bench.until("proposed")
    offsets = {m.seat: m.value for m in shown.measured}
    for seat, truth in bench.sim.seats.items():
        assert offsets[seat] == pytest.approx(-truth.probe_error_c, abs=0.1)


def test_an_abort_writes_nothing_and_puts_the_table_back(bench: Bench) -> None:
    tared(bench)
    before = bench.path.read_bytes()
    bench.ask("weight", seat=2, grams=5.0)
    bench.ask("weight")
    bench.until("waiting")
    bench.ask("weight")
    bench.until("proposed")
    assert bench.sim.seats[2].weight_g == 5.0
    shown = bench.setting_up.abort(REFEREE)
    assert (shown.phase, shown.step, shown.measured, shown.writes) == ("idle", None, (), ())
    assert bench.sim.seats[2].weight_g == 0.0
    assert bench.path.read_bytes() == before
    assert bench.setting_up.abort(REFEREE).phase == "idle", "an abort twice is no error"


def test_a_saturating_weight_is_refused_with_its_seat(bench: Bench) -> None:
    bench.ask("weight", seat=4, grams=500.0)
    bench.ask("weight")
    bench.until("waiting")
    bench.ask("weight")
    shown = bench.until("refused")
    assert shown.refused is not None
    assert (shown.refused.reason, shown.refused.seat) == ("saturated", 4)
    assert shown.refused.facts["times"] > 0 and "full scale" in shown.refused.message


def test_requests_it_cannot_take_are_refused(tmp_path: Path, bench: Bench) -> None:
    with pytest.raises(Forbidden):
        bench.setting_up.shown(2)
    with pytest.raises(Forbidden):
        bench.setting_up.begin(1, Asked("tare"))
    with pytest.raises(BadMessage, match="seats 1 to 4"):
        bench.ask("tare", seat=5)
    with pytest.raises(BadMessage, match="give its seat"):
        bench.ask("weight", grams=5.0)
    with pytest.raises(NothingToAccept):
        bench.accept()
    bench.ask("tare", seat=1)
    with pytest.raises(SetUpBusy, match="empty pads"):
        bench.ask("identify")
    with pytest.raises(SetUpBusy):
        bench.ask("tare", seat=2)
    bench.ask("tare")
    with pytest.raises(SetUpBusy, match="reading the sensors"):
        bench.ask("tare")
    bench.until("proposed")
    with pytest.raises(SetUpBusy, match="accept what it found"):
        bench.ask("tare")
    without_pads = Bench(tmp_path / "other", pads=False)
    with pytest.raises(NoSensors, match="no pad"):
        without_pads.ask("tare")
    with pytest.raises(BadMessage, match="grams"):
        bench.setting_up.abort(REFEREE)
        bench.ask("weight", seat=1)
        bench.ask("weight")
        bench.until("waiting")
        bench.ask("weight")  # no grams given at the start or now


def test_the_sensors_a_step_reads_are_its_own_while_it_runs(bench: Bench) -> None:
    def seats(kind: str) -> set[int | None]:
        return {s.seat for s in bench.passed if s.kind == kind}

    bench.run(2.0)
    assert seats(SCALE) == {1, 2, 3, 4}
    bench.ask("tare", seat=2)
    bench.run(2.0)
    assert seats(SCALE) == {1, 3, 4}, "seat 2's pad is the step's"
    assert seats(THERMOMETER) == {1, 2, 3, 4}, "the probes are the table's"
    bench.setting_up.abort(REFEREE)
    bench.run(2.0)
    assert seats(SCALE) == {1, 2, 3, 4}


def test_a_file_changed_meanwhile_is_not_overwritten(bench: Bench) -> None:
    bench.ask("tare")
    bench.ask("tare")
    bench.until("proposed")
    save_calibration(bench.path, Calibration({4: SeatCalibration(4, cap_g=3.0)}))
    shown = bench.accept()
    assert shown.phase == "refused" and shown.refused is not None
    assert shown.refused.reason == "changed"
    assert load_calibration(bench.path).seat(4).tare_counts is None
