"""The typed outcome of a game, and its JSON: exactly what exports and the status carry."""

from __future__ import annotations

import json

import pytest
from gameplay import PROPERTIES
from hypothesis import given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.outcome import Outcome, Part, Place, TieBreak, as_json
from companion.games.selfplay import play_one

RANKED = ["cool-am-pool", "daddy-cool", "ice-trays"]
"""The games whose outcome ranks every seat: the dice games."""


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


def test_a_ranking_goes_place_by_place_with_its_parts_and_tie_breaks() -> None:
    ranking = (Place(1, 2, 9, (Part("cubes", 5, 5, 1), Part("blueberries", 2, 4, 2))),)
    tie = TieBreak("cubes", 9, {3: 4, 2: 5})
    assert Outcome(2, "points", {2: 9}, ranking=ranking, tie_breaks=(tie,)).to_json() == {
        "winner": 2,
        "how": "points",
        "scores": {"2": 9},
        "ranking": [
            {
                "place": 1,
                "seat": 2,
                "points": 9,
                "parts": [
                    {"what": "cubes", "count": 5, "points": 5, "each": 1},
                    {"what": "blueberries", "count": 2, "points": 4, "each": 2},
                ],
            }
        ],
        "tie_breaks": [{"by": "cubes", "points": 9, "counts": {"2": 5, "3": 4}}],
    }
    assert Place(1, 1, None, (Part("to-tub", 0),)).to_json()["parts"] == [
        {"what": "to-tub", "count": 0}
    ]


@PROPERTIES
@given(st.sampled_from(RANKED), st.integers(0, 2**16))
def test_every_seat_is_ranked_once_the_winner_alone_first_and_a_tie_names_its_seats(
    name: str, seed: int
) -> None:
    result = play_one(name, seed=seed).record.outcome
    assert result is not None and result.scores is not None
    ranking = result.ranking
    assert sorted(p.seat for p in ranking) == sorted(result.scores)
    assert [p.place for p in ranking] == sorted(p.place for p in ranking)
    first = [p.seat for p in ranking if p.place == 1]
    assert first == [result.winner] if result.winner is not None else len(first) > 1
    for tie in result.tie_breaks:
        level = {p.seat for p in ranking if p.points == tie.points}
        assert set(tie.counts) == level and len(level) > 1
    points = [p.points for p in ranking if p.points is not None]
    assert points == sorted(points, reverse=True)
