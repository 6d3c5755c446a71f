"""The DS18B20 driver against fake w1 trees: every fault is a status, one trigger per sweep."""

from __future__ import annotations

import io
from collections.abc import Callable
from itertools import count
from pathlib import Path

import pytest
from w1tree import FAULTS, W1Tree

from bench.w1_timed import TimedW1
from companion.sensors.ds18b20 import kernel_text, scratchpad
from companion.sensors.reading import OK, THERMOMETER, fault
from companion.sensors.w1 import (
    ALL_FF,
    ALL_ZERO,
    CRC_ERROR,
    NO_ANSWER,
    NO_BUS,
    POWER_FAULT,
    POWER_ON,
    RULES_FILE,
    UNPARSABLE,
    W1Thermometers,
    classify,
)

KAREN, TOM, MARY = "28-0316a2794aff", "28-0416b1a0c3ff", "28-05169e11d2ff"

EXPECTED = {
    "crc": CRC_ERROR,
    "power-on": POWER_ON,
    "power": POWER_FAULT,
    "zeros": ALL_ZERO,
    "ones": ALL_FF,
    "eio": fault("read error (EIO)"),
    "empty": NO_ANSWER,
    "garbled": UNPARSABLE,
}


@pytest.fixture
def tree(tmp_path: Path) -> W1Tree:
    return W1Tree(tmp_path / "devices")


Driver = Callable[..., W1Thermometers]


@pytest.fixture
def warnings() -> list[str]:
    return []


@pytest.fixture
def driver(tree: W1Tree, warnings: list[str]) -> Driver:
    """The driver on the fake tree, with a counting clock and the warnings collected."""

    def build(**options) -> W1Thermometers:
        ticks = count(1)
        return W1Thermometers(
            tree.root,
            clock=lambda: float(next(ticks)),
            warn=warnings.append,
            open_file=tree.open,
            **options,
        )

    return build


def test_kernel_text_of_a_real_probe_is_parsed_to_milli_degrees() -> None:
    assert classify(kernel_text(scratchpad(23.125))) == (23125, OK)
    assert classify(kernel_text(scratchpad(-10.0625))) == (-10062, OK)  # truncated like the C
    text = "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n"
    assert classify(text) == (23125, OK)  # copied from a Raspberry Pi


def test_a_real_zero_is_a_reading_not_a_fault() -> None:
    assert classify(kernel_text(scratchpad(0.0))) == (0, OK)


def test_text_that_disagrees_with_its_bytes_is_unparsable() -> None:
    wrong_t = kernel_text(scratchpad(20.0)).replace("t=20000", "t=21000")
    assert classify(wrong_t) == (None, UNPARSABLE)
    wrong_crc = kernel_text(scratchpad(20.0)).replace("crc=", "crc=0", 1)
    assert classify(wrong_crc) == (None, UNPARSABLE)


def test_a_crc_the_kernel_passed_but_the_bytes_fail_is_a_crc_error() -> None:
    good = kernel_text(scratchpad(20.0))
    torn = good.replace(good[:2], f"{int(good[:2], 16) ^ 1:02x}")
    assert classify(torn)[1] == CRC_ERROR


def test_out_of_range_is_a_fault() -> None:
    milli, status = classify(kernel_text(scratchpad(-60.0)))
    assert milli is None and status == fault("reads -60 C, outside the probe's -55..125 C")


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_each_fault_is_a_status_and_the_others_read_on(
    tree: W1Tree, driver: Driver, kind: str
) -> None:
    tree.add_probe(KAREN, 21.5)
    tree.add_probe(TOM, 0.0)
    tree.set_fault(TOM, kind)
    readings = driver(probes={KAREN: 1, TOM: 2}).sweep()
    assert [(r.seat, r.id, r.raw, r.status) for r in readings] == [
        (1, KAREN, 21500, OK),
        (2, TOM, None, EXPECTED[kind]),
    ]


def test_every_fault_at_once_gives_the_right_status_per_probe(tree: W1Tree, driver: Driver) -> None:
    ids = {kind: f"28-00000000{n:04x}" for n, kind in enumerate(FAULTS)}
    for kind, probe in ids.items():
        tree.add_probe(probe, 20.0)
        tree.set_fault(probe, kind)
    seats = {probe: n for n, probe in enumerate(ids.values(), start=1)}
    statuses = {r.id: r.status for r in driver(probes=seats).sweep()}
    for kind, probe in ids.items():
        want = EXPECTED.get(kind, fault(f"missing: probe {probe} not on the bus"))
        assert statuses[probe] == want, kind


