"""``POST /api/games/end``: the referee's early end of a game, over the API; its export is then
everyone's, and ``companion verify`` passes it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from apicheck import Start
from commandline import run
from flask.testing import FlaskClient

from companion.games.messages import REFEREE
from companion.table.service import TableService

END = "/api/games/end"


def error(response: Any) -> tuple[int, str, str]:
    body = response.get_json()["error"]
    return response.status_code, body["code"], body["message"]


def some_moves(client: FlaskClient, seats: dict[int, dict[str, str]], n: int) -> None:
    """Up to ``n`` actions by the seats: moves, and an attack a space set off carried out; fewer
    when a space sets off a ten-count (it runs in real time here, and the end may stop it)."""
    rnd = random.Random(7)
    for _ in range(n):
        views = {s: client.get("/api/view", headers=h).get_json() for s, h in seats.items()}
        moves = [
            (s, a)
            for s, v in views.items()
            for a in v["legal_actions"]
            if a["type"] in ("play-move", "attack-done")
        ]
        if not moves:
            assert client.get("/api/status").get_json()["count"] is not None
            return
        seat, action = rnd.choice(moves)
        response = client.post("/api/actions", json=action, headers=seats[seat])
        assert response.status_code == 200, response.get_json()


def finish_by_the_rules(table: TableService, seats: list[int]) -> None:
    """Random legal actions on the table itself until the rules end the game."""
    rnd = random.Random(1)
    for _ in range(5000):
        if table.status()["game"]["over"]:
            return
        options = [(a, x) for a in (REFEREE, *seats) for x in table.view(a)["legal_actions"]]
        table.act(*rnd.choice(options))
    raise AssertionError("the game does not end")


def test_ending_needs_a_token(client: FlaskClient, start: Start) -> None:
    start()
    assert error(client.post(END))[:2] == (401, "unauthorized")
    assert client.get("/api/status").get_json()["game"]["ended"] is False


def test_a_seat_may_not_end_the_game(client: FlaskClient, start: Start) -> None:
    seats = start()
    assert error(client.post(END, headers=seats[2])) == (
        403,
        "forbidden",
        "Only the referee ends a game.",
    )
    assert client.get("/api/status").get_json()["game"]["over"] is False


def test_there_is_no_game_to_end_before_the_first(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    assert error(client.post(END, headers=referee))[:2] == (404, "no-game")


def test_the_referee_ends_the_game_and_gets_its_whole_export(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start(seats=[1, 2, 3])
    some_moves(client, seats, 4)
    hidden = client.get("/api/export", headers=referee).get_json()
    assert hidden["seed"] is None and hidden["ended"] is False
    assert client.get("/api/export").status_code == 403
    response = client.post(END, headers=referee)
    assert response.status_code == 200
    export = response.get_json()
    assert export["ended"] is True and export["outcome"] is None
    assert export["seed"] is not None and export["setup"]
    assert [e["action"] for e in export["log"]] == [e["action"] for e in hidden["log"]]
    game = client.get("/api/status").get_json()["game"]
    assert (game["over"], game["ended"], game["outcome"]) == (True, True, None)
    public = client.get("/api/export")
    assert public.status_code == 200 and public.get_json() == export


@pytest.mark.parametrize(
    ("body", "kind"),
    [(b"{}", "application/json"), (b"", None), (b"  \n", "application/json")],
    ids=["empty-object", "no-body", "blank"],
)
def test_the_end_takes_no_body_or_an_empty_object(
    client: FlaskClient, referee: dict[str, str], start: Start, body: bytes, kind: str | None
) -> None:
    start()
    response = client.post(END, data=body, content_type=kind, headers=referee)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["ended"] is True


@pytest.mark.parametrize(
    ("body", "code"),
    [(b'{"replace": true}', "bad-message"), (b"[]", "bad-message"), (b"{", "bad-json")],
    ids=["a-field", "a-list", "not-json"],
)
def test_a_body_with_anything_in_it_is_refused(
    client: FlaskClient, referee: dict[str, str], start: Start, body: bytes, code: str
) -> None:
    start()
    response = client.post(END, data=body, content_type="application/json", headers=referee)
    assert error(response)[:2] == (400, code)
    assert client.get("/api/status").get_json()["game"]["ended"] is False


def test_a_field_is_named_when_refused(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    start()
    response = client.post(END, json={"replace": True}, headers=referee)
    assert error(response)[2] == "Unknown field 'replace': ending a game takes no fields."


def test_ending_twice_is_refused(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    start()
    assert client.post(END, headers=referee).status_code == 200
    assert error(client.post(END, headers=referee)) == (
        409,
        "illegal-action",
        "The game is already over.",
    )


def test_a_game_over_by_its_rules_cannot_be_ended(
    client: FlaskClient, referee: dict[str, str], start: Start, table: TableService
) -> None:
    start("ice-trays", seats=[1, 2])
    finish_by_the_rules(table, [1, 2])
    export = client.get("/api/export").get_json()
    assert error(client.post(END, headers=referee))[:2] == (409, "illegal-action")
    game = client.get("/api/status").get_json()["game"]
    assert (game["over"], game["ended"]) == (True, False)
    assert client.get("/api/export").get_json() == export and export["ended"] is False


def test_every_action_after_the_end_is_refused_in_words(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    seats = start(seats=[1, 2, 3])
    views = {s: client.get("/api/view", headers=h).get_json() for s, h in seats.items()}
    offered = [(s, a) for s, v in views.items() for a in v["legal_actions"]]
    assert offered
    client.post(END, headers=referee)
    for seat, action in offered:
        response = client.post("/api/actions", json=action, headers=seats[seat])
        assert error(response) == (409, "illegal-action", "The referee ended this game.")
    view = client.get("/api/view", headers=seats[1]).get_json()
    assert view["legal_actions"] == []


def test_after_the_end_a_new_game_starts_without_replace(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    start()
    client.post(END, headers=referee)
    response = client.post("/api/games", json={"game": "ice-trays"}, headers=referee)
    assert response.status_code == 201
    assert client.get("/api/status").get_json()["game"]["ended"] is False


def test_companion_verify_passes_the_export_of_an_ended_game(
    client: FlaskClient,
    referee: dict[str, str],
    start: Start,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seats = start(seats=[1, 2, 3])
    some_moves(client, seats, 5)
    client.post(END, headers=referee)
    path = tmp_path / "ended.json"
    path.write_text(json.dumps(client.get("/api/export").get_json()), encoding="utf-8")
    code, out, err = run(["verify", str(path)], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    n = len(client.get("/api/export").get_json()["log"])
    assert n >= 1
    assert f"ok: ended by the referee after {n} action{'s' if n > 1 else ''}" in lines
    assert lines[-1] == f"verified: {path} is an honest game"
