"""Cool am Pool under self-play: games finish without a broken invariant, every way of taking a
lounger happens, the narration reads as sentences, and exports verify (and tampering is caught)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from companion.games import GAMES
from companion.games.cool_am_pool import GAME as engine
from companion.games.cool_am_pool import messages as m
from companion.games.selfplay import play_one, selfplay
from companion.games.verify import verify

NAME = "cool-am-pool"


@pytest.fixture(scope="module")
def played() -> list[Any]:
    return [play_one(NAME, seed=11, number=i) for i in range(12)]


def test_the_game_is_registered_with_the_engine_protocol() -> None:
    assert GAMES[NAME] is engine
    assert engine.TITLE == "Cool am Pool"
    assert (engine.SEATS.start, engine.SEATS.stop) == (2, 5)
    for member in (
        "ACTIONS",
        "new_game",
        "legal_actions",
        "apply",
        "view",
        "outcome",
        "options_from_json",
        "options_to_json",
        "invariants",
        "random_action",
        "narrate",
    ):
        assert hasattr(engine, member), member


def test_thirty_self_played_games_finish_without_a_broken_invariant() -> None:
    report = selfplay(NAME, games=30, seed=1)
    assert report["finished"] == 30
    assert report["invariant_violations"] == 0, report["violation_examples"]
    assert report["endings"] == {"points": 30}


@pytest.mark.parametrize("seats", [2, 3])
def test_fewer_seats_play_to_the_end_too(seats: int) -> None:
    report = selfplay(NAME, games=5, seed=2, seats=seats)
    assert report["finished"] == 5 and report["invariant_violations"] == 0


def test_self_play_takes_loungers_every_way_and_uses_the_chips(played: list[Any]) -> None:
    events = [e for game in played for _, evs in game.record.log for e in evs]
    ways = Counter(e.how for e in events if isinstance(e, m.LoungerTaken))
    assert set(ways) == {"own", "foreign", "reconquer", "conquer", "five-point"}, ways
    assert any(isinstance(e, m.ChipSpent) for e in events)
    assert any(isinstance(e, m.ChipsTaken) and e.got < 2 for e in events)  # the cap
    assert any(isinstance(e, m.NoLounger) for e in events)
    assert any(isinstance(e, m.LastRound) for e in events)


def test_a_narrated_game_reads_as_sentences(played: list[Any]) -> None:
    record = played[0].record
    state = record.state
    said = engine.narrate(record.setup, state)
    for _, events in record.log:
        said += engine.narrate(events, state)
    lines = [line.en for line in said]
    assert lines[0].startswith("Each player lays 6 towels")
    assert lines[-1].startswith("The game is over. Points: Seat 1 ")
    assert all(line[-1] in ".!" and "None" not in line for line in lines)
    assert any("water ball" in line for line in lines)
    assert any("The lifeguard walks" in line for line in lines)


def test_a_finished_game_exports_and_verifies(played: list[Any]) -> None:
    export = played[0].record.export()
    verdict = verify(copy.deepcopy(export))
    assert verdict.ok, verdict.mismatch
    rolls = sum(1 for entry in export["log"] for e in entry["events"] if e["type"] == "rolled")
    assert f"0 shuffles, {rolls} rolls and 0 draws match the seed" in verdict.lines


def test_a_changed_face_in_a_roll_is_caught(played: list[Any]) -> None:
    export = copy.deepcopy(played[0].record.export())
    number, entry = next(
        (i, entry)
        for i, entry in enumerate(export["log"], start=1)
        if entry["events"] and entry["events"][0]["type"] == "rolled"
    )
    rolled = entry["events"][0]
    rolled["faces"][0] = "red" if rolled["faces"][0] != "red" else "blue"
    verdict = verify(export)
    assert not verdict.ok
    assert verdict.mismatch is not None
    assert verdict.mismatch.startswith(f"action {number} (pool-roll by ")
    assert "event 1 (a roll): faces[0]" in verdict.mismatch


def test_a_changed_set_aside_is_caught(played: list[Any]) -> None:
    export = copy.deepcopy(played[0].record.export())
    entry = next(
        e for e in export["log"] if e["action"]["type"] == "pool-set-aside" and e["action"]["dice"]
    )
    entry["action"]["dice"] = [99]
    verdict = verify(export)
    assert verdict.mismatch is not None and "There is no die 99." in verdict.mismatch
