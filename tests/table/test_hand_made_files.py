"""Files a maker writes by hand are read with care: the referee's token file and the table
config are named at start when they are not what they should be (too long, not a token, a FIFO
that would block the start for ever), with the fix, and never read whole when too long."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from commandline import run

from companion.config import load_config
from companion.errors import DataFileError
from companion.table.tokens import LONGEST_TOKEN, REFEREE_TOKEN_FILE, BadTokenFile, referee_token


@pytest.fixture(autouse=True)
def no_block() -> Iterator[None]:
    """A read that blocks fails the test after a few seconds instead of hanging the suite."""

    def stuck(signum: int, frame: object) -> None:
        raise AssertionError("the read blocked")

    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize(
    ("held", "says"),
    [
        (b"x" * 10_000_000, "holds no token (or one too long to be sent)"),
        (b"a" * (LONGEST_TOKEN + 1) + b"\n", "holds no token (or one too long to be sent)"),
        (b"my secret referee word!\n", "holds no token"),
        (b"\xff\xfe" * 20, "holds no token"),
    ],
    ids=["10 MB", "over 256", "not a token", "not text"],
)
def test_a_token_file_that_holds_no_token_is_named_with_the_fix(
    tmp_path: Path, held: bytes, says: str
) -> None:
    (tmp_path / REFEREE_TOKEN_FILE).write_bytes(held)
    with pytest.raises(BadTokenFile) as bad:
        referee_token(tmp_path)
    line = str(bad.value)
    assert line.startswith(f"{tmp_path / REFEREE_TOKEN_FILE} {says}")
    assert "delete it and a new one is made" in line and len(line) < 300
    assert (tmp_path / REFEREE_TOKEN_FILE).read_bytes() == held, "left as it was"


def test_a_token_of_the_longest_length_a_request_carries_is_taken(tmp_path: Path) -> None:
    token = "a" * LONGEST_TOKEN
    (tmp_path / REFEREE_TOKEN_FILE).write_text(token + "\n")
    assert referee_token(tmp_path) == token


def test_an_empty_token_file_gets_a_new_token(tmp_path: Path) -> None:
    (tmp_path / REFEREE_TOKEN_FILE).write_bytes(b"")
    token = referee_token(tmp_path)
    assert len(token) == 43 and (tmp_path / REFEREE_TOKEN_FILE).read_text().strip() == token


def test_a_fifo_as_the_token_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / REFEREE_TOKEN_FILE)
    with pytest.raises(BadTokenFile, match="is not a regular file"):
        referee_token(tmp_path)


def test_a_fifo_as_the_config_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    argv = ["run", "--config", str(fifo), "--state-dir", str(tmp_path / "s"), "--port", "1"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert f"{fifo}: is not a regular file" in err and len(err.splitlines()) == 1


def test_a_config_too_long_to_be_one_is_refused_unread(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_bytes(b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    with pytest.raises(DataFileError, match="is over 1024 KB"):
        load_config(config)


def test_companion_run_names_a_bad_token_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / REFEREE_TOKEN_FILE).write_text("not a token\n")
    argv = ["run", "--simulate", "--no-cues", "--state-dir", str(tmp_path), "--port", "1"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert f"{tmp_path / REFEREE_TOKEN_FILE} holds no token" in err
    assert len(err.splitlines()) == 1
