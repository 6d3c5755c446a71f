"""What every game asks of the table, checked without a table: its effects and what stands.

The table carries out effects by their class alone, so each game's effects must say everything
its events mean for the table: a turn's cue for the seat whose turn starts, the winner at the
end, and for Cool Runnings the cubes, weigh-ins, counts and melt.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import GAMES, Engine
from companion.games.cool_runnings import messages as cr
from companion.games.effects import (
    AskWeighIn,
    CubeOut,
    EndCount,
    GameOver,
    Melt,
    StartCount,
    TableFacts,
    TurnCue,
)
from companion.games.fair import FairRandom
from companion.games.messages import TABLE
from companion.games.seats import default_seats

SEEDS = range(6)


def played(eng: Engine, seed: int, seats: int = 3) -> list[tuple[Any, list[Any]]]:
    """A game played to its end by random players: each state with the events that led to it."""
    rng = FairRandom(bytes([seed]) * 32)
    rnd = random.Random(seed)
    state, events = eng.new_game({}, default_seats(seats), rng)
    steps = [(state, events)]
    while eng.outcome(state) is None and len(steps) < 3000:
        state, events = eng.apply(state, eng.random_action(state, rnd), rng)
        steps.append((state, events))
    return steps


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_turn_that_starts_cues_its_seat(name: str) -> None:
    eng = GAMES[name]
    for seed in SEEDS:
        turn = None
        for state, events in played(eng, seed):
            cues = [e.seat for e in eng.effects(events, state) if isinstance(e, TurnCue)]
            now = eng.view(state, "public")["turn_seat"]
            if eng.outcome(state) is None and now != turn:
                assert cues and cues[-1] == now, (turn, now, events)
            starts = [e.seat for e in events if type(e).__name__ == "TurnStarted"]
            assert set(starts) <= set(cues)
            turn = now


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_end_of_a_game_names_its_winner_once(name: str) -> None:
    eng = GAMES[name]
    for seed in SEEDS:
        steps = played(eng, seed)
        overs = [
            e for s, events in steps for e in eng.effects(events, s) if isinstance(e, GameOver)
        ]
        state = steps[-1][0]
        outcome = eng.outcome(state)
        assert outcome is not None
        assert overs == [GameOver(outcome.winner)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_over_needs_nothing_of_the_table(name: str) -> None:
    eng = GAMES[name]
    assert eng.standing(played(eng, 1)[-1][0]) == []


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"cool-runnings"}))
def test_the_dice_games_need_no_cube_and_no_count(name: str) -> None:
    eng = GAMES[name]
    facts = TableFacts(air_c=22.0, count_pace_s=0.8)
    for state, events in played(eng, 2):
        assert {type(e) for e in eng.effects(events, state)} <= {TurnCue, GameOver}
        assert eng.standing(state) == []
    assert eng.table_defaults(facts) == {}
    assert not eng.USES_ICE


def test_cool_runnings_sets_a_cube_out_at_every_seat_still_in_the_game() -> None:
    eng = GAMES["cool-runnings"]
    for state, _ in played(eng, 3, seats=4)[:-1]:
        cubes = [e.seat for e in eng.standing(state) if isinstance(e, CubeOut)]
        assert cubes == sorted(state.positions)


def test_cool_runnings_counts_ten_and_its_end_is_the_tables_action() -> None:
    eng = GAMES["cool-runnings"]
    counted = 0
    for seed in SEEDS:
        for state, events in played(eng, seed):
            for effect in eng.effects(events, state):
                if isinstance(effect, StartCount):
                    counted += 1
                    assert (effect.counts, effect.pace_s) == (10, state.options.count_pace_s)
                    assert effect.seat == state.pending.target
                    assert effect.then in eng.legal_actions(state, TABLE)
                    assert effect in eng.standing(state)
    assert counted > 0


def test_cool_runnings_weighs_in_at_each_turn_and_melts_what_is_carried_out() -> None:
    eng = GAMES["cool-runnings"]
    events = [
        cr.TurnStarted(2, 4),
        cr.CountEnded(3, TABLE),
        cr.AttackEnded(3, "squeeze", cancelled=False),
        cr.GuessedWrong(1, 2),
        cr.Won(1, "finish"),
    ]
    assert eng.effects(events, None) == [
        TurnCue(2),
        AskWeighIn(2),
        EndCount(3),
        Melt(3, "squeeze"),
        Melt(1, "guessing-game"),
        GameOver(1),
    ]


def test_cool_runnings_takes_the_tables_pace_and_recommends_the_parts_for_the_air() -> None:
    eng = GAMES["cool-runnings"]
    assert eng.table_defaults(TableFacts(None, 1.2)) == {"count_pace_s": 1.2}
    options = {
        c: {o.name: o for o in eng.start_options(TableFacts(c, 0.8))}
        for c in (None, 21.0, 26.0, 31.0)
    }
    assert [o["parts"].default for o in options.values()] == [5, 5, 4, 3]
    assert [c.value for c in options[None]["part_order"].choices] == ["A", "B", "C", "D", "E"]
    assert options[None]["count_pace_s"].default == 0.8
    assert "26,0 °C: 4 Teile" in str(options[26.0]["parts"].hint and options[26.0]["parts"].hint.de)
    assert eng.USES_ICE
