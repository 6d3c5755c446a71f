"""``companion selfplay``: the JSON report, the narrated game and its export, and bad input.

Bad input exits with status 2 and one line on stderr, and writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from commandline import Companion, run

REPORT_KEYS = {"games", "finished", "invariant_violations", "mean_actions", "wins_by_seat"}


def test_selfplay_json_prints_one_report_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["selfplay", "cool-runnings", "--games", "3", "--seed", "1", "--json"], capsys
    )
    assert code == 0
    assert err == ""
    assert out.count("\n") == 1
    report = json.loads(out)
    assert set(report) >= REPORT_KEYS
    assert report["games"] == 3
    assert report["finished"] == 3
    assert report["invariant_violations"] == 0
    assert isinstance(report["mean_actions"], float) and report["mean_actions"] > 10
    assert set(report["wins_by_seat"]) == {"1", "2", "3", "4"}
    assert sum(report["wins_by_seat"].values()) == report["finished"]


def test_selfplay_same_seed_prints_the_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "cool-runnings", "--games", "3", "--seed", "1", "--json"]
    first = run(argv, capsys)
    second = run(argv, capsys)
    assert first == second
    other = run(["selfplay", "cool-runnings", "--games", "3", "--seed", "2", "--json"], capsys)
    assert json.loads(other[1])["mean_actions"] != json.loads(first[1])["mean_actions"]


def test_selfplay_seats_sets_how_many_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "cool-runnings", "--games", "2", "--seed", "4", "--seats", "2", "--json"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert set(json.loads(out)["wins_by_seat"]) == {"1", "2"}


def test_selfplay_without_json_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["selfplay", "cool-runnings", "--games", "2", "--seed", "1"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("2 games of cool-runnings (seed 1): 2 finished, 0 invariant")
    assert lines[1].startswith("wins by seat: 1: ")


def test_selfplay_as_a_process_prints_what_main_prints(
    capsys: pytest.CaptureFixture[str], companion_process: Companion
) -> None:
    argv = ["selfplay", "cool-runnings", "--games", "3", "--seed", "1", "--json"]
    done = companion_process(*argv)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == run(argv, capsys)[1]


def test_narrate_tells_the_game_with_the_rulebook_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    code, out, err = run(
        ["selfplay", "cool-runnings", "--narrate", "--seed", "3", "--export", str(path)], capsys
    )
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "A game of Cool Runnings for Karen, Tom, Mary, Ben (seed 3)."
    assert lines[1].startswith(
        "Before the first card or die, the referee commits to its randomness: sha256 "
    )
    assert any(line.startswith("Turn 1") and "Karen" in line for line in lines)
    for name in ("Karen", "Tom", "Mary"):
        assert any(line.startswith(f"{name} ") and line.endswith((".", "!")) for line in lines)
    assert any(line.endswith("wins!") for line in lines)
    assert all(line.strip() for line in lines)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert f"sha256 {data['commitment']}." in out
    assert [s["name"] for s in data["seats"]] == ["Karen", "Tom", "Mary", "Ben"]
    assert data["outcome"] is not None and data["seed"] is not None
    assert lines[-1] == (
        f"The game and its seed are in {path}; "
        f"check every shuffle and roll with: companion verify {path}"
    )


def test_narrated_export_verifies(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(["selfplay", "cool-runnings", "--narrate", "--seed", "3", "--export", str(path)], capsys)
    code, out, err = run(["verify", str(path)], capsys)
    assert code == 0, out
    assert err == ""
    assert out.splitlines()[-1] == f"verified: {path} is an honest game"
    assert "MISMATCH" not in out


def test_narrate_same_seed_tells_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "cool-runnings", "--narrate", "--seed", "3"]
    assert run(argv, capsys) == run(argv, capsys)


def test_narrate_with_seats_two_tells_a_game_of_karen_and_tom(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(
        ["selfplay", "cool-runnings", "--narrate", "--seed", "5", "--seats", "2"], capsys
    )
    assert out.splitlines()[0] == "A game of Cool Runnings for Karen, Tom (seed 5)."
    assert "Mary" not in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        pytest.param(["--games", "0"], "'0' must be at least 1", id="games-0"),
        pytest.param(["--games", "x"], "'x' is not a whole number", id="games-x"),
        pytest.param(["--seed", "-1"], "seed '-1' must be at least 0", id="seed-negative"),
        pytest.param(["--seed", "one"], "seed 'one' is not a whole number", id="seed-word"),
        pytest.param(["--seats", "9"], "for 2 to 4 seats, not 9", id="seats-9"),
        pytest.param(["--seats", "1"], "for 2 to 4 seats, not 1", id="seats-1"),
    ],
)
def test_bad_selfplay_arguments_exit_2_with_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["selfplay", "cool-runnings", *argv], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("companion selfplay: ")
    assert words in err


def test_an_unknown_option_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["selfplay", "cool-runnings", "--bogus"], capsys)
    assert code == 2 and out == ""
    assert err == (
        "companion selfplay: unrecognized arguments: --bogus (see 'companion selfplay --help')\n"
    )


def test_an_unknown_game_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["selfplay", "chess", "--games", "1"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "invalid choice: 'chess'" in err and "cool-runnings" in err


def test_export_without_narrate_exits_2_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    code, out, err = run(["selfplay", "cool-runnings", "--export", str(path)], capsys)
    assert code == 2 and out == ""
    assert err == (
        "companion selfplay: --export goes with --narrate (it keeps the one narrated game)\n"
    )
    assert not path.exists()


@pytest.mark.parametrize("extra", [["--games", "3"], ["--json"]])
def test_narrate_refuses_what_it_would_ignore(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    code, out, err = run(["selfplay", "cool-runnings", "--narrate", *extra], capsys)
    assert code == 2 and out == ""
    assert err == (
        "companion selfplay: --narrate tells one game in words: leave out --games and --json\n"
    )


def test_export_to_a_folder_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(
        ["selfplay", "cool-runnings", "--narrate", "--seed", "1", "--export", str(tmp_path)],
        capsys,
    )
    assert code == 2 and out == ""
    assert err == f"companion selfplay: --export {tmp_path} is a folder; name a file\n"


def test_export_into_a_missing_folder_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "no-such-folder" / "game.json"
    code, _, err = run(
        ["selfplay", "cool-runnings", "--narrate", "--seed", "1", "--export", str(path)], capsys
    )
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("companion selfplay: ")


def test_a_negative_delay_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        ["selfplay", "cool-runnings", "--narrate", "--seed", "1", "--delay", "-1"], capsys
    )
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("companion selfplay: ")


def test_no_subcommand_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert code == 2 and out == ""
    assert err == (
        "companion: the following arguments are required: COMMAND (see 'companion --help')\n"
    )


def test_bad_arguments_as_a_process_exit_2_with_one_line(companion_process: Companion) -> None:
    done = companion_process("selfplay", "cool-runnings", "--games", "0")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert "--games: '0' must be at least 1" in done.stderr
