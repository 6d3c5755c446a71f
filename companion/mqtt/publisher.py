"""A table's MQTT publisher: its own thread, between the table and paho-mqtt's network thread.

The table never waits for it: the publisher reads the latest public status (replaced whole,
read without a lock) and the happenings log (:mod:`companion.table.happenings`), which drops
its oldest for a reader that falls behind. What it makes of them (:mod:`.sending`) waits in a
bounded :class:`~.sending.Outbox` and goes to paho only while the broker is connected and takes
it: at most ``WINDOW`` messages handed over and not yet written. A broker that is down, slow,
refuses the password or goes away costs the table nothing; paho reconnects with a backoff
(``BACKOFF_S``), and the publisher says where the broker stands through ``report`` (the status's
``broker``). On every connection it sends ``online``, Home Assistant's discovery and every
retained topic again; the broker sends the last will, ``offline``, when the table is gone.
No topic is subscribed but Home Assistant's ``<prefix>/status``: no game action comes in.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.config import MqttConfig
from companion.errors import CompanionError
from companion.mqtt.discovery import discovery
from companion.mqtt.payloads import OFFLINE, ONLINE, encoded, event, root
from companion.mqtt.sending import Message, Outbox, Pacer
from companion.table.happenings import Happenings
from companion.table.service import TableService
from companion.table.status import Broker

log = logging.getLogger(__name__)

LOOK_S = 0.25
"""How often the publisher looks at the status when no happening wakes it."""
WINDOW = 64
"""Messages handed to paho and not yet written to the socket, at most (a slow broker)."""
BACKOFF_S = (1, 60)
"""paho's reconnect delay: from 1 s, doubling, to a minute."""
REFUSED = frozenset({134, 135})
"""CONNACK's "bad user name or password" and "not authorized" (MQTT 3.1.1's 4 and 5)."""


