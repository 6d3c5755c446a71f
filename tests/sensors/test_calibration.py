"""Calibration files: reading true units, which sensor is whose, and errors with file and line."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import DataFileError
from companion.sensors.calibration import (
    Calibration,
    SeatCalibration,
    load_calibration,
    parse_calibration,
)

GOOD = """\
# a table of two seats
[seat.1]
thermometer = "28-0316a2794aff"
probe_offset_c = -0.25
scale = "hx711:gpio6"
tare_counts = 81234.5
counts_per_gram = -21480.0
cap_g = 3.1
tared_at = 2026-11-29T18:00:00Z

[seat.2]
thermometer = "28-0316a2794b00"
"""


def test_a_full_file_reads_true_units() -> None:
    calibration = parse_calibration("calibration.toml", GOOD)
    assert calibration.celsius(1, 21000) == pytest.approx(20.75)
    assert calibration.grams(1, 81234.5 - 21480.0 * 6) == pytest.approx(6.0)
    assert calibration.grams(2, 1000) is None
    assert calibration.celsius(3, 21000) == 21.0
    assert calibration.seat(1).tared_at == datetime(2026, 11, 29, 18, tzinfo=UTC)


def test_sensors_are_found_by_their_seat() -> None:
    calibration = parse_calibration("calibration.toml", GOOD)
    assert calibration.seat_of("thermometer", "28-0316a2794b00") == 2
    assert calibration.seat_of("scale", "hx711:gpio6") == 1
    assert calibration.seat_of("scale", "hx711:gpio13") is None


def test_the_text_round_trips() -> None:
    calibration = parse_calibration("calibration.toml", GOOD)
    again = parse_calibration("again.toml", calibration.to_toml())
    assert again == calibration
    updated = again.with_seat(SeatCalibration(3, scale="sim:pad3", tare_counts=5.0))
    assert parse_calibration("c.toml", updated.to_toml()).seat(3).tare_counts == 5.0


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[seat.1]\ntare_count = 5\n", 2, "unknown key 'tare_count'"),
        ("[seat.9]\ncap_g = 1\n", 1, "numbered 1 to 6"),
        ("[seat.1]\ncap_g = 'heavy'\n", 2, "cap_g must be a number"),
        ("[seat.1]\nprobe_offset_c = 7.5\n", 2, "ice water"),
        ("[seat.1]\ncounts_per_gram = 0\n", 2, "known weight"),
        ("[seat.1]\ntare_counts = 9e9\n", 2, "24-bit"),
        ("[seat.1]\ntared_at = 'yesterday'\n", 2, "date and time"),
        ("[seat.1]\ncap_g = nan\n", 2, "must be a number"),
        ("[pads]\n", 1, "unknown key 'pads'"),
        ("[seat.1\n", 1, "not valid TOML"),
    ],
)
def test_bad_files_name_the_line_and_the_fix(text: str, line: int, words: str) -> None:
    with pytest.raises(DataFileError) as caught:
        parse_calibration("calibration.toml", text)
    assert caught.value.line == line
    assert words in caught.value.message


def test_a_missing_file_is_an_empty_calibration(tmp_path: Path) -> None:
    assert load_calibration(tmp_path / "calibration.toml") == Calibration()
    (tmp_path / "calibration.toml").write_text(GOOD)
    assert load_calibration(tmp_path / "calibration.toml").seat(1).cap_g == 3.1


@given(st.text(max_size=200))
def test_any_text_is_a_calibration_or_a_clear_error(text: str) -> None:
    try:
        parse_calibration("calibration.toml", text)
    except DataFileError as exc:
        assert str(exc).startswith("calibration.toml")


VALUES = st.one_of(
    st.integers(-(2**40), 2**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(['"28-0316a2794aff"', "2026-11-29T18:00:00Z", "2026-11-29", "true", "[1, 2]"]),
)
KEYS = st.sampled_from(
    [
        "thermometer",
        "probe_offset_c",
        "scale",
        "tare_counts",
        "counts_per_gram",
        "cap_g",
        "tared_at",
    ]
)


@given(
    st.lists(
        st.tuples(st.sampled_from(["1", "2", "7", "x"]), st.dictionaries(KEYS, VALUES, max_size=4)),
        max_size=3,
        unique_by=lambda s: s[0],
    )
)
def test_any_table_of_known_keys_is_a_calibration_or_a_clear_error(seats) -> None:
    text = "".join(
        f"[seat.{label}]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items())
        for label, keys in seats
    )
    try:
        parse_calibration("calibration.toml", text)
    except DataFileError as exc:
        assert exc.line is not None, str(exc)


def test_a_broken_file_says_how_to_get_back_to_a_good_one(tmp_path: Path) -> None:
    path = tmp_path / "calibration.toml"
    path.write_text('[seat.1]\ntare_counts = "abc"\n')
    with pytest.raises(
        DataFileError, match=r":2: tare_counts must be a number.*delete .* and calibrate"
    ):
        load_calibration(path)
    (tmp_path / "calibration.toml.bak").write_text("[seat.1]\ntare_counts = 100\n")
    with pytest.raises(DataFileError, match=r"put the previous calibration back: cp .*\.bak"):
        load_calibration(path)
