"""What the host makes of the pod's lines, on a fake clock: counts, clock, setup, outages."""

from __future__ import annotations

import logging

import pytest

from companion.sensors.pod_protocol import PROTOCOL, encode, parse, unseal
from companion.sensors.pod_stream import SILENT_HINT, ClockMap, PodStream, Settings


def line(kind: str, seq: int, ms: int, *words: str) -> bytes:
    return (encode(kind, seq, ms, list(words)) + "\n").encode("ascii")


def hello(
    seq: int = 0, ms: int = 800, proto: int = PROTOCOL, fw: str = "1.0.0", reset: str = "power-on"
) -> bytes:
    words = [f"fw={fw}", f"proto={proto}", "board=raspberry_pi_pico", "probes=2", "pads=2"]
    return line("hello", seq, ms, *words, f"reset={reset}")


SEATS = {"28-000000000001": 1, "28-000000000002": 2, "pod:pad1": 1, "pod:pad2": 2}


@pytest.fixture
def stream() -> PodStream:
    opened = PodStream(Settings(), SEATS.get, silent_s=2.0)
    opened.opened(100.0, "/dev/pod")
    return opened


def test_a_hello_is_answered_with_the_config_s_settings() -> None:
    stream = PodStream(Settings(resolution=10, sweep_ms=3000, gain=64, pad_hz=80))
    assert stream.opened(0.0, "/dev/pod") == b"hello 1*DEB9\n"
    sent = [parse_command(c) for c in stream.receive(0.1, hello())]
    assert sent == [
        ("set", "resolution=10"),
        ("set", "sweep_ms=3000"),
        ("set", "gain=64"),
        ("set", "pad_hz=80"),
    ]
    assert stream.hello["fw"] == "1.0.0" and stream.trouble(0.2) is None
    assert stream.receive(0.5, hello(seq=9, ms=1200)) == []  # the answer to ours: set up already
    assert len(stream.receive(0.6, hello(seq=0, ms=700))) == 4  # it restarted
    assert len(stream.receive(0.7, line("pads", 5, 300, "1=5"))) == 4  # again, its hello lost
    stream.opened(1.0, "/dev/pod")
    assert len(stream.receive(1.1, hello(seq=7, ms=900))) == 4  # a new port: set it up


def test_a_watchdog_restart_is_told_once_when_it_happens_not_at_every_opening(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stream = PodStream(Settings())
    stream.opened(0.0, "/dev/pod")
    with caplog.at_level(logging.WARNING, "companion.sensors.pod"):
        stream.receive(0.1, hello(seq=0, reset="watchdog"))
        stream.opened(5.0, "/dev/pod")  # opened again later: the pod still says why it started
        stream.receive(5.1, hello(seq=201, ms=60_000, reset="watchdog"))
    warned = [r.getMessage() for r in caplog.records if "watchdog" in r.getMessage()]
    assert len(warned) == 1 and "hung" in warned[0]


def parse_command(sent: bytes) -> tuple[str, str]:
    words = unseal(sent)
    return words[0], " ".join(words[2:])


def test_readings_carry_the_pod_s_time_on_the_host_s_clock(stream: PodStream) -> None:
    stream.receive(100.30, hello(ms=1000))
    stream.receive(100.45, line("pads", 1, 1100, "1=-20412", "2=183021"))
    stream.receive(100.90, line("probes", 2, 1500, "28-000000000001=21375"))
    pads = stream.take_pads()
    assert pads == [(100.4, "pod:pad1", -20412), (100.4, "pod:pad2", 183021)]
    assert stream.take_pads() == []
    assert stream.probes["28-000000000001"] == (100.8, 21375, 100.90)


def test_the_clock_follows_the_least_delay_of_the_last_minute() -> None:
    clock = ClockMap(window_s=60.0)
    assert clock.add(10.5, 0) == 10.5
    assert clock.add(10.6, 200) == 10.4  # a quicker line: the offset falls
    assert clock.add(11.0, 300) == 10.4  # a late one does not raise it
    assert clock.add(80.0, 69_000) == 11.0  # a minute later the old quick line is forgotten
    assert clock.add(80.1, 1_000) == 79.1  # the pod's time went back: it restarted


def test_a_hello_with_seq_0_starts_the_count_and_the_clock_anew(stream: PodStream) -> None:
    stream.receive(100.0, hello(ms=5000))
    stream.receive(100.1, line("pads", 1, 5100, "1=5"))
    stream.receive(200.0, hello(seq=0, ms=500))  # the pod restarted: neither lost nor late
    stream.receive(200.1, line("pads", 1, 600, "1=6"))
    assert stream.lost == 0
    assert stream.take_pads()[-1] == (200.1, "pod:pad1", 6)


def test_bad_lines_are_dropped_and_counted_and_gaps_count_as_lost(stream: PodStream) -> None:
    stream.receive(100.0, hello())
    good = line("pads", 1, 900, "1=-20412")
    stream.receive(100.1, good.replace(b"20412", b"20413"))  # a digit changed in transit
    stream.receive(100.2, b"\x00\xff garbage\n")
    stream.receive(100.3, b"x" * 600)  # too long, and its end comes later
    stream.receive(100.4, b"still the same line\n")
    stream.receive(100.5, line("pads", 3, 1100, "1=-20410"))  # seq 1 came garbled, 2 never
    stream.receive(100.6, line("pads", 5, 1200, "1=-20411"))  # nor 4
    stream.receive(100.7, line("pads", 6, 1300, "1=-20409"))
    assert stream.bad == 3
    assert stream.lines == 4
    assert stream.lost == 3
    assert [v for _, _, v in stream.take_pads()] == [-20410, -20411, -20409]


def test_lines_in_pieces_and_together_are_cut_where_they_end(stream: PodStream) -> None:
    data = hello() + line("pads", 1, 900, "1=1") + line("pads", 2, 1000, "1=2")
    for i in range(0, len(data), 7):
        stream.receive(100.0, data[i : i + 7])
    assert [v for _, _, v in stream.take_pads()] == [1, 2]
    assert stream.lines == 3 and stream.bad == 0


def test_a_pod_of_another_protocol_is_refused_naming_both_versions(stream: PodStream) -> None:
    assert stream.receive(100.0, hello(proto=PROTOCOL + 1, fw="2.0.0")) == []
    stream.receive(100.1, line("pads", 1, 900, "1=5"))
    trouble = stream.trouble(100.2)
    assert trouble is not None
    assert f"protocol {PROTOCOL + 1}" in trouble and f"protocol {PROTOCOL}" in trouble
    assert "2.0.0" in trouble and "firmware/pod/" in trouble
    assert stream.take_pads() == []  # its lines may not mean what this host thinks
    stream.receive(100.3, hello(seq=0))  # its firmware updated
    assert stream.trouble(100.4) is None


def test_silence_is_a_fault_then_the_gap_of_each_seat_is_noted(
    stream: PodStream, caplog: pytest.LogCaptureFixture
) -> None:
    stream.receive(100.0, hello())
    stream.receive(100.5, line("probes", 1, 1300, "28-000000000001=21000", "28-000000000002=!crc"))
    stream.receive(101.0, line("pads", 2, 1800, "1=5"))
    stream.receive(101.5, line("pads", 3, 2300, "2=6"))
    assert stream.trouble(103.4) is None
    with caplog.at_level(logging.WARNING, "companion.sensors.pod"):
        stream.check(104.0)
        assert stream.trouble(104.0) == f"the pod is silent for 2 s: {SILENT_HINT}"
        assert stream.trouble(107.2) == f"the pod is silent for 6 s: {SILENT_HINT}"
        stream.receive(108.0, line("pads", 4, 9000, "1=7"))
    assert stream.trouble(108.0) is None
    (back,) = stream.reconnects
    assert back.why == "silent" and back.gaps == {1: 7.0, 2: 6.5}
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        f"the pod is silent for 2 s: {SILENT_HINT}",
        "the pod is back (silent): seat 1 had no readings for 7.0 s, seat 2 for 6.5 s",
    ]


