"""The table answers a page in the page's language: an engine's refusal, an option the referee
got wrong, a made-up token, an action offered before the game moved on; and the status tells
what happened in both languages, a take-back among it."""

from __future__ import annotations

from typing import Any

import pytest
from apicheck import Start
from flask.testing import FlaskClient

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def message(response: Any) -> str:
    return str(response.get_json()["error"]["message"])


def not_on_turn(client: FlaskClient, tokens: dict[int, dict[str, str]]) -> tuple[int, Any]:
    """A seat whose turn it is not, with the action of the seat whose turn it is, as its own."""
    turn = client.get("/api/status").get_json()["game"]["turn_seat"]
    other = next(s for s in tokens if s != turn)
    action = client.get("/api/view", headers=tokens[turn]).get_json()["legal_actions"][0]
    return other, {**action, "by": other}


@pytest.mark.parametrize("game", ["cool-runnings", "daddy-cool", "ice-trays", "cool-am-pool"])
def test_an_engine_s_refusal_comes_in_the_language_the_page_asks(
    client: FlaskClient, start: Start, game: str
) -> None:
    tokens = start(game)
    seat, action = not_on_turn(client, tokens)
    english = client.post("/api/actions", json=action, headers=tokens[seat])
    german = client.post("/api/actions", json=action, headers={**tokens[seat], **GERMAN})
    assert english.status_code == german.status_code == 409
    assert " not " in message(english)
    assert " nicht " in message(german) and message(german) != message(english), message(german)
    asked = client.post("/api/actions?lang=de", json=action, headers=tokens[seat])
    assert message(asked) == message(german)


def test_options_the_referee_got_wrong_are_told_in_german(
    client: FlaskClient, referee: dict[str, str]
) -> None:
    body = {"game": "cool-runnings", "options": {"parts": 3, "part_order": ["A", "B"]}}
    german = client.post("/api/games", json=body, headers={**referee, **GERMAN})
    assert german.status_code == 400
    assert message(german) == "Part_order nennt 2 Teile, aber parts ist 3."
    english = client.post("/api/games", json=body, headers=referee)
    assert message(english) == "Part_order names 2 parts but parts is 3."


def test_a_made_up_token_and_a_stale_tap_are_told_in_german(
    client: FlaskClient, start: Start, referee: dict[str, str]
) -> None:
    tokens = start("daddy-cool")
    made_up = client.get("/api/view", headers={"Authorization": "Bearer nobody", **GERMAN})
    assert made_up.status_code == 401
    assert message(made_up).startswith("Dieser Schlüssel gehört zu keinem Platz")
    turn = client.get("/api/status").get_json()["game"]["turn_seat"]
    roll = client.get("/api/view", headers=tokens[turn]).get_json()["legal_actions"][0]
    assert client.post("/api/actions", json=roll, headers=tokens[turn]).status_code == 200
    offer = client.get("/api/view", headers=referee).get_json()["take_back"]
    assert client.post("/api/actions", json=offer["action"], headers=referee).status_code == 200
    # the roll's tap again, from a phone that slept through the take-back
    answer = client.post("/api/actions", json=roll, headers={**tokens[turn], **GERMAN})
    assert answer.status_code == 409
    assert message(answer).startswith("Das Spiel ging weiter"), message(answer)


def test_the_status_tells_what_happened_and_what_the_referee_took_back(
    client: FlaskClient, start: Start, referee: dict[str, str]
) -> None:
    tokens = start("daddy-cool")
    told = client.get("/api/status").get_json()["game"]["told"]
    assert told and all(line["change"] == 0 for line in told)  # the set-up
    turn = client.get("/api/status").get_json()["game"]["turn_seat"]
    roll = client.get("/api/view", headers=tokens[turn]).get_json()["legal_actions"][0]
    client.post("/api/actions", json=roll, headers=tokens[turn])
    game = client.get("/api/status").get_json()["game"]
    rolled = [line for line in game["told"] if line["change"] == 1]
    assert rolled and rolled[0]["en"] != rolled[0]["de"]
    offer = client.get("/api/view", headers=referee).get_json()["take_back"]
    assert (offer["en"], offer["de"]) == (rolled[0]["en"], rolled[0]["de"])
    assert "take_back" not in client.get("/api/view", headers=tokens[turn]).get_json()
    taken = client.post("/api/actions", json=offer["action"], headers=referee)
    assert taken.status_code == 200, taken.get_json()
    game = client.get("/api/status").get_json()["game"]
    assert (game["actions"], game["changes"]) == (0, 2)
    assert game["told"][-1]["en"] == f"The referee took back: {rolled[0]['en']}"
    assert game["told"][-1]["de"] == f"Die Spielleitung nahm zurück: {rolled[0]['de']}"
    again = client.post("/api/actions", json=offer["action"], headers=referee)
    assert again.get_json() == taken.get_json()
    assert client.get("/api/status").get_json()["game"]["actions"] == 0
    log = client.get("/api/export", headers=referee).get_json()["log"]
    assert [entry["action"]["type"] for entry in log][-1] == "take-back"
