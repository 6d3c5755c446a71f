"""The status stream: the latest snapshot first, then each new one with its id; a reconnect with
``Last-Event-ID`` resumes after it; a heartbeat while nothing changes; the client's place is
released when it goes away, and the stream ends when the table stops."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from apicheck import HEARTBEAT_S, Start, checked_app, schema_at
from flask.testing import FlaskClient

from companion.web.stream import HEARTBEAT, EventStream

STATUS = schema_at("/components/schemas/Status")


def events(response: Any) -> Iterator[dict[str, Any]]:
    """The stream's events and comments as they come: ``{"id", "event", "data"}`` for an
    event (its data parsed and checked against the document), ``{"comment"}`` for a comment."""
    text = ""
    for chunk in response.response:
        text += chunk.decode()
        while "\n\n" in text:
            block, text = text.split("\n\n", 1)
            found: dict[str, Any] = {}
            for line in block.split("\n"):
                field, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if field == "":
                    found["comment"] = value
                elif field == "data":
                    found["data"] = json.loads(value)
                    STATUS.validate(found["data"])
                else:
                    found[field] = value
            yield found


def next_event(stream: Iterator[dict[str, Any]], beats: int = 400) -> dict[str, Any]:
    """The next event, past any heartbeats (a few seconds of them at most)."""
    for _, found in zip(range(beats), stream, strict=False):
        if "id" in found:
            return found
    raise AssertionError("no event came")


def event_where(stream: Iterator[dict[str, Any]], wanted: Callable[[Any], bool]) -> dict[str, Any]:
    """The first coming event whose status is ``wanted`` (of the next hundred)."""
    for _ in range(100):
        found = next_event(stream)
        if wanted(found["data"]):
            return found
    raise AssertionError("no such event came")


def test_the_stream_starts_with_the_status_now(client: FlaskClient) -> None:
    response = client.get("/api/stream", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    first = next(events(response))
    assert first["event"] == "status" and int(first["id"]) >= 1
    assert first["data"]["game"] is None
    assert [s["seat"] for s in first["data"]["seats"]] == [1, 2, 3, 4]
    response.close()


def test_each_change_is_a_new_event_with_a_higher_id(client: FlaskClient, start: Start) -> None:
    response = client.get("/api/stream", buffered=False)
    stream = events(response)
    first = next_event(stream)
    seats = start("ice-trays")
    event = event_where(stream, lambda status: status["game"] is not None)
    assert int(event["id"]) > int(first["id"])
    assert event["data"]["game"]["name"] == "ice-trays"
    roll = client.get("/api/view", headers=seats[1]).get_json()["legal_actions"][0]
    assert client.post("/api/actions", json=roll, headers=seats[1]).status_code == 200
    later = event_where(stream, lambda status: status["game"] != event["data"]["game"])
    assert int(later["id"]) > int(event["id"])
    response.close()


def test_a_reconnect_with_last_event_id_resumes_after_it(client: FlaskClient, start: Start) -> None:
    response = client.get("/api/stream", buffered=False)
    seen = next_event(events(response))
    response.close()
    start("ice-trays")
    again = client.get("/api/stream", buffered=False, headers={"Last-Event-ID": seen["id"]})
    resumed = next_event(events(again))
    again.close()
    assert int(resumed["id"]) > int(seen["id"])
    assert resumed["data"]["game"]["name"] == "ice-trays"
    latest = client.get("/api/stream", buffered=False, headers={"Last-Event-ID": "0"})
    assert int(next_event(events(latest))["id"]) >= int(resumed["id"])
    latest.close()


def test_a_last_event_id_that_is_not_ours_is_ignored(client: FlaskClient) -> None:
    for header in ("", "abc", "-3", "1.5", "9" * 40):
        response = client.get("/api/stream", buffered=False, headers={"Last-Event-ID": header})
        assert next_event(events(response))["data"]["game"] is None
        response.close()


class Place:
    """A stream client's place at a table that scripts what it hands out."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.closed = 0
        self.asked: list[float] = []

    def next(self, timeout: float) -> tuple[int, dict[str, Any]] | None:
        self.asked.append(timeout)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def close(self) -> None:
        self.closed += 1


class Clock:
    """A clock that moves only when the place is asked, by as long as it is told to wait."""

    def __init__(self, place: Place, waits: bool = True) -> None:
        self.place = place
        self.waits = waits

    def __call__(self) -> float:
        return sum(self.place.asked) if self.waits else 0.0


class Tables:
    """A table that hands out one scripted place and records the Last-Event-ID it was given."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.given: list[int | None] = []

    def subscribe(self, last_event_id: int | None) -> Place:
        self.given.append(last_event_id)
        return self.place


STATUS_NOW = {"game": None, "seats": [], "time": 1.0}


def test_a_heartbeat_goes_out_while_nothing_changes() -> None:
    place = Place([(4, STATUS_NOW), None, None, (5, STATUS_NOW)])
    stream = EventStream(place, 15.0, monotonic=Clock(place))
    assert list(itertools.islice(stream, 4)) == [
        'id: 4\nevent: status\ndata: {"game":null,"seats":[],"time":1.0}\n\n',
        HEARTBEAT,
        HEARTBEAT,
        'id: 5\nevent: status\ndata: {"game":null,"seats":[],"time":1.0}\n\n',
    ]
    assert place.asked == [15.0] * 4
    stream.close()
    stream.close()
    assert place.closed == 1
    assert list(stream) == []


def test_the_stream_ends_when_the_table_stops_or_fails() -> None:
    stopped = Place([(1, STATUS_NOW), None])
    assert len(list(EventStream(stopped, 15.0, monotonic=Clock(stopped, waits=False)))) == 1
    assert stopped.closed == 1
    failed = Place([(1, STATUS_NOW), RuntimeError("the table broke")])
    assert len(list(EventStream(failed, 15.0, monotonic=Clock(failed)))) == 1
    assert failed.closed == 1


def test_the_clients_place_is_released_when_it_goes_away() -> None:
    place = Place([(7, STATUS_NOW), None, None])
    tables = Tables(place)
    client = checked_app(tables).test_client()
    response = client.get("/api/stream", buffered=False, headers={"Last-Event-ID": "6"})
    assert tables.given == [6]
    chunks = iter(response.response)
    assert next(chunks).startswith(b"id: 7\n")
    assert place.asked == [HEARTBEAT_S]
    response.close()
    assert place.closed == 1
    unread = client.get("/api/stream", buffered=False)
    unread.close()
    assert place.closed == 2, "a stream closed before its first event keeps its place"
