"""A room of tables on one Mosquitto: N = 10, 50, 200 simulated tables and a real hall.

The tables are :mod:`bench.tables`: one process of N publishers, each the table's own
publishing code with its own client. Every table melts every second and turns every
``TURN_S`` (a brisk game); the hall is ``companion hall`` itself, a process of its own, and a
reader holds its page's stream as the room's screen does. Measured, for each N: the messages a
second the hall took from the broker, against those the tables sent it; the hall's delay from a
table's new turn (the status's time) to that turn on its page's stream (p99); the hall's
memory (PSS); and Mosquitto's CPU, as a share of one core, from which what one broker carries
follows (``docs/mqtt.md``, "A room of tables"). Goals: every message delivered, 1 s, 60 MB, 50 %.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.broker import MISSING, Broker, Listener, start_broker
from bench.cpu import cpu_s
from bench.daemon import free_port
from bench.memory import kilobytes
from bench.report import Result, p99, sig
from bench.tables import SimulatedTable, start_tables, stop_tables

ROOMS = (10, 50, 200)
QUICK_ROOMS = (10,)
MEASURE_S = 20.0
QUICK_MEASURE_S = 4.0
TURN_S = 3.0
MELT_S = 1.0
SETTLE_S = 3.0
DELAY_GOAL_MS = 1000.0
MEMORY_GOAL_MB = 60.0
BROKER_GOAL = 0.5
"""Mosquitto's share of one core at the largest room: half a core leaves room to grow."""
HALL_TOPICS = ("status", "seat/")


class HallStream:
    """The hall page's stream, read in a thread: when each table's turn first arrived."""

    def __init__(self, port: int) -> None:
        self.arrived: dict[tuple[str, float], float] = {}
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self._connection.request("GET", "/api/stream")
        response = self._connection.getresponse()
        threading.Thread(target=self._read, args=(response,), daemon=True).start()

    def _read(self, response: http.client.HTTPResponse) -> None:
        try:
            for raw in response:
                line = raw.decode()
                if line.startswith("data: "):
                    now = time.time()
                    data = json.loads(line[6:])
                    for card in data.get("tables", [data]):
                        key = (card["table"], card["made_at"])
                        self.arrived.setdefault(key, now)
        except (OSError, ValueError):
            pass

    def delay(self, table: str, made_at: float) -> float | None:
        """Milliseconds from ``made_at`` until the page showed that table's status of then or
        later (a later one may carry the same turn, when the two came close)."""
        shown = [at for (t, made), at in self.arrived.items() if t == table and made >= made_at]
        return (min(shown) - made_at) * 1000 if shown else None

    def close(self) -> None:
        self._connection.close()


def start_hall(broker: Broker) -> tuple[subprocess.Popen[bytes], int]:
    """``companion hall`` on the broker, serving on a free port once it listens."""
    port = free_port()
    command = [sys.executable, "-m", "companion", "hall", "--broker", "127.0.0.1"]
    command += ["--port", str(broker.port), "--host", "127.0.0.1", "--http-port", str(port)]
    hall = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/api/tables")
            if connection.getresponse().status == 200:
                return hall, port
        except OSError:
            time.sleep(0.1)
    hall.kill()
    raise RuntimeError("companion hall did not serve")


def tables_listed(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/tables")
    tables = json.loads(connection.getresponse().read())["tables"]
    return sum(1 for t in tables if t["online"] and t["game"])


def play(tables: list[SimulatedTable], seconds: float) -> list[tuple[str, float]]:
    """Melt every table each second and turn each every ``TURN_S``, spread over the room;
    the (table, status time) of every turn."""
    turns: list[tuple[str, float]] = []
    start = time.monotonic()
    step = 0
    while time.monotonic() - start < seconds:
        for i, sim in enumerate(tables):
            sim.melt(0.01)
            if (step + i) % int(TURN_S / MELT_S) == 0:
                turns.append((sim.table, sim.next_turn()))
        step += 1
        time.sleep(max(0.0, start + step * MELT_S - time.monotonic()))
    return turns


def room(n: int, seconds: float, folder: Path) -> list[Result]:
    broker = start_broker(folder / f"broker-{n}")
    hall, port = start_hall(broker)
    tables: list[SimulatedTable] = []
    try:
        tables = start_tables(broker, n)
        deadline = time.monotonic() + 60
        while tables_listed(port) < n:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hall lists {tables_listed(port)} of {n} tables")
            time.sleep(0.2)
        stream = HallStream(port)
        listener = Listener(broker, "companion/#").start()
        time.sleep(0.5)  # its retained messages come first: they are not counted
        heard_before = len(listener.messages())
        sent_before = sum(s.publisher.sent for s in tables if s.publisher)
        broker_before, started = cpu_s(broker.process.pid), time.monotonic()
        turns = play(tables, seconds)
        elapsed = time.monotonic() - started
        broker_share = (cpu_s(broker.process.pid) - broker_before) / elapsed
        time.sleep(SETTLE_S)  # what the tables sent by now has reached the listener
        sent = sum(s.publisher.sent for s in tables if s.publisher) - sent_before
        heard = len(listener.messages()) - heard_before
        listener.stop()
        stream.close()
        delays = [d for d in (stream.delay(*turn) for turn in turns) if d is not None]
        missed = len(turns) - len(delays)
        memory_mb = kilobytes(Path(f"/proc/{hall.pid}/smaps_rollup"), "Pss") / 1000
    finally:
        stop_tables(tables)
        hall.terminate()
        hall.wait(10)
        broker.stop()
    rate = sent / (elapsed + SETTLE_S)
    label = f"{n} tables"
    return [
        Result(
            f"mqtt room: messages a second, {label}",
            sig(heard / (elapsed + SETTLE_S)),
            "msg/s",
            None,
            sig(rate * 0.99),
            "higher",
            f"what a subscriber to every table heard, of the {sig(rate)} msg/s the tables sent "
            f"(status, seats, events) into one Mosquitto: {TURN_S:g} s turns, every cube "
            f"melting each second; {missed} of {len(turns)} turns never reached the hall's page",
            extra={"tables": n, "sent": sent, "heard": heard, "seconds": round(elapsed, 1)},
            ok=missed == 0,
        ),
        Result(
            f"mqtt room: hall delay p99, {label}",
            sig(p99(delays)) if delays else float(DELAY_GOAL_MS * 10),
            "ms",
            None,
            DELAY_GOAL_MS,
            "lower",
            "from a table's new turn (its status's time) to that turn on the hall page's "
            f"stream, over {len(delays)} turns",
            extra={"turns": len(delays)},
        ),
        Result(
            f"mqtt room: hall memory, {label}",
            sig(memory_mb),
            "MB",
            None,
            MEMORY_GOAL_MB,
            "lower",
            "companion hall's PSS after the run",
        ),
        Result(
            f"mqtt room: Mosquitto CPU, {label}",
            sig(broker_share, 3),
            "core",
            None,
            BROKER_GOAL,
            "lower",
            f"the broker's share of one core carrying {sig(rate)} msg/s in and the hall's "
            "subscription out",
            extra={"tables_per_core": sig(n / broker_share) if broker_share else None},
        ),
    ]


def run(quick: bool = False) -> list[Result]:
    if MISSING:
        return [Result("mqtt room", 0.0, "msg/s", None, 1.0, "higher", MISSING, ok=False)]
    seconds = QUICK_MEASURE_S if quick else MEASURE_S
    with tempfile.TemporaryDirectory() as folder:
        return [
            r for n in (QUICK_ROOMS if quick else ROOMS) for r in room(n, seconds, Path(folder))
        ]