def test_unplugged_until_reopened_then_the_gap_is_noted(stream: PodStream) -> None:
    stream.receive(100.0, hello())
    stream.receive(100.1, line("pads", 1, 900, "1=5", "2=6"))
    stream.closed(100.2, "the pod is unplugged: reconnecting")
    assert stream.trouble(100.3) == "the pod is unplugged: reconnecting"
    stream.closed(101.2, "the pod is unplugged: reconnecting")  # a retry that failed
    assert stream.opened(103.0, "/dev/pod").startswith(b"hello ")
    assert stream.trouble(103.1) is None
    stream.receive(103.2, hello(seq=0, ms=700))
    assert stream.reconnects == []  # a hello is not a reading
    stream.receive(103.4, line("pads", 1, 900, "1=5"))
    (back,) = stream.reconnects
    assert back.why == "unplugged" and back.gaps == {1: 3.3, 2: 3.3}


def test_refused_commands_are_logged_and_a_garbled_one_sets_the_pod_up_again(
    stream: PodStream, caplog: pytest.LogCaptureFixture
) -> None:
    setup = stream.receive(100.0, hello())
    first_id = int(unseal(setup[0])[1])
    with caplog.at_level(logging.WARNING, "companion.sensors.pod"):
        stream.receive(100.1, line("ack", 1, 900, str(first_id), "resolution=11"))
        stream.receive(100.2, line("nak", 2, 910, str(first_id + 1), "sweep_ms=2000", "is", "odd"))
        again = stream.receive(100.3, line("nak", 3, 920, "0", "checksum"))
    assert [parse_command(c)[1] for c in again] == Settings().words()
    logged = " / ".join(r.getMessage() for r in caplog.records)
    assert "refused 'set sweep_ms=2000': sweep_ms=2000 is odd" in logged
    assert "garbled" in logged


def test_unknown_kinds_are_skipped_without_counting_them_bad(stream: PodStream) -> None:
    stream.receive(100.0, hello())
    stream.receive(100.1, line("weight", 1, 900, "1=12"))
    assert (stream.lines, stream.bad, stream.lost) == (2, 0, 0)


def test_a_line_is_parsed_back_from_what_the_stream_cuts() -> None:
    assert parse(line("pong", 9, 2000, "5")).values == {"id": 5, "detail": ""}
