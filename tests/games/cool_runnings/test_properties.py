"""Hypothesis properties of Cool Runnings: over any sequence of legal actions the invariants hold
(cards conserved, one piece per space, hands of at most four, melted seats hold nothing), every
listed action is legal, anything else is refused, and a replay equals the live game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.games.cool_runnings import apply, invariants, legal_actions, new_game
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import is_legal
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE
from companion.games.seats import default_seats

ACTORS = (1, 2, 3, 4, REFEREE, TABLE)


def all_actions(state) -> list:
    return [a for actor in ACTORS for a in legal_actions(state, actor)]


@st.composite
def games(draw: st.DrawFn) -> tuple:
    """A game of 2-4 seats and a list of legal actions taken from its start."""
    seats = default_seats(draw(st.integers(2, 4)))
    rng = FairRandom(draw(st.binary(min_size=32, max_size=32)))
    state, _ = new_game({"parts": draw(st.sampled_from([3, 4, 5]))}, seats, rng)
    states, actions = [state], []
    for _ in range(draw(st.integers(0, 150))):
        legal = all_actions(state)
        if not legal:
            break
        # Melting ends games fast: take it rarely so that long games are explored too.
        plain = [a for a in legal if not isinstance(a, m.Melted)]
        pool = legal if draw(st.integers(0, 30)) == 0 or not plain else plain
        action = pool[draw(st.integers(0, len(pool) - 1))]
        state, _ = apply(state, action, rng)
        states.append(state)
        actions.append(action)
    return seats, rng, states, actions


RULES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RULES
@given(games())
def test_invariants_hold_after_every_action(game: tuple) -> None:
    _, _, states, _ = game
    for state in states:
        assert invariants(state) == []


@RULES
@given(games())
def test_a_replay_of_the_log_equals_the_live_game(game: tuple) -> None:
    seats, rng, states, actions = game
    state, _ = new_game({"parts": len(states[0].parts)}, seats, FairRandom(rng._seed))
    assert state == states[0]
    for action, live in zip(actions, states[1:], strict=True):
        state, _ = apply(state, action, FairRandom(rng._seed))
        assert state == live


@RULES
@given(games(), st.data())
def test_exactly_the_listed_actions_are_legal(game: tuple, data: st.DataObject) -> None:
    _, rng, states, _ = game
    state = states[-1]
    legal = all_actions(state)
    for action in legal:
        assert is_legal(state, action)
    seats = list(state.positions) or [1]
    cards = list(range(60))
    candidates = [
        m.PlayAttack(data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(cards)), t)
        for t in (1, 2, 3)
    ] + [
        m.PlayMove(data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(cards)), 2),
        m.Deflect(data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(cards)), 1),
        m.TakeHit(data.draw(st.sampled_from([*seats, REFEREE, TABLE]))),
        m.CountFinished(data.draw(st.sampled_from([*seats, REFEREE, TABLE]))),
        m.AttackDone(data.draw(st.sampled_from([*seats, REFEREE, TABLE]))),
        m.WrongGuess(data.draw(st.sampled_from([*seats, REFEREE]))),
        m.Melted(
            data.draw(st.sampled_from([*seats, REFEREE, 9])), data.draw(st.sampled_from(seats))
        ),
    ]
    for action in candidates:
        if action in legal:
            apply(state, action, rng)
        else:
            assert not is_legal(state, action)
            try:
                apply(state, action, rng)
            except IllegalAction as exc:
                assert str(exc).endswith(".") and len(str(exc)) > 10
            else:
                raise AssertionError(f"{action} was applied but is not listed as legal")
