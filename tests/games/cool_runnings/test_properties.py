"""Hypothesis properties of Cool Runnings: over any sequence of legal actions the invariants hold
(cards conserved, one piece per space, hands of at most four, melted seats hold nothing), every
listed action is legal, anything else is refused, and a replay equals the live game."""

from __future__ import annotations

from gameplay import (
    PROPERTIES,
    Played,
    assert_exactly_the_listed_actions_are_legal,
    assert_invariants_hold,
    assert_replay_equals_live,
    played_games,
)
from hypothesis import given
from hypothesis import strategies as st

from companion.games.cool_runnings import GAME as cool_runnings
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import is_legal
from companion.games.messages import REFEREE, TABLE

games = played_games(
    cool_runnings,
    options=lambda draw, seats: {"parts": draw(st.sampled_from([3, 4, 5]))},
    max_actions=150,
    rare=lambda action: isinstance(action, m.Melted),  # melting ends games fast
)


@PROPERTIES
@given(games)
def test_invariants_hold_after_every_action(game: Played) -> None:
    assert_invariants_hold(cool_runnings, game)


@PROPERTIES
@given(games)
def test_a_replay_of_the_log_equals_the_live_game(game: Played) -> None:
    assert_replay_equals_live(cool_runnings, game)


@PROPERTIES
@given(games, st.data())
def test_exactly_the_listed_actions_are_legal(game: Played, data: st.DataObject) -> None:
    state = game.states[-1]
    seat = st.sampled_from(list(state.positions) or [1])
    card = st.integers(0, 59)
    anyone = st.sampled_from([*state.positions, REFEREE, TABLE])
    candidates = [
        *(m.PlayAttack(data.draw(seat), data.draw(card), t) for t in (1, 2, 3)),
        m.PlayMove(data.draw(seat), data.draw(card), 2),
        m.Deflect(data.draw(seat), data.draw(card), 1),
        m.TakeHit(data.draw(anyone)),
        m.CountFinished(data.draw(anyone)),
        m.AttackDone(data.draw(anyone)),
        m.WrongGuess(data.draw(anyone)),
        m.Melted(data.draw(st.sampled_from([*state.positions, REFEREE, 9])), data.draw(seat)),
    ]
    assert_exactly_the_listed_actions_are_legal(cool_runnings, is_legal, state, candidates)
