"""``companion run``: it serves the simulated table, says what it found, stops cleanly."""

from __future__ import annotations

import os
import pty
import select
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from commandline import run
from waiting import wait_until
from waitress import wasyncore

from bench.daemon import command, free_port, start
from companion.cli import run as run_command
from companion.network.addresses import local_name
from companion.table.notify import Notifier
from companion.web.join import qr_text


def test_it_serves_the_simulated_table_and_says_what_it_found(tmp_path: Path) -> None:
    daemon = start(tmp_path, "--speed", "10")
    try:
        said = "".join(daemon.lines)
        assert f"serving the simulated table at {daemon.url}/" in said
        assert f"referee token {daemon.referee}" in said
        assert "thermometers (simulated): 4 of 4 seats read" in said
        assert "also at" not in said  # on the loopback alone, no name on the network
        assert (tmp_path / "referee-token").read_text().strip() == daemon.referee
        status = daemon.call("GET", "/api/status")
        assert status.status == 200
        assert status.body["simulated"] is True and status.body["speed"] == 10.0
        assert [s["seat"] for s in status.body["seats"]] == [1, 2, 3, 4]
    finally:
        assert daemon.stop() == 0


def test_a_simulated_table_from_a_config_names_the_file_it_read(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[[seat]]\nname = "Karen"\n[[seat]]\n[[seat]]\n', encoding="utf-8")
    daemon = start(tmp_path / "state", "--config", str(config))
    try:
        assert f"serving the simulated table of {config} at {daemon.url}/" in "".join(daemon.lines)
        assert len(daemon.call("GET", "/api/status").body["seats"]) == 3
    finally:
        assert daemon.stop() == 0


def test_a_laptop_without_sensors_is_a_phones_only_table_in_words_with_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-sensors`` on a machine without pins: no probes, pads or cues, said in words, and
    not a warning about the pin factory a laptop cannot have."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    daemon = start(tmp_path, "--no-sensors", simulate=False, cues=True)
    try:
        daemon.call("GET", "/api/status")  # a request's log lines too, before they are read
        said = "".join(daemon.lines)
        assert f"serving the phones-only table at {daemon.url}/" in said
        assert "no probes or pads: each seat says on its phone when its cube has melted" in said
        assert "cues: none; the count is seen and heard on the table page" in said
        assert "WARNING" not in said and "Traceback" not in said and "pin factory" not in said
        seats = daemon.call("GET", "/api/status").body["seats"]
        assert {(s["sensors"]["scale"], s["sensors"]["thermometer"]) for s in seats} == {
            ("none", "none")
        }
    finally:
        assert daemon.stop() == 0


def test_a_pi_with_cues_and_no_sensors_plays_its_buzzer_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second way to play: no probes or pads, but the pins (here gpiozero's mock ones, as a
    Pi's would be found) carry the buzzer, LEDs and buttons."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    daemon = start(tmp_path, "--no-sensors", simulate=False, cues=True)
    try:
        said = "".join(daemon.lines)
        assert f"serving the table at {daemon.url}/" in said
        assert "cues: buzzer, LEDs and buttons on GPIO" in said
        assert "no probes or pads: each seat says on its phone when its cube has melted" in said
    finally:
        assert daemon.stop() == 0


def test_the_room_s_air_given_is_said_at_start(tmp_path: Path) -> None:
    daemon = start(tmp_path, "--no-sensors", "--air-c", "24", simulate=False)
    try:
        assert "the room's air is 24 C as given" in "".join(daemon.lines)
    finally:
        assert daemon.stop() == 0


def test_on_every_address_it_says_the_table_s_name_on_the_network_too(tmp_path: Path) -> None:
    """Beside the address, which a router may change, the name mDNS answers for the host."""
    if local_name() is None:
        pytest.skip(f"this machine's host name, {socket.gethostname()!r}, has no .local name")
    daemon = start(tmp_path, "--host", "0.0.0.0")
    try:
        port = daemon.url.rsplit(":", 1)[1]
        lines = [line.rstrip("\n") for line in daemon.lines]
        serving = next(i for i, line in enumerate(lines) if " serving " in line)
        assert lines[serving].endswith(f":{port}/")
        assert lines[serving + 1] == (
            f"companion: also at http://{local_name()}:{port}/ (its name on the network)"
        )
        assert lines[serving + 2].startswith("companion: referee token ")
    finally:
        assert daemon.stop() == 0


def test_a_restart_keeps_the_referee_s_token(tmp_path: Path) -> None:
    first = start(tmp_path)
    first.stop()
    again = start(tmp_path)
    try:
        assert again.referee == first.referee
    finally:
        again.stop()


def test_a_second_table_on_the_same_state_directory_stops_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two tables on one game would answer from a game the other moved on, and clash."""
    first = start(tmp_path)
    try:
        port = first.url.rsplit(":", 1)[1]  # taken: a table that got past the lock stops too
        argv = ["run", "--simulate", "--no-cues", "--state-dir", str(tmp_path), "--port", port]
        code, out, err = run(argv, capsys)
        assert code == 2 and out == ""
        assert f"another companion is running on {tmp_path}" in err
        assert "--state-dir" in err and len(err.strip().splitlines()) == 1
        assert first.call("GET", "/api/status").status == 200
    finally:
        first.stop()
    again = start(tmp_path)  # the lock went with the first
    again.stop()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--port", "0"], "port 0 must be from 1 to 65535"),
        (["--port", "http"], "port 'http' is not a number"),
        (["--speed", "0"], "speed 0 must be from 0.1 to 1000"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--air-c", "99"], "air 99 must be from -10 to 50"),
        (["--air-c", "warm"], "air 'warm' is not a number"),
        (["--no-sensors", "--simulate"], "--no-sensors is a table without probes or pads"),
        (["--host", "999.1.1.1"], "host '999.1.1.1' is not an address"),
        (["--host", "127.0.0.1:5"], "is not an address (give the port with --port)"),
        (["--host", ""], "host '' is not an address"),
        (["--host", "a b"], "host 'a b' is not an address"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(["run", *argv], capsys)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1


def test_speed_needs_a_simulated_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[sensors]\nthermometers = "none"\nscales = "none"\n')
    code, _, err = run(["run", "--config", str(config), "--speed", "5"], capsys)
    assert code == 2 and "--speed runs the simulated table faster" in err


def test_a_stop_signal_during_a_connection_s_handler_still_leaves_the_server_loop() -> None:
    """The server's loop hands a handler's exceptions to the connection, all but its own few:
    a stop raised there must reach the loop's caller, or the daemon never stops."""

    class Handler:
        def handle_read_event(self) -> None:
            run_command._shut_down(signal.SIGTERM, None)

        def handle_error(self) -> None:
            raise AssertionError("the stop was swallowed by the connection's error handler")

    found = {number: signal.getsignal(number) for number in run_command.STOP_SIGNALS}
    try:
        with pytest.raises(run_command._Stopped):
            wasyncore.read(Handler())
    finally:  # the stop ignores the signals from here: as run() does, put back what was found
        for number, handler in found.items():
            signal.signal(number, handler)


def test_a_stop_while_it_says_where_it_serves_stops_it_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """systemd may stop the daemon the moment it has started: a SIGTERM that lands while it
    prints its address and tells systemd it is ready closes the table, as one that lands while
    it serves does, instead of leaving with a traceback and the table open."""

    class StoppedOnReady(Notifier):
        def ready(self) -> bool:
            os.kill(os.getpid(), signal.SIGTERM)
            return super().ready()

    monkeypatch.setattr(run_command, "Notifier", StoppedOnReady)
    before = [signal.getsignal(s) for s in run_command.STOP_SIGNALS]
    port = str(free_port())
    argv = ["run", "--no-sensors", "--no-cues", "--host", "127.0.0.1", "--port", port]
    code, out, err = run([*argv, "--state-dir", str(tmp_path)], capsys)
    assert code == 0, err
    assert "serving the phones-only table" in out and "Traceback" not in err
    code, out, err = run([*argv, "--state-dir", str(tmp_path)], capsys)  # closed: it starts again
    assert code == 0 and "serving" in out, err
    # the stop is not left ignored: every process this one starts after would inherit that
    assert [signal.getsignal(s) for s in run_command.STOP_SIGNALS] == before


def test_under_systemd_a_warning_carries_its_journal_priority(tmp_path: Path) -> None:
    """With stderr the journal's stream, ``journalctl -p warning`` finds the warnings: here the
    state directory left open to others, which the daemon tightens and says so."""
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    state.chmod(0o755)
    log = tmp_path / "stderr"
    with open(log, "w") as stderr:
        found = os.fstat(stderr.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{found.st_dev}:{found.st_ino}"}
        daemon = subprocess.Popen(
            [
                *command(),
                "run",
                "--simulate",
                "--no-cues",
                "--port",
                str(free_port()),
                "--state-dir",
                str(state),
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )
        try:
            wait_until(
                lambda: "open to other users" in log.read_text(),
                60,
                every_s=0.1,
                what="the warning in the journal",
            )
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)
    warning = next(line for line in log.read_text().splitlines() if "open to other users" in line)
    assert warning.startswith("<4>WARNING "), warning


def test_in_a_terminal_the_referee_page_comes_as_a_qr_code_too(tmp_path: Path) -> None:
    """A phone scans the referee's page off the screen instead of typing a 43-character
    token; in the journal (no terminal) the link alone is written."""
    main, child = pty.openpty()
    port = str(free_port())
    daemon = subprocess.Popen(
        [
            *command(),
            "run",
            "--simulate",
            "--no-cues",
            "--port",
            port,
            "--state-dir",
            str(tmp_path),
        ],
        stdout=child,
        stderr=subprocess.DEVNULL,
    )
    os.close(child)
    said = bytearray()

    def drawn() -> bool:
        if select.select([main], [], [], 0.1)[0]:
            said.extend(os.read(main, 65536))
        return "▄" in said.decode(errors="replace")

    try:
        wait_until(drawn, 60, every_s=0, what=lambda: f"a QR code on the terminal: {said!r}")
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
        os.close(main)
    text = said.decode(errors="replace").replace("\r\n", "\n")
    page = next(line for line in text.splitlines() if "referee page" in line).split()[-1]
    assert qr_text(page).splitlines()[0] in text


def test_a_host_name_no_address_answers_to_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--simulate", "--no-cues", "--state-dir", str(tmp_path), "--port", "1"]
    code, out, err = run([*argv, "--host", "nosuchhost.invalid"], capsys)
    assert code == 2 and out == ""
    assert "cannot listen on nosuchhost.invalid:1" in err and len(err.splitlines()) == 1
