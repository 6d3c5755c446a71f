"""The melt curves: public, a point per seat as table time passes (a faster simulated table
counts faster), spaced by the interval, and started afresh with each game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apicheck import bearer, checked_app
from flask.testing import FlaskClient
from tabletime import WALL, HeldClock, advance, held_table

from companion.table.service import TableService

SPEED = 4.0


@pytest.fixture
def clock() -> HeldClock:
    return HeldClock(SPEED)


@pytest.fixture
def held(tmp_path: Path, clock: HeldClock) -> Iterator[TableService]:
    table = held_table(tmp_path, clock)
    yield table
    table.close()


@pytest.fixture
def held_client(held: TableService) -> FlaskClient:
    return checked_app(held).test_client()


def times(client: FlaskClient) -> dict[int, list[float]]:
    """Each seat's points' table seconds."""
    response = client.get("/api/curves")
    assert response.status_code == 200
    return {s["seat"]: [p[0] for p in s["points"]] for s in response.get_json()["seats"]}


def start(client: FlaskClient, table: TableService, **body: object) -> None:
    answer = client.post(
        "/api/games", json={"game": "cool-runnings", **body}, headers=bearer(table.referee_token)
    )
    assert answer.status_code == 201, answer.get_json()


def test_without_a_game_every_seat_has_an_empty_curve(client: FlaskClient) -> None:
    response = client.get("/api/curves")
    assert response.status_code == 200
    assert response.get_json()["seats"] == [{"seat": n, "points": []} for n in (1, 2, 3, 4)]


def test_points_come_as_table_time_passes_at_most_one_each_interval(
    held: TableService, held_client: FlaskClient, clock: HeldClock
) -> None:
    advance(held, clock, 2.0)
    start(held_client, held)
    curves = held_client.get("/api/curves").get_json()
    assert curves["start"] == WALL + 2.0
    assert times(held_client) == {n: [0.0] for n in (1, 2, 3, 4)}
    advance(held, clock, 2.0)  # 8 table seconds
    advance(held, clock, 2.0)  # 16
    assert times(held_client) == {n: [0.0] for n in (1, 2, 3, 4)}
    advance(held, clock, 2.0)  # 24
    advance(held, clock, 5.0)  # 44
    assert times(held_client) == {n: [0.0, 24.0, 44.0] for n in (1, 2, 3, 4)}
    for seat in held_client.get("/api/curves").get_json()["seats"]:
        for _, grams, sigma_g in seat["points"]:
            assert 0.0 < grams < 10.0
            assert sigma_g >= 0.0


def test_a_new_game_starts_the_curves_afresh(
    held: TableService, held_client: FlaskClient, clock: HeldClock
) -> None:
    start(held_client, held)
    advance(held, clock, 6.0)
    assert times(held_client)[1] == [0.0, 24.0]
    start(held_client, held, seats=[1, 2], replace=True)
    curves = held_client.get("/api/curves").get_json()
    assert curves["start"] == WALL + 6.0
    assert times(held_client) == {1: [0.0], 2: [0.0], 3: [], 4: []}