def new_client(client_id: str, username: str, password: str, ca_file: Path | None) -> mqtt.Client:
    """A paho client (its version 2 callbacks) with this user, TLS checked against ``ca_file``
    when given, and the reconnect backoff."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    if username:
        client.username_pw_set(username, password)
    if ca_file is not None:
        client.tls_set(ca_certs=str(ca_file), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(*BACKOFF_S)
    return client


class Publisher:
    """Publishes one table to its broker; :meth:`start`, then :meth:`close` when it stops."""

    def __init__(
        self,
        config: MqttConfig,
        *,
        status: Callable[[], dict[str, Any]],
        happenings: Happenings,
        report: Callable[[Broker], None],
        address: str,
        seats: tuple[int, ...],
        sensors: bool,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self._status = status
        self._happenings = happenings
        self._report = report
        self._wall = wall
        self._monotonic = monotonic
        """What the pace of each topic is timed on (a test's fake clock moves it)."""
        self._root = root(config.table)
        self._pacer = Pacer(config.table, config.name, address, config.keepalive_s)
        self._discovery = (
            discovery(
                config.table,
                config.name,
                seats,
                address,
                sensors=sensors,
                prefix=config.discovery_prefix,
            )
            if config.discovery
            else []
        )
        self.outbox = Outbox()
        self.sent = 0
        """Messages handed to the broker's connection since the start."""
        self._lock = threading.Lock()
        self._connected = False
        self._unwritten = 0
        self._seen = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mqtt publisher", daemon=True)
        self.broker = Broker(self._where, "connecting", wall(), f"connecting to {self._where}")
        self._client = self._make_client()

    @property
    def _where(self) -> str:
        return f"{self.config.host}:{self.config.port}"

    def start(self) -> None:
        """Connect in paho's thread (never waiting for the broker here) and start publishing."""
        self._report(self.broker)
        self._client.connect_async(self.config.host, self.config.port, self.config.keepalive_s)
        self._client.loop_start()
        self._thread.start()

    def close(self, timeout_s: float = 2.0) -> None:
        """Say ``offline`` (when connected) and disconnect; the will says it otherwise."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        if self._connected:
            info = self._client.publish(self._root + "availability", OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout_s)
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's side (its network thread)

    def _make_client(self) -> mqtt.Client:
        c = self.config
        client = new_client(f"companion-{c.table}", c.username, c.secret(), c.ca_file)
        client.will_set(self._root + "availability", OFFLINE, qos=1, retain=True)
        client.on_connect = self._connected_to
        client.on_connect_fail = self._not_connected
        client.on_disconnect = self._disconnected
        client.on_publish = self._written
        client.on_message = self._heard
        return client

    def _connected_to(self, client: mqtt.Client, _: Any, __: Any, code: Any, ___: Any) -> None:
        if code.is_failure:
            refused = code.value in REFUSED
            self._stand(
                "refused" if refused else "unreachable",
                f"{self._where} refused the table: {code}"
                + (" (check [mqtt] username and password)" if refused else ""),
            )
            return
        client.publish(self._root + "availability", ONLINE, qos=1, retain=True)  # first
        with self._lock:
            self._connected = True
            self._unwritten = 0
            for topic, payload in self._discovery:
                self.outbox.put(Message(topic, encoded(payload), True))
            for message in self._pacer.latest.values():
                self.outbox.put(message)
        if self._discovery:
            client.subscribe(f"{self.config.discovery_prefix}/status")
        self._stand("connected", f"connected to {self._where}")

    def _not_connected(self, _: mqtt.Client, __: Any) -> None:
        self._stand("unreachable", f"{self._where} does not answer")

    def _disconnected(self, _: mqtt.Client, __: Any, ___: Any, code: Any, ____: Any) -> None:
        with self._lock:
            self._connected = False
        if not self._stop.is_set() and self.broker.state != "refused":  # a refusal ends so
            self._stand("unreachable", f"lost {self._where}: {code}")

    def _written(self, *_: Any) -> None:
        with self._lock:
            self._unwritten = max(0, self._unwritten - 1)

    def _heard(self, _: mqtt.Client, __: Any, message: mqtt.MQTTMessage) -> None:
        """Home Assistant came (back) online: it wants the discovery, and the states, again."""
        if message.payload == ONLINE.encode():
            with self._lock:
                for topic, payload in self._discovery:
                    self.outbox.put(Message(topic, encoded(payload), True))
                for latest in self._pacer.latest.values():
                    self.outbox.put(latest)

    def _stand(self, state: Any, detail: str) -> None:
        if state == self.broker.state and state != "connected":
            return  # still so since the first time: keep that time
        if state != self.broker.state:
            log.info("mqtt: %s", detail)
        self.broker = Broker(self._where, state, round(self._wall(), 3), detail)
        self._report(self.broker)

    # -- the publisher's own thread

    def _run(self) -> None:
        while not self._stop.is_set():
            self._happenings.wait(self._seen, LOOK_S)
            now = self._monotonic()
            with self._lock:
                for happening in self._happenings.since(self._seen):
                    self._seen = happening.n
                    self.outbox.put(Message(self._root + "event", encoded(event(happening)), False))
                    if happening.kind == "button":
                        topic = f"{self._root}seat/{happening.fields['seat']}/button"
                        self.outbox.put(Message(topic, happening.fields["press"].encode(), False))
                for message in self._pacer.statuses(self._status(), now):
                    self.outbox.put(message)
                self._flush()

    def _flush(self) -> None:
        """Hand paho what the window allows (under the lock)."""
        if not self._connected:
            return
        for message in self.outbox.take(WINDOW - self._unwritten):
            info = self._client.publish(
                message.topic, message.payload, qos=0, retain=message.retain
            )
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self._unwritten += 1
                self.sent += 1


def publish(
    service: TableService, address: str, monotonic: Callable[[], float] = time.monotonic
) -> Publisher | None:
    """Start publishing ``service``'s table as its ``[mqtt]`` says (``None`` without one),
    pacing its topics on ``monotonic``."""
    config = service.config.mqtt
    if config is None:
        return None
    sensors = service.config.sensors
    try:
        publisher = Publisher(
            config,
            status=service.status,
            happenings=service.happenings,
            report=lambda broker: setattr(service, "broker", broker),
            address=address,
            seats=tuple(s.seat for s in service.config.seats),
            sensors=(sensors.thermometers, sensors.scales) != ("none", "none"),
            monotonic=monotonic,
        )
    except OSError as exc:
        raise CompanionError(
            f"[mqtt] in {service.config.path}: cannot read {config.password_file or config.ca_file}"
            f": {exc.strerror or exc}"
        ) from None
    publisher.start()
    return publisher
