"""The hall's picture of the room, from messages alone: what it shows, and what it ignores."""

from __future__ import annotations

import json

from bench.tables import template_status
from companion.mqtt.room import Room


def status_of(name: str, keepalive_s: int = 10) -> bytes:
    status = template_status()
    return json.dumps(
        {
            "table": "x",
            "name": name,
            "address": "http://192.0.2.9:8000/",
            "game": "Cool Runnings",
            "turn": "Seat 1",
            "winner": None,
            "keepalive_s": keepalive_s,
            "status": status,
        }
    ).encode()


def test_the_room_orders_by_name_finds_by_name_and_ignores_what_is_no_table() -> None:
    room = Room()
    for table, name in (("b", "Bar"), ("a", "zoo"), ("c", "Apple")):
        room.take(f"companion/{table}/availability", b"online", now=0.0)
        assert room.take(f"companion/{table}/status", status_of(name), now=0.0)
    assert [c.name for c in room.cards()] == ["Apple", "Bar", "zoo"]
    assert [c.table for c in room.cards("AP")] == ["c"]  # by name, in any case
    assert [c.table for c in room.cards("a")] == ["c", "b", "a"]  # or by id
    changes = room.changes
    assert not room.take("companion/b/status", b"{not json", now=1.0)
    assert not room.take("companion/b/status", b'{"name": 1}', now=1.0)
    assert not room.take("elsewhere/b/status", status_of("Other"), now=1.0)
    assert not room.take("companion/b/seat/x", b"{}", now=1.0)
    assert room.changes == changes and room.cards("bar")[0].game == "Cool Runnings"


def test_a_table_is_offline_by_its_will_or_after_its_keepalive_without_a_word() -> None:
    room = Room()
    room.take("companion/a/availability", b"online", now=0.0)
    room.take("companion/a/status", status_of("A", keepalive_s=10), now=0.0)
    room.take("companion/b/availability", b"online", now=0.0)
    room.take("companion/b/status", status_of("B", keepalive_s=10), now=0.0)
    room.take("companion/b/availability", b"offline", now=1.0)
    assert [c.online for c in room.cards()] == [True, False]
    room.sweep(now=9.0)
    assert room.cards("a")[0].online
    room.sweep(now=10.5)
    assert not room.cards("a")[0].online
    room.take("companion/a/availability", b"online", now=11.0)
    assert room.cards("a")[0].online


def test_only_a_web_address_of_a_table_becomes_a_link() -> None:
    """A table's forged ``javascript:`` address is dropped, not handed to the page to link."""
    room = Room()
    for table, address in (
        ("a", "javascript:alert(document.domain)"),
        ("b", "data:text/html,<script>alert(1)</script>"),
        ("c", "https://table-3.local:8080/"),
        ("d", 42),
    ):
        body = json.loads(status_of(table))
        body["address"] = address
        room.take(f"companion/{table}/status", json.dumps(body).encode(), now=0.0)
    assert [c.address for c in room.cards()] == [None, None, "https://table-3.local:8080/", None]
