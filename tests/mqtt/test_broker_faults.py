"""A broker that is down, stops answering, refuses the password or goes away mid-game: the table
plays on as before, its status says where the broker stands and since when, its publishing
stays bounded, and it finds the broker again when the broker comes back."""

from __future__ import annotations

import random
import time
from pathlib import Path

from brokered import Publishing, needs_mosquitto
from seating import play, seated
from waiting import wait_until

from bench.broker import Broker, Listener, start_broker
from bench.daemon import free_port
from companion.config import parse_config
from companion.games.messages import REFEREE
from companion.mqtt.publisher import WINDOW, Publisher
from companion.mqtt.sending import CAPACITY
from companion.table.service import TableService

pytestmark = needs_mosquitto

WAIT_S = 30.0
"""How long a test waits for the broker's state to change: a keepalive of 5 s, paho's backoff."""


def broker_state(table: TableService, state: str, timeout_s: float = WAIT_S) -> dict[str, object]:
    """The status's ``broker`` once it is in ``state`` (the status refreshes every 2 s)."""

    def in_state() -> dict[str, object] | None:
        broker: dict[str, object] | None = table.status()["broker"]
        return broker if broker is not None and broker["state"] == state else None

    return wait_until(
        in_state,
        timeout_s,
        every_s=0.1,
        what=lambda: f"the broker to be {state}: {table.status()['broker']}",
    )


def plays_on(table: TableService, publisher: Publisher, actions: int) -> None:
    """The table answers ``actions`` actions and makes a status for them, while what the
    publisher holds stays within its bounds: counted in actions, not seconds, so a busy machine
    only makes it slower."""
    place = table.subscribe(None)
    snapshots = 0
    answered = 0
    tokens = seated(table, table.start_game(REFEREE, {"game": "cool-runnings"}))
    rnd = random.Random(7)
    for _ in range(actions * 50):
        if answered >= actions:
            break
        if table.status()["game"]["over"]:
            tokens = seated(table, table.start_game(REFEREE, {"game": "cool-runnings"}))
        answered += play(table, tokens, rnd, limit=1, avoid=("melted",))
        while place.next(0.0) is not None:
            snapshots += 1
        assert len(publisher.outbox) <= CAPACITY + 64, "the outbox grows without bound"
        assert publisher._unwritten <= WINDOW
        time.sleep(0.05)
    assert answered >= actions and snapshots >= actions // 2, (answered, snapshots)


def test_a_broker_down_at_start_costs_nothing_and_is_found_when_it_comes(
    tmp_path: Path, publishing: Publishing
) -> None:
    port = free_port()
    table, publisher = publishing(port)
    down = broker_state(table, "unreachable")
    assert down["host"] == f"127.0.0.1:{port}" and "does not answer" in str(down["detail"])
    plays_on(table, publisher, 30)
    assert table.status()["broker"]["since"] == down["since"], "since when, not since now"
    broker = start_broker(tmp_path / "late", port=port)
    try:
        broker_state(table, "connected")
        late = Listener(broker).start()
        try:
            assert late.wait_for("companion/t1/availability").payload == b"online"
            late.wait_for("companion/t1/status")
        finally:
            late.stop()
    finally:
        broker.stop()


def test_a_broker_that_stops_answering_mid_game_never_slows_the_table(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    table, publisher = publishing(broker)
    broker_state(table, "connected")
    broker.pause()
    try:
        plays_on(table, publisher, 40)
        lost = broker_state(table, "unreachable")  # its keepalive found it out
        assert lost["detail"]
    finally:
        broker.resume()
    broker_state(table, "connected")
    since = time.monotonic()
    listener.wait_for("companion/t1/availability", payload=b"online")
    assert [h for h in listener.messages("companion/t1/status") if h.at > since] or (
        listener.wait_for("companion/t1/status")
    )


def test_a_broker_that_refuses_the_password_is_said_so_and_the_table_plays_on(
    locked_broker: Broker, tmp_path: Path, publishing: Publishing
) -> None:
    table, publisher = publishing(locked_broker, username="table", password="wrong")
    refused = broker_state(table, "refused")
    assert "username and password" in str(refused["detail"])
    plays_on(table, publisher, 20)
    secret = tmp_path / "mqtt-password"
    secret.write_text(f"{locked_broker.password}\n")
    text = f'[mqtt]\nhost = "127.0.0.1"\nport = {locked_broker.port}\nusername = "table"\n'
    text += f'password_file = "{secret}"\ntable = "t2"\n'
    config = parse_config(str(tmp_path / "table.toml"), text).mqtt
    assert config is not None and config.secret() == locked_broker.password
    listener = Listener(locked_broker).start()
    try:
        other, _ = publishing(
            locked_broker, table="t2", username="table", password_file=config.password_file
        )
        broker_state(other, "connected")
        listener.wait_for("companion/t2/availability", payload=b"online")
        assert not listener.messages("companion/t1/")
    finally:
        listener.stop()


def test_a_broker_that_goes_away_and_comes_back_gets_every_retained_topic_again(
    broker: Broker, tmp_path: Path, publishing: Publishing
) -> None:
    table, publisher = publishing(broker)
    broker_state(table, "connected")
    broker.stop()  # and with it every retained message (it keeps none on disk)
    gone = broker_state(table, "unreachable")
    assert "lost" in str(gone["detail"]) or "does not answer" in str(gone["detail"])
    plays_on(table, publisher, 20)
    back = start_broker(tmp_path / "back", port=broker.port)
    try:
        broker_state(table, "connected")
        time.sleep(0.5)
        assert table.status()["broker"]["detail"].startswith("connected to")
        late = Listener(back).start()
        try:
            time.sleep(0.5)
            kept = {h.topic for h in late.messages() if h.retain}
        finally:
            late.stop()
        assert {"companion/t1/availability", "companion/t1/status", "companion/t1/seat/1"} <= kept
        assert any(t.startswith("homeassistant/") for t in kept)
    finally:
        back.stop()
