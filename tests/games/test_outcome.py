"""The typed outcome of a game, and its JSON: exactly what exports and the status carry."""

from __future__ import annotations

import json

import pytest

from companion.games import GAMES
from companion.games.outcome import Outcome, as_json
from companion.games.selfplay import play_one


def test_an_outcome_without_scores_is_the_winner_and_how() -> None:
    assert Outcome(2, "last-cube").to_json() == {"winner": 2, "how": "last-cube"}


def test_scores_and_tallies_go_seat_by_seat_with_seats_as_strings() -> None:
    outcome = Outcome(None, "points", {3: 7, 1: 13}, {"cubes": {3: 5, 1: 11}})
    assert json.dumps(outcome.to_json()) == (
        '{"winner": null, "how": "points", "scores": {"1": 13, "3": 7}, "cubes": {"1": 11, "3": 5}}'
    )


def test_a_tally_cannot_hide_the_winner_how_or_scores() -> None:
    with pytest.raises(ValueError, match="a tally cannot be named 'scores'"):
        Outcome(1, "points", tallies={"scores": {1: 1}})


def test_a_game_that_is_not_over_has_no_outcome_json() -> None:
    assert as_json(None) is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_record_gives_its_outcome_typed_and_as_the_export_carries_it(name: str) -> None:
    record = play_one(name, seed=2).record
    assert record.over and isinstance(record.outcome, Outcome)
    assert record.outcome_json() == record.outcome.to_json() == record.export()["outcome"]
    assert record.outcome_json() == json.loads(json.dumps(record.outcome_json()))
