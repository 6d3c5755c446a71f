"""The hall's ear on the broker: a client that subscribes to every table's retained topics and
feeds the :class:`~.room.Room`. It only subscribes: nothing is published, no action is sent.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.mqtt.payloads import PREFIX
from companion.mqtt.publisher import new_client
from companion.mqtt.room import Room

log = logging.getLogger(__name__)

SWEEP_S = 0.5
"""How often the hall looks for tables gone silent."""

TOPICS = (f"{PREFIX}/+/availability", f"{PREFIX}/+/status", f"{PREFIX}/+/seat/+")
"""What the hall follows: each table's retained topics (a seat's button is not one)."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int = 1883
    username: str = ""
    password: str = ""
    ca_file: Path | None = None


class Hall:
    """Keeps ``room`` up to date from the broker, in paho's network thread."""

    def __init__(self, broker: BrokerAddress, room: Room) -> None:
        self.broker = broker
        self.room = room
        self.connected = False
        client = new_client("", broker.username, broker.password, broker.ca_file)
        client.on_connect = self._connected
        client.on_connect_fail = self._not_connected
        client.on_disconnect = self._disconnected
        client.on_message = self._heard
        self._client = client
        self._stop = threading.Event()
        self._sweeper = threading.Thread(target=self._sweep, name="hall sweeper", daemon=True)

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self._client.loop_start()
        self._sweeper.start()

    def close(self) -> None:
        self._stop.set()
        self._client.disconnect()
        self._client.loop_stop()

    def _sweep(self) -> None:
        while not self._stop.wait(SWEEP_S):
            self.room.sweep(time.monotonic())

    def _connected(self, client: mqtt.Client, _: Any, __: Any, code: Any, ___: Any) -> None:
        if code.is_failure:
            log.warning("hall: %s:%d refused: %s", self.broker.host, self.broker.port, code)
            return
        self.connected = True
        client.subscribe([(topic, 0) for topic in TOPICS])
        log.info("hall: listening to %s:%d", self.broker.host, self.broker.port)

    def _not_connected(self, *_: Any) -> None:
        log.warning("hall: %s:%d does not answer; trying again", self.broker.host, self.broker.port)

    def _disconnected(self, *_: Any) -> None:
        self.connected = False

    def _heard(self, _: mqtt.Client, __: Any, message: mqtt.MQTTMessage) -> None:
        self.room.take(message.topic, bytes(message.payload), time.monotonic())
