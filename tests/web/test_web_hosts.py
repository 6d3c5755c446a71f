"""The table answers only to the names it is known by, so a page elsewhere that points a name of
its own at the table (DNS rebinding) reads nothing; links it gives out carry its own address."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.config import parse_config
from companion.errors import DataFileError
from companion.games.messages import REFEREE
from companion.table.service import TableService
from companion.web.app import create_app

PUBLIC = "http://192.168.1.20:8080/"


@pytest.fixture
def client(table: TableService) -> FlaskClient:
    return create_app(table, public_url=PUBLIC, names=["tisch.lan"]).test_client()


@pytest.mark.parametrize(
    "host",
    ["192.168.1.20:8080", "10.42.0.1", "[::1]:8080", "localhost:8080", "tisch.lan", "TISCH.LAN."],
)
def test_the_table_s_addresses_and_names_are_served(client: FlaskClient, host: str) -> None:
    assert client.get("/api/status", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("path", ["/api/status", "/api/stream", "/", "/seat", "/api/export"])
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "tisch.lan.evil.example"])
def test_another_name_is_refused_with_a_json_4xx_on_every_path(
    client: FlaskClient, host: str, path: str
) -> None:
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 421
    error = response.get_json()["error"]
    assert error["code"] == "unknown-host" and PUBLIC in error["message"]


def test_the_seats_links_carry_the_table_s_own_address_not_the_request_s(
    client: FlaskClient, table: TableService
) -> None:
    table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    auth = {"Authorization": f"Bearer {table.referee_token}", "Host": "tisch.lan"}
    links = client.get("/api/join", headers=auth).get_json()
    text = str(links)
    assert "http://192.168.1.20:8080/seat#claim=" in text and "tisch.lan" not in text


def test_the_config_s_names_must_be_host_names(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="is not a host's name"):
        parse_config("table.toml", '[network]\nnames = ["evil example"]\n')
