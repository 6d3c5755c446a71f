"""The referee's form is filled from /api/setup: public, every game with its seats, the table's
seats and colours, and the track parts with the count recommended for the air measured now."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from apicheck import checked_app
from flask.testing import FlaskClient
from tabletime import HeldClock, advance, held_table

from companion.config import COLOURS
from companion.games import GAMES
from companion.games.cool_runnings.track import default_track
from companion.sensors.reading import THERMOMETER
from companion.table.service import TableService

TRIES = 20


def test_the_choices_are_public_and_come_from_the_engines_and_the_config(
    table: TableService, client: FlaskClient
) -> None:
    response = client.get("/api/setup")
    assert response.status_code == 200
    setup = response.get_json()
    games = {g["name"]: g for g in setup["games"]}
    assert [{k: g[k] for k in ("name", "title", "seats")} for g in setup["games"]] == [
        {"name": name, "title": e.TITLE, "seats": {"min": min(e.SEATS), "max": max(e.SEATS)}}
        for name, e in GAMES.items()
    ]
    assert games["daddy-cool"]["title"] == "Daddy Cool"
    assert games["daddy-cool"]["seats"] == {"min": 2, "max": 6}
    assert [name for name, g in games.items() if g["hints"] is not None] == ["cool-runnings"]
    assert setup["seats"] == [
        {"seat": s.seat, "name": s.name, "colour": s.colour} for s in table.config.seats
    ]
    assert setup["colours"] == list(COLOURS)
    track = games["cool-runnings"]["hints"]
    assert track["parts"] == list(default_track().parts) == ["A", "B", "C", "D", "E"]
    assert track["count_pace_s"] == table.config.cues.pace_s


@pytest.mark.parametrize(
    "room_c, parts", [(20.0, 5), (26.0, 4), (33.0, 3)], ids=["cool", "warm", "hot"]
)
def test_the_parts_recommended_follow_the_air_the_probes_measure(
    tmp_path: Path, room_c: float, parts: int
) -> None:
    clock = HeldClock()
    table = held_table(tmp_path, clock)
    try:
        assert table.sim is not None
        table.sim.room_c = room_c
        table.sim.noise_c = 0.0
        snapshot = until(table, clock, lambda airs: all(abs(a - room_c) < 1.5 for a in airs))
        setup = cool_runnings_hints(table)
        airs = [s["air_c"] for s in snapshot["seats"]]
        # a sweep may come between the snapshot and the question: the air drifts a little
        assert setup["air_c"] == pytest.approx(statistics.fmean(airs), abs=0.05)
        assert setup["recommended_parts"] == parts
    finally:
        table.close()


def test_with_no_probe_reading_the_air_is_unknown_and_five_parts_are_laid(
    tmp_path: Path,
) -> None:
    clock = HeldClock()
    table = held_table(tmp_path, clock)
    try:
        assert table.sim is not None
        for seat in table.sim.seats:
            table.sim.fault(seat, THERMOMETER, "crc")
        until(table, clock, lambda airs: not airs)
        setup = cool_runnings_hints(table)
        assert setup["air_c"] is None
        assert setup["recommended_parts"] == 5
    finally:
        table.close()


def until(
    table: TableService, clock: HeldClock, ok: Callable[[list[float]], bool]
) -> dict[str, Any]:
    """Sweep after sweep until the seats' air readings satisfy ``ok``; the snapshot that did."""
    for _ in range(TRIES):
        snapshot = advance(table, clock, table.config.sensors.sweep_s + 1.0)
        if ok([s["air_c"] for s in snapshot["seats"] if s["air_c"] is not None]):
            return snapshot
    raise AssertionError(f"the air never settled in {TRIES} sweeps")


def cool_runnings_hints(table: TableService) -> dict[str, Any]:
    """What ``/api/setup`` recommends for a game of Cool Runnings now."""
    games = checked_app(table).test_client().get("/api/setup").get_json()["games"]
    return next(g["hints"] for g in games if g["name"] == "cool-runnings")
