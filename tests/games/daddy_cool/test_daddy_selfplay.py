"""Daddy Cool under self-play and ``companion verify``: random players finish every game without
breaking an invariant, an export verifies, and a changed die face is caught."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from typing import Any

import pytest

from companion.games import GAMES
from companion.games.daddy_cool import GAME as engine
from companion.games.selfplay import play_one, selfplay
from companion.games.verify import verify

Export = dict[str, Any]


@cache
def _export_text(seed: int) -> str:
    played = play_one("daddy-cool", seed, 0)
    assert played.violations == []
    return json.dumps(played.record.export())


def export(seed: int = 1) -> Export:
    return json.loads(_export_text(seed))


def test_daddy_cool_is_registered_with_every_member_of_the_engine_protocol() -> None:
    assert GAMES["daddy-cool"] is engine
    for field in dataclasses.fields(engine):
        assert getattr(engine, field.name) is not None
    assert list(engine.SEATS) == [2, 3, 4, 5, 6]


def test_thirty_self_played_games_all_finish_without_a_violation() -> None:
    report = selfplay("daddy-cool", games=30, seed=1)
    assert report["finished"] == 30
    assert report["invariant_violations"] == 0, report["violation_examples"]
    assert report["endings"] == {"tub": 30}
    assert sum(report["wins_by_seat"].values()) == 30 and report["ties"] == 0


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_games_for_the_youngest_players_finish_too(seats: int) -> None:
    from companion.games.seats import default_seats

    for number in range(5):
        played = play_one(
            "daddy-cool", 2, number, default_seats(seats), options={"lengthen_path": False}
        )
        assert played.violations == []
        assert engine.outcome(played.record.state) is not None
        assert played.record.state.box == ()


def test_the_same_seed_plays_the_same_games() -> None:
    assert selfplay("daddy-cool", games=5, seed=9) == selfplay("daddy-cool", games=5, seed=9)


def test_self_play_makes_the_path_longer_now_and_then() -> None:
    boxes = [len(play_one("daddy-cool", 3, n).record.state.box) for n in range(10)]
    assert any(boxes)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_game_export_verifies(seed: int) -> None:
    verdict = verify(export(seed))
    assert verdict.ok, verdict.mismatch
    assert any("rolls" in line for line in verdict.lines)
    assert "won (tub)" in verdict.lines[-1]


def test_a_changed_die_face_is_caught() -> None:
    data = export()
    i, j = next(
        (i, j)
        for i, entry in enumerate(data["log"])
        for j, event in enumerate(entry["events"])
        if event["type"] == "rolled"
    )
    faces = data["log"][i]["events"][j]["faces"]
    faces[0] = "blank" if faces[0] == "floe" else "floe"
    verdict = verify(data)
    assert not verdict.ok
    assert verdict.mismatch is not None
    assert verdict.mismatch.startswith(f"action {i + 1} (daddy-roll by ")
    assert "a roll" in verdict.mismatch and "faces[0]" in verdict.mismatch


def test_a_changed_path_in_the_options_is_caught() -> None:
    data = export()
    data["options"]["path"] = ". . . T"
    assert not verify(data).ok


def test_a_stop_turned_into_a_roll_is_caught() -> None:
    data = export()
    i = next(i for i, e in enumerate(data["log"]) if e["action"]["type"] == "daddy-stop")
    data["log"][i]["action"]["type"] = "daddy-roll"
    assert not verify(data).ok


def test_every_event_of_a_narrated_game_is_told_in_words() -> None:
    from companion.games.seats import SeatInfo

    seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
    told: list[str] = []
    played = play_one(
        "daddy-cool",
        3,
        0,
        seats,
        on_events=lambda ev, st: told.extend(s.en for s in engine.narrate(ev, st)),
    )
    winner = played.record.state.winner
    assert told[0].startswith("The path is laid: 15 ice floes")
    assert told[-1].endswith(f"{'Karen' if winner == 1 else 'Tom'} wins!")
    assert all(line.strip() and line[0].isupper() for line in told)
    assert any("rolls 6 dice" in line for line in told)
