"""``companion verify EXPORT.json``: exit 0 for an honest game, 1 naming a mismatch, 2 for a
file that is not an export of a finished game (one line on stderr)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from commandline import Companion, run

from companion.games.record import GameRecord
from companion.games.seats import default_seats
from companion.games.selfplay import play_one


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def finished() -> dict[str, Any]:
    return play_one("cool-runnings", 3, 0).record.export()


@pytest.fixture
def honest(tmp_path: Path, finished: dict[str, Any]) -> Path:
    return write(tmp_path / "game.json", finished)


@pytest.fixture
def tampered(tmp_path: Path, finished: dict[str, Any]) -> Path:
    shuffle = next(e for e in finished["setup"] if e["type"] == "shuffled")
    shuffle["cards"][0], shuffle["cards"][1] = shuffle["cards"][1], shuffle["cards"][0]
    return write(tmp_path / "tampered.json", finished)


def test_an_honest_export_verifies_with_exit_0(
    honest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["verify", str(honest)], capsys)
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith("ok: commitment ")
    assert any(line.startswith("ok: ") and "actions replayed" in line for line in lines)
    assert any("shuffles" in line and "draws match the seed" in line for line in lines)
    assert lines[-1] == f"verified: {honest} is an honest game"


def test_a_tampered_export_exits_1_naming_the_mismatch(
    tampered: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["verify", str(tampered)], capsys)
    assert code == 1
    assert err == ""
    last = out.splitlines()[-1]
    assert last.startswith("MISMATCH: setup, event 2 (a shuffle): cards[")
    assert "in the export, but the seed and the actions give" in last
    assert "verified" not in out


def test_verify_json_prints_ok_checked_and_no_mismatch(
    honest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["verify", "--json", str(honest)], capsys)
    assert code == 0
    assert out.count("\n") == 1
    verdict = json.loads(out)
    assert set(verdict) == {"ok", "checked", "mismatch"}
    assert verdict["ok"] is True
    assert verdict["mismatch"] is None
    assert len(verdict["checked"]) == 5
    assert verdict["checked"][0].startswith("commitment ")


def test_verify_json_of_a_tampered_export_names_the_mismatch(
    tampered: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["verify", str(tampered), "--json"], capsys)
    assert code == 1
    verdict = json.loads(out)
    assert verdict["ok"] is False
    assert verdict["mismatch"].startswith("setup, event 2 (a shuffle)")
    assert verdict["checked"] == [verdict["checked"][0]]
    assert verdict["checked"][0].startswith("commitment ")


def test_a_changed_seed_exits_1(
    tmp_path: Path, finished: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    device = finished["seed"]["device"]
    finished["seed"]["device"] = device[:-1] + ("0" if device[-1] != "0" else "1")
    code, out, _ = run(["verify", str(write(tmp_path / "seed.json", finished))], capsys)
    assert code == 1
    assert len(out.splitlines()) == 1
    assert out.startswith("MISMATCH: seed: sha256 of the seed is ")


def assert_one_line_exit_2(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("companion verify: ")
    assert "Traceback" not in err
    for word in words:
        assert word in err


def test_a_missing_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nowhere.json"
    code, out, err = run(["verify", str(path)], capsys)
    assert_one_line_exit_2(code, out, err, str(path), "cannot be read", "No such file")


def test_a_folder_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_exit_2(*run(["verify", str(tmp_path)], capsys), "cannot be read")


def test_a_file_that_is_not_json_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.json"
    path.write_text("the cards were fair, honest\n{", encoding="utf-8")
    assert_one_line_exit_2(*run(["verify", str(path)], capsys), str(path), "not JSON")


def test_a_binary_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\n\n")
    assert_one_line_exit_2(*run(["verify", str(path)], capsys), "not JSON")


def test_json_that_is_not_an_export_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "list.json", [1, 2, 3])
    assert_one_line_exit_2(*run(["verify", str(path)], capsys), "not a companion game export")


def test_an_unfinished_game_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GameRecord.start("cool-runnings", {}, default_seats(3), bytes(range(32)))
    record.act(record.engine.legal_actions(record.state, record.state.turn_seat)[0])
    path = write(tmp_path / "running.json", record.export())
    assert_one_line_exit_2(
        *run(["verify", str(path)], capsys), str(path), "its seed is still secret"
    )


def test_verify_without_a_file_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["verify"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "required: EXPORT.json" in err


def test_verify_as_a_process_exits_0_then_1_then_2(
    honest: Path, tampered: Path, tmp_path: Path, companion_process: Companion
) -> None:
    companion = companion_process

    good = companion("verify", str(honest))
    assert good.returncode == 0, good.stdout + good.stderr
    assert "verified" in good.stdout
    bad = companion("verify", str(tampered))
    assert bad.returncode == 1
    assert "MISMATCH" in bad.stdout
    missing = companion("verify", str(tmp_path / "nowhere.json"))
    assert missing.returncode == 2
    assert missing.stdout == ""
    assert missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
