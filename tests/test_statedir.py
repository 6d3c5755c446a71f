"""The state directory and its files are the daemon's user's alone, whatever the umask: made
0700 and 0600 by each of their makers, and tightened (and logged) at start when found open."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from commandline import run
from waiting import wait_until

from bench.daemon import start
from companion.host import statedir
from companion.host.statedir import STATE_FILES, SharedDirectory, refuse_shared, secure
from companion.sensors.calibration import (
    BACKUP_SUFFIX,
    FILENAME,
    Calibration,
    SeatCalibration,
    save_calibration,
)
from companion.sensors.lock import LOCK_FILE, pads_lock
from companion.table.opening import DATABASE
from companion.table.store import Store
from companion.table.tokens import REFEREE_TOKEN_FILE, referee_token

PERMISSIVE = [0o022, 0o000]


@pytest.fixture(params=PERMISSIVE, ids=lambda m: f"umask-{m:03o}")
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """The process's umask set to a permissive one for the test, then put back."""
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def modes(folder: Path) -> dict[str, int]:
    return {p.name: mode(p) for p in sorted(folder.iterdir())}


def test_the_database_and_its_journal_are_0600_in_a_0700_folder(umask: int, tmp_path: Path) -> None:
    state = tmp_path / "new" / "state"
    store = Store(state / DATABASE)
    try:
        store.new_game("a-game", {}, [{"seat": 1}], "00" * 32, [], {"1": "a seat token"}, 0.0)
        held = sqlite3.connect(state / DATABASE)  # a write under way: its journal is there
        held.execute("BEGIN IMMEDIATE")
        held.execute("DELETE FROM actions")
        assert {DATABASE, f"{DATABASE}-journal"} <= set(modes(state))
        assert modes(state) == dict.fromkeys(modes(state), 0o600)
        held.rollback()
        held.close()
        assert mode(state) == 0o700
    finally:
        store.close()


def test_the_referee_token_is_0600_in_a_0700_folder(umask: int, tmp_path: Path) -> None:
    state = tmp_path / "state"
    referee_token(state)
    assert modes(state) == {REFEREE_TOKEN_FILE: 0o600}
    assert mode(state) == 0o700


def test_a_token_file_left_half_written_by_a_crash_is_made_private_again(
    umask: int, tmp_path: Path
) -> None:
    (tmp_path / f"{REFEREE_TOKEN_FILE}.new").write_text("half")
    (tmp_path / f"{REFEREE_TOKEN_FILE}.new").chmod(0o644)
    referee_token(tmp_path)
    assert mode(tmp_path / REFEREE_TOKEN_FILE) == 0o600


