"""The evening remembered: ``/api/history`` pages the finished games newest first, each with its
seats, winner, scores, times and export; ``/api/standings`` counts per player name (case and
spaces aside) the games played and won since a time, this evening by default; a finished game's
export is anyone's by its number, and ``/api/verify`` checks one as ``companion verify`` does."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from apicheck import Start, checked_app
from flask.testing import FlaskClient
from tabletime import WALL, HeldClock, held_table

from companion.games.verify import verify
from companion.table.history import PAGE_SIZE
from companion.table.service import TableService
from companion.web.app import MAX_BODY_BYTES, MAX_EXPORT_BYTES

TWO = [{"seat": 1, "name": "Jürgen", "colour": "blue"}, {"seat": 2, "name": "Mia"}]


def end_early(client: FlaskClient, referee: dict[str, str]) -> None:
    assert client.post("/api/games/end", headers=referee).status_code == 200


def play_out(
    client: FlaskClient, players: dict[Any, dict[str, str]], rnd: random.Random
) -> dict[str, Any]:
    """Post legal actions picked at random until the game is over; its status then."""
    for _ in range(3000):
        status = client.get("/api/status").get_json()
        if status["game"]["over"]:
            return dict(status["game"])
        offered = [
            (who, action)
            for who, headers in players.items()
            for action in client.get("/api/view", headers=headers).get_json()["legal_actions"]
        ]
        who, action = rnd.choice(offered)
        client.post("/api/actions", json=action, headers=players[who])
    raise AssertionError("the game does not end")


def won_game(start: Start, client: FlaskClient, seats: list[Any], seed: int) -> dict[str, Any]:
    """A game of Daddy Cool played to its end by ``seats``; its status then."""
    return play_out(client, start("daddy-cool", seats=seats), random.Random(seed))


def history(client: FlaskClient, page: int | None = None) -> dict[str, Any]:
    response = client.get("/api/history" + ("" if page is None else f"?page={page}"))
    assert response.status_code == 200
    return dict(response.get_json())


def test_an_empty_history_is_no_games_and_nobody_in_the_standings(client: FlaskClient) -> None:
    assert history(client) == {"page": 1, "per_page": PAGE_SIZE, "next": None, "games": []}
    assert history(client, 3)["games"] == []
    assert client.get("/api/standings").get_json() == {"since": None, "counted": 0, "players": []}


def test_a_game_being_played_is_not_history_and_its_export_stays_the_referees(
    client: FlaskClient, start: Start
) -> None:
    start("ice-trays", seats=TWO)
    assert history(client)["games"] == []
    assert client.get("/api/standings").get_json()["players"] == []
    refused = client.get("/api/export?game=1")
    assert refused.status_code == 404
    assert refused.get_json()["error"]["code"] == "unknown-game"
    assert "seed" not in refused.get_data(as_text=True)


def test_the_history_pages_the_finished_games_newest_first(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    for n in range(PAGE_SIZE + 3):
        start("ice-trays", seats=[{"seat": 1, "name": f"Player {n}"}, 2], replace=True)
        end_early(client, referee)
    start("ice-trays", seats=TWO, replace=True)  # being played: not history yet
    first, second = history(client), history(client, 2)
    assert first["next"] == 2 and second["next"] is None
    assert len(first["games"]) == PAGE_SIZE and len(second["games"]) == 3
    ids = [game["id"] for game in first["games"] + second["games"]]
    assert ids == sorted(ids, reverse=True) == list(range(PAGE_SIZE + 3, 0, -1))
    assert first["games"][0]["seats"][0]["name"] == f"Player {PAGE_SIZE + 2}"
    assert history(client, 3)["games"] == []


def test_a_game_won_by_its_rules_tells_its_seats_winner_scores_times_and_export(
    client: FlaskClient, table: TableService, start: Start
) -> None:
    over = won_game(start, client, TWO, seed=1)
    [game] = history(client)["games"]
    outcome = over["outcome"]
    assert game["game"] == "daddy-cool" and game["id"] == 1
    assert game["seats"] == [
        {"seat": 1, "name": "Jürgen", "colour": "blue"},
        {"seat": 2, "name": "Mia", "colour": "yellow"},
    ]
    assert (game["winner"], game["how"], game["scores"]) == (
        outcome["winner"],
        outcome["how"],
        outcome["scores"],
    )
    assert game["actions"] == over["actions"] > 0 and game["ended_early"] is False
    assert 0 < game["started_at"] <= game["ended_at"] <= table.clock.wall()
    assert game["minutes"] == round((game["ended_at"] - game["started_at"]) / 60, 1)
    export = client.get(game["export"])  # no token: a finished game's export is anyone's
    assert export.status_code == 200
    assert export.get_json() == client.get("/api/export").get_json()
    assert verify(export.get_json()).ok


def test_a_game_the_referee_ended_has_no_winner_and_says_it_was_ended_early(
    client: FlaskClient, referee: dict[str, str], start: Start
) -> None:
    start("cool-am-pool", seats=TWO)
    end_early(client, referee)
    [game] = history(client)["games"]
    assert (game["winner"], game["how"], game["scores"], game["ended_early"]) == (
        None,
        None,
        None,
        True,
    )
    assert game["actions"] == 0
    export = client.get(game["export"]).get_json()
    assert export["ended"] is True and export["seed"] is not None


def test_a_game_replaced_before_its_end_is_no_history_and_keeps_its_seed(
    client: FlaskClient, start: Start
) -> None:
    start("ice-trays", seats=TWO)
    start("ice-trays", seats=TWO, replace=True)
    assert history(client)["games"] == []
    assert client.get("/api/export?game=1").status_code == 404
    assert client.get("/api/export?game=99").status_code == 404


def test_standings_know_a_player_by_name_whatever_its_case_and_spaces(
    client: FlaskClient, start: Start
) -> None:
    spellings = [("Oma", "Mia"), (" oma ", "MIA"), ("O ma", "mia ")]
    winners = []
    for n, (oma, mia) in enumerate(spellings):
        over = won_game(start, client, [{"seat": 1, "name": oma}, {"seat": 2, "name": mia}], n)
        winners.append(over["outcome"]["winner"])
    standings = client.get("/api/standings").get_json()
    assert standings["counted"] == 3
    names = {player["name"]: player for player in standings["players"]}
    assert set(names) == {"O ma", "mia"}, "each under the name typed last (trimmed)"
    oma, mia = names["O ma"], names["mia"]
    assert (oma["played"], mia["played"]) == (3, 3)
    assert (oma["won"], mia["won"]) == (winners.count(1), winners.count(2))
    assert oma["games"] == {"daddy-cool": {"played": 3, "won": winners.count(1)}}
    assert [p["won"] for p in standings["players"]] == sorted([oma["won"], mia["won"]])[::-1]


@pytest.fixture
def clock() -> HeldClock:
    return HeldClock()


@pytest.fixture
def evening(tmp_path: Path, clock: HeldClock) -> Iterator[TableService]:
    """A table whose wall clock the test sets."""
    table = held_table(tmp_path, clock)
    yield table
    table.close()


def test_standings_count_this_evening_unless_told_since_when(
    evening: TableService, clock: HeldClock
) -> None:
    client = checked_app(evening).test_client()
    referee = {"Authorization": f"Bearer {evening.referee_token}"}

    def game(first: str) -> None:
        seats = [{"seat": 1, "name": first}, {"seat": 2, "name": "Mia"}]
        body = {"game": "ice-trays", "seats": seats, "replace": True}
        assert client.post("/api/games", json=body, headers=referee).status_code == 201
        end_early(client, referee)

    game("Opa")  # last night
    clock.step_wall(20 * 3600)
    game("Oma")
    clock.step_wall(2 * 3600)
    game("Jürgen")
    tonight = client.get("/api/standings").get_json()
    assert {p["name"] for p in tonight["players"]} == {"Oma", "Jürgen", "Mia"}
    assert tonight["since"] == pytest.approx(WALL + 22 * 3600 - 6 * 3600)
    assert tonight["counted"] == 2
    since = client.get(f"/api/standings?since={WALL - 1:.0f}").get_json()
    assert {p["name"] for p in since["players"]} == {"Opa", "Oma", "Jürgen", "Mia"}
    assert next(p for p in since["players"] if p["name"] == "Mia")["played"] == 3
    iso = client.get("/api/standings?since=2100-01-01T00:00:00Z").get_json()
    assert iso["players"] == [] and iso["since"] == 4102444800.0


@pytest.mark.parametrize(
    "path",
    [
        "/api/history?page=0",
        "/api/history?page=-1",
        "/api/history?page=two",
        "/api/history?page=1.5",
        "/api/history?page=",
        "/api/history?page=10001",
        "/api/history?page=99999999999999999999999",
        "/api/standings?since=yesterday",
        "/api/standings?since=nan",
        "/api/standings?since=inf",
        "/api/standings?since=",
        "/api/standings?since=1e400",
        "/api/export?game=first",
        "/api/export?game=0",
    ],
)
def test_a_bad_page_time_or_game_number_is_refused_in_words(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers={"Accept-Language": "de"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad-message"
    assert error["message"].startswith("?") and "ist" in error["message"]


def finished_export(client: FlaskClient, start: Start) -> dict[str, Any]:
    won_game(start, client, TWO, seed=2)
    return dict(client.get("/api/export?game=1").get_json())


def test_an_export_checked_by_the_table_says_its_verdict_in_the_pages_language(
    client: FlaskClient, start: Start
) -> None:
    export = finished_export(client, start)
    english = client.post("/api/verify", json=export).get_json()
    assert english["ok"] is True and english["mismatch"] is None
    assert english["lines"] == verify(export).lines
    assert english["lines"][0].startswith("commitment ")
    german = client.post("/api/verify?lang=de", json=export).get_json()
    assert german["ok"] is True and german["lines"][0].startswith("Fingerabdruck ")
    tampered = copy.deepcopy(export)
    tampered["seed"]["players"] = ["a word of my own"]
    wrong = client.post("/api/verify", json=tampered, headers={"Accept-Language": "de"})
    assert wrong.status_code == 200
    verdict = wrong.get_json()
    assert verdict["ok"] is False and verdict["mismatch"].startswith("Startwert: SHA-256")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"format": "companion-game", "version": 1},
        {"format": "companion-game", "version": 1, "seed": None, "outcome": None},
    ],
)
def test_a_body_that_is_no_finished_games_export_is_refused(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    response = client.post("/api/verify", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "not-an-export"


def test_a_long_games_export_is_checked_but_no_body_beyond_the_exports_limit(
    client: FlaskClient, start: Start
) -> None:
    export = finished_export(client, start)
    padded = {**export, "options": {**export["options"], "pad": "x" * MAX_BODY_BYTES}}
    answer = client.post("/api/verify", json=padded)
    assert answer.status_code == 200, "a body over the API's own limit is an export's size"
    assert answer.get_json()["ok"] is False  # the options are not the game's any more
    text = json.dumps({**export, "pad": "x" * MAX_EXPORT_BYTES})
    too_long = client.post("/api/verify", data=text, content_type="application/json")
    assert too_long.status_code == 413
    elsewhere = client.post("/api/claim", json={"claim": "x" * MAX_BODY_BYTES})
    assert elsewhere.status_code == 413, "every other body keeps the API's own limit"
