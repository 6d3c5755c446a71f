"""Many simulated tables in one process, each published by the table's own publishing code.

A room of N tables would be N Pis; here each is a :class:`~companion.mqtt.publisher.Publisher`
(its own paho client, thread and outbox, as on a Pi) whose status is a real table's status
(taken once from a simulated :class:`~companion.table.service.TableService` with a game of Cool
Runnings) that :meth:`SimulatedTable.next_turn` and :meth:`SimulatedTable.melt` change as play
would: a new turn, every seat's ice a little less.
"""

from __future__ import annotations

import copy
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.broker import Broker
from companion.config import MqttConfig, default_config
from companion.games.messages import REFEREE
from companion.mqtt.publisher import Publisher
from companion.table.happenings import Happenings
from companion.table.service import TableService
from companion.table.status import Broker as BrokerState


def template_status() -> dict[str, Any]:
    """A real table's status a moment into a game of Cool Runnings."""
    with tempfile.TemporaryDirectory() as folder:
        table = TableService(
            default_config(), Path(folder), simulate=True, speed=50.0, seed=1, with_cues=False
        )
        table.start()
        try:
            table.start_game(REFEREE, {"game": "cool-runnings"})
            deadline = time.monotonic() + 10
            while any(s["ice"] is None for s in table.status()["seats"]):
                assert time.monotonic() < deadline, "no estimate"
                time.sleep(0.05)
            return copy.deepcopy(table.status())
        finally:
            table.close()


@dataclass
class SimulatedTable:
    """One simulated table: its id, its current status and its publisher."""

    table: str
    status: dict[str, Any]
    happenings: Happenings = field(default_factory=Happenings)
    broker: BrokerState | None = None
    publisher: Publisher | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def current(self) -> dict[str, Any]:
        return self.status

    def next_turn(self) -> float:
        """The next seat's turn, now; the status's time (Unix s) it carries."""
        with self._lock:
            status = copy.deepcopy(self.status)
            game = status["game"]
            seats = [s["seat"] for s in status["seats"] if s["playing"]]
            game["turn_seat"] = seats[(seats.index(game["turn_seat"]) + 1) % len(seats)]
            status["time"] = round(time.time(), 3)
            self.status = status
            self.happenings.note("turn", status["time"], seat=game["turn_seat"])
            return float(status["time"])

    def melt(self, grams: float) -> None:
        """Every cube ``grams`` smaller, its countdown a little shorter."""
        with self._lock:
            status = copy.deepcopy(self.status)
            for seat in status["seats"]:
                ice = seat["ice"]
                if ice is not None:
                    ice["grams"] = max(0.0, round(ice["grams"] - grams, 2))
                    ice["eta_s"] = max(0, (ice["eta_s"] or 0) - 10)
            status["time"] = round(time.time(), 3)
            self.status = status


def start_tables(broker: Broker, n: int, keepalive_s: int = 10) -> list[SimulatedTable]:
    """``n`` tables ``t000``... named "Table 000"..., publishing to ``broker``, started."""
    template = template_status()
    tables = []
    for i in range(n):
        sim = SimulatedTable(f"t{i:03d}", copy.deepcopy(template))
        config = MqttConfig(
            host="127.0.0.1",
            port=broker.port,
            table=sim.table,
            name=f"Table {i:03d}",
            keepalive_s=keepalive_s,
            discovery=False,
        )
        sim.publisher = Publisher(
            config,
            status=sim.current,
            happenings=sim.happenings,
            report=lambda state, sim=sim: setattr(sim, "broker", state),
            address=f"http://192.0.2.{i % 250 + 1}:8000/",
            seats=(1, 2, 3, 4),
            sensors=True,
        )
        sim.publisher.start()
        tables.append(sim)
    return tables


def stop_tables(tables: list[SimulatedTable]) -> None:
    for sim in tables:
        if sim.publisher is not None:
            sim.publisher.close(timeout_s=0.5)
