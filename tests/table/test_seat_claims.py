"""One-time seat claims: a seat's link is taken once, the referee never holds a seat's token,
a new code signs the old phone out, and all of it survives a restart."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest
from tabletime import fast_table

from companion.errors import BadMessage
from companion.games.messages import REFEREE
from companion.table.seat_keys import ClaimUsed, UnknownClaim
from companion.table.service import TableService
from companion.table.session import NoGame
from companion.table.tokens import Forbidden, Unauthorized


def joined(table: TableService) -> list[int]:
    return [s["seat"] for s in table.status()["seats"] if s["joined"]]


def test_a_claim_gives_its_seat_a_token_once(table: TableService) -> None:
    started = table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    claims = started["seat_claims"]
    assert sorted(claims) == ["1", "2"] and "seat_tokens" not in started
    assert joined(table) == []
    first = table.claim({"claim": claims["2"]})
    assert first["seat"] == 2 and len(first["token"]) >= 22
    assert table.actor_of(first["token"]) == 2
    assert joined(table) == [2]
    with pytest.raises(ClaimUsed, match="ask the referee for a new code"):
        table.claim({"claim": claims["2"]})
    with pytest.raises(Unauthorized):
        table.actor_of(claims["1"])  # a claim is no token
    with pytest.raises(UnknownClaim):
        table.claim({"claim": "x" * 43})


def test_the_referee_sees_claims_never_a_token(table: TableService) -> None:
    started = table.start_game(REFEREE, {"game": "daddy-cool"})
    token = table.claim({"claim": started["seat_claims"]["1"]})["token"]
    links = table.seat_links(REFEREE)
    assert [(s["seat"], s["joined"], s["claim"] is None) for s in links][:2] == [
        (1, True, True),
        (2, False, False),
    ]
    seen = json.dumps([links, table.view(REFEREE), table.export(REFEREE), table.status()])
    assert token not in seen
    with pytest.raises(Forbidden):
        table.seat_links(1)


def test_a_new_code_signs_the_old_phone_out(table: TableService) -> None:
    started = table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    lost = table.claim({"claim": started["seat_claims"]["1"]})["token"]
    renewed = table.renew_claim(REFEREE, {"seat": 1})
    assert renewed["seat"] == 1 and not renewed["joined"] and renewed["claim"]
    with pytest.raises(Unauthorized):
        table.actor_of(lost)
    assert joined(table) == []
    with pytest.raises(ClaimUsed):
        table.claim({"claim": started["seat_claims"]["1"]})
    found = table.claim({"claim": renewed["claim"]})
    assert table.actor_of(found["token"]) == 1
    unused = table.renew_claim(REFEREE, {"seat": 2})["claim"]  # a photographed code
    table.renew_claim(REFEREE, {"seat": 2})
    with pytest.raises(ClaimUsed):
        table.claim({"claim": unused})


@pytest.mark.parametrize(
    "body",
    [None, [], {}, {"seat": 3}, {"seat": "1"}, {"seat": True}, {"seat": 1, "x": 1}],
)
def test_a_new_code_needs_a_seat_of_the_game(table: TableService, body: object) -> None:
    table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    with pytest.raises(BadMessage):
        table.renew_claim(REFEREE, body)


@pytest.mark.parametrize(
    "body", [None, "c", {}, {"claim": ""}, {"claim": 5}, {"claim": "c", "x": 1}]
)
def test_a_claim_must_be_a_text(table: TableService, body: object) -> None:
    table.start_game(REFEREE, {"game": "ice-trays"})
    with pytest.raises(BadMessage):
        table.claim(body)


def test_only_the_referee_gives_new_codes_and_none_without_a_game(table: TableService) -> None:
    with pytest.raises(NoGame):
        table.claim({"claim": "x" * 43})
    started = table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    token = table.claim({"claim": started["seat_claims"]["2"]})["token"]
    with pytest.raises(Forbidden):
        table.renew_claim(table.actor_of(token), {"seat": 1})


def claimed_at_once(table: TableService, claim: str, phones: int) -> list[object]:
    """What ``phones`` posting ``claim`` at the same moment were answered."""
    answers: list[object] = []
    barrier = threading.Barrier(phones)

    def post() -> None:
        barrier.wait()
        try:
            answers.append(table.claim({"claim": claim}))
        except ClaimUsed as exc:
            answers.append(exc)

    threads = [threading.Thread(target=post) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return answers


def test_a_claim_posted_twice_at_once_is_taken_once(table: TableService) -> None:
    """A double tap on a link, or a phone and a photograph of its code: one token, ever."""
    table.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    for _ in range(20):
        claim = table.renew_claim(REFEREE, {"seat": 1})["claim"]
        answers = claimed_at_once(table, claim, 4)
        tokens = [a["token"] for a in answers if isinstance(a, dict)]
        assert len(answers) == 4 and len(tokens) == 1, answers
        assert table.actor_of(tokens[0]) == 1


def test_claims_and_tokens_survive_a_restart(tmp_path: Path) -> None:
    first = fast_table(tmp_path)
    started = first.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    claims = started["seat_claims"]
    kept = first.claim({"claim": claims["1"]})["token"]
    signed_out = first.claim({"claim": claims["2"]})["token"]
    renewed = first.renew_claim(REFEREE, {"seat": 2})["claim"]
    first.close()
    again = fast_table(tmp_path)
    try:
        assert again.actor_of(kept) == 1
        with pytest.raises(Unauthorized):
            again.actor_of(signed_out)
        for used in (claims["1"], claims["2"]):
            with pytest.raises(ClaimUsed):
                again.claim({"claim": used})
        assert joined(again) == [1]
        assert again.claim({"claim": renewed})["seat"] == 2
        assert again.claim({"claim": claims["3"]})["seat"] == 3
        assert joined(again) == [1, 2, 3]
    finally:
        again.close()


def test_a_game_stored_before_claims_keeps_its_seats_tokens(tmp_path: Path) -> None:
    """A table updated in the middle of a game: its phones keep their seats."""
    first = fast_table(tmp_path)
    first.start_game(REFEREE, {"game": "ice-trays", "seats": [1, 2]})
    first.close()
    db = sqlite3.connect(tmp_path / "companion.db")
    db.execute("UPDATE games SET seat_tokens = ?", (json.dumps({"1": "a" * 43, "2": "b" * 43}),))
    db.execute("DROP TABLE seat_claims")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    again = fast_table(tmp_path)
    try:
        assert again.actor_of("a" * 43) == 1 and again.actor_of("b" * 43) == 2
        assert joined(again) == [1, 2]
        assert all(s["claim"] is None for s in again.seat_links(REFEREE))
        moved = again.renew_claim(REFEREE, {"seat": 2})["claim"]
        with pytest.raises(Unauthorized):
            again.actor_of("b" * 43)
        assert again.claim({"claim": moved})["seat"] == 2
    finally:
        again.close()
