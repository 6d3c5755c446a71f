"""What the MQTT tests share beside their fixtures: a table's ``[mqtt]`` for a test broker."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bench.broker import MISSING, Broker
from companion.config import MqttConfig
from companion.mqtt.publisher import Publisher
from companion.mqtt.sending import PACE_S
from companion.table.service import TableService

needs_mosquitto = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
ADDRESS = "http://192.0.2.7:8000/"
"""The table page's address the test tables publish."""


def mqtt_config(broker: Broker | int, **fields: object) -> MqttConfig:
    """``[mqtt]`` for a table ``t1`` on ``broker`` (or on a port where none may listen yet),
    its keepalive short so that a test sees a broker go within seconds."""
    given: dict[str, object] = {
        "host": "127.0.0.1",
        "port": broker if isinstance(broker, int) else broker.port,
        "table": "t1",
        "name": "Table 1",
        "keepalive_s": 5,
        **fields,
    }
    return MqttConfig(**given)  # type: ignore[arg-type]


Publishing = Callable[..., tuple[TableService, Publisher]]
"""The ``publishing`` fixture: a started fast table publishing to a broker, and its publisher."""


def a_pace_a_look() -> Callable[[], float]:
    """A publisher's clock on which each of its looks comes a whole pace after the one before:
    nothing is held back, so a test hears every change of every topic without waiting for it."""
    return itertools.count(0.0, PACE_S).__next__