def test_the_calibration_and_its_backup_are_0600_in_a_0700_folder(
    umask: int, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    first = Calibration({1: SeatCalibration(1, thermometer="28-0316a2794aff")})
    save_calibration(state / FILENAME, first)
    save_calibration(state / FILENAME, first.with_seat(SeatCalibration(2, scale="sim:pad2")))
    assert modes(state) == {FILENAME: 0o600, FILENAME + BACKUP_SUFFIX: 0o600}
    assert mode(state) == 0o700


def test_a_calibration_saved_0644_by_an_older_version_is_backed_up_0600(tmp_path: Path) -> None:
    path = tmp_path / FILENAME
    save_calibration(path, Calibration())
    path.chmod(0o644)
    tmp_path.chmod(0o755)
    save_calibration(path, Calibration({1: SeatCalibration(1, scale="sim:pad1")}))
    assert modes(tmp_path) == {FILENAME: 0o600, FILENAME + BACKUP_SUFFIX: 0o600}
    assert mode(tmp_path) == 0o700


def test_a_command_that_makes_a_file_in_an_open_folder_closes_it_without_a_word(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    tmp_path.chmod(0o755)
    with pads_lock(tmp_path):
        pass
    assert mode(tmp_path) == 0o700 and mode(tmp_path / LOCK_FILE) == 0o600
    assert capfd.readouterr() == ("", "")  # a command's error stays one line


def test_the_pads_lock_is_0600_in_a_0700_folder(umask: int, tmp_path: Path) -> None:
    state = tmp_path / "state"
    with pads_lock(state):
        assert modes(state) == {LOCK_FILE: 0o600}
    assert mode(state) == 0o700


def test_at_start_an_open_folder_and_its_files_are_tightened_and_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o755)
    for name in STATE_FILES:
        (state / name).write_text("x")
        (state / name).chmod(0o644)
    (state / "notes.txt").write_text("the user's own")
    (state / "notes.txt").chmod(0o644)
    (state / REFEREE_TOKEN_FILE).chmod(0o640)
    with caplog.at_level(logging.WARNING):
        tightened = secure(state)
    assert tightened == [state, *(state / name for name in STATE_FILES)]
    assert mode(state) == 0o700
    assert modes(state) == {**dict.fromkeys(STATE_FILES, 0o600), "notes.txt": 0o644}
    assert f"{state} was open to other users (mode 0755): now 0700" in caplog.text
    assert f"{state / REFEREE_TOKEN_FILE} was open to other users (mode 0640)" in caplog.text
    assert secure(state) == []  # a private folder is left as it is, and nothing is said


def test_the_list_of_state_files_names_every_file_the_modules_make() -> None:
    made = {DATABASE, REFEREE_TOKEN_FILE, FILENAME, FILENAME + BACKUP_SUFFIX, LOCK_FILE}
    assert made | {f"{DATABASE}-{end}" for end in ("wal", "shm", "journal")} <= set(STATE_FILES)


def test_companion_run_keeps_its_state_private_and_tightens_an_open_one(
    umask: int, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    daemon = start(state)
    try:
        started = daemon.call(
            "POST", "/api/games", daemon.referee, {"game": "ice-trays", "seats": [1, 2]}
        )
        assert started.status == 201
        names = set(modes(state))
        assert {DATABASE, REFEREE_TOKEN_FILE} <= names
        assert modes(state) == dict.fromkeys(names, 0o600)
        assert mode(state) == 0o700
    finally:
        assert daemon.stop() == 0
    state.chmod(0o755)
    (state / DATABASE).chmod(0o644)
    again = start(state)
    try:
        wait_until(  # the log's lines may come after the start's
            lambda: "now 0600" in "".join(again.lines),
            10.0,
            every_s=0.05,
            what=lambda: f"the database's mode said mended: {''.join(again.lines)}",
        )
        said = "".join(again.lines)
        assert f"{state} was open to other users (mode 0755): now 0700" in said
        assert f"{state / DATABASE} was open to other users (mode 0644): now 0600" in said
        assert mode(state) == 0o700 and mode(state / DATABASE) == 0o600
    finally:
        assert again.stop() == 0


SHARED = {
    "sticky, as /tmp": (0o1777, "has the sticky bit, as a folder every user shares has"),
    "every user may write": (0o777, "is a folder every user may write in"),
    "open, with others' files": (0o755, "is open to other users and holds files not companion's"),
}


@pytest.mark.parametrize("kind", SHARED)
def test_a_folder_others_use_is_refused_as_the_state_directory_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    folder_mode, why = SHARED[kind]
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "someone-else.txt").write_text("theirs")
    shared.chmod(folder_mode)
    argv = ["run", "--simulate", "--no-cues", "--state-dir", str(shared), "--port", "1"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"companion run: {shared} {why}: ") and len(err.splitlines()) == 1
    assert "--state-dir" in err
    assert stat.S_IMODE(shared.stat().st_mode) == folder_mode, "never re-moded"
    assert sorted(p.name for p in shared.iterdir()) == ["someone-else.txt"], "nothing written"


@pytest.mark.parametrize("place", ["/", "/tmp", "home"])
def test_the_shared_places_themselves_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, place: str
) -> None:
    if place == "home":
        monkeypatch.setattr(Path, "home", lambda: tmp_path)
    folder = tmp_path if place == "home" else Path(place)
    before = stat.S_IMODE(folder.stat().st_mode)
    with pytest.raises(SharedDirectory):
        refuse_shared(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == before


def test_another_user_s_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statedir.os, "geteuid", lambda: tmp_path.stat().st_uid + 1)
    with pytest.raises(statedir.SharedDirectory, match="belongs to another user"):
        statedir.refuse_shared(tmp_path)


def test_an_empty_state_directory_path_is_a_bad_argument(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["run", "--simulate", "--state-dir", ""], capsys)
    assert code == 2 and out == ""
    assert "an empty path names no folder" in err and len(err.splitlines()) == 1


def test_a_folder_of_companion_s_own_left_open_is_still_taken_and_tightened(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / DATABASE).write_text("")
    state.chmod(0o755)
    assert secure(state) == [state, state / DATABASE]
    assert mode(state) == 0o700
