"""Every refusal is a JSON error with its own status; nothing a request can send makes the table
fail, and what would (an error nobody foresaw) is answered 503 in JSON, never a 500."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from apicheck import Start, bearer, checked_app
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.table.service import TableService
from companion.web.app import MAX_BODY_BYTES


def error_of(response: Any) -> tuple[int, str, str]:
    body = response.get_json()
    return response.status_code, body["error"]["code"], body["error"]["message"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"", "bad-json"),
        (b"{", "bad-json"),
        (b"{'type': 'roll'}", "bad-json"),
        (b'{"type": "roll",}', "bad-json"),
        (b"\xff\xfe{}", "bad-json"),
        (b'{"by": NaN}', "bad-json"),
        (b'{"by": Infinity}', "bad-json"),
        (b'{"by": 1e400}', "bad-json"),
        (b'{"by": 123456789012345678901234567890}', "bad-json"),
        (b'{"by": 1' + b"0" * 5000 + b"}", "bad-json"),
        (b'{"name": "\\ud800"}', "bad-json"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "bad-json"),
        (b"[" * 5000 + b"]" * 5000, "bad-json"),
        (b'{"type": "melted", "by": 1, "seat": 1, "seat": 2}', "bad-json"),
        (b'{"type": "melted", "by": 1, "by": "referee", "seat": 1}', "bad-json"),
        (b'{"type": "x", "seats": [{"seat": 1, "seat": 2}]}', "bad-json"),
        (b"[]", "bad-message"),
        (b'"roll"', "bad-message"),
        (b"null", "bad-message"),
        (b"{}", "bad-message"),
        (b'{"type": "no-such-action", "by": 1}', "bad-message"),
        (b'{"type": "melted", "by": 1, "seat": "one"}', "bad-message"),
        (b'{"type": "melted", "by": "1", "seat": 1}', "bad-message"),
        (b'{"type": "take-hit", "by": "2"}', "bad-message"),
        (b'{"type": "melted", "by": 1, "seat": 1, "extra": 2}', "bad-message"),
    ],
)
def test_a_malformed_action_is_400_and_says_what_is_wrong(
    client: FlaskClient, start: Start, body: bytes, code: str
) -> None:
    seats = start()
    headers = {**seats[1], "Content-Type": "application/json"}
    status, got, message = error_of(client.post("/api/actions", data=body, headers=headers))
    assert (status, got) == (400, code)
    assert message[0].isupper() and message.endswith(".")


def test_a_key_given_twice_is_named_in_the_400(client: FlaskClient, start: Start) -> None:
    seats = start()
    headers = {**seats[1], "Content-Type": "application/json"}
    body = b'{"type": "melted", "by": 1, "seat": 1, "seat": 2}'
    status, code, message = error_of(client.post("/api/actions", data=body, headers=headers))
    assert (status, code) == (400, "bad-json")
    assert message == 'The body gives the key "seat" twice: send each key once.'


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "bad-options"),
        ({"game": 7}, "bad-message"),
        ({}, "bad-message"),
        ({"game": "ice-trays", "seats": [1]}, "bad-options"),
        ({"game": "ice-trays", "seats": [1, 1]}, "bad-options"),
        ({"game": "ice-trays", "seats": [1, 9]}, "bad-options"),
        ({"game": "ice-trays", "seats": "all"}, "bad-options"),
        ({"game": "ice-trays", "options": {"colour": "red"}}, "bad-options"),
        ({"game": "ice-trays", "options": ["colour"]}, "bad-options"),
        ({"game": "ice-trays", "rules": "mine"}, "bad-message"),
        ({"game": "ice-trays", "seats": [{"seat": 1, "colour": "red"}, 2]}, "bad-options"),
        ({"game": "ice-trays", "seats": [{"seat": 1, "name": "Tom\u202egnp"}, 2]}, "bad-options"),
        ({"game": "ice-trays", "seats": [{"seat": 1, "name": "A\u2066B"}, 2]}, "bad-options"),
        ({"game": "ice-trays", "seats": [{"seat": 1, "name": "A\x1bB"}, 2]}, "bad-options"),
    ],
)
def test_a_game_that_cannot_start_is_400(
    client: FlaskClient, referee: dict[str, str], body: dict[str, Any], code: str
) -> None:
    status, got, _ = error_of(client.post("/api/games", json=body, headers=referee))
    assert (status, got) == (400, code)
    assert client.get("/api/status").get_json()["game"] is None


def test_an_illegal_action_is_409_with_the_rules_sentence(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start("daddy-cool", seats=[1, 2], options={"first_seat": 1})
    roll = client.get("/api/view", headers=seats[1]).get_json()["legal_actions"][0]
    as_seat_2 = {**roll, "by": 2}  # in time, but it is seat 1's turn
    status, code, message = error_of(client.post("/api/actions", json=as_seat_2, headers=seats[2]))
    assert (status, code) == (409, "illegal-action")
    assert len(message) > 10 and message.endswith(".")
    assert client.get("/api/export", headers=referee).get_json()["log"] == []


def test_a_repeated_tap_is_answered_as_the_first_and_taken_once(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    view = client.get("/api/view", headers=seats[1]).get_json()
    first, other = view["legal_actions"][:2]
    answer = client.post("/api/actions", json=first, headers=seats[1])
    again = client.post("/api/actions", json=first, headers=seats[1])
    assert answer.status_code == again.status_code == 200
    assert again.get_json() == answer.get_json()
    late = client.post("/api/actions", json=other, headers=seats[1])
    assert error_of(late)[:2] == (409, "stale-action")
    assert late.get_json()["view"] == client.get("/api/view", headers=seats[1]).get_json()
    assert len(client.get("/api/export", headers=referee).get_json()["log"]) == 1


def test_an_action_without_after_is_refused_with_why(client: FlaskClient, start: Start) -> None:
    seats = start()
    move = client.get("/api/view", headers=seats[1]).get_json()["legal_actions"][0]
    bare = {k: v for k, v in move.items() if k != "after"}
    status, code, message = error_of(client.post("/api/actions", json=bare, headers=seats[1]))
    assert (status, code) == (400, "bad-message") and '"after"' in message
    for wrong in (-1, "1", 1.5, None, True):
        status, code, _ = error_of(
            client.post("/api/actions", json={**move, "after": wrong}, headers=seats[1])
        )
        assert (status, code) == (400, "bad-message"), wrong


def test_without_a_game_the_view_the_actions_and_the_export_are_404(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    assert error_of(client.get("/api/view", headers=referee))[:2] == (404, "no-game")
    action = {"type": "melted", "by": "referee", "seat": 1}
    assert error_of(client.post("/api/actions", json=action, headers=referee))[:2] == (
        404,
        "no-game",
    )
    assert error_of(client.get("/api/export"))[:2] == (404, "no-game")


def test_a_body_over_the_limit_is_413(client: FlaskClient, start: Start) -> None:
    seats = start()
    big = json.dumps({"type": "melted", "by": 1, "seat": 1, "pad": "x" * MAX_BODY_BYTES})
    status, code, message = error_of(client.post("/api/actions", data=big, headers=seats[1]))
    assert (status, code) == (413, "too-large")
    assert str(MAX_BODY_BYTES) in message


def test_the_limit_is_the_apps_and_a_body_just_under_it_is_read(table: TableService) -> None:
    client = checked_app(table, max_body_bytes=64).test_client()
    referee = bearer(table.referee_token)
    exact = json.dumps({"game": "ice-trays", "seats": [1, 2]}).ljust(64).encode()
    assert client.post("/api/games", data=exact, headers=referee).status_code == 201
    assert client.post("/api/games", data=exact + b" ", headers=referee).status_code == 413


def test_a_body_without_a_length_is_cut_off_at_the_limit_too(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    """A chunked body (the server marks its input terminated) is read no further than allowed."""
    body = b'{"game": "ice-trays", "x": "' + b"y" * MAX_BODY_BYTES + b'"}'
    response = client.post(
        "/api/games",
        input_stream=io.BytesIO(body),
        headers={**referee, "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.request.content_length is None
    assert error_of(response)[:2] == (413, "too-large")


@pytest.mark.parametrize(
    "path",
    ["/api", "/api/", "/api/status/", "/api/nothing", "/favicon.ico", "/api/view/1", "/seat/"],
)
def test_an_unknown_path_is_404_json(client: FlaskClient, path: str) -> None:
    for method in ("GET", "POST", "DELETE"):
        assert error_of(client.open(path, method=method))[:2] == (404, "not-found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("POST", "/api/status", "GET"),
        ("PUT", "/api/view", "GET"),
        ("DELETE", "/api/games", "POST"),
        ("GET", "/api/actions", "POST"),
        ("PATCH", "/api/export", "GET"),
        ("POST", "/api/stream", "GET"),
        ("OPTIONS", "/api/actions", "POST"),
        ("OPTIONS", "/api/status", "GET"),
    ],
)
def test_a_wrong_method_is_405_json_naming_the_right_one(
    client: FlaskClient, method: str, path: str, allowed: str
) -> None:
    response = client.open(path, method=method, headers={"Origin": "https://elsewhere.example"})
    status, code, message = error_of(response)
    assert (status, code) == (405, "method-not-allowed")
    assert allowed in response.headers["Allow"] and allowed in message


def test_an_error_repeats_no_more_than_a_short_piece_of_the_request(client: FlaskClient) -> None:
    """A 10,000-character method name is not echoed back whole in the 405's message."""
    response = client.open("/api/status", method="X" * 10_000)
    status, code, message = error_of(response)
    assert (status, code) == (405, "method-not-allowed")
    assert len(message) < 100 and message.startswith("X" * 23 + "… is not allowed here")


