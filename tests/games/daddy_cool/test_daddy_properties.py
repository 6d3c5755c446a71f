"""Hypothesis properties of Daddy Cool: over any sequence of legal actions the invariants hold
(the path keeps its floes or loses them to the box only as "The Path Gets Longer" says, no cub
behind the start), every listed action is legal, anything else is refused, and a replay equals
the live game, and the cubs are ranked by the floes the pages show them left to the tub. The
invariants themselves catch broken states."""

from __future__ import annotations

from daddy_table import KAREN, TOM, drawn_board, roll, table
from gameplay import (
    ACTORS,
    PROPERTIES,
    Played,
    all_actions,
    assert_exactly_the_listed_actions_are_legal,
    assert_invariants_hold,
    assert_replay_equals_live,
    played_games,
)
from hypothesis import given
from hypothesis import strategies as st

from companion.games.daddy_cool import GAME as daddy_cool
from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.engine import is_legal, legal_actions
from companion.games.daddy_cool.invariants import invariants
from companion.games.daddy_cool.state import CHOOSE, OVER, ROLL

games = played_games(daddy_cool, options=drawn_board, max_actions=200)


@PROPERTIES
@given(games)
def test_invariants_hold_after_every_action(game: Played) -> None:
    assert_invariants_hold(daddy_cool, game)


@PROPERTIES
@given(games)
def test_a_replay_of_the_log_equals_the_live_game(game: Played) -> None:
    assert_replay_equals_live(daddy_cool, game)


@PROPERTIES
@given(games, st.data())
def test_exactly_the_listed_actions_are_legal(game: Played, data: st.DataObject) -> None:
    actors = [*ACTORS, 0, 9, "someone"]
    candidates = [
        kind(data.draw(st.sampled_from(actors))) for kind in (m.Roll, m.Stop) for _ in range(3)
    ]
    assert_exactly_the_listed_actions_are_legal(daddy_cool, is_legal, game.states[-1], candidates)


@PROPERTIES
@given(games)
def test_the_cubs_rank_by_the_floes_each_shows_left_to_the_tub(game: Played) -> None:
    state = game.states[-1]
    shown = {s["seat"]: s["to_tub"] for s in daddy_cool.view(state, "public")["seats"]}
    result = daddy_cool.outcome(state.evolve(phase=OVER))
    assert result is not None
    left = {p.seat: p.parts[0].count for p in result.ranking}
    assert left == shown
    for place in result.ranking:
        assert place.points is None and [part.what for part in place.parts] == ["to-tub"]
        assert place.place == 1 + sum(1 for n in left.values() if n < left[place.seat])


@PROPERTIES
@given(games)
def test_the_seat_to_act_always_has_something_to_do_until_the_end(game: Played) -> None:
    for state in game.states:
        if state.phase == OVER:
            assert all_actions(daddy_cool, state) == []
        else:
            mine = legal_actions(state, state.turn_seat)
            assert m.Roll(state.turn_seat) in mine
            assert (m.Stop(state.turn_seat) in mine) == (state.phase == CHOOSE)


# The invariants catch what they guard


def test_a_floe_lost_from_the_path_is_caught() -> None:
    state = table()
    broken = invariants(state.evolve(path=state.path[1:]))
    assert any("floes not conserved" in b for b in broken)


def test_a_floe_in_the_box_and_on_the_path_is_caught() -> None:
    state = table()
    assert any("floes not conserved" in b for b in invariants(state.evolve(box=(3,))))


def test_a_changed_path_in_the_game_for_the_youngest_players_is_caught() -> None:
    state = table(lengthen_path=False)
    path = (*state.path[2:-1], state.path[1], state.path[-1])
    broken = invariants(state.evolve(path=path, box=(0,)))
    assert any("youngest" in b for b in broken)


def test_two_floes_left_behind_the_last_cub_are_caught() -> None:
    assert any("behind the last cub" in b for b in invariants(table(cubs={1: 3, 2: 4, 3: 5})))
    assert invariants(table(cubs={1: 3, 2: 4, 3: 5}, lengthen_path=False)) == []


def test_a_cub_behind_the_start_or_at_the_tub_without_winning_is_caught() -> None:
    state = table()
    assert any("behind the start" in b for b in invariants(state.evolve(cubs={1: -1, 2: 0, 3: 0})))
    assert any("the tub is" in b for b in invariants(state.evolve(cubs={1: 16, 2: 0, 3: 0})))


def test_a_cub_on_a_cracked_floe_is_caught() -> None:
    assert any("cracked floe at 6" in b for b in invariants(table(cubs={KAREN: 6})))


def test_a_seat_allowed_to_stop_on_a_cracked_floe_is_caught() -> None:
    state, _ = roll(table(cubs={KAREN: 4}), "FF----")
    assert state.phase == ROLL
    broken = invariants(state.evolve(phase=CHOOSE, forced=()))
    assert any("cracked" in b for b in broken)


def test_a_winner_while_the_game_runs_is_caught() -> None:
    assert any("winner" in b for b in invariants(table().evolve(winner=TOM)))
