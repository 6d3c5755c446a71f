"""``companion hall``: 50 simulated tables on a real Mosquitto, shown live, ordered and found by
name; a table that goes silent shows offline within its keepalive; the page in a browser."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from background import in_background
from brokered import needs_mosquitto
from browsing import needs_chromium, shot
from waiting import wait_until

from bench.broker import Broker
from bench.daemon import start
from bench.tables import SimulatedTable, start_tables, stop_tables
from companion.cli.run import make_server
from companion.mqtt.hall import BrokerAddress, Hall
from companion.mqtt.room import Room
from companion.web.hall import create_hall_app

pytestmark = needs_mosquitto

TABLES = 50
WAIT_S = 30.0


@pytest.fixture
def room(broker: Broker) -> Iterator[Room]:
    room = Room()
    hall = Hall(BrokerAddress("127.0.0.1", broker.port), room)
    hall.start()
    yield room
    hall.close()


@pytest.fixture
def tables(broker: Broker, room: Room) -> Iterator[list[SimulatedTable]]:
    started = start_tables(broker, TABLES)
    # each table's status and each of its seats come as messages of their own: all of them
    wait_until(
        lambda: (
            sum(bool(c.online and c.game and len(c.seats) == 4) for c in room.cards()) == TABLES
        ),
        WAIT_S,
        what="50 tables with their 4 seats",
    )
    yield started
    stop_tables(started)


def test_the_hall_shows_fifty_tables_and_each_change_on_its_stream(
    room: Room, tables: list[SimulatedTable]
) -> None:
    client = create_hall_app(room, "broker:1883", heartbeat_s=0.2).test_client()
    listed = client.get("/api/tables").get_json()["tables"]
    assert [t["name"] for t in listed] == [f"Table {i:03d}" for i in range(TABLES)]
    assert all(t["game"] == "Cool Runnings" and len(t["seats"]) == 4 for t in listed)
    assert listed[7]["address"] == "http://192.0.2.8:8000/"
    stream = client.get("/api/stream?name=017", buffered=False)
    chunks = iter(stream.response)
    first = next(chunks).decode()
    assert first.startswith("event: tables") and '"t017"' in first and '"t018"' not in first
    sim = tables[17]
    sim.next_turn()
    turn = sim.status["game"]["turn_seat"]
    name = next(s["name"] for s in sim.status["seats"] if s["seat"] == turn)
    for chunk in chunks:
        text = chunk.decode()
        if text.startswith("event: table"):
            card = json.loads(text.split("data: ", 1)[1])
            if card["turn"] == name:
                assert card["table"] == "t017"
                break
    stream.close()


def test_the_hall_orders_and_finds_tables_by_name(room: Room, tables: list[SimulatedTable]) -> None:
    client = create_hall_app(room, "broker:1883").test_client()
    found = client.get("/api/tables?name=table 04").get_json()["tables"]
    assert [t["table"] for t in found] == [f"t{i:03d}" for i in range(40, 50)]
    assert client.get("/api/tables?name=nothing-like-it").get_json() == {"tables": []}
    missing = client.get("/api/nope")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not-found"


def test_a_table_that_goes_silent_shows_offline_within_its_keepalive(
    broker: Broker, room: Room, tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "cafe-7"\n'
        'name = "Café 7"\nkeepalive_s = 5\n'
    )
    daemon = start(tmp_path / "state", "--config", str(config))
    try:
        card = wait_until(
            lambda: [c for c in room.cards("café") if c.online], WAIT_S, what="the table online"
        )[0]
        assert card.address == daemon.url + "/" or card.address.endswith(daemon.url[-6:] + "/")
        os.kill(daemon.process.pid, signal.SIGSTOP)  # a power cut, as the broker sees it
        wait_until(
            lambda: not room.cards("café")[0].online, 5 + 2, what="offline within its keepalive"
        )
        heard = room.cards("café")[0].heard_at
        wait_until(
            lambda: room.cards("café")[0].heard_at > heard, 20, what="the broker's last will"
        )
        assert not room.cards("café")[0].online
    finally:
        os.kill(daemon.process.pid, signal.SIGCONT)
        daemon.stop()


@needs_chromium
def test_the_hall_page_shows_every_table_and_finds_one_by_name(
    room: Room, tables: list[SimulatedTable], phone: Any
) -> None:
    server = make_server(create_hall_app(room, "broker.local:1883"), "127.0.0.1", 0)
    with in_background(server) as port:
        page = phone(f"http://127.0.0.1:{port}/", viewport={"width": 1280, "height": 800})
        page.locator(".hall-card").nth(TABLES - 1).wait_for()
        assert page.locator(".hall-card").count() == TABLES
        first = page.locator(".hall-card").first
        assert first.locator("h2 a").get_attribute("href") == "http://192.0.2.1:8000/"
        assert "Turn: Seat" in first.inner_text()
        page.fill("#filter", "Table 01")
        page.locator('.hall-card[data-table="t020"]').wait_for(state="detached")
        assert page.locator(".hall-card").count() == 10
        assert "name=Table+01" in page.url or "name=Table%2001" in page.url
        tables[12].next_turn()
        turn = tables[12].status["game"]["turn_seat"]
        card = page.locator('.hall-card[data-table="t012"] .turn')
        card.filter(has_text=f"Turn: Seat {turn}").wait_for()
        shot(page, "hall")
        page.fill("#filter", "no such table")
        page.locator("#unmatched").wait_for()  # not "no table has published"
        assert page.locator("#none").is_hidden() and page.locator(".hall-card").count() == 0
