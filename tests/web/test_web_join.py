"""The seats' join links and QR codes: the referee's only, each carrying the token the game's
start answered, leading to an address a phone can reach, drawn as SVG a page can size."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import segno
from apicheck import Start, bearer, checked_app
from flask.testing import FlaskClient

from companion.table.service import TableService

SVG = "{http://www.w3.org/2000/svg}"
LAN = "http://192.168.1.20:8080/"


def join(client: FlaskClient, referee: dict[str, str], **where: Any) -> list[dict[str, Any]]:
    response = client.get("/api/join", headers=referee, **where)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["seats"]


def dark_modules(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """The side of the SVG's square and the (row, column) of each dark module it draws; it
    must be one light square under the whole of it and black lines one module high."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert "width" not in root.attrib and "height" not in root.attrib
    x0, y0, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert (x0, y0) == (0, 0) and width == height
    side = int(width)
    light, dark = root.findall(f"{SVG}path")
    assert light.attrib["fill"] == "#fff"
    assert light.attrib["d"] == f"M0 0h{side}v{side}h-{side}z"
    assert dark.attrib["stroke"] == "#000"
    found: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", dark.attrib["d"]):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            found |= {(int(y), int(x) + i) for i in range(int(a))}
            x += float(a)
    return side, found


def modules_of(url: str) -> tuple[int, set[tuple[int, int]]]:
    """What the QR code of ``url`` must look like with its four-module quiet zone."""
    matrix = segno.make(url, error="m").matrix
    dark = {(r + 4, c + 4) for r, row in enumerate(matrix) for c, m in enumerate(row) if m}
    return len(matrix) + 8, dark


def test_every_seat_gets_a_link_with_the_token_its_game_started_with(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    tokens = start("cool-runnings", seats=[{"seat": 1, "name": "Karen"}, 3])
    seats = join(client, referee)
    assert [(s["seat"], s["name"], s["colour"]) for s in seats] == [
        (1, "Karen", "blue"),
        (3, "Seat 3", "green"),
    ]
    for seat in seats:
        assert seat["url"] == f"http://localhost/seat#{tokens[seat['seat']]['Authorization'][7:]}"


def test_each_code_is_an_svg_a_page_can_size_that_draws_its_link(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    start("daddy-cool")
    for seat in join(client, referee):
        assert not seat["svg"].startswith("<?xml")
        assert dark_modules(seat["svg"]) == modules_of(seat["url"])


@pytest.mark.parametrize(
    "asked_at, public_url, base",
    [
        ("http://192.168.1.20:8080", None, "http://192.168.1.20:8080"),
        ("http://pi.local:8080", LAN, "http://pi.local:8080"),
        ("http://localhost:8080", None, "http://localhost:8080"),
        ("http://localhost:8080", LAN, "http://192.168.1.20:8080"),
        ("http://127.0.0.1:8080", LAN, "http://192.168.1.20:8080"),
        ("http://[::1]:8080", LAN, "http://192.168.1.20:8080"),
    ],
)
def test_a_link_leads_where_the_referee_asked_unless_that_is_the_loopback(
    table: TableService,
    referee: dict[str, str],
    asked_at: str,
    public_url: str | None,
    base: str,
) -> None:
    client = checked_app(table, public_url=public_url).test_client()
    client.post("/api/games", json={"game": "ice-trays"}, headers=referee)
    for seat in join(client, referee, base_url=asked_at):
        assert seat["url"].startswith(f"{base}/seat#")


def test_only_the_referee_gets_the_links(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    assert client.get("/api/join", headers=referee).status_code == 404
    seats = start()
    assert client.get("/api/join").status_code == 401
    assert client.get("/api/join", headers=bearer("x" * 43)).status_code == 401
    answer = client.get("/api/join", headers=seats[2])
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "forbidden"


def test_no_public_answer_carries_a_seats_token(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    public = b"".join(
        client.get(path).get_data() for path in ("/api/status", "/api/setup", "/api/curves")
    )
    for header in seats.values():
        assert header["Authorization"][7:].encode() not in public
