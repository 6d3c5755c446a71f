"""The seats' join links and QR codes: the referee's only, each carrying the one-time claim the
game's start answered (never a token), leading to an address a phone can reach, drawn as SVG a
page can size; a claim is taken once, and a new code signs the seat's old phone out."""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import segno
from apicheck import Start, bearer, checked_app
from flask.testing import FlaskClient

from companion.table.service import TableService
from companion.web.join import qr_text

SVG = "{http://www.w3.org/2000/svg}"
LAN = "http://192.168.1.20:8080/"


def join(client: FlaskClient, referee: dict[str, str], **where: Any) -> list[dict[str, Any]]:
    response = client.get("/api/join", headers=referee, **where)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["seats"]


def begin(client: FlaskClient, referee: dict[str, str], **body: Any) -> dict[int, str]:
    """Start a game whose seats no phone has claimed yet: each seat's claim."""
    response = client.post("/api/games", json={"game": "cool-runnings", **body}, headers=referee)
    assert response.status_code == 201, response.get_json()
    assert "seat_tokens" not in response.get_json()
    return {int(seat): claim for seat, claim in response.get_json()["seat_claims"].items()}


def claim(client: FlaskClient, text: str) -> dict[str, Any]:
    response = client.post("/api/claim", json={"claim": text})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


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


def test_every_seat_gets_a_link_with_the_claim_its_game_started_with(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    claims = begin(client, referee, seats=[{"seat": 1, "name": "Karen"}, 3])
    seats = join(client, referee)
    assert [(s["seat"], s["name"], s["colour"], s["joined"]) for s in seats] == [
        (1, "Karen", "blue", False),
        (3, "Seat 3", "green", False),
    ]
    for seat in seats:
        assert seat["url"] == f"http://localhost/seat#claim={claims[seat['seat']]}"


def test_a_claimed_seat_shows_no_code_and_a_new_code_signs_its_phone_out(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    claims = begin(client, referee, seats=[1, 2])
    phone = claim(client, claims[1])
    assert phone["seat"] == 1
    first, second = join(client, referee)
    assert first == {"seat": 1, "name": "Seat 1", "colour": "blue", "joined": True}
    assert not second["joined"] and "url" in second
    again = client.post("/api/claim", json={"claim": claims[1]})
    assert again.status_code == 410 and again.get_json()["error"]["code"] == "claim-used"
    renewed = client.post("/api/join", json={"seat": 1}, headers=referee)
    assert renewed.status_code == 200
    entry = renewed.get_json()
    assert not entry["joined"] and entry["url"].startswith("http://localhost/seat#claim=")
    assert dark_modules(entry["svg"]) == modules_of(entry["url"])
    assert client.get("/api/view", headers=bearer(phone["token"])).status_code == 401
    moved = claim(client, entry["url"].rsplit("=", 1)[1])
    assert client.get("/api/view", headers=bearer(moved["token"])).get_json()["viewer"] == 1


def test_the_referee_never_holds_a_seats_token(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    claims = begin(client, referee, seats=[1, 2])
    tokens = [claim(client, claims[1])["token"]]
    renewed = client.post("/api/join", json={"seat": 2}, headers=referee).get_data()
    tokens.append(claim(client, join(client, referee)[1]["url"].rsplit("=", 1)[1])["token"])
    seen = renewed + b"".join(
        client.get(path, headers=referee).get_data()
        for path in ("/api/join", "/api/view", "/api/export", "/api/status", "/api/curves")
    )
    for token in tokens:
        assert token.encode() not in seen


def test_opening_a_link_without_running_its_page_claims_nothing(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    """A link preview or a prefetch only GETs the page; the claim is in the fragment, which is
    never sent, and only the page's script posts it."""
    claims = begin(client, referee, seats=[1, 2])
    for path in ("/seat", f"/seat?claim={claims[1]}", "/seat?lang=de", "/"):
        assert client.get(path).status_code == 200
        client.head(path)
    assert not any(s["joined"] for s in client.get("/api/status").get_json()["seats"])
    assert claim(client, claims[1])["seat"] == 1


@pytest.mark.parametrize(
    "body, status",
    [({"seat": 5}, 400), ({"seat": "1"}, 400), ({}, 400), ({"claim": "x"}, 400)],
)
def test_a_new_code_needs_a_seat_of_the_game(
    client: FlaskClient, referee: dict[str, str], body: dict[str, Any], status: int
) -> None:
    begin(client, referee, seats=[1, 2])
    answer = client.post("/api/join", json=body, headers=referee)
    assert answer.status_code == status and answer.get_json()["error"]["code"] == "bad-message"


def test_only_the_referee_gives_a_seat_a_new_code(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    assert client.post("/api/join", json={"seat": 1}, headers=referee).status_code == 404
    claims = begin(client, referee, seats=[1, 2])
    phone = bearer(claim(client, claims[2])["token"])
    assert client.post("/api/join", json={"seat": 1}).status_code == 401
    answer = client.post("/api/join", json={"seat": 1}, headers=phone)
    assert answer.status_code == 403
    assert client.get("/api/view", headers=phone).status_code == 200


def test_an_unknown_claim_is_404_and_a_bad_one_400(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    assert client.post("/api/claim", json={"claim": "x" * 43}).get_json()["error"]["code"] == (
        "no-game"
    )
    begin(client, referee)
    answer = client.post("/api/claim", json={"claim": "x" * 43})
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "unknown-claim"
    for body in ({"claim": 1}, {"claim": ""}, {"token": "x"}, ["x"]):
        assert client.post("/api/claim", json=body).status_code == 400, body


def test_each_code_is_an_svg_a_page_can_size_that_draws_its_link(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    begin(client, referee, game="daddy-cool")
    for seat in join(client, referee):
        assert not seat["svg"].startswith("<?xml")
        assert dark_modules(seat["svg"]) == modules_of(seat["url"])


@pytest.mark.parametrize(
    "asked_at, public_url, base",
    [
        ("http://192.168.1.20:8080", None, "http://192.168.1.20:8080"),
        (f"http://{socket.gethostname()}.local:8080", LAN, "http://192.168.1.20:8080"),
        ("http://localhost:8080", None, "http://localhost:8080"),
        ("http://localhost:8080", LAN, "http://192.168.1.20:8080"),
        ("http://127.0.0.1:8080", LAN, "http://192.168.1.20:8080"),
        ("http://[::1]:8080", LAN, "http://192.168.1.20:8080"),
    ],
)
def test_a_link_leads_to_the_table_s_own_address_wherever_the_referee_asked(
    table: TableService,
    referee: dict[str, str],
    asked_at: str,
    public_url: str | None,
    base: str,
) -> None:
    client = checked_app(table, public_url=public_url).test_client()
    client.post("/api/games", json={"game": "ice-trays"}, headers=referee)
    for seat in join(client, referee, base_url=asked_at):
        assert seat["url"].startswith(f"{base}/seat#claim=")


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


def test_the_terminal_s_qr_code_is_the_link_s_modules() -> None:
    """Read back from its half blocks (light modules drawn), the code is segno's for the link."""
    url = "http://192.168.1.20:8080/referee#" + "x" * 43
    lines = qr_text(url).splitlines()
    halves = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}
    rows = [None] * (2 * len(lines))
    rows[0::2] = [[halves[c][0] for c in line] for line in lines]
    rows[1::2] = [[halves[c][1] for c in line] for line in lines]
    matrix = segno.make(url, error="l").matrix
    size = len(matrix)
    inner = [row[2 : 2 + size] for row in rows[2 : 2 + size]]
    assert inner == [[not dark for dark in row] for row in matrix]