def test_head_answers_as_get_without_a_body(client: FlaskClient) -> None:
    response = client.head("/api/status")
    assert response.status_code == 200
    assert response.data == b""


class Broken:
    """A table whose every answer fails: as a bug would, or as a full disk would."""

    referee_token = "referee-token-of-a-broken-table"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def actor_of(self, token: str | None) -> str:
        return "referee"

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any) -> Any:
            raise self.error

        return fail


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (RuntimeError("a bug"), "The table could not do that; try again in a moment."),
        (CompanionError("the disk is full"), "The disk is full."),
    ],
)
def test_an_error_nobody_foresaw_is_503_json_and_logged(
    caplog: pytest.LogCaptureFixture, error: Exception, message: str
) -> None:
    client = checked_app(Broken(error)).test_client()
    headers = bearer(Broken.referee_token)
    for response in (
        client.get("/api/status"),
        client.get("/api/view", headers=headers),
        client.post("/api/games", json={"game": "ice-trays"}, headers=headers),
        client.post("/api/actions", json={"type": "roll", "by": 1}, headers=headers),
        client.get("/api/export"),
        client.get("/api/stream"),
    ):
        assert error_of(response) == (503, "table-error", message)
    assert "a bug" not in json.dumps(response.get_json())
    assert len([r for r in caplog.records if r.name == "companion.web.errors"]) == 6


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELDS = ("type", "by", "seat", "card", "target", "piece", "game", "seats", "options", "seeds")
BODIES = (
    st.binary(max_size=64)
    | JSON.map(lambda v: json.dumps(v).encode())
    | st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5).map(
        lambda v: json.dumps(v).encode()
    )
)
PATHS = st.sampled_from(
    ["/api/status", "/api/view", "/api/actions", "/api/games", "/api/export", "/api/x", "/"]
)
METHODS = st.sampled_from(["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD"])
WHO = st.sampled_from(["referee", 1, 2, "nobody", "garbage", None])


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(method=METHODS, path=PATHS, who=WHO, body=BODIES, legal=st.booleans(), data=st.data())
def test_no_request_makes_the_table_fail(
    client: FlaskClient,
    referee: dict[str, str],
    start: Start,
    caplog: pytest.LogCaptureFixture,
    method: str,
    path: str,
    who: Any,
    body: bytes,
    legal: bool,
    data: st.DataObject,
) -> None:
    """Random methods, paths, tokens and bodies, and legal actions bent at random: every answer
    is below 500 and nothing is logged as a failure."""
    caplog.clear()
    view = client.get("/api/view", headers=referee)
    seats = start() if view.status_code == 404 else None
    tokens = {"referee": referee, "nobody": bearer("x" * 43), "garbage": {"Authorization": "\x00"}}
    if seats:
        tokens |= {1: seats[1], 2: seats[2]}
    headers = tokens.get(who, {}) if who in tokens else {}
    if legal and who in (1, 2, "referee") and who in tokens:
        offered = client.get("/api/view", headers=tokens[who]).get_json()["legal_actions"]
        if offered:
            action = dict(data.draw(st.sampled_from(offered)))
            key = data.draw(st.sampled_from([*action, "extra"]))
            action[key] = data.draw(JSON)
            body = json.dumps(action).encode()
    response = client.open(path, method=method, data=body, headers=headers)
    assert response.status_code < 500, response.get_json()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("path", ["//api//status", "/api//status", "//static//style.css"])
def test_doubled_slashes_are_a_json_404_not_an_html_redirect(
    client: FlaskClient, path: str
) -> None:
    # The path as a server reads it off the request line: the test client would take a
    # leading "//" for a host name.
    response = client.get("/", environ_overrides={"PATH_INFO": path})
    assert response.status_code == 404 and response.is_json
