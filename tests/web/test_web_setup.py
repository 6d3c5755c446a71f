"""The referee's form is filled from /api/setup: public, every game with its seats, the table's
seats and colours, and the track parts with the count recommended for the air measured now."""

from __future__ import annotations

import re
import statistics
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from apicheck import checked_app
from flask.testing import FlaskClient
from tabletime import HeldClock, advance, held_table

from companion import __version__
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
    assert [name for name, g in games.items() if g["options"]] == ["cool-runnings", "daddy-cool"]
    assert [name for name, g in games.items() if g["ice"]] == ["cool-runnings"]
    assert setup["seats"] == [
        {"seat": s.seat, "name": s.name, "colour": s.colour} for s in table.config.seats
    ]
    assert setup["colours"] == list(COLOURS)
    options = {o["name"]: o for o in games["cool-runnings"]["options"]}
    order = [c["value"] for c in options["part_order"]["choices"]]
    assert order == list(default_track().parts) == ["A", "B", "C", "D", "E"]
    assert options["count_pace_s"]["default"] == table.config.cues.pace_s
    assert [c["value"] for c in options["parts"]["choices"]] == [3, 4, 5]
    assert games["daddy-cool"]["options"] == [
        {
            "name": "lengthen_path",
            "type": "boolean",
            "default": True,
            "label": {
                "en": "Lengthen the path as the cubs go (off for the youngest players)",
                "de": "Den Weg verlängern, wenn die Kleinen vorankommen (aus für die Jüngsten)",
            },
            "hint": None,
        }
    ]


def test_the_track_of_cool_runnings_is_a_strecke_in_german_never_a_bahn(
    client: FlaskClient,
) -> None:
    """The ice race's track is "die Strecke" (the rulebook's word); "Bahn" names nothing of it."""
    games = {g["name"]: g for g in client.get("/api/setup").get_json()["games"]}
    options = {o["name"]: o for o in games["cool-runnings"]["options"]}
    german = [
        said["de"]
        for option in options.values()
        for said in (
            option["label"],
            option["hint"],
            *(c["label"] for c in option.get("choices", [])),
        )
        if said is not None
    ]
    assert not [words for words in german if "Bahn" in words]
    assert options["parts"]["label"] == {"en": "The track", "de": "Die Strecke"}
    assert "zufällige Strecke" in options["part_order"]["hint"]["de"]


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
        option = parts_option(table)
        airs = [s["air_c"] for s in snapshot["seats"]]
        said = re.fullmatch(
            r"Air at the table (\d+\.\d) °C: (\d) parts recommended\.", option["hint"]["en"]
        )
        assert said, option["hint"]
        # a sweep may come between the snapshot and the question: the air drifts a little
        assert float(said[1]) == pytest.approx(statistics.fmean(airs), abs=0.1)
        assert option["default"] == int(said[2]) == parts
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
        option = parts_option(table)
        assert option["hint"]["en"] == "The air temperature is unknown: 5 parts recommended."
        assert option["default"] == 5
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


def parts_option(table: TableService) -> dict[str, Any]:
    """How many parts ``/api/setup`` recommends for a game of Cool Runnings now, and why."""
    games = checked_app(table).test_client().get("/api/setup").get_json()["games"]
    options = next(g["options"] for g in games if g["name"] == "cool-runnings")
    return next(o for o in options if o["name"] == "parts")


def test_the_setup_says_which_companion_is_running(client: FlaskClient) -> None:
    """The package's version and the commit of the checkout it runs from (the tests run from
    one; a copy without git's history has none, and says none)."""
    version = client.get("/api/setup").get_json()["version"]
    assert version["package"] == __version__
    checkout = Path(__file__).resolve().parents[2]
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if (checkout / ".git").exists() and head.returncode == 0:
        assert version["commit"] == head.stdout.strip()
    else:
        assert "commit" not in version
