"""``companion calibrate`` on the simulated table: every step with and without prompts, every
refusal leaving the file as it was, bad input, and one run through a real pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from commandline import run

from companion.sensors.calibration import load_calibration
from companion.sensors.lock import pads_lock
from companion.sensors.sim import SimTable

Calibrate = Callable[..., tuple[int, str, str]]
TRUTH = SimTable(seats=4, seed=0)
"""The simulated table ``--simulate`` opens: the same seed, the same hidden truth."""


def empty_pad(seat: int) -> float:
    """What seat's empty pad reads when it is tared: its hidden tare, and its zero as it warms
    up in the first seconds (a simulated pad drifts, as a real one does)."""
    truth = TRUTH.seats[seat]
    warm_up_g = truth.drift.warm_up_g if truth.drift is not None else 0.0
    return truth.tare_counts + truth.counts_per_gram * warm_up_g


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def calibrate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, state: Path
) -> Calibrate:
    """``companion calibrate ARGV --simulate``, its terminal input given as text."""

    def call(*argv: str, answers: str = "", simulate: bool = True) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
        table = ["--simulate"] if simulate else []
        return run(["calibrate", *argv, "--state-dir", str(state), *table], capsys)

    return call


def written(state: Path) -> bytes | None:
    path = state / "calibration.toml"
    return path.read_bytes() if path.exists() else None


def tared(calibrate: Calibrate) -> None:
    code, _, err = calibrate("tare", "--all", "--yes")
    assert code == 0, err


def test_tare_without_prompts_tares_every_pad(calibrate: Calibrate, state: Path) -> None:
    code, out, _ = calibrate("tare", "--all", "--yes")
    assert code == 0
    assert "Take everything off every pad." in out and "Accept? [y/N] yes (--yes)" in out
    seats = load_calibration(state / "calibration.toml").seats
    for n, truth in TRUTH.seats.items():
        assert seats[n].scale == truth.pad_id
        assert seats[n].tare_counts == pytest.approx(empty_pad(n), abs=300)
        assert seats[n].tared_at is not None


def test_tare_with_prompts_asks_then_accepts(calibrate: Calibrate, state: Path) -> None:
    code, out, _ = calibrate("tare", answers="\ny\n")
    assert code == 0
    assert "Take everything off every pad, then press Enter" in out
    assert set(load_calibration(state / "calibration.toml").seats) == {1, 2, 3, 4}


def test_nothing_is_written_until_accepted(calibrate: Calibrate, state: Path) -> None:
    tared(calibrate)
    before = written(state)
    code, out, _ = calibrate("tare", "--seat", "2", answers="n\n")
    assert code == 1 and out.endswith("Accept? [y/N] Nothing written.\n")
    code, _, err = calibrate("tare", "--seat", "2")  # the input ends: no answer is no
    assert code == 2 and "no answer (the input ended): nothing written" in err
    assert written(state) == before


@pytest.mark.parametrize("weights", [["6"], ["5", "7.5", "12.5"]])
def test_weight_without_prompts_finds_counts_per_gram(
    calibrate: Calibrate, state: Path, weights: list[str]
) -> None:
    tared(calibrate)
    tare = load_calibration(state / "calibration.toml").seats[2].tare_counts
    grams = [arg for g in weights for arg in ("--grams", g)]
    code, out, err = calibrate("weight", "--seat", "2", *grams, "--yes")
    assert code == 0, err
    truth = TRUTH.seats[2]
    seat = load_calibration(state / "calibration.toml").seats[2]
    assert seat.counts_per_gram == pytest.approx(truth.counts_per_gram, rel=0.005)
    assert seat.tare_counts == tare  # the tare is the tare step's
    assert seat.weighed_at is not None and seat.scale == "sim:pad2"
    in_all = " in all" if len(weights) > 1 else ""  # a further weight stands on the pad in all
    assert f"Put {weights[-1]} g on the pad of seat 2{in_all}." in out
    if len(weights) == 1:
        assert "one weight: the line runs through the empty pad and it" in out
    else:
        assert "residuals: 0 g " in out and "12.5 g " in out


def test_weight_keeps_only_the_slope_and_asks_for_a_tare(calibrate: Calibrate, state: Path) -> None:
    code, out, err = calibrate("weight", "--seat", "3", "--grams", "6", "--yes")
    assert code == 0, err
    assert "Take everything off the pad of seat 3 (for water, leave the empty cap)." in out
    assert "  no tare yet: run `companion calibrate tare --seat 3` with the pad empty" in out
    seat = load_calibration(state / "calibration.toml").seats[3]
    assert seat.counts_per_gram == pytest.approx(TRUTH.seats[3].counts_per_gram, rel=0.005)
    assert seat.tare_counts is None and seat.scale == "sim:pad3"


@pytest.mark.parametrize(
    ("answers", "points"), [("2\n\n\n\n\ny\n", 1), ("2\n\n5\n\n7.5\n\n12.5\n\n\ny\n", 3)]
)
def test_weight_with_prompts_tares_then_weighs(
    calibrate: Calibrate, state: Path, answers: str, points: int
) -> None:
    code, out, err = calibrate("weight", answers=answers)
    assert code == 0, err
    assert "Which seat's pad? [1-4]" in out
    assert "Take everything off the pad of seat 2 (for water, leave the empty cap), then" in out
    assert "Known weight in grams (Enter: 6.0)" in out
    assert "on the pad of seat 2 (water from the pipette in the cap, or a coin: a US nickel" in out
    assert out.count("counts from the empty pad") == points
    seat = load_calibration(state / "calibration.toml").seats[2]
    assert seat.counts_per_gram == pytest.approx(TRUTH.seats[2].counts_per_gram, rel=0.005)


def test_temperature_stores_each_probe_s_offset(calibrate: Calibrate, state: Path) -> None:
    code, out, err = calibrate("temperature", "--reference", "0", "--yes")
    assert code == 0, err
    assert "Stand every probe in a glass of ice water" in out
    seats = load_calibration(state / "calibration.toml").seats
    for n, truth in TRUTH.seats.items():
        assert seats[n].thermometer == truth.probe_id
        assert seats[n].probe_offset_c == pytest.approx(-truth.probe_error_c, abs=0.08)
        assert seats[n].probe_calibrated_at is not None


def test_temperature_with_prompts_asks_the_reference(calibrate: Calibrate, state: Path) -> None:
    code, out, _ = calibrate("temperature", "--seat", "3", answers="32F\n0.1\n\ny\n")
    assert code == 0
    assert "The ice water's true temperature in C (Enter: 0.0)" in out
    assert "'32F' is not a temperature: give degrees Celsius" in out
    assert "Stand the probe of seat 3 in a glass of ice water" in out
    seats = load_calibration(state / "calibration.toml").seats
    assert set(seats) == {3}
    assert seats[3].probe_offset_c == pytest.approx(0.1 - TRUTH.seats[3].probe_error_c, abs=0.08)


@pytest.mark.parametrize("prompts", [False, True])
def test_identify_finds_every_seat_s_probe_and_pad(
    calibrate: Calibrate, state: Path, prompts: bool
) -> None:
    argv, answers = ([], "\n" * 8 + "y\n") if prompts else (["--all", "--yes"], "")
    code, out, err = calibrate("identify", *argv, answers=answers)
    assert code == 0, err
    assert "old the probe of seat 4 between your fingers until the bar is full" in out
    assert ("Press Enter, then press the pad of seat 4 firmly" in out) is prompts
    seats = load_calibration(state / "calibration.toml").seats
    assert {n: (s.thermometer, s.scale) for n, s in seats.items()} == {
        n: (t.probe_id, t.pad_id) for n, t in TRUTH.seats.items()
    }


def test_identify_moves_a_sensor_s_calibration_with_it(calibrate: Calibrate, state: Path) -> None:
    tared(calibrate)
    path = state / "calibration.toml"
    text = path.read_text().replace('"sim:pad1"', '"sim:padX"').replace('"sim:pad3"', '"sim:pad1"')
    path.write_text(text)  # as if seats 1 and 3 had been mixed up
    code, _, err = calibrate("identify", "--seat", "1", "--yes")
    assert code == 0, err
    seats = load_calibration(path).seats
    assert seats[1].scale == "sim:pad1"
    assert seats[1].tare_counts == pytest.approx(empty_pad(3), abs=300)
    assert seats[3].scale is None and seats[3].tare_counts is None


def test_identify_swaps_two_mixed_up_pads_with_their_calibration(
    calibrate: Calibrate, state: Path
) -> None:
    tared(calibrate)
    path = state / "calibration.toml"
    text = path.read_text().replace('"sim:pad1"', '"swap"').replace('"sim:pad2"', '"sim:pad1"')
    path.write_text(text.replace('"swap"', '"sim:pad2"'))
    code, _, err = calibrate("identify", "--all", "--yes")
    assert code == 0, err
    seats = load_calibration(path).seats
    for n, other in ((1, 2), (2, 1)):  # each tare stays with the id it was written for
        assert seats[n].scale == f"sim:pad{n}"
        assert seats[n].tare_counts == pytest.approx(empty_pad(other), abs=300)


def test_show_gives_every_seat_and_its_age(calibrate: Calibrate, state: Path) -> None:
    code, out, _ = calibrate("show")
    assert code == 0 and "(none yet)" in out and "probe  not identified: no offset yet" in out
    tared(calibrate)
    code, out, _ = calibrate("show")
    assert "  pad    sim:pad2: tare " in out and " s ago; not weighed" in out
    code, out, _ = calibrate("show", "--json", "--seat", "2")
    shown = json.loads(out)
    assert shown["exists"] is True and [s["seat"] for s in shown["seats"]] == [2]
    seat = shown["seats"][0]
    assert seat["scale"] == "sim:pad2" and 0 <= seat["tared_age_s"] < 3600
    assert seat["counts_per_gram"] is None


@pytest.mark.parametrize("prompts", [False, True])
def test_check_diagnoses_every_sensor(calibrate: Calibrate, prompts: bool) -> None:
    tared(calibrate)
    code, out, err = calibrate("weight", "--seat", "1", "--grams", "6", "--yes")
    assert code == 0, err
    argv, answers = ([], "\n") if prompts else (["--all"], "")
    code, out, err = calibrate("check", *argv, answers=answers)
    assert code == 0, err
    assert ("then press Enter" in out) is prompts
    pads = [line for line in out.splitlines() if line.startswith("  pad now:")]
    assert len(pads) == 4
    assert " g, noise 0.0" in pads[0] and "(10.0/s)" in pads[0] and "0 saturated" in pads[0]
    assert "drift +0.0" in pads[0] or "drift -0.0" in pads[0]
    assert "no grams yet: run `companion calibrate weight`" in out  # seats 2-4 are only tared
    assert out.count("  probe now: ") == 4


def test_reset_clears_a_seat_after_asking(calibrate: Calibrate, state: Path) -> None:
    tared(calibrate)
    before = written(state)
    code, out, _ = calibrate("reset", "--seat", "2", answers="n\n")
    assert code == 1 and "Clear the calibration of seat 2? [y/N]" in out
    assert written(state) == before
    code, _, _ = calibrate("reset", "--seat", "2", "--yes")
    assert code == 0 and set(load_calibration(state / "calibration.toml").seats) == {1, 3, 4}
    code, _, _ = calibrate("reset", answers="y\n")
    assert code == 0 and load_calibration(state / "calibration.toml").seats == {}
    code, out, _ = calibrate("reset", "--yes")
    assert code == 0 and out == "Nothing to clear: no calibration for any seat.\n"


def noisier(monkeypatch: pytest.MonkeyPatch, **noise: float) -> None:
    """Make the simulated table's sensors as noisy as said (``noise_g``, ``noise_c``)."""
    made = SimTable.__init__

    def noisy(self: SimTable, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        for name, value in noise.items():
            setattr(self, name, value)

    monkeypatch.setattr(SimTable, "__init__", noisy)


def swapped(monkeypatch: pytest.MonkeyPatch, swap: dict[float, float]) -> None:
    """The simulated table puts other weights on the pads than it is asked to."""
    put = SimTable.put_weight
    monkeypatch.setattr(
        SimTable, "put_weight", lambda self, seat, g: put(self, seat, swap.get(g, g))
    )


@pytest.mark.parametrize(
    ("argv", "answers", "setup", "words"),
    [
        (
            ["weight", "--seat", "2", "--grams", "500"],
            "",
            None,
            "seat 2's pad (sim:pad2) read the HX711's full scale ",
        ),
        (
            ["weight", "--seat", "2", "--grams", "0.05"],
            "",
            None,
            "seat 2's pad (sim:pad2) reads no different with 0.05 g on it than empty",
        ),
        (
            ["weight", "--seat", "2"],
            "\n0.05\n\n\n",
            None,
            "seat 2's pad (sim:pad2) reads no different with 0.05 g on it than empty",
        ),
        (
            ["weight", "--seat", "2", "--grams", "5", "--grams", "10"],
            "",
            {"swap": {5.0: 10.0, 10.0: 5.0}},
            "seat 2's pad (sim:pad2) reads less with 10 g than with 5 g",
        ),
        (
            ["tare", "--seat", "2"],
            "",
            {"noise_g": 2.0},
            "seat 2's pad (sim:pad2) did not settle (it spread ",
        ),
        (
            ["temperature", "--reference", "-5"],
            "",
            None,
            "seat 1's probe (28-629fd82c07cd) reads -0.2 C, 4.8 C above the reference -5 C: "
            "it is not in the ice water yet",
        ),
        (
            ["temperature", "--reference", "5"],
            "",
            None,
            "seat 1's probe (28-629fd82c07cd) reads -0.2 C, 5.2 C below the reference 5 C: "
            "ice water is never colder than 0 C unless salted",
        ),
        (
            ["temperature", "--reference", "0"],
            "",
            {"noise_c": 1.0},
            "seat 1's probe (28-629fd82c07cd) did not settle",
        ),
        (
            ["identify", "--all"],
            "",
            {"cold": True},
            "no probe warmed by 1 C or more (the most: ",
        ),
    ],
)
def test_every_refusal_says_why_and_writes_nothing(
    calibrate: Calibrate,
    state: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    answers: str,
    setup: dict | None,
    words: str,
) -> None:
    tared(calibrate)
    before = written(state)
    setup = setup or {}
    if "swap" in setup:
        swapped(monkeypatch, setup["swap"])
    if "cold" in setup:
        monkeypatch.setattr(SimTable, "warm_probe", lambda *args, **kwargs: None)
    noisier(monkeypatch, **{k: v for k, v in setup.items() if k.startswith("noise")})
    code, _, err = calibrate(*argv, *([] if answers else ["--yes"]), answers=answers)
    assert code == 2
    assert err.startswith(f"companion calibrate: {words}"), err
    assert len(err.strip().splitlines()) == 1
    assert written(state) == before


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tare", "--seat", "7"], "seat 7: this table has seats 1 to 4: give one of them"),
        (["weight", "--seat", "2", "--grams", "6g"], "'6g' is not a number of grams"),
        (["weight", "--seat", "2", "--grams", "-5"], "a known weight of -5 g cannot calibrate"),
        (["weight", "--seat", "2", "--grams", "0"], "give its grams as a positive number"),
        (["temperature", "--reference", "32F"], "'32F' is not a temperature: give degrees C"),
        (["tare", "--seat", "two"], "seat 'two' is not a whole number"),
        (["tare", "--seat", "1", "--all"], "not allowed with argument --seat"),
        (["show", "--seat", "9"], "seat 9: this table has seats 1 to 4"),
        (["calibrate-all"], "invalid choice: 'calibrate-all'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    calibrate: Calibrate, state: Path, argv: list[str], words: str
) -> None:
    tared(calibrate)
    before = written(state)
    code, out, err = calibrate(*argv, "--yes" if argv[0] != "show" else "--json")
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1
    assert written(state) == before


def test_a_table_without_sensors_says_what_to_set(
    calibrate: Calibrate, state: Path, tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        f'[sensors]\nthermometers = "w1"\nw1_root = "{tmp_path / "no-bus"}"\nscales = "none"\n'
    )
    code, _, err = calibrate("tare", "--all", "--config", str(config), simulate=False)
    assert code == 2 and 'has no pads (scales = "none")' in err
    code, _, err = calibrate(
        "temperature", "--reference", "0", "--yes", "--config", str(config), simulate=False
    )
    assert code == 2 and "no probe read for seat 1: check its wiring" in err
    assert len(err.strip().splitlines()) == 1 and written(state) is None


def test_real_pads_wait_for_the_daemon_to_let_go(
    calibrate: Calibrate, state: Path, tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[sensors]\nthermometers = "none"\nscales = "hx711"\n')
    with pads_lock(state):
        code, _, err = calibrate("tare", "--all", "--config", str(config), simulate=False)
    assert code == 2 and err.startswith("companion calibrate: the daemon is reading the pads: ")
    assert "from the daemon's referee page instead" in err and "Set up the sensors" in err
    assert "or stop it first (sudo systemctl stop companion)" in err
    assert len(err.strip().splitlines()) == 1 and written(state) is None


def test_a_run_on_a_terminal_prompts_shows_the_bar_and_writes(state: Path) -> None:
    """The whole weight step through a pseudo-terminal, as a maker at the keyboard runs it."""
    main, child = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "calibrate",
            "weight",
            "--simulate",
            "--seat",
            "4",
            "--state-dir",
            str(state),
        ],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(child)
    seen = ""
    try:
        for wanted, answer in (
            ("(for water, leave the empty cap), then press Enter", ""),
            ("Known weight in grams (Enter: 6.0)", "7.5"),
            ("a 1-euro coin 7.50 g), then press Enter", ""),
            ("Another weight in grams (Enter: done)", ""),
            ("Accept? [y/N]", "y"),
        ):
            seen = read_until(main, wanted, seen)
            os.write(main, answer.encode() + b"\r")
        seen = read_until(main, "Written to", seen)
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        os.close(main)
    assert "reading the empty pad [####" in seen and "weighing 7.5 g [####" in seen
    assert "  7.5 g: +" in seen
    seat = load_calibration(state / "calibration.toml").seats[4]
    assert seat.counts_per_gram == pytest.approx(TRUTH.seats[4].counts_per_gram, rel=0.005)


def read_until(fd: int, wanted: str, seen: str) -> str:
    """Read the terminal until ``wanted`` shows after what was ``seen`` (a minute at most)."""
    start = len(seen)
    while wanted not in seen[start:]:
        ready, _, _ = select.select([fd], [], [], 60)
        if not ready:
            raise AssertionError(f"no {wanted!r} on the terminal; it shows:\n{seen[start:]}")
        try:
            seen += os.read(fd, 4096).decode(errors="replace")
        except OSError as exc:  # the child closed the terminal
            raise AssertionError(f"no {wanted!r}; it ended with:\n{seen[start:]}") from exc
    return seen


def test_the_cap_step_weighs_the_empty_cap_on_a_weighed_pad(
    calibrate: Calibrate, state: Path
) -> None:
    tared(calibrate)
    assert calibrate("weight", "--seat", "3", "--grams", "6", "--yes")[0] == 0
    code, out, _ = calibrate("cap", "--seat", "3", answers="y\n")
    assert code == 0, out
    assert "Set the empty, dry cap on the pad of seat 3." in out
    seat = load_calibration(state / "calibration.toml").seats[3]
    assert seat.cap_g == pytest.approx(TRUTH.seats[3].cap_g, abs=0.05)
    code, out, _ = calibrate("show")
    assert f"the empty cap {seat.cap_g:.2f} g" in out


def test_the_cap_step_is_refused_on_a_pad_not_weighed_yet(
    calibrate: Calibrate, state: Path
) -> None:
    tared(calibrate)
    before = written(state)
    code, _, err = calibrate("cap", "--all", "--yes")
    assert code == 2
    assert err.count("\n") == 1 and "is not weighed yet: run `companion calibrate weight" in err
    assert written(state) == before
