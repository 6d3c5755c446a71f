"""The MQTT tests' fixtures: a real Mosquitto (with and without a password), a listener on it,
and a fast simulated table that publishes to it (its topics paced on the clock the test gives)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from brokered import ADDRESS, Publishing, mqtt_config
from tabletime import FAST

from bench.broker import MISSING, Broker, Listener, start_broker
from companion.config import default_config
from companion.mqtt.publisher import Publisher, publish
from companion.table.service import TableService


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if MISSING:
        pytest.skip(MISSING)
    b = start_broker(tmp_path / "broker")
    yield b
    b.stop()


@pytest.fixture
def locked_broker(tmp_path: Path) -> Iterator[Broker]:
    """A broker that takes the user ``table`` with its password only."""
    if MISSING:
        pytest.skip(MISSING)
    b = start_broker(tmp_path / "locked", user="table", password="s3cret-pass")
    yield b
    b.stop()


@pytest.fixture
def listener(broker: Broker) -> Iterator[Listener]:
    heard = Listener(broker).start()
    yield heard
    heard.stop()


@pytest.fixture
def publishing(tmp_path: Path) -> Iterator[Publishing]:
    started: list[tuple[TableService, Publisher]] = []

    def start(
        broker: Broker | int,
        seats: int = 4,
        monotonic: Callable[[], float] = time.monotonic,
        **fields: object,
    ) -> tuple[TableService, Publisher]:
        base = default_config()
        config = dataclasses.replace(
            base, seats=base.seats[:seats], mqtt=mqtt_config(broker, **fields)
        )
        folder = tmp_path / f"table{len(started)}"
        table = TableService(config, folder, simulate=True, speed=FAST, seed=1, with_cues=False)
        table.start()
        publisher = publish(table, ADDRESS, monotonic)
        assert publisher is not None
        started.append((table, publisher))
        return table, publisher

    yield start
    for table, publisher in started:
        publisher.close()
        table.close()