def test_a_faulted_probe_reads_again_once_mended(tree: W1Tree, driver: Driver) -> None:
    tree.add_probe(KAREN, 21.5)
    thermometers = driver(probes={KAREN: 1})
    tree.set_fault(KAREN, "eio")
    assert thermometers.sweep()[0].status == fault("read error (EIO)")
    tree.set(KAREN, 22.0)
    assert thermometers.sweep()[0].raw == 22000


def test_a_missing_probe_is_reported_and_an_unclaimed_one_listed(
    tree: W1Tree, driver: Driver
) -> None:
    tree.add_probe(TOM, 19.0)
    tree.add_probe(MARY, 18.0)
    readings = driver(probes={KAREN: 1, TOM: 2}).sweep()
    assert [(r.seat, r.id, r.raw, r.status) for r in readings] == [
        (1, KAREN, None, fault(f"missing: probe {KAREN} not on the bus")),
        (2, TOM, 19000, OK),
        (None, MARY, 18000, OK),
    ]
    assert all(r.kind == THERMOMETER for r in readings)


def test_without_probes_every_probe_found_gets_a_seat_in_id_order(
    tree: W1Tree, driver: Driver
) -> None:
    for probe in (MARY, KAREN, TOM):
        tree.add_probe(probe)
    thermometers = driver()
    tree.remove(TOM)
    readings = thermometers.sweep()
    assert [(r.seat, r.id, r.ok) for r in readings] == [
        (1, KAREN, True),
        (2, TOM, False),
        (3, MARY, True),
    ]


def test_each_reading_is_stamped_by_the_clock(tree: W1Tree, driver: Driver) -> None:
    tree.add_probe(KAREN)
    tree.add_probe(TOM)
    first, second = driver().sweep()
    assert first.t < second.t


def test_no_bus_is_a_status_for_every_probe_and_nothing_raises(
    tmp_path: Path, warnings: list[str]
) -> None:
    (tmp_path / "a-file").write_text("")
    for root in (tmp_path / "absent", tmp_path / "a-file"):
        thermometers = W1Thermometers(root, probes={KAREN: 1}, warn=warnings.append)
        assert [(r.id, r.status) for r in thermometers.sweep()] == [(KAREN, NO_BUS)]
        assert W1Thermometers(root, warn=warnings.append).sweep() == []
    assert len(warnings) == 4 and "w1-gpio" in warnings[0]


def test_one_sweep_triggers_one_bulk_conversion(tree: W1Tree, driver: Driver) -> None:
    for probe in (KAREN, TOM, MARY):
        tree.add_probe(probe)
    tree.bulk_read()
    thermometers = driver()
    assert not thermometers.bulk
    for sweeps in (1, 2):
        assert all(r.ok for r in thermometers.sweep())
        assert tree.triggers == sweeps
    assert thermometers.bulk
    assert tree.writes == [("therm_bulk_read", "trigger\n")] * 2  # exactly the 8 bytes


@pytest.mark.parametrize("writable", [False, None], ids=["root-only", "absent"])
def test_without_bulk_read_it_reads_one_by_one_and_says_so_once(
    tree: W1Tree, driver: Driver, warnings: list[str], writable: bool | None
) -> None:
    tree.add_probe(KAREN)
    tree.add_probe(TOM)
    if writable is not None:
        tree.bulk_read(writable=writable)
    thermometers = driver()
    for _ in range(3):
        assert all(r.ok for r in thermometers.sweep())
    assert not thermometers.bulk and tree.triggers == 0
    assert len(warnings) == 1
    assert "one by one" in warnings[0] and "2 conversions" in warnings[0]
    assert RULES_FILE in warnings[0]


def test_a_single_probe_needs_no_bulk_read_and_no_warning(
    tree: W1Tree, driver: Driver, warnings: list[str]
) -> None:
    tree.add_probe(KAREN)
    driver().sweep()
    assert warnings == []


def test_the_resolution_is_set_and_read_back(tree: W1Tree, driver: Driver) -> None:
    tree.add_probe(KAREN, 21.3)
    tree.add_probe(TOM, resolution_writable=False)
    warnings_before = tree.writes[:]
    thermometers = driver(resolution=9)
    assert thermometers.resolution == {KAREN: 9, TOM: 12}
    assert tree.writes == [*warnings_before, ("resolution", "9\n")]
    assert thermometers.conversion_s() == 0.75  # the slowest probe rules a bulk conversion
    assert thermometers.sweep()[0].raw == 21000  # 9 bits: steps of 0.5 C


