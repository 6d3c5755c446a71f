"""``companion melt replay FILE.csv``: JSON lines on the sample, a readable table, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from commandline import Companion, run

SAMPLE = Path(__file__).resolve().parents[2] / "companion" / "melt" / "data" / "sample-table.csv"
FIELDS = {"t_s", "seat", "grams", "sigma_g", "eta_s", "eta_range_s"}


def test_replay_json_on_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["melt", "replay", str(SAMPLE), "--json"], capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) > 60
    assert all(set(o) == FIELDS for o in objects)
    assert all(o["grams"] >= 0 and o["sigma_g"] >= 0 for o in objects)
    assert [o["t_s"] for o in objects] == sorted(o["t_s"] for o in objects)
    again = run(["melt", "replay", str(SAMPLE), "--json"], capsys)[1]
    assert again == out


def test_replay_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["melt", "replay", str(SAMPLE)], capsys)
    assert code == 0
    assert "melted" in out and "water-bath" in out and "%" in out
    assert "{" not in out


def test_as_a_user_runs_it(companion_process: Companion) -> None:
    done = companion_process("melt", "replay", str(SAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["grams"] == 6.0
    assert "melt" in companion_process("--help").stdout


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("t_s,seat,kind,value\n0,1,start_g,6\n5,1,weight,5\n", ":3: unknown kind 'weight'"),
        ("t_s,seat,kind,value\n0,1,weigh_in_g,5\n", ":2: weigh_in_g for seat 1 before its start_g"),
        ("t_s,seat,kind,value\n0,1,start_g,6\n9,1,air_c,20\n8,1,air_c,21\n", ":4: t_s 8"),
        ("t_s,seat,kind,value\n0,1,start_g,x\n", ":2: start_g 'x' is not a number"),
        ("time,seat,kind,value\n", ":1: the header must be t_s,seat,kind,value"),
        ("t_s,seat,kind,value\n0,1,start_g,6\n1,1,attack,tickle\n", ":3: unknown attack 'tickle'"),
    ],
)
def test_bad_recordings_exit_2_naming_the_line(
    content: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.csv"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(["melt", "replay", str(path), "--json"], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"companion melt: {path}{words}")


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["melt", "replay", str(tmp_path / "nope.csv")], capsys)
    assert code == 2 and out == ""
    assert "nope.csv: cannot be read" in err and err.count("\n") == 1


def test_a_binary_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.csv"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(["melt", "replay", str(path)], capsys)
    assert code == 2 and "not a text file" in err


def test_replay_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["melt", "replay"], capsys)
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(["melt"], capsys)
    assert code == 2 and err.count("\n") == 1
