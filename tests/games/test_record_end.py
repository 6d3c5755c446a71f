"""The referee's early end: a record that is ended is over, takes no action, reveals its seed,
and ``companion verify`` replays it and says so; a changed ``ended`` mark is named."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.errors import ExportError, IllegalAction
from companion.games.record import ENDED, GameRecord
from companion.games.seats import default_seats
from companion.games.selfplay import play_one
from companion.games.verify import verify

Export = dict[str, Any]


def started(actions: int, seed: int = 5) -> GameRecord:
    """A game of Cool Runnings for three, ``actions`` random legal actions in."""
    record = GameRecord.start("cool-runnings", {}, default_seats(3), bytes(range(32)))
    rnd = random.Random(seed)
    for _ in range(actions):
        record.act(record.engine.random_action(record.state, rnd))
    assert not record.over
    return record


def ended_export(actions: int = 12) -> Export:
    record = started(actions)
    record.end()
    return record.export()


def mismatch_of(data: Export) -> str:
    verdict = verify(data)
    assert not verdict.ok, f"verify accepted a tampered export: {verdict.lines}"
    assert verdict.mismatch is not None
    return verdict.mismatch


def finished_export() -> Export:
    return play_one("cool-runnings", 1, 0).record.export()


def test_an_ended_game_is_over_without_an_outcome() -> None:
    record = started(12)
    assert not record.ended
    record.end()
    assert record.ended and record.over
    assert record.outcome is None and record.outcome_json() is None


def test_an_ended_game_takes_no_more_actions() -> None:
    record = started(12)
    legal = record.engine.random_action(record.state, random.Random(1))
    record.end()
    with pytest.raises(IllegalAction, match=ENDED.en):
        record.act(legal)
    assert len(record.log) == 12


def test_a_game_is_ended_once_and_never_after_its_rules_ended_it() -> None:
    record = started(3)
    record.end()
    with pytest.raises(IllegalAction, match="the game is already over"):
        record.end()
    finished = play_one("cool-runnings", 1, 0).record
    assert finished.over
    with pytest.raises(IllegalAction, match="the game is already over"):
        finished.end()
    assert not finished.ended


def test_the_export_of_an_ended_game_reveals_the_seed_and_every_event() -> None:
    record = started(12)
    assert record.export()["ended"] is False
    record.end()
    data = record.export()
    assert data["ended"] is True and data["outcome"] is None
    assert data["seed"] == {"device": bytes(range(32)).hex(), "players": []}
    assert data["setup"] and all("events" in entry for entry in data["log"])
    assert len(data["log"]) == 12


def test_a_finished_export_says_it_was_not_ended() -> None:
    assert finished_export()["ended"] is False


@pytest.mark.parametrize("actions", [0, 1, 12, 40])
def test_an_ended_export_verifies_and_says_when_the_referee_ended_it(actions: int) -> None:
    verdict = verify(ended_export(actions))
    assert verdict.ok, verdict.mismatch
    assert verdict.lines[0].startswith("commitment ")
    noun = "action" if actions == 1 else "actions"
    assert verdict.lines[2] == f"{actions} {noun} replayed, each one legal when it was taken"
    assert verdict.lines[-1] == f"ended by the referee after {actions} {noun}"
    assert not any(line.startswith("outcome") for line in verdict.lines)


def test_a_swapped_shuffle_in_an_ended_export_is_still_caught() -> None:
    data = ended_export()
    j = next(j for j, event in enumerate(data["setup"]) if event["type"] == "shuffled")
    cards = data["setup"][j]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    assert mismatch_of(data).startswith(f"setup, event {j + 1} (a shuffle): cards[0] is ")


def test_a_changed_action_in_an_ended_export_is_still_caught() -> None:
    data = ended_export()
    data["log"][3]["action"] = {"type": "cheat", "by": 1}
    assert mismatch_of(data) == 'action 4 (cheat by 1): unknown message type "cheat"'


def test_a_changed_seed_in_an_ended_export_is_still_caught() -> None:
    data = ended_export()
    data["seed"]["players"] = ["karen"]
    assert mismatch_of(data).startswith("seed: sha256 of the seed is ")


@pytest.mark.parametrize("mark", [False, None])
def test_taking_the_ended_mark_away_is_caught(mark: bool | None) -> None:
    data = ended_export()
    if mark is None:
        del data["ended"]
    else:
        data["ended"] = mark
    assert mismatch_of(data).startswith("ended: the game is not over and the referee did not")


def test_a_finished_game_passed_off_as_ended_is_caught_by_the_replay() -> None:
    data = finished_export()
    winner = data["outcome"]["winner"]
    data["ended"], data["outcome"] = True, None
    mismatch = mismatch_of(data)
    assert mismatch.startswith("outcome: the export says the referee ended the game, ")
    assert f"the replay says Seat {winner} won" in mismatch


def test_an_export_both_ended_and_won_is_caught() -> None:
    data = finished_export()
    data["ended"] = True
    assert mismatch_of(data).startswith("ended: the export says the referee ended the game, yet")


def test_an_ended_mark_that_is_not_true_or_false_is_not_an_export() -> None:
    data = ended_export()
    data["ended"] = "yes"
    with pytest.raises(ExportError, match="'ended' must be true or false"):
        verify(data)


def test_an_ended_export_without_its_seed_cannot_be_checked() -> None:
    data = ended_export()
    data["seed"] = None
    with pytest.raises(ExportError, match="the export has no seed"):
        verify(data)
