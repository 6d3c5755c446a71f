"""What a table sends its broker, and when: pure, so the pacing and the bounds are plain tests.

:class:`Pacer` turns the table's statuses into messages: the ``status`` topic at most once a
``PACE_S`` and at once on a new game, turn or end; each ``seat/<n>`` topic when what it shows
changed, at most once a ``PACE_S`` too. :class:`Outbox` holds what is not sent yet, bounded:
a retained topic keeps only its latest payload (a newer status replaces the older one, so the
oldest status is the first dropped), and events are kept to ``capacity``, the oldest dropped.

>>> box = Outbox(capacity=2)
>>> for n in (1, 2, 3):
...     box.put(Message("t/status", b"%d" % n, retain=True))
...     box.put(Message("t/event", b"%d" % n, retain=False))
>>> [(m.topic, m.payload) for m in box.take(10)], box.dropped
([('t/event', b'2'), ('t/event', b'3'), ('t/status', b'3')], 3)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from companion.mqtt.payloads import TableStatus, encoded, readings, root

PACE_S = 1.0
"""The least time between two messages of one retained topic, but for a new game or turn."""
CAPACITY = 512
"""The events an outbox keeps while the broker cannot take them (a long game's)."""


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """What waits for the broker; see the module's description."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._latest: dict[str, Message] = {}
        self._events: deque[Message] = deque(maxlen=capacity)
        self.dropped = 0
        """Messages replaced or dropped before they were sent."""

    def put(self, message: Message) -> None:
        if message.retain:
            self.dropped += message.topic in self._latest
            self._latest.pop(message.topic, None)
            self._latest[message.topic] = message
        else:
            self.dropped += len(self._events) == self._events.maxlen
            self._events.append(message)

    def take(self, most: int) -> list[Message]:
        """Up to ``most`` messages, oldest events first, then the retained topics in the order
        they last changed."""
        taken: list[Message] = []
        while self._events and len(taken) < most:
            taken.append(self._events.popleft())
        while self._latest and len(taken) < most:
            topic = next(iter(self._latest))
            taken.append(self._latest.pop(topic))
        return taken

    def __len__(self) -> int:
        return len(self._events) + len(self._latest)


class Pacer:
    """Which of a table's statuses become which messages (``now``: monotonic seconds)."""

    def __init__(
        self, table: str, name: str, address: str, keepalive_s: int, pace_s: float = PACE_S
    ) -> None:
        self.table, self.name, self.address = table, name, address
        self.keepalive_s = keepalive_s
        self.pace_s = pace_s
        self._root = root(table)
        self._sent_at: dict[str, float] = {}
        self._shown: dict[str, Any] = {}
        self._held: dict[str, Message] = {}
        """The latest message of each topic that its pace held back."""
        self.latest: dict[str, Message] = {}
        """The last message of every retained topic, to send again on a new connection."""

    def statuses(self, status: dict[str, Any], now: float) -> list[Message]:
        """The messages due for this status (and for any held back that are due now)."""
        if not status:
            return []
        game = status["game"]
        shown = game and (game["commitment"], game["turn_seat"], game["over"])
        table = TableStatus(
            self.table,
            self.name,
            self.address,
            **summary(status),
            keepalive_s=self.keepalive_s,
            status=status,
        )
        self._offer("status", shown, table, now)
        for seat, payload in readings(status).items():
            shown = {**payload.to_json(), "time": None}
            self._offer(f"seat/{seat}", shown, payload, now)
        return self.due(now)

    def due(self, now: float) -> list[Message]:
        """The held messages whose pace has passed."""
        out = []
        for topic, message in list(self._held.items()):
            if now - self._sent_at.get(topic, -float("inf")) >= self.pace_s:
                out.append(self._send(topic, message, now))
        return out

    def _offer(self, topic: str, shown: Any, payload: Any, now: float) -> None:
        if topic == "status":
            urgent = shown != self._shown.get("status-key")
            self._shown["status-key"] = shown
            changed = payload.status is not self._shown.get("status")
            self._shown["status"] = payload.status
        else:
            urgent = False
            changed = shown != self._shown.get(topic)
            self._shown[topic] = shown
        if not changed:
            return
        self._held[topic] = Message(self._root + topic, encoded(payload), retain=True)
        if urgent:
            self._sent_at.pop(topic, None)  # due at once

    def _send(self, topic: str, message: Message, now: float) -> Message:
        self._sent_at[topic] = now
        del self._held[topic]
        self.latest[topic] = message
        return message


def summary(status: dict[str, Any]) -> dict[str, Any]:
    """What a room reads of a status at a glance: the game's title, whose turn it is and who
    won (seats' names), each ``None`` when there is none."""
    game = status["game"]
    if game is None:
        return {"game": None, "turn": None, "winner": None}
    names = {s["seat"]: s["name"] for s in status["seats"]}
    winner = (game["outcome"] or {}).get("winner")
    turn = None if game["over"] else names.get(game["turn_seat"])
    return {"game": game["title"], "turn": turn, "winner": names.get(winner)}
