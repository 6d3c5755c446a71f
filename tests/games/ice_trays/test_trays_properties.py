"""Hypothesis properties of Ice Trays: over any sequence of legal actions the invariants hold
(24 cubes and 4 blueberries conserved, no tray over capacity, the end exactly when the board is
empty), every listed action is legal, anything else is refused with a sentence, a replay equals
the live game, and the results give each seat the points its running score shows."""

from __future__ import annotations

from gameplay import (
    ACTORS,
    PROPERTIES,
    Played,
    all_actions,
    assert_exactly_the_listed_actions_are_legal,
    assert_invariants_hold,
    assert_replay_equals_live,
    first_seat_option,
    played_games,
)
from hypothesis import given
from hypothesis import strategies as st

from companion.games.ice_trays import GAME as ice_trays
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.engine import is_legal, legal_actions
from companion.games.ice_trays.ring import DIRECTIONS
from companion.games.ice_trays.state import OVER
from companion.games.messages import REFEREE

games = played_games(ice_trays, options=first_seat_option, max_actions=400)


@PROPERTIES
@given(games)
def test_invariants_hold_after_every_action(game: Played) -> None:
    assert_invariants_hold(ice_trays, game)


@PROPERTIES
@given(games)
def test_a_replay_of_the_log_equals_the_live_game(game: Played) -> None:
    assert_replay_equals_live(ice_trays, game)


@PROPERTIES
@given(games, st.data())
def test_exactly_the_listed_actions_are_legal(game: Played, data: st.DataObject) -> None:
    state = game.states[-1]
    legal = all_actions(ice_trays, state)
    by = st.sampled_from([1, 2, 3, 4, 5, REFEREE, True])
    tray = st.integers(0, 9)
    candidates = [
        m.Roll(data.draw(by)),
        m.Sow(data.draw(by), data.draw(tray), data.draw(st.sampled_from([*DIRECTIONS, "up"]))),
        m.TakeBlueberry(data.draw(by), data.draw(tray)),
        m.LastCubes(data.draw(by), data.draw(tray)),
        m.Steal(data.draw(by), data.draw(st.integers(0, 5))),
        *(data.draw(st.sampled_from(legal)) for _ in range(2) if legal),
    ]
    assert_exactly_the_listed_actions_are_legal(ice_trays, is_legal, state, candidates)


@PROPERTIES
@given(games)
def test_a_waiting_turn_always_has_a_move_and_only_the_turn_seat_has_any(game: Played) -> None:
    for state in game.states:
        if state.phase == "over":
            assert all_actions(ice_trays, state) == []
            continue
        assert legal_actions(state, state.turn_seat)
        assert all(
            legal_actions(state, actor) == [] for actor in ACTORS if actor != state.turn_seat
        )


@PROPERTIES
@given(games)
def test_the_results_give_each_seat_the_points_and_parts_its_running_score_shows(
    game: Played,
) -> None:
    """Were the game over now, each seat's points, its cubes and its blueberries are what its
    score on the pages shows."""
    state = game.states[-1]
    shown = {s["seat"]: s for s in ice_trays.view(state, "public")["seats"]}
    result = ice_trays.outcome(state.evolve(phase=OVER))
    assert result is not None
    assert {p.seat for p in result.ranking} == set(shown)
    for place in result.ranking:
        seat = shown[place.seat]
        assert place.points == seat["points"] == sum(part.points or 0 for part in place.parts)
        assert [part.to_json() for part in place.parts] == seat["points_from"]
        counts = {part.what: part.count for part in place.parts}
        assert counts == {"cubes": seat["cubes"], "blueberries": seat["blueberries"]}
