"""What a table sends and when, without a broker: the pace of each topic and the outbox's bounds."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bench.tables import template_status
from companion.mqtt.sending import CAPACITY, Message, Outbox, Pacer


@pytest.fixture(scope="module")
def status() -> dict[str, Any]:
    return template_status()


def changed(status: dict[str, Any], **game: Any) -> dict[str, Any]:
    """A new status, made a moment later, with these fields of the game changed."""
    new = copy.deepcopy(status)
    new["time"] += 0.5
    new["game"].update(game)
    return new


def topics(messages: list[Message]) -> list[str]:
    return [m.topic.removeprefix("companion/t1/") for m in messages]


def test_a_status_goes_out_at_most_once_a_pace_but_at_once_on_a_new_turn(
    status: dict[str, Any],
) -> None:
    pacer = Pacer("t1", "Table 1", "http://t/", keepalive_s=30)
    first = pacer.statuses(status, now=0.0)
    assert topics(first) == ["status", "seat/1", "seat/2", "seat/3", "seat/4"]
    later = changed(status)
    assert pacer.statuses(later, now=0.5) == []  # only its time moved: held back
    assert topics(pacer.due(1.0)) == ["status"]  # ... until its pace has passed
    turned = changed(later, turn_seat=2)
    sent = pacer.statuses(turned, now=1.2)
    assert topics(sent) == ["status"] and json.loads(sent[0].payload)["turn"] == "Seat 2"
    assert pacer.statuses(turned, now=5.0) == []  # the same status again: nothing new


def test_a_seat_goes_out_only_when_what_it_shows_changes(status: dict[str, Any]) -> None:
    pacer = Pacer("t1", "Table 1", "http://t/", keepalive_s=30)
    pacer.statuses(status, now=0.0)
    melted = changed(status)
    melted["seats"][2]["ice"]["grams"] -= 0.5
    assert "seat/3" not in topics(pacer.statuses(melted, now=0.3))
    assert topics(pacer.due(1.0)) == ["status", "seat/3"]
    assert set(pacer.latest) == {"status", "seat/1", "seat/2", "seat/3", "seat/4"}


def test_the_outbox_keeps_the_latest_of_each_retained_topic_and_the_newest_events() -> None:
    box = Outbox()
    for n in range(3 * CAPACITY):
        box.put(Message("t/event", b"%d" % n, retain=False))
        box.put(Message("t/status", b"%d" % n, retain=True))
    assert len(box) == CAPACITY + 1
    assert box.dropped == 2 * CAPACITY + (3 * CAPACITY - 1)
    taken = box.take(10 * CAPACITY)
    assert taken[0].payload == b"%d" % (2 * CAPACITY)  # the oldest events went first
    assert taken[-1] == Message("t/status", b"%d" % (3 * CAPACITY - 1), retain=True)
    assert len(box) == 0
