"""Hypothesis properties of Cool am Pool: over any sequence of legal actions the invariants hold
(towels, bathers and chips conserved, never more than four chips), every listed action is legal,
anything else is refused with a sentence, a replay equals the live game, and the results give
each seat the points its running score shows."""

from __future__ import annotations

from gameplay import (
    PROPERTIES,
    Played,
    assert_exactly_the_listed_actions_are_legal,
    assert_invariants_hold,
    assert_replay_equals_live,
    first_seat_option,
    played_games,
)
from hypothesis import given
from hypothesis import strategies as st

from companion.games.cool_am_pool import GAME as cool_am_pool
from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.engine import is_legal
from companion.games.cool_am_pool.state import OVER

games = played_games(cool_am_pool, options=first_seat_option, max_actions=400)


@PROPERTIES
@given(games)
def test_invariants_hold_after_every_action(game: Played) -> None:
    assert_invariants_hold(cool_am_pool, game)


@PROPERTIES
@given(games)
def test_a_replay_of_the_log_equals_the_live_game(game: Played) -> None:
    assert_replay_equals_live(cool_am_pool, game)


@PROPERTIES
@given(games, st.data())
def test_exactly_the_listed_actions_are_legal(game: Played, data: st.DataObject) -> None:
    state = game.states[-1]
    seats = [s.seat for s in state.seats]
    by = st.sampled_from([*seats, 9])
    lounger = st.integers(-1, len(state.loungers))
    dice = st.lists(st.integers(-1, 6), max_size=6).map(tuple)
    candidates = [
        m.PlaceTowel(data.draw(by), data.draw(lounger)),
        m.Roll(data.draw(by)),
        m.SpendChip(data.draw(by)),
        m.SetAside(data.draw(by), data.draw(dice)),
        m.SetAside(state.turn_seat, data.draw(dice)),
        m.Stop(data.draw(by)),
        m.Occupy(data.draw(by), data.draw(lounger)),
        m.Occupy(state.turn_seat, data.draw(lounger)),
    ]
    assert_exactly_the_listed_actions_are_legal(cool_am_pool, is_legal, state, candidates)


@PROPERTIES
@given(games)
def test_the_results_give_each_seat_the_points_and_parts_its_running_score_shows(
    game: Played,
) -> None:
    """Were the game over now, each seat's points and where they come from are what its score
    on the pages shows, and its points add up from their parts."""
    state = game.states[-1]
    shown = {s["seat"]: s for s in cool_am_pool.view(state, "public")["seats"]}
    result = cool_am_pool.outcome(state.evolve(phase=OVER))
    assert result is not None and result.scores is not None
    assert {p.seat for p in result.ranking} == set(shown)
    for place in result.ranking:
        seat = shown[place.seat]
        assert place.points == seat["points_now"] == result.scores[place.seat]
        assert place.points == sum(part.points or 0 for part in place.parts)
        assert [part.to_json() for part in place.parts] == seat["points_from"]
