"""The referee's set-up over the API: only the referee's, every bad request a 4xx JSON error
(never a 500), a second step refused while one runs, and whole steps from the start to a
written calibration.toml that the table uses at once; every answer as the document says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from apicheck import Start, bearer, checked_app
from flask.testing import FlaskClient
from waiting import wait_until
from werkzeug.test import TestResponse

from companion.config import default_config, parse_config
from companion.sensors.calibration import FILENAME, load_calibration
from companion.table.service import TableService

FAST = 20.0
"""The fast table's speed: a pad's five seconds are a quarter of a real second."""


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[TableService]:
    """A simulated table whose time runs :data:`FAST` times quicker than real."""
    service = TableService(default_config(), tmp_path, simulate=True, speed=FAST, with_cues=False)
    service.start()
    yield service
    service.close()


@pytest.fixture
def fast_client(fast: TableService) -> FlaskClient:
    return checked_app(fast).test_client()


def answer(
    client: FlaskClient, method: str, path: str, token: str | None, body: Any = None
) -> TestResponse:
    headers = bearer(token) if token else {}
    return client.open(path, method=method, json=body, headers=headers)


def until(client: FlaskClient, token: str, phase: str) -> dict[str, Any]:
    """Poll the set-up as the page does until it stands in ``phase``."""

    def shown() -> dict[str, Any] | None:
        now = dict(answer(client, "GET", "/api/calibration", token).get_json())
        return now if now["phase"] == phase else None

    return wait_until(shown, what=f"the set-up's {phase}")


def test_only_the_referee_sets_up(client: FlaskClient, table: TableService, start: Start) -> None:
    seat = start()[1]
    for method, path in (
        ("GET", "/api/calibration"),
        ("POST", "/api/calibration"),
        ("POST", "/api/calibration/accept"),
        ("POST", "/api/calibration/abort"),
    ):
        assert client.open(path, method=method, json={"step": "tare"}).status_code == 401
        wrong = client.open(path, method=method, json={}, headers=bearer("not-a-token"))
        assert wrong.status_code == 401
        for body in ({"step": "tare"}, {"step": "x"}):
            refused = client.open(path, method=method, json=body, headers=seat)
            assert refused.status_code == 403, "who may, before what the fields say"
            assert refused.get_json()["error"]["code"] == "forbidden"


BAD = [
    [],
    "tare",
    {},
    {"step": "dance"},
    {"step": 3},
    {"step": None},
    {"step": "tare", "seat": "2"},
    {"step": "tare", "seat": 2.0},
    {"step": "tare", "seat": True},
    {"step": "tare", "seat": 0},
    {"step": "tare", "seat": 7},
    {"step": "tare", "seat": -1},
    {"step": "tare", "seat": 5},
    {"step": "weight", "seat": 1, "grams": 0},
    {"step": "weight", "seat": 1, "grams": -3},
    {"step": "weight", "seat": 1, "grams": 5000},
    {"step": "weight", "seat": 1, "grams": "7.5"},
    {"step": "weight", "seat": 1, "grams": True},
    {"step": "weight", "grams": 7.5},
    {"step": "tare", "grams": 7.5},
    {"step": "temperature", "reference_c": 100},
    {"step": "temperature", "reference_c": "0"},
    {"step": "identify", "reference_c": 0},
    {"step": "tare", "also": 1},
]


@pytest.mark.parametrize("body", BAD)
def test_bad_input_is_refused_400(client: FlaskClient, referee: dict[str, str], body: Any) -> None:
    refused = client.post("/api/calibration", json=body, headers=referee)
    assert refused.status_code == 400, refused.get_json()
    assert set(refused.get_json()["error"]) == {"code", "message"}
    assert client.get("/api/calibration", headers=referee).get_json()["phase"] == "idle"


@pytest.mark.parametrize(
    "data", [b"{", b'{"step": "tare", "step": "cap"}', b"\xff", b'{"step": NaN}']
)
def test_a_body_that_is_not_json_is_refused_400(
    client: FlaskClient, referee: dict[str, str], data: bytes
) -> None:
    headers = {**referee, "Content-Type": "application/json"}
    assert client.post("/api/calibration", data=data, headers=headers).status_code == 400


@pytest.mark.parametrize("path", ["/api/calibration/accept", "/api/calibration/abort"])
def test_accept_and_abort_take_no_fields(
    client: FlaskClient, referee: dict[str, str], path: str
) -> None:
    assert client.post(path, json={"step": "tare"}, headers=referee).status_code == 400
    assert client.post(path, json=[1], headers=referee).status_code == 400


def test_what_cannot_be_done_now_is_refused_409(
    client: FlaskClient, table: TableService, referee: dict[str, str]
) -> None:
    token = table.referee_token
    nothing = answer(client, "POST", "/api/calibration/accept", token)
    assert (nothing.status_code, nothing.get_json()["error"]["code"]) == (409, "nothing-to-accept")
    started = answer(client, "POST", "/api/calibration", token, {"step": "tare", "seat": 2})
    assert started.status_code == 200 and started.get_json()["phase"] == "waiting"
    other = answer(client, "POST", "/api/calibration", token, {"step": "identify"})
    assert (other.status_code, other.get_json()["error"]["code"]) == (409, "set-up-busy")
    assert answer(client, "POST", "/api/calibration", token, {"step": "tare"}).status_code == 200
    again = answer(client, "POST", "/api/calibration", token, {"step": "tare"})
    assert (again.status_code, again.get_json()["error"]["code"]) == (409, "set-up-busy")
    early = answer(client, "POST", "/api/calibration/accept", token)
    assert early.status_code == 409
    aborted = answer(client, "POST", "/api/calibration/abort", token)
    assert aborted.status_code == 200 and aborted.get_json()["phase"] == "idle"
    assert not (table.state_dir / FILENAME).exists()


def test_a_table_without_pads_has_none_to_set_up(tmp_path: Path) -> None:
    config = parse_config("table.toml", '[sensors]\nthermometers = "none"\nscales = "none"\n')
    service = TableService(config, tmp_path, with_cues=False)
    service.start()
    try:
        client = checked_app(service).test_client()
        token = service.referee_token
        shown = answer(client, "GET", "/api/calibration", token).get_json()
        assert (shown["probes"], shown["pads"]) == (False, False)
        for step in ("identify", "tare", "temperature"):
            refused = answer(client, "POST", "/api/calibration", token, {"step": step})
            assert (refused.status_code, refused.get_json()["error"]["code"]) == (409, "no-sensors")
    finally:
        service.close()


def lacks(client: FlaskClient) -> dict[int, list[str]]:
    return {s["seat"]: s["uncalibrated"] for s in client.get("/api/status").get_json()["seats"]}


def step(client: FlaskClient, token: str, body: dict[str, Any], gos: int = 1) -> dict[str, Any]:
    """Start a step, give the go for each of its ``gos`` stages, and wait for its proposal."""
    assert answer(client, "POST", "/api/calibration", token, body).status_code == 200
    for _ in range(gos):
        until(client, token, "waiting")
        gone = answer(client, "POST", "/api/calibration", token, {"step": body["step"]})
        assert gone.status_code == 200, gone.get_json()
    return until(client, token, "proposed")


def test_the_steps_write_what_the_table_then_uses(
    fast_client: FlaskClient, fast: TableService
) -> None:
    token, client = fast.referee_token, fast_client
    assert lacks(client) == {n: [] for n in range(1, 5)}, "the simulated table's own calibration"
    tare = step(client, token, {"step": "tare"})
    assert {m["quantity"] for m in tare["measured"]} == {"tare"}
    assert not (fast.state_dir / FILENAME).exists()
    written = answer(client, "POST", "/api/calibration/accept", token).get_json()
    assert written["phase"] == "written" and written["writes"] == tare["writes"]
    # the sensing takes the file up at its next pass
    wait_until(lambda: lacks(client)[1] == ["weight", "cap"], what="the tares taken up")
    assert lacks(client) == {n: ["weight", "cap"] for n in range(1, 5)}
    coin = next(c for c in tare["coins"] if c["name"] == "euro-1")
    weight = step(client, token, {"step": "weight", "seat": 1, "grams": coin["grams"]}, gos=2)
    (slope,) = [m for m in weight["measured"] if m["quantity"] == "slope"]
    assert fast.sim is not None
    assert slope["value"] == pytest.approx(fast.sim.seats[1].counts_per_gram, rel=0.01)
    answer(client, "POST", "/api/calibration/accept", token)
    step(client, token, {"step": "cap", "seat": 1})
    answer(client, "POST", "/api/calibration/accept", token)
    wait_until(lambda: not lacks(client)[1], what="seat 1's calibration taken up")
    assert lacks(client)[1] == [] and lacks(client)[2] == ["weight", "cap"]
    seat = load_calibration(fast.state_dir / FILENAME).seat(1)
    assert seat.pad_lacks() == () and seat.counts_per_gram == slope["value"]
    assert (fast.state_dir / (FILENAME + ".bak")).exists(), "the previous one is kept"


def test_a_refusal_is_said_and_writes_nothing(fast_client: FlaskClient, fast: TableService) -> None:
    token, client = fast.referee_token, fast_client
    answer(client, "POST", "/api/calibration", token, {"step": "temperature", "reference_c": 9})
    answer(client, "POST", "/api/calibration", token, {"step": "temperature"})
    refused = until(client, token, "refused")["refused"]
    assert refused["reason"] == "probe-low" and refused["facts"]["reference"] == 9
    assert refused["seat"] in (1, 2, 3, 4) and "below the reference" in refused["message"]
    assert not (fast.state_dir / FILENAME).exists()
    assert answer(client, "POST", "/api/calibration/accept", token).status_code == 409