def test_a_resolution_that_cannot_be_set_is_said_once(
    tree: W1Tree, driver: Driver, warnings: list[str]
) -> None:
    tree.add_probe(KAREN, resolution_writable=False)
    tree.add_probe(TOM, resolution_writable=False)
    tree.bulk_read()
    thermometers = driver(resolution=10)
    thermometers.sweep()
    assert len(warnings) == 1 and "resolution" in warnings[0] and RULES_FILE in warnings[0]
    assert thermometers.resolution == {KAREN: 12, TOM: 12}


def test_a_probe_that_reset_gets_its_resolution_again(tree: W1Tree, driver: Driver) -> None:
    tree.add_probe(KAREN, 21.0)
    thermometers = driver(resolution=9)
    assert tree.resolution(KAREN) == 9
    tree.probes[KAREN].resolution = 12
    (tree.master / KAREN / "resolution").write_text("12\n")
    tree.set_fault(KAREN, "power-on")
    assert thermometers.sweep()[0].status == POWER_ON
    tree.set(KAREN, 21.0)
    assert thermometers.sweep()[0].ok
    assert tree.resolution(KAREN) == 9 and thermometers.resolution == {KAREN: 9}


def test_conversion_time_follows_the_resolution(tree: W1Tree, driver: Driver) -> None:
    assert driver().conversion_s() == 0.75  # nothing known: the 12-bit worst case
    tree.add_probe(KAREN)
    assert [driver(resolution=bits).conversion_s() for bits in (9, 10, 11, 12)] == [
        0.09375,
        0.1875,
        0.375,
        0.75,
    ]


def test_a_resolution_outside_9_to_12_is_refused(tree: W1Tree) -> None:
    with pytest.raises(ValueError, match=r"9\.\.12"):
        W1Thermometers(tree.root, resolution=8)


class FakeTime:
    """A clock that only moves when something sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.mark.parametrize("bulk", [True, False], ids=["bulk", "one-by-one"])
def test_a_timed_sweep_converts_once_with_bulk_read_and_per_probe_without(
    tmp_path: Path, bulk: bool
) -> None:
    time = FakeTime()
    fake = TimedW1(tmp_path, probes=2, resolution=9, bulk=bulk, clock=time.clock, sleep=time.sleep)
    thermometers = W1Thermometers(
        tmp_path, resolution=9, clock=time.clock, warn=lambda _: None, open_file=fake.open
    )
    for _ in range(3):
        before = time.now
        readings = thermometers.sweep()
        assert [(r.seat, r.raw) for r in readings] == [(1, 20000), (2, 20500)]
        assert time.now - before == pytest.approx(fake.conversion_s * (1 if bulk else 2))
    sweeps = fake.sweeps()
    assert len(sweeps) == 3
    for events in sweeps:
        kinds = [(e.kind, e.probe, e.source) for e in events]
        if bulk:  # one trigger, then every probe from RAM once the conversion had ended
            assert kinds == [("trigger", None, ""), *(("read", p, "bulk") for p in fake.ids)]
            assert all(read.start >= events[0].end == read.converted for read in events[1:])
        else:
            assert kinds == [("read", p, "own") for p in fake.ids]
            assert events[0].end <= events[1].start


def test_a_conversion_another_process_started_is_waited_out(tree: W1Tree) -> None:
    tree.add_probe(KAREN, 21.5)
    tree.add_probe(TOM, 19.0)
    tree.bulk_read()
    slept: list[float] = []

    def open_file(path: Path, mode: str):
        if "r" in mode and not slept:  # until waited out, it converts and KAREN reads empty
            if path.name == "therm_bulk_read":
                return io.StringIO("-1\n")
            if path.parent.name == KAREN and path.name == "w1_slave":
                return io.StringIO("")
        return tree.open(path, mode)

    thermometers = W1Thermometers(
        tree.root, resolution=9, warn=pytest.fail, open_file=open_file, sleep=slept.append
    )
    assert [r.raw for r in thermometers.sweep()] == [21500, 19000]
    assert slept == [0.09375]
    tree.set_fault(KAREN, "empty")  # no conversion running: an empty reply is a fault at once
    assert thermometers.sweep()[0].status == NO_ANSWER
    assert slept == [0.09375]
