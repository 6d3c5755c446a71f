"""The web tests' fixtures: a running simulated table, a checking client, tokens, a game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from apicheck import Start, bearer, checked_app
from flask.testing import FlaskClient

from companion.config import default_config
from companion.table.service import TableService


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    """A running simulated 4-seat table without cues, its state in a fresh directory."""
    service = TableService(default_config(), tmp_path, simulate=True, with_cues=False)
    service.start()
    yield service
    service.close()


@pytest.fixture
def client(table: TableService) -> FlaskClient:
    """A test client of the app over the table; it checks every answer."""
    return checked_app(table).test_client()


@pytest.fixture
def referee(table: TableService) -> dict[str, str]:
    """The referee's Authorization header."""
    return bearer(table.referee_token)


@pytest.fixture
def start(client: FlaskClient, referee: dict[str, str]) -> Start:
    """Start a game as the referee; each seat's Authorization header by seat number."""

    def started(game: str = "cool-runnings", **body: Any) -> dict[int, dict[str, str]]:
        response = client.post("/api/games", json={"game": game, **body}, headers=referee)
        assert response.status_code == 201, response.get_json()
        claims = response.get_json()["seat_claims"]
        tokens = {}
        for seat, claim in claims.items():
            claimed = client.post("/api/claim", json={"claim": claim})
            assert claimed.status_code == 200, claimed.get_json()
            tokens[int(seat)] = bearer(claimed.get_json()["token"])
        return tokens

    return started
