"""Who may see and do what: a seat sees only its own hand and acts only as itself, the referee's
actions need the referee's token, a token travels only in the Authorization header, and the
public status and stream never carry a hand, the draw order, a seed or a token.

Then the same through every endpoint the OpenAPI document lists, and the browser's boundaries:
tokens of 256 random bits compared in constant time against every holder, no CORS header for
any origin, bodies over the limit refused on every POST, static files never from outside their
folder; and the systemd unit's exposure as the README and SECURITY.md give it."""

from __future__ import annotations

import hmac
import io
import json
import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from apicheck import Start, bearer
from flask.testing import FlaskClient
from secrecy import assert_public, cards_in, walk

from companion.table.service import TableService
from companion.web.app import MAX_BODY_BYTES, MAX_EXPORT_BYTES
from companion.web.openapi import document


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


def test_a_made_up_token_is_told_to_scan_its_code_not_that_it_is_old(
    client: FlaskClient, start: Start
) -> None:
    start()
    answer = client.get("/api/view", headers={"Authorization": "Bearer made-up"})
    message = answer.get_json()["error"]["message"]
    assert answer.status_code == 401 and "scan your seat's code" in message
    assert "earlier" not in message and "current game" not in message


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


# -- every endpoint the document lists ------------------------------------------------------

GETS = [path for path, item in document()["paths"].items() if "get" in item]
POSTS = [path for path, item in document()["paths"].items() if "post" in item]
EVIL = "http://evil.example"


def secrets_of(table: TableService) -> tuple[dict[int, set[int]], list[int]]:
    """The truth the answers are checked against: each seat's hand, and the draw pile's order."""
    deck = table.session.require().record.state.deck
    hands = {seat: set(deck.pile(f"hand:{seat}")) for seat in range(1, 5)}
    return hands, list(deck.pile("draw"))


def answers_to(client: FlaskClient, headers: dict[str, str]) -> Iterator[tuple[str, Any]]:
    """What every GET of the document answers to these headers: JSON, a page's text, or the
    stream's first event."""
    for path in GETS:
        if path == "/api/stream":
            stream = client.get(path, headers=headers, buffered=False)
            first = next(iter(stream.response)).decode()
            stream.close()
            yield path, json.loads(first.split("data: ", 1)[1])
            continue
        response = client.get(path, headers=headers)
        if response.mimetype == "application/json":
            yield path, response.get_json()
        else:
            yield path, response.get_data(as_text=True)


def test_no_endpoint_shows_a_seat_another_seats_hand_or_the_draw_order(
    client: FlaskClient, referee: dict[str, str], start: Start, table: TableService
) -> None:
    seats = start()
    players = {**seats, "referee": referee}
    rnd = random.Random(11)
    for _ in range(5):  # none melted: the game goes on, and its export stays the referee's
        hands, draw = secrets_of(table)
        for who, headers in [*seats.items(), ("public", {}), ("referee", referee)]:
            for path, answer in answers_to(client, headers):
                where = f"{path} as {who}"
                others = set().union(*(h for seat, h in hands.items() if seat != who))
                assert not cards_in(answer) & others, f"another seat's card in {where}"
                assert not cards_in(answer) & set(draw), f"a card of the draw pile in {where}"
                hands_shown = [v for k, v in walk(answer) if k == "hand" and isinstance(v, list)]
                assert len(hands_shown) <= (1 if isinstance(who, int) else 0), where
                text = answer if isinstance(answer, str) else json.dumps(answer)
                assert json.dumps(draw[:8])[1:-1] not in text, f"the draw order in {where}"
        views = {w: view(client, h) for w, h in players.items()}
        offered = [
            (w, a) for w, v in views.items() for a in v["legal_actions"] if a["type"] != "melted"
        ]
        who, action = rnd.choice([(w, a) for w, a in offered if w != "referee"] or offered)
        answer = client.post("/api/actions", json=action, headers=players[who])
        assert answer.status_code == 200
        hands, draw = secrets_of(table)
        hidden = set(draw).union(*(h for seat, h in hands.items() if seat != who))
        assert not cards_in(answer.get_json()) & hidden, "an action's answer shows a secret"


def test_no_seat_can_take_any_action_of_another_seat(client: FlaskClient, start: Start) -> None:
    seats = start("cool-runnings", options={"first_seat": 2})
    for seat, headers in seats.items():
        for action in view(client, headers)["legal_actions"]:
            for other, theirs in seats.items():
                if other != seat:
                    response = client.post("/api/actions", json=action, headers=theirs)
                    assert response.status_code == 403, (seat, other, action)


@pytest.mark.parametrize("game", ["cool-runnings", "daddy-cool", "cool-am-pool", "ice-trays"])
def test_no_seat_can_do_anything_that_is_the_referees(
    client: FlaskClient, referee: dict[str, str], start: Start, game: str
) -> None:
    seats = start(game)
    referees = view(client, referee)["legal_actions"]
    for headers in seats.values():
        for action in referees:
            if action["by"] == "referee":
                assert client.post("/api/actions", json=action, headers=headers).status_code == 403
        assert client.get("/api/join", headers=headers).status_code == 403
        assert client.get("/api/export", headers=headers).status_code == 403
        assert client.post("/api/games/end", headers=headers).status_code == 403
        body = {"game": game, "replace": True}
        assert client.post("/api/games", json=body, headers=headers).status_code == 403
    assert client.get("/api/status").get_json()["game"]["over"] is False
    assert client.get("/api/view", headers=seats[1]).status_code == 200


TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def test_every_token_holds_at_least_128_random_bits(
    client: FlaskClient, table: TableService, start: Start
) -> None:
    tokens = [table.referee_token]
    for _ in range(5):
        tokens += [h["Authorization"].removeprefix("Bearer ") for h in start(replace=True).values()]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert TOKEN.fullmatch(token), "a token outside the URL-safe base64 alphabet"
        assert len(token) * 6 >= 128, f"{len(token)} characters of 6 bits: under 128 bits"
    assert {len(t) for t in tokens} == {43}  # 32 bytes from secrets, base64 without padding
    used = Counter("".join(tokens))
    assert len(used) > 60, "the tokens use only part of their alphabet"


def test_every_token_is_compared_in_constant_time_against_every_holder(
    client: FlaskClient, start: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = start()
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    for headers in [*seats.values(), bearer("x" * 43)]:
        compared.clear()
        client.get("/api/view", headers=headers)
        given = headers["Authorization"].removeprefix("Bearer ").encode()
        assert len(compared) == 1 + len(seats), "not every holder's token was compared"
        assert all(a == given for a, _ in compared)


@pytest.mark.parametrize("method", ["GET", "POST", "OPTIONS", "PUT", "DELETE"])
def test_no_answer_allows_another_origin(
    client: FlaskClient, referee: dict[str, str], start: Start, method: str
) -> None:
    start()
    preflight = {
        "Origin": EVIL,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    for path in [*document()["paths"], "/static/style.css", "/api/nothing"]:
        for headers in ({"Origin": EVIL}, {**referee, **preflight}, {"Origin": "null"}):
            response = client.open(path, method=method, headers=headers, buffered=False)
            assert "Access-Control-Allow-Origin" not in response.headers, (method, path)
            assert "Access-Control-Allow-Credentials" not in response.headers, (method, path)
            response.close()


@pytest.mark.parametrize("path", POSTS)
def test_a_body_over_the_limit_is_413_on_every_post(
    client: FlaskClient, referee: dict[str, str], start: Start, path: str
) -> None:
    seats = start()
    limit = MAX_EXPORT_BYTES if path == "/api/verify" else MAX_BODY_BYTES  # an export is long
    big = json.dumps({"game": "ice-trays", "pad": "x" * limit}).encode()
    for headers in (referee, seats[1]):
        sized = client.post(path, data=big, headers={**headers, "Content-Type": "application/json"})
        chunked = client.post(
            path,
            input_stream=io.BytesIO(big),
            headers={**headers, "Transfer-Encoding": "chunked"},
            environ_overrides={"wsgi.input_terminated": True},
        )
        for response in (sized, chunked):
            assert response.status_code == 413, (path, response.get_json())
            assert response.mimetype == "application/json"
            assert response.get_json()["error"]["code"] == "too-large"
    assert client.get("/api/view", headers=seats[1]).get_json()["game"] == "cool-runnings"


ESCAPES = [
    "/static/../app.py",
    "/static/../../pyproject.toml",
    "/static/js/../../app.py",
    "/static/./../app.py",
    "/static/%2e%2e/app.py",
    "/static/%2E%2E/%2E%2E/pyproject.toml",
    "/static/..%2fapp.py",
    "/static/..%2F..%2Fpyproject.toml",
    "/static/js%2f..%2f..%2fapp.py",
    "/static/%252e%252e/app.py",
    "/static/..%5capp.py",
    "/static/..\\app.py",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/%2Fetc/passwd",
    "/static/\\etc\\passwd",
    "/static/C:/Windows/win.ini",
    "/static/js/%00common.js",
    "/static/style.css%00.js",
    "/static/",
    "/static/js",
    "/static/js/",
    "/static/..",
    "/static/%2e%2e",
    "//etc/passwd",
    "/../companion/web/app.py",
    "/%2e%2e/companion/web/app.py",
]
OUTSIDE = (b"create_app", b"[project]", b"root:", b"[fonts]")


@pytest.mark.parametrize("path", ESCAPES)
def test_static_files_cannot_escape_their_folder(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    # a path that opens "//" names a host to the test client ("etc"): no name of the table
    expected = (404, 421) if path.startswith("//") else (404,)
    assert response.status_code in expected, (path, response.status_code)
    assert response.mimetype == "application/json"
    assert not [marker for marker in OUTSIDE if marker in response.get_data()]


# -- the service's own exposure -------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
EXPOSURE = re.compile(r"Overall exposure level for companion\.service: ([\d.]+)")


def test_the_units_exposure_is_the_figure_the_readme_and_security_md_give(tmp_path: Path) -> None:
    said = {
        name: re.search(r"exposure (?:level )?of ([\d.]+)", (ROOT / name).read_text("utf-8"))
        for name in ("README.md", "SECURITY.md")
    }
    assert all(said.values()), "README.md and SECURITY.md give the unit's exposure"
    figures = {match.group(1) for match in said.values() if match}
    assert len(figures) == 1, figures
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    unit = tmp_path / "companion.service"
    text = (ROOT / "systemd" / "companion.service").read_text(encoding="utf-8")
    unit.write_text(text.replace("/opt/companion/bin/companion", str(program)), encoding="utf-8")
    done = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = EXPOSURE.search(done.stdout)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline does not work here: {done.stderr[:200]}")
    assert found.group(1) == figures.pop()
