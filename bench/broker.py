"""A real Mosquitto for the tests and the bench: Debian's ``mosquitto`` on a free localhost port,
with a config written here (with a password file, when asked), and a listener that subscribes.

``.ci/run`` installs ``mosquitto`` when it is missing, as it installs chromium; where it is not
installed, :data:`MISSING` says so and the tests that need it are skipped with that reason.
"""

from __future__ import annotations

import getpass
import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from bench.daemon import free_port

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MISSING = (
    None
    if Path(MOSQUITTO).exists()
    else "Mosquitto is not installed (apt-get install mosquitto; .ci/run installs it)"
)
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
START_S = 10.0


@dataclass
class Broker:
    """A running Mosquitto: its port, and the user and password it asks for (none when
    ``user`` is empty)."""

    process: subprocess.Popen[bytes]
    port: int
    folder: Path
    user: str = ""
    password: str = ""

    def pause(self) -> None:
        """Stop the broker dead (SIGSTOP): its sockets stay open and nothing answers."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        return (self.folder / "mosquitto.log").read_text(errors="replace")


def start_broker(folder: Path, *, user: str = "", password: str = "", port: int = 0) -> Broker:
    """Start Mosquitto in ``folder`` on ``port`` (a free one when 0), anonymous unless ``user``
    is given; wait until it listens."""
    folder.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    lines = [
        f"listener {port} 127.0.0.1",
        "persistence false",
        f"log_dest file {folder / 'mosquitto.log'}",
        "max_queued_messages 10000",
        f"user {getpass.getuser()}",  # run as root, it would become "mosquitto", locked out
    ]
    if user:
        users = folder / "passwords"
        users.write_text("")
        subprocess.run(
            [PASSWD, "-b", str(users), user, password],
            check=True,
            capture_output=True,
        )
        users.chmod(0o600)
        lines += ["allow_anonymous false", f"password_file {users}"]
    else:
        lines.append("allow_anonymous true")
    config = folder / "mosquitto.conf"
    config.write_text("\n".join(lines) + "\n")
    process = subprocess.Popen(
        [MOSQUITTO, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    broker = Broker(process, port, folder, user, password)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"mosquitto stopped: {process.stderr.read().decode()}")  # type: ignore[union-attr]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return broker
        except OSError:
            time.sleep(0.05)
    broker.stop()
    raise RuntimeError(f"mosquitto did not listen on {port} within {START_S:g} s")


@dataclass
class Heard:
    topic: str
    payload: bytes
    retain: bool
    at: float
    """When it came (monotonic seconds)."""


@dataclass
class Listener:
    """A client subscribed to ``topic`` on a broker, keeping every message it hears."""

    broker: Broker
    topic: str = "#"
    heard: list[Heard] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _client: mqtt.Client | None = None

    def start(self) -> Listener:
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if self.broker.user:
            client.username_pw_set(self.broker.user, self.broker.password)
        subscribed = threading.Event()
        client.on_connect = lambda c, *_: c.subscribe(self.topic)
        client.on_subscribe = lambda *_: subscribed.set()
        client.on_message = self._heard
        client.connect("127.0.0.1", self.broker.port)
        client.loop_start()
        if not subscribed.wait(START_S):
            raise RuntimeError("the listener did not subscribe")
        self._client = client
        return self

    def _heard(self, _: mqtt.Client, __: object, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.heard.append(
                Heard(message.topic, bytes(message.payload), bool(message.retain), time.monotonic())
            )

    def messages(self, prefix: str = "") -> list[Heard]:
        with self._lock:
            return [h for h in self.heard if h.topic.startswith(prefix)]

    def wait_for(
        self, prefix: str, timeout_s: float = 20.0, payload: bytes | None = None, **has: Any
    ) -> Heard:
        """The first message (heard so far or soon) on a topic starting with ``prefix``: with
        this ``payload``, or a JSON object that ``has`` these keys and values."""
        deadline = time.monotonic() + timeout_s

        def fits(heard: Heard) -> bool:
            if payload is not None:
                return heard.payload == payload
            if not has:
                return True
            body = json.loads(heard.payload)
            return all(body.get(k) == v for k, v in has.items())

        while True:
            found = [h for h in self.messages(prefix) if fits(h)]
            if found:
                return found[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing on {prefix!r} within {timeout_s:g} s")
            time.sleep(0.02)

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish as another client would (Home Assistant, or someone trying to act)."""
        assert self._client is not None
        self._client.publish(topic, payload).wait_for_publish(START_S)

    def stop(self) -> None:
        if self._client is not None:
            self._client.loop_stop()
            self._client.disconnect()
