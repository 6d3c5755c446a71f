"""Who may see and do what: a seat sees only its own hand and acts only as itself, the referee's
actions need the referee's token, a token travels only in the Authorization header, and the
public status and stream never carry a hand, the draw order, a seed or a token."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from apicheck import Start, bearer
from flask.testing import FlaskClient

from companion.table.service import TableService


def walk(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON value, depth first."""
    yield key, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)


def cards_in(value: Any) -> set[int]:
    """The ids of every card face shown anywhere in a JSON value."""
    return {
        v["id"]
        for _, v in walk(value)
        if isinstance(v, dict) and {"id", "attack", "move"} <= set(v)
    }


def assert_public(value: Any, tokens: list[str]) -> None:
    """No hand, the draw pile only as a size, no seed, no token."""
    for key, item in walk(value):
        assert key != "hand", "a hand in public"
        assert key not in ("seed", "device_secret", "seat_tokens"), key
        if key is not None and "draw" in key and key != "draw_pile":
            assert not isinstance(item, list | dict), f"{key} shows more than a size"
        if key == "draw_pile":
            assert type(item) is int
    text = json.dumps(value)
    assert not [t for t in tokens if t in text], "a token in public"


def view(client: FlaskClient, headers: dict[str, str]) -> dict[str, Any]:
    response = client.get("/api/view", headers=headers)
    assert response.status_code == 200
    return response.get_json()


def test_each_seat_sees_its_own_hand_and_nobody_sees_another(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    views = {seat: view(client, headers) for seat, headers in seats.items()}
    hands = {seat: {card["id"] for card in v["hand"]} for seat, v in views.items()}
    assert all(len(hand) == 4 for hand in hands.values())
    for seat, v in views.items():
        assert v["viewer"] == seat
        shown = cards_in({k: item for k, item in v.items() if k != "hand"})
        others = set().union(*(hand for other, hand in hands.items() if other != seat))
        assert not shown & others
        assert not hands[seat] & others
    referee_view = view(client, referee)
    assert "hand" not in referee_view
    assert not cards_in(referee_view) & set().union(*hands.values())


def test_a_seat_cannot_act_as_another_seat_nor_the_referee_as_a_seat(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    action = view(client, seats[1])["legal_actions"][0]
    for headers in (seats[2], referee):
        response = client.post("/api/actions", json=action, headers=headers)
        assert response.status_code == 403
        assert response.get_json()["error"]["code"] == "forbidden"
    assert client.get("/api/export", headers=referee).get_json()["log"] == []


def test_a_seat_cannot_take_the_referees_action_or_start_a_game(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    melt = next(a for a in view(client, referee)["legal_actions"] if a["type"] == "melted")
    for headers in seats.values():
        assert client.post("/api/actions", json=melt, headers=headers).status_code == 403
        started = client.post("/api/games", json={"game": "ice-trays"}, headers=headers)
        assert started.status_code == 403
    assert client.get("/api/status").get_json()["game"]["name"] == "cool-runnings"
    assert client.get("/api/export", headers=referee).get_json()["log"] == []


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic cmVmZXJlZTpzZWNyZXQ="},
        {"Authorization": "Bearer not-a-token-of-this-table"},
        {"Authorization": "Bearer tok\u00e9n"},
        {"Authorization": "Bearer a b"},
        {"Authorization": "Bearer " + "A" * 300},
    ],
    ids=["none", "empty", "scheme", "blank", "basic", "unknown", "latin1", "two", "long"],
)
def test_no_token_or_a_wrong_one_is_401_everywhere_a_token_is_needed(
    client: FlaskClient, start: Start, headers: dict[str, str]
) -> None:
    start()
    action = {"type": "melted", "by": "referee", "seat": 1}
    for response in (
        client.get("/api/view", headers=headers),
        client.post("/api/actions", json=action, headers=headers),
        client.post("/api/games", json={"game": "ice-trays"}, headers=headers),
    ):
        assert response.status_code == 401
        assert response.get_json()["error"]["code"] == "unauthorized"


def test_a_token_in_the_query_string_or_a_cookie_is_ignored(
    client: FlaskClient, table: TableService
) -> None:
    token = table.referee_token
    for name in ("token", "access_token", "auth"):
        response = client.post(f"/api/games?{name}={token}", json={"game": "ice-trays"})
        assert response.status_code == 401
    client.set_cookie("token", token)
    client.set_cookie("Authorization", f"Bearer {token}")
    assert client.post("/api/games", json={"game": "ice-trays"}).status_code == 401
    assert client.get("/api/status").get_json()["game"] is None


def test_a_new_game_makes_the_old_seat_tokens_worthless(client: FlaskClient, start: Start) -> None:
    old = start()
    new = start("daddy-cool", replace=True)
    assert client.get("/api/view", headers=old[1]).status_code == 401
    assert view(client, new[1])["game"] == "daddy-cool"


def test_a_game_being_played_is_replaced_only_when_the_referee_says_so(
    client: FlaskClient, start: Start, referee: dict[str, str]
) -> None:
    seats = start()
    again = client.post("/api/games", json={"game": "ice-trays"}, headers=referee)
    assert again.status_code == 409
    assert '"replace": true' in again.get_json()["error"]["message"]
    assert client.get("/api/view", headers=seats[1]).status_code == 200  # still playing


def test_seat_tokens_are_distinct_and_long(client: FlaskClient, start: Start) -> None:
    seats = start()
    tokens = [headers["Authorization"].removeprefix("Bearer ") for headers in seats.values()]
    assert len(set(tokens)) == len(tokens) == 4
    assert all(len(t) >= 22 for t in tokens), "fewer than 128 bits"


def test_the_export_is_the_referees_until_the_game_is_over(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    assert client.get("/api/export").status_code == 403
    assert client.get("/api/export", headers=seats[1]).status_code == 403
    assert client.get("/api/export", headers=bearer("nobody-holds-this")).status_code == 401
    mine = client.get("/api/export", headers=referee)
    assert mine.status_code == 200
    assert mine.get_json()["seed"] is None


def test_status_and_stream_never_show_a_hand_the_draw_order_a_seed_or_a_token(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start()
    players = {**seats, "referee": referee}
    tokens = [h["Authorization"].removeprefix("Bearer ") for h in players.values()]
    rnd = random.Random(5)
    stream = client.get("/api/stream", buffered=False)
    chunks = iter(stream.response)
    views = {who: view(client, headers) for who, headers in players.items()}
    for _ in range(30):
        offered = [
            (who, action)
            for who, v in views.items()
            for action in v["legal_actions"]
            if action["type"] != "melted"
        ]
        seat_actions = [(who, action) for who, action in offered if who != "referee"]
        who, action = rnd.choice(seat_actions or offered)
        assert client.post("/api/actions", json=action, headers=players[who]).status_code == 200
        views = {who: view(client, headers) for who, headers in players.items()}
        held = set().union(*(cards_in(v.get("hand", [])) for v in views.values()))
        status = client.get("/api/status").get_json()
        assert_public(status, tokens)
        assert not cards_in(status) & held, "a card in a hand shown in public"
        text = next(chunks).decode()
        if text.startswith("id:"):
            assert_public(json.loads(text.split("data: ", 1)[1]), tokens)
    stream.close()
