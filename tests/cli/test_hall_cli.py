"""``companion hall``: a bad argument is one line and exit 2; the hall serves a broker's room."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from commandline import run
from waiting import wait_until

from bench.broker import MISSING, start_broker
from bench.daemon import free_port


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["hall"], "the following arguments are required: --broker"),
        (["hall", "--broker", "b", "--port", "0"], "port"),
        (["hall", "--broker", "b", "--http-port", "x"], "http-port"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_an_unreadable_password_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["hall", "--broker", "b", "--password-file", str(tmp_path / "no")], capsys)
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_the_hall_serves_the_room_of_its_broker(tmp_path: Path) -> None:
    broker = start_broker(tmp_path / "broker")
    port = free_port()
    command = [sys.executable, "-m", "companion", "hall", "--broker", "127.0.0.1"]
    command += ["--port", str(broker.port), "--host", "127.0.0.1", "--http-port", str(port)]
    hall = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert hall.stdout is not None
        line = hall.stdout.readline()
        assert f"the hall of 127.0.0.1:{broker.port} at http://127.0.0.1:{port}/" in line

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables") as answer:
                    assert json.load(answer) == {"tables": []}
                    return True
            except OSError:
                return False

        wait_until(answers, 10, every_s=0.1, what="the hall's answer")
    finally:
        hall.terminate()
        assert hall.wait(10) == 0
        broker.stop()
