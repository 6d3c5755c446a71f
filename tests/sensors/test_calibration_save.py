"""Saving a calibration: whole or not at all, the previous file kept, the text read back equal."""

from __future__ import annotations

import os
import stat
import tempfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.sensors.calibration import (
    FILENAME,
    HX711_RANGE,
    MAX_PROBE_OFFSET_C,
    Calibration,
    CalibrationNotSaved,
    SeatCalibration,
    load_calibration,
    parse_calibration,
    save_calibration,
)

FIRST = Calibration({1: SeatCalibration(1, thermometer="28-0316a2794aff", probe_offset_c=-0.19)})
SECOND = FIRST.with_seat(SeatCalibration(2, scale="hx711:gpio6", tare_counts=81234.5))


def test_the_bytes_written_read_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "state" / FILENAME
    save_calibration(path, SECOND)
    assert path.read_bytes() == SECOND.to_toml().encode("utf-8")
    assert load_calibration(path) == SECOND
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == [FILENAME]


def test_the_previous_file_is_kept_as_the_backup(tmp_path: Path) -> None:
    path = tmp_path / FILENAME
    backup = tmp_path / (FILENAME + ".bak")
    save_calibration(path, FIRST)
    assert not backup.exists()
    save_calibration(path, SECOND)
    assert load_calibration(backup) == FIRST
    third = SECOND.with_seat(SeatCalibration(3, cap_g=3.1))
    save_calibration(path, third)
    assert load_calibration(backup) == SECOND  # replaced each time
    assert load_calibration(path) == third
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILENAME, FILENAME + ".bak"]


def test_a_hand_written_file_is_backed_up_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / FILENAME
    path.write_text("# mine\n[seat.1]\ncap_g = 3\n")
    save_calibration(path, FIRST)
    assert (tmp_path / (FILENAME + ".bak")).read_text() == "# mine\n[seat.1]\ncap_g = 3\n"


def _failing(name: str, calls: list[str]):
    def fail(*args: object, **kwargs: object) -> None:
        calls.append(name)
        raise OSError(28, "No space left on device")

    return fail


@pytest.mark.parametrize("step", ["fsync", "replace", "rename", "link+copy"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    path = tmp_path / FILENAME
    save_calibration(path, FIRST)
    before = path.read_bytes()
    calls: list[str] = []
    if step == "link+copy":  # no hard links, and the copy fails too
        monkeypatch.setattr(os, "link", _failing("link", calls))
        monkeypatch.setattr("shutil.copy2", _failing("copy2", calls))
    elif step == "rename":  # the backup is made, the last step fails
        real_replace, fail = os.replace, _failing("rename", calls)
        monkeypatch.setattr(
            os, "replace", lambda a, b: fail() if Path(b) == path else real_replace(a, b)
        )
    else:
        monkeypatch.setattr(os, step, _failing(step, calls))
    with pytest.raises(CalibrationNotSaved) as caught:
        save_calibration(path, SECOND)
    monkeypatch.undo()
    assert calls, "the failure was never reached"
    assert isinstance(caught.value, CompanionError)
    assert str(path) in str(caught.value) and "No space left" in str(caught.value)
    assert "unchanged" in str(caught.value)
    assert path.read_bytes() == before
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ([FILENAME, FILENAME + ".bak"] if step == "rename" else [FILENAME])


def test_without_hard_links_the_backup_is_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / FILENAME
    save_calibration(path, FIRST)
    monkeypatch.setattr(os, "link", _failing("link", []))
    save_calibration(path, SECOND)
    assert load_calibration(tmp_path / (FILENAME + ".bak")) == FIRST
    assert load_calibration(path) == SECOND


def test_a_folder_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the folder should be")
    with pytest.raises(CalibrationNotSaved, match=r"state/calibration\.toml: cannot be written"):
        save_calibration(tmp_path / "state" / FILENAME, FIRST)


def test_there_is_always_a_calibration_file_while_saving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader looking at every step of a save always finds a whole file: old, then new."""
    path = tmp_path / FILENAME
    save_calibration(path, FIRST)
    seen: list[Calibration] = []
    real_replace, real_link = os.replace, os.link

    def look(*args: object) -> None:
        seen.append(load_calibration(path))

    def replace(a: str, b: str) -> None:
        look()
        real_replace(a, b)
        look()

    def link(a: str, b: str) -> None:
        look()
        real_link(a, b)
        look()

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "link", link)
    save_calibration(path, SECOND)
    assert seen[0] == FIRST and seen[-1] == SECOND
    assert set(map(repr, seen)) == {repr(FIRST), repr(SECOND)}


TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=24)
WHEN = st.none() | st.datetimes(
    min_value=datetime(1000, 1, 1),
    timezones=st.sampled_from([None, UTC, timezone(timedelta(hours=-5, minutes=-30))]),
)
FINITE = st.floats(allow_nan=False, allow_infinity=False)


@st.composite
def seat_calibrations(draw: st.DrawFn, seat: int) -> SeatCalibration:
    return SeatCalibration(
        seat,
        thermometer=draw(st.none() | TEXT),
        probe_offset_c=draw(st.floats(-MAX_PROBE_OFFSET_C, MAX_PROBE_OFFSET_C)),
        probe_calibrated_at=draw(WHEN),
        scale=draw(st.none() | TEXT),
        tare_counts=draw(st.none() | st.floats(*map(float, HX711_RANGE))),
        tared_at=draw(WHEN),
        counts_per_gram=draw(st.none() | FINITE.filter(bool)),
        weighed_at=draw(WHEN),
        cap_g=draw(st.floats(0.0, 100.0)),
    )


@st.composite
def calibrations(draw: st.DrawFn) -> Calibration:
    seats = draw(st.sets(st.integers(1, 6), max_size=4))
    return Calibration({n: draw(seat_calibrations(n)) for n in sorted(seats)})


@settings(deadline=None)  # each example writes and fsyncs a file: slow on a busy disk
@given(calibrations())
def test_any_calibration_parse_accepts_round_trips_through_the_file(
    calibration: Calibration,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILENAME
        save_calibration(path, calibration)
        text = path.read_text(encoding="utf-8")
    assert parse_calibration(FILENAME, text) == calibration
