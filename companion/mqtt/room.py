"""The hall's picture of a room: every table on the broker, from what the tables publish.

Pure: :meth:`Room.take` is given each message (topic, payload) as the hall's client hears it,
and the time, and keeps one :class:`TableCard` per table: its name, whether it is online, the
game, whose turn, a running count, each seat's ice and, once a game is over, the winner. A table
is offline once its ``availability`` says so (its last will, which the broker sends a keepalive
and a half after the table went silent) or once nothing came from it for its keepalive
(:meth:`Room.sweep`). Each change is numbered, so the hall's page waits for the next one.

>>> room = Room()
>>> room.take("companion/t3/availability", b"online", now=1.0)
True
>>> room.take("companion/t3/seat/2", b'{"seat": 2, "name": "Tom", "grams": 4.2, '
...     b'"eta_s": 600, "melted": false, "playing": true}', now=2.0)
True
>>> [(c.table, c.online, c.seats[2]["grams"]) for c in room.cards()]
[('t3', True, 4.2)]
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from companion.mqtt.payloads import ONLINE, PREFIX

SEAT_KEYS = ("seat", "name", "playing", "grams", "eta_s", "melted")
"""What the hall shows of a seat's payload."""


@dataclass
class TableCard:
    """One table as the hall shows it; ``changed`` is the room's change that last touched it."""

    table: str
    name: str = ""
    online: bool = False
    address: str | None = None
    game: str | None = None
    turn: str | None = None
    winner: str | None = None
    over: bool = False
    count: dict[str, Any] | None = None
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    changed: int = 0
    heard_at: float = 0.0
    keepalive_s: float | None = None
    made_at: float | None = None
    """When the table made its latest status (its own Unix seconds)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "name": self.name or self.table,
            "online": self.online,
            "address": self.address,
            "game": self.game,
            "turn": self.turn,
            "winner": self.winner,
            "over": self.over,
            "count": self.count,
            "seats": [self.seats[n] for n in sorted(self.seats)],
            "changed": self.changed,
            "made_at": self.made_at,
        }


class Room:
    """Every table heard of; safe from any thread."""

    def __init__(self) -> None:
        self._cards: dict[str, TableCard] = {}
        self._changes = 0
        self._changed = threading.Condition()

    def take(self, topic: str, payload: bytes, now: float) -> bool:
        """Take one message; whether it changed what the hall shows."""
        parts = topic.split("/")
        if len(parts) < 3 or parts[0] != PREFIX:
            return False
        table, kind = parts[1], parts[2:]
        with self._changed:
            card = self._cards.get(table) or TableCard(table)
            before = card.to_json()
            try:
                _read(card, kind, payload)
            except (ValueError, KeyError, TypeError, AttributeError):
                return False  # not a table's message: nothing the hall shows
            card.heard_at = now
            if card.to_json() == before and table in self._cards:
                return False
            self._changes += 1
            card.changed = self._changes
            self._cards[table] = card
            self._changed.notify_all()
            return True

    def sweep(self, now: float) -> None:
        """Call a table gone that was heard of no more for its keepalive: the broker's last
        will comes later (after half as long again, and its own check)."""
        with self._changed:
            for card in self._cards.values():
                silent = card.keepalive_s is not None and now - card.heard_at > card.keepalive_s
                if card.online and silent:
                    card.online = False
                    self._changes += 1
                    card.changed = self._changes
                    self._changed.notify_all()

    def cards(self, name: str = "") -> list[TableCard]:
        """The tables ordered by name, those whose name or id holds ``name`` (any case)."""
        wanted = name.casefold().strip()
        with self._changed:
            found = [
                c
                for c in self._cards.values()
                if wanted in c.name.casefold() or wanted in c.table.casefold()
            ]
        return sorted(found, key=lambda c: ((c.name or c.table).casefold(), c.table))

    @property
    def changes(self) -> int:
        return self._changes

    def wait(self, after: int, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for a change after number ``after``; the latest."""
        with self._changed:
            self._changed.wait_for(lambda: self._changes > after, timeout)
            return self._changes


def web_address(given: object) -> str | None:
    """A table's published address as the hall links it: an ``http(s)`` URL with a host, else
    nothing (a forged ``javascript:`` or ``data:`` address is never made a link).

    >>> web_address("http://192.0.2.9:8000/"), web_address("javascript:alert(1)")
    ('http://192.0.2.9:8000/', None)
    """
    if not isinstance(given, str) or len(given) > 200:
        return None
    parts = urlsplit(given)
    return given if parts.scheme in ("http", "https") and parts.netloc else None


def _read(card: TableCard, kind: list[str], payload: bytes) -> None:
    if kind == ["availability"]:
        card.online = payload == ONLINE.encode()
    elif kind == ["status"]:
        body = json.loads(payload)
        status = body["status"]
        game = status["game"]
        card.name = str(body["name"])
        card.address = web_address(body["address"])
        card.game, card.turn, card.winner = body["game"], body["turn"], body["winner"]
        card.over = bool(game and game["over"])
        count = status["count"]
        card.count = count and {"seat": count["seat"], "n": count["n"], "of": count["of"]}
        card.made_at = status["time"]
        card.keepalive_s = float(body["keepalive_s"])
    elif len(kind) == 2 and kind[0] == "seat" and kind[1].isdigit():
        body = json.loads(payload)
        card.seats[int(kind[1])] = {k: body.get(k) for k in SEAT_KEYS}
