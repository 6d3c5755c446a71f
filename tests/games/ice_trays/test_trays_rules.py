"""Every rule of the Ice Trays rulebook, its rulings and the referee's decisions D1-D8, each in a
named test; the rulebook's three examples are replayed literally.

The bundled board, clockwise from cup 1 (Lauren's): blue 1, yellow 2 | cup 2 (Jonathan) |
pink 3, orange 4 | cup 3 (Julia) | blue 5, yellow 6 | cup 4 | pink 7, orange 8 | cup 1.
"""

from __future__ import annotations

import pytest
from trays_tables import BEN, JONATHAN, JULIA, LAUREN, SEATS, position, rng, rolling

from companion.errors import BadOptions, IllegalAction
from companion.games.cool_runnings import messages as cr
from companion.games.dice import Rolled
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.engine import apply, legal_actions, moves, new_game, outcome
from companion.games.ice_trays.ring import CLOCKWISE, COUNTERCLOCKWISE
from companion.games.ice_trays.state import CHOOSE, OVER, ROLL, State
from companion.games.messages import REFEREE, TABLE
from companion.games.outcome import Outcome, Part, Place, TieBreak
from companion.games.seats import SeatInfo, default_seats

CW, CCW = CLOCKWISE, COUNTERCLOCKWISE


def act(state: State, action: m.Action) -> tuple[State, list]:
    return apply(state, action, rng())


def roll(state: State, face: str) -> tuple[State, list]:
    """The active seat rolls, and the die shows ``face``."""
    return act(rolling(state, face), m.Roll(state.turn_seat))


def refusal(state: State, action: m.Action) -> str:
    with pytest.raises(IllegalAction) as info:
        act(state, action)
    return str(info.value)


# Set-up


def finished(state: State) -> Outcome:
    result = outcome(state)
    assert result is not None, "the game is not over"
    return result


def winner_of(state: State) -> int | None:
    return finished(state).winner


def scores_of(state: State) -> dict[int, int] | None:
    scores = finished(state).scores
    return None if scores is None else dict(scores)


def test_setup_puts_three_cubes_in_each_of_the_eight_trays_and_a_blueberry_on_each_side() -> None:
    state, events = new_game({}, SEATS, rng())
    assert state.trays == (3,) * 8
    assert state.berries == (True,) * 4
    assert state.cubes == state.blueberries == {LAUREN: 0, JONATHAN: 0, JULIA: 0}
    assert events[0] == m.BoardSet(
        ("blue", "yellow", "pink", "orange", "blue", "yellow", "pink", "orange"),
        3,
        5,
        (LAUREN, JONATHAN, JULIA, None),
    )
    assert events[1] == m.TurnStarted(LAUREN, 1)
    assert state.phase == ROLL and state.face is None and state.rng_counter == 0


def test_setup_refuses_a_seat_count_or_first_seat_the_game_does_not_have() -> None:
    with pytest.raises(BadOptions, match="2 to 4 seats, not 5"):
        new_game({}, default_seats(5), rng())
    with pytest.raises(BadOptions, match="2 to 4 seats, not 1"):
        new_game({}, default_seats(1), rng())
    with pytest.raises(BadOptions, match="first_seat 9"):
        new_game({"first_seat": 9}, default_seats(3), rng())


def test_two_players_sit_in_cups_next_to_each_other() -> None:
    seats = (SeatInfo(2, "Tom", "yellow"), SeatInfo(4, "Ben", "pink"))
    state, events = new_game({}, seats, rng())
    assert (state.cup_of(2), state.cup_of(4)) == (1, 2)
    assert events[0].cups == (2, 4, None, None)


def test_three_or_four_players_take_the_cups_clockwise_in_seat_order() -> None:
    seats = (SeatInfo(3, "C", "a"), SeatInfo(1, "A", "b"), SeatInfo(4, "D", "c"))
    state, events = new_game({}, seats, rng())
    assert [s.seat for s in state.seats] == [1, 3, 4]
    assert events[0].cups == (1, 3, 4, None)
    _, events = new_game({}, default_seats(4), rng())
    assert events[0].cups == (1, 2, 3, 4)


def test_the_chosen_first_seat_starts_otherwise_the_first_seat() -> None:
    assert new_game({}, SEATS, rng())[0].turn_seat == LAUREN
    state, events = new_game({"first_seat": JULIA}, SEATS, rng())
    assert state.turn_seat == JULIA and events[-1] == m.TurnStarted(JULIA, 1)


def test_play_passes_to_the_left_clockwise_in_seat_order() -> None:
    state = position(turn=JONATHAN)
    state, events = roll(state, "steal")  # nobody has a cube: the turn passes at once
    assert events[-1] == m.TurnStarted(JULIA, 2)
    state, events = roll(state, "steal")
    assert events[-1] == m.TurnStarted(LAUREN, 3) and state.turn_seat == LAUREN


# A turn: roll, then one move


def test_a_turn_starts_with_a_roll_of_the_die_and_only_the_active_seat_acts() -> None:
    state = position()
    assert legal_actions(state, LAUREN) == [m.Roll(LAUREN)]
    for other in (JONATHAN, JULIA, REFEREE, TABLE, "public", 9):
        assert legal_actions(state, other) == []
    assert refusal(state, m.Roll(JONATHAN)) == "It is Lauren's turn, not Jonathan's."
    assert refusal(state, m.Roll(7)) == "There is no seat 7 at this table."


def test_the_roll_comes_from_the_fair_random_and_is_a_rolled_event() -> None:
    state = position()
    after, events = act(state, m.Roll(LAUREN))
    assert isinstance(events[0], Rolled) and events[0].dice == (0,)
    assert events[0].faces[0] in state.board.faces
    assert after.face == events[0].faces[0]
    assert after.rng_counter > state.rng_counter
    again, same = act(state, m.Roll(LAUREN))
    assert (again, same) == (after, events)


@pytest.mark.parametrize("face", ["blue", "orange", "pink", "yellow", "wild", "steal"])
def test_the_die_has_four_colours_wild_and_steal(face: str) -> None:
    state, events = roll(position(cubes={JONATHAN: 1}), face)
    assert events[0] == Rolled((0,), (face,))
    assert state.face == face and state.phase == CHOOSE


def test_a_seat_rolls_once_a_turn_and_chooses_only_after_rolling() -> None:
    state = position()
    assert refusal(state, m.Sow(LAUREN, 1, CW)) == "Lauren must roll the die first."
    rolled, _ = roll(state, "blue")
    assert (
        refusal(rolled, m.Roll(LAUREN)) == "Lauren rolled blue already: choose what to do with it."
    )


# Colour: take all cubes of one of its two trays, choose a direction, sow


def test_a_colour_offers_either_tray_of_that_colour_in_either_direction() -> None:
    state, _ = roll(position(), "blue")
    assert legal_actions(state, LAUREN) == [
        m.Sow(LAUREN, 1, CW),
        m.Sow(LAUREN, 1, CCW),
        m.Sow(LAUREN, 5, CW),
        m.Sow(LAUREN, 5, CCW),
    ]


def test_a_colour_refuses_a_tray_of_another_colour_and_an_unknown_direction() -> None:
    state = position(face="blue")
    assert refusal(state, m.Sow(LAUREN, 3, CW)) == "Lauren rolled blue, but tray 3 is pink."
    assert refusal(state, m.Sow(LAUREN, 9, CW)) == (
        "There is no tray 9: the trays are numbered 1 to 8."
    )
    assert refusal(state, m.Sow(LAUREN, 1, "right")) == (
        "A direction is 'clockwise' or 'counterclockwise', not 'right'."
    )


def test_rulebook_example_laurens_blue_tray_sown_to_the_right() -> None:
    """Lauren rolls a blue and picks up the three cubes of the blue tray closest to her cup.
    To the right (D1: counterclockwise) she drops one in her cup, then one each in the orange
    and the pink tray. This ends her turn."""
    state = position(turn=LAUREN)
    state, events = roll(state, "blue")
    assert events == [Rolled((0,), ("blue",))]
    state, events = act(state, m.Sow(LAUREN, 1, COUNTERCLOCKWISE))
    assert events[0] == m.Sowed(LAUREN, 1, COUNTERCLOCKWISE, ("cup 1", "tray 8", "tray 7"))
    assert (state.board.colour(8), state.board.colour(7)) == ("orange", "pink")
    assert state.cubes[LAUREN] == 1
    assert state.trays == (0, 3, 3, 3, 3, 3, 4, 4)
    assert events[-1] == m.TurnStarted(JONATHAN, 2) and state.phase == ROLL


def test_ruling_sowing_goes_tray_by_tray_and_passes_over_opponents_cups() -> None:
    state = position({3: 5}, face="pink", turn=LAUREN)
    state, events = act(state, m.Sow(LAUREN, 3, CW))
    # Tray 3 clockwise: tray 4, cup 3 (Julia's: passed), trays 5 and 6, cup 4 (empty), tray 7, 8
    assert events[0].path == ("tray 4", "tray 5", "tray 6", "tray 7", "tray 8")
    assert state.cubes == {LAUREN: 0, JONATHAN: 0, JULIA: 0}
    assert state.trays == (3, 3, 0, 4, 4, 4, 4, 4)


def test_decision_2_a_corner_no_one_sits_at_is_passed_over_like_an_opponents_cup() -> None:
    two = (SeatInfo(LAUREN, "Lauren", "blue"), SeatInfo(JONATHAN, "Jonathan", "yellow"))
    state = position({4: 5}, face="orange", seats=two, turn=JONATHAN)
    state, events = act(state, m.Sow(JONATHAN, 4, CW))
    assert events[0].path == ("tray 5", "tray 6", "tray 7", "tray 8", "tray 1")
    state = position({4: 5}, face="orange", seats=two, turn=JONATHAN)
    state, events = act(state, m.Sow(JONATHAN, 4, CCW))
    assert events[0].path == ("tray 3", "cup 2", "tray 2", "tray 1", "tray 8")
    assert state.cubes[JONATHAN] == 1


def test_ruling_a_full_tray_is_passed_over_and_the_cube_goes_to_the_next_open_tray() -> None:
    state = position({2: 5, 3: 5}, face="blue")
    state, events = act(state, m.Sow(LAUREN, 1, CW))
    assert events[0].path == ("tray 4", "tray 5", "tray 6")
    assert state.trays[1:3] == (5, 5)


def test_ruling_sowing_never_drops_a_cube_into_the_tray_just_emptied() -> None:
    # Five cubes from tray 8 clockwise with every tray full but 1 and 2: cup 1, trays 1, 2,
    # cup 1 again... and never tray 8.
    state = position((0, 0, 5, 5, 5, 5, 5, 5), face="orange")
    state, events = act(state, m.Sow(LAUREN, 8, CW))
    assert events[0].path == ("cup 1", "tray 1", "tray 2", "cup 1", "tray 1")
    assert state.trays == (2, 1, 5, 5, 5, 5, 5, 0)
    assert state.cubes[LAUREN] == 2


def test_sowing_with_every_other_tray_full_drops_each_cube_in_the_own_cup() -> None:
    state = position((5,) * 8, face="pink", turn=JONATHAN)
    state, events = act(state, m.Sow(JONATHAN, 7, CCW))
    assert events[0].path == ("cup 2",) * 5
    assert state.cubes[JONATHAN] == 5 and state.trays[6] == 0


def test_a_tray_with_no_cubes_cannot_be_sown() -> None:
    state = position({1: 0}, face="blue")
    assert m.Sow(LAUREN, 1, CW) not in legal_actions(state, LAUREN)
    assert refusal(state, m.Sow(LAUREN, 1, CW)) == "Tray 1 has no cubes to sow."


# Wild: any tray, no blueberry


def test_wild_offers_every_tray_with_cubes_in_either_direction() -> None:
    state = position({4: 0}, face="wild")
    sown = {(a.tray, a.direction) for a in legal_actions(state, LAUREN)}
    assert sown == {(t, d) for t in (1, 2, 3, 5, 6, 7, 8) for d in (CW, CCW)}


def test_wild_never_takes_a_blueberry() -> None:
    state = position({1: 0}, face="wild")
    assert not any(isinstance(a, m.TakeBlueberry) for a in legal_actions(state, LAUREN))
    assert refusal(state, m.TakeBlueberry(LAUREN, 1)) == "A blueberry cannot be taken with Wild."


def test_wild_with_no_cube_on_the_board_ends_the_turn() -> None:
    state, events = roll(position((0,) * 8, berries=(2,)), "wild")
    assert events[1] == m.NothingToDo(LAUREN, "wild", "no-cube")
    assert events[-1] == m.TurnStarted(JONATHAN, 2) and state.berries == (False, True, False, False)


# Steal: one cube from an opponent's cup, never a blueberry


def test_steal_moves_one_cube_from_an_opponents_cup_to_the_own() -> None:
    state, _ = roll(position(cubes={JONATHAN: 2, JULIA: 1}), "steal")
    assert legal_actions(state, LAUREN) == [m.Steal(LAUREN, JONATHAN), m.Steal(LAUREN, JULIA)]
    state, events = act(state, m.Steal(LAUREN, JULIA))
    assert events[0] == m.Stole(LAUREN, JULIA)
    assert state.cubes == {LAUREN: 1, JONATHAN: 2, JULIA: 0}
    assert state.trays == (3,) * 8


def test_steal_never_takes_a_blueberry() -> None:
    state = position(cubes={JONATHAN: 1}, blueberries={JULIA: 2}, face="steal")
    assert legal_actions(state, LAUREN) == [m.Steal(LAUREN, JONATHAN)]
    assert refusal(state, m.Steal(LAUREN, JULIA)) == (
        "Julia's cup has no cube to steal, and a blueberry cannot be stolen."
    )


def test_steal_from_the_own_cup_or_with_another_face_is_refused() -> None:
    state = position(cubes={LAUREN: 3, JONATHAN: 1}, face="steal")
    assert refusal(state, m.Steal(LAUREN, LAUREN)) == "Lauren cannot steal from their own cup."
    colour = position(cubes={JONATHAN: 1}, face="pink")
    assert (
        refusal(colour, m.Steal(LAUREN, JONATHAN))
        == "Lauren rolled pink: only the Steal face steals."
    )
    assert refusal(state, m.Sow(LAUREN, 1, CW)) == (
        "Lauren rolled Steal: take a cube from an opponent's cup."
    )


def test_decision_5_steal_with_no_cube_in_any_opponents_cup_ends_the_turn() -> None:
    state, events = roll(position(cubes={LAUREN: 4}, blueberries={JONATHAN: 1}), "steal")
    assert events[1:] == [
        m.NothingToDo(LAUREN, "steal", "nothing-to-steal"),
        m.TurnStarted(JONATHAN, 2),
    ]
    assert state.cubes[LAUREN] == 4 and state.blueberries[JONATHAN] == 1


# Blueberry bonus


def test_rulebook_example_jonathans_blueberry() -> None:
    """Jonathan rolls an orange. One of the orange trays has no cubes, so he takes the
    blueberry above it and moves it directly to his cup."""
    state = position({4: 0}, turn=JONATHAN)
    state, events = roll(state, "orange")
    assert m.TakeBlueberry(JONATHAN, 4) in legal_actions(state, JONATHAN)
    state, events = act(state, m.TakeBlueberry(JONATHAN, 4))
    assert events[0] == m.BlueberryTaken(JONATHAN, 4, side=2)
    assert state.blueberries[JONATHAN] == 1 and state.points(JONATHAN) == 2
    assert state.berries == (True, False, True, True)
    assert state.trays == (3, 3, 3, 0, 3, 3, 3, 3)


def test_a_blueberry_is_taken_only_beside_an_empty_tray_of_the_colour_rolled() -> None:
    state = position(face="orange")
    assert not any(isinstance(a, m.TakeBlueberry) for a in legal_actions(state, LAUREN))
    assert refusal(state, m.TakeBlueberry(LAUREN, 4)) == (
        "Tray 4 still holds cubes: a blueberry is taken only beside an empty tray of the colour "
        "rolled."
    )
    empty_pink = position({3: 0}, face="orange")
    assert (
        refusal(empty_pink, m.TakeBlueberry(LAUREN, 3))
        == "Lauren rolled orange, but tray 3 is pink."
    )


def test_the_two_trays_of_a_side_share_one_blueberry() -> None:
    state = position({3: 0, 4: 0}, berries=(1, 3, 4), face="pink")
    assert refusal(state, m.TakeBlueberry(LAUREN, 3)) == (
        "The blueberry of side 2 has been taken already."
    )
    assert legal_actions(state, LAUREN) == [m.Sow(LAUREN, 7, CW), m.Sow(LAUREN, 7, CCW)]


def test_decision_4_the_blueberry_or_the_other_tray_is_the_seats_choice() -> None:
    state = position({4: 0}, face="orange")
    assert legal_actions(state, LAUREN) == [
        m.Sow(LAUREN, 8, CW),
        m.Sow(LAUREN, 8, CCW),
        m.TakeBlueberry(LAUREN, 4),
    ]


def test_with_both_trays_of_a_colour_empty_either_blueberry_may_be_taken() -> None:
    state = position({2: 0, 6: 0}, face="yellow")
    assert legal_actions(state, LAUREN) == [m.TakeBlueberry(LAUREN, 2), m.TakeBlueberry(LAUREN, 6)]


# Last Cubes rule


def test_rulebook_example_julias_last_cubes() -> None:
    """Julia rolls a yellow. One yellow tray (A) has no cubes, and there is no blueberry next to
    either yellow tray (B). So she takes all 3 cubes of the other yellow tray straight to her
    cup."""
    state = position({2: 0}, berries=(2, 4), turn=JULIA)
    state, events = roll(state, "yellow")
    assert legal_actions(state, JULIA)[0] == m.LastCubes(JULIA, 6)
    state, events = act(state, m.LastCubes(JULIA, 6))
    assert events[0] == m.LastCubesTaken(JULIA, 6, cubes=3)
    assert state.cubes[JULIA] == 3 and state.trays == (3, 0, 3, 3, 3, 0, 3, 3)


def test_last_cubes_needs_no_blueberry_beside_either_matching_tray() -> None:
    beside_the_empty = position({2: 0}, berries=(1,), face="yellow")
    beside_the_full = position({2: 0}, berries=(3,), face="yellow")
    for state in (beside_the_empty, beside_the_full):
        assert not any(isinstance(a, m.LastCubes) for a in legal_actions(state, LAUREN))
        assert refusal(state, m.LastCubes(LAUREN, 6)) == (
            "The Last Cubes rule needs this to be the only yellow tray with cubes, "
            "and no blueberry beside either yellow tray."
        )


def test_last_cubes_needs_exactly_one_matching_tray_with_cubes() -> None:
    both = position(berries=(), face="yellow")
    assert not any(isinstance(a, m.LastCubes) for a in legal_actions(both, LAUREN))
    assert refusal(position({2: 0}, berries=(), face="yellow"), m.LastCubes(LAUREN, 2)) == (
        "Tray 2 has no cubes."
    )


def test_decision_3_last_cubes_is_a_choice_and_the_tray_may_be_sown_instead() -> None:
    state = position({2: 0}, berries=(), face="yellow")
    assert legal_actions(state, LAUREN) == [
        m.LastCubes(LAUREN, 6),
        m.Sow(LAUREN, 6, CW),
        m.Sow(LAUREN, 6, CCW),
    ]
    sown, events = act(state, m.Sow(LAUREN, 6, CCW))
    assert events[0].path == ("tray 5", "tray 4", "tray 3")
    assert sown.trays[5] == 0 and sown.cubes[LAUREN] == 0


def test_ruling_last_cubes_applies_to_wild_with_every_tray_as_a_match() -> None:
    state = position((0, 0, 0, 4, 0, 0, 0, 0), berries=(), face="wild")
    assert legal_actions(state, LAUREN)[0] == m.LastCubes(LAUREN, 4)
    state, events = act(state, m.LastCubes(LAUREN, 4))
    assert events[0] == m.LastCubesTaken(LAUREN, 4, 4)


def test_ruling_last_cubes_with_wild_needs_every_blueberry_gone_and_one_tray_with_cubes() -> None:
    berry = position((0, 0, 0, 4, 0, 0, 0, 0), berries=(1,), face="wild")
    assert not any(isinstance(a, m.LastCubes) for a in legal_actions(berry, LAUREN))
    assert refusal(berry, m.LastCubes(LAUREN, 4)) == (
        "With Wild, the Last Cubes rule needs this to be the only tray with cubes and no "
        "blueberry left on the board."
    )
    two_trays = position((0, 0, 0, 4, 1, 0, 0, 0), berries=(), face="wild")
    assert not any(isinstance(a, m.LastCubes) for a in legal_actions(two_trays, LAUREN))


def test_a_colour_with_no_cube_and_no_blueberry_at_either_tray_simply_ends_the_turn() -> None:
    state, events = roll(position({1: 0, 5: 0}, berries=(2, 4)), "blue")
    assert events[1] == m.NothingToDo(LAUREN, "blue", "no-cube-or-blueberry")
    assert events[-1] == m.TurnStarted(JONATHAN, 2)
    assert state.phase == ROLL and state.face is None


def test_decision_6_a_turn_is_left_waiting_only_when_a_move_is_possible() -> None:
    state, events = roll(position({1: 0, 5: 0}, berries=(1,)), "blue")
    assert len(events) == 1 and state.phase == CHOOSE
    assert moves(state) == [m.TakeBlueberry(LAUREN, 1)]


# The end and the score


def test_ruling_the_game_ends_when_no_cube_and_no_blueberry_is_left_on_the_board() -> None:
    state = position(
        (0, 0, 0, 0, 0, 2, 0, 0),
        berries=(),
        cubes={LAUREN: 9, JONATHAN: 8, JULIA: 5},
        blueberries={LAUREN: 1, JONATHAN: 2, JULIA: 1},
        face="yellow",
    )
    state, events = act(state, m.LastCubes(LAUREN, 6))
    assert state.phase == OVER
    assert events[-1] == m.GameOver(scores=(13, 12, 7), cubes=(11, 8, 5), winner=LAUREN)
    ranking = tuple(
        Place(
            place,
            seat,
            cubes + 2 * berries,
            (Part("cubes", cubes, cubes, 1), Part("blueberries", berries, 2 * berries, 2)),
        )
        for place, seat, cubes, berries in [
            (1, LAUREN, 11, 1),
            (2, JONATHAN, 8, 2),
            (3, JULIA, 5, 1),
        ]
    )
    assert outcome(state) == Outcome(
        LAUREN, "points", {1: 13, 2: 12, 3: 7}, {"cubes": {1: 11, 2: 8, 3: 5}}, ranking
    )
    assert all(legal_actions(state, s) == [] for s in (LAUREN, JONATHAN, JULIA, REFEREE))
    assert refusal(state, m.Roll(JONATHAN)) == "The game is over."


def test_the_game_ends_when_a_blueberry_is_the_last_thing_taken() -> None:
    state = position((0,) * 8, berries=(4,), cubes={JULIA: 24}, face="pink")
    state, _ = act(state, m.TakeBlueberry(LAUREN, 7))
    assert state.phase == OVER and winner_of(state) == JULIA


def test_the_game_goes_on_while_a_blueberry_is_left() -> None:
    state = position((0, 0, 0, 0, 0, 0, 0, 1), berries=(2,), face="orange")
    state, events = act(state, m.Sow(LAUREN, 8, CW))
    assert events[0].path == ("cup 1",) and not any(state.trays)
    assert outcome(state) is None and events[-1] == m.TurnStarted(JONATHAN, 2)


def test_sowing_the_last_cube_into_the_own_cup_ends_the_game() -> None:
    state = position((0, 0, 0, 0, 0, 0, 0, 1), berries=(), cubes={JONATHAN: 23}, face="orange")
    state, events = act(state, m.Sow(LAUREN, 8, CW))
    assert events[0].path == ("cup 1",) and state.phase == OVER
    assert scores_of(state) == {1: 1, 2: 23, 3: 0}


def test_a_cube_scores_1_point_and_a_blueberry_2() -> None:
    state = position(cubes={LAUREN: 5, JONATHAN: 2}, blueberries={LAUREN: 1, JONATHAN: 3})
    assert (state.points(LAUREN), state.points(JONATHAN), state.points(JULIA)) == (7, 8, 0)


def test_ruling_ties_go_to_the_seat_with_more_cubes() -> None:
    tied = position(
        (0,) * 8,
        berries=(1,),
        cubes={LAUREN: 10, JONATHAN: 14, JULIA: 0},
        blueberries={LAUREN: 1, JONATHAN: 0, JULIA: 0},
        face="blue",
    )
    tied, events = act(tied, m.TakeBlueberry(LAUREN, 1))
    assert scores_of(tied) == {1: 14, 2: 14, 3: 0}
    assert winner_of(tied) == JONATHAN and events[-1].winner == JONATHAN
    result = finished(tied)
    assert [(p.place, p.seat) for p in result.ranking] == [(1, JONATHAN), (2, LAUREN), (3, JULIA)]
    assert result.tie_breaks == (TieBreak("cubes", 14, {LAUREN: 10, JONATHAN: 14}),)


def test_a_tie_on_points_and_cubes_has_no_winner() -> None:
    state = position(
        (0,) * 8,
        berries=(1,),
        cubes={LAUREN: 10, JONATHAN: 10, JULIA: 4},
        blueberries={LAUREN: 0, JONATHAN: 1, JULIA: 0},
        face="blue",
    )
    state, events = act(state, m.TakeBlueberry(LAUREN, 1))
    assert winner_of(state) is None and events[-1].winner is None
    result = finished(state)
    assert [(p.place, p.seat) for p in result.ranking] == [(1, LAUREN), (1, JONATHAN), (3, JULIA)]
    assert result.tie_breaks == (TieBreak("cubes", 12, {LAUREN: 10, JONATHAN: 10}),)


# What the engine refuses, and how it says so


def test_an_action_of_another_game_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not an action of Ice Trays"):
        act(position(), cr.TakeHit(LAUREN))


def test_decision_8_the_referee_has_no_moves_in_this_game() -> None:
    state = position(face="blue")
    assert legal_actions(state, REFEREE) == []
    assert refusal(state, m.Sow(REFEREE, 1, CW)) == (  # type: ignore[arg-type]
        "'referee' is not a seat: in Ice Trays only the seat whose turn it is acts."
    )


def test_true_does_not_pass_for_seat_or_tray_1() -> None:
    state = position(face="blue")
    assert refusal(state, m.Sow(True, 1, CW)) == (  # type: ignore[arg-type]
        "True is not a seat: in Ice Trays only the seat whose turn it is acts."
    )
    assert refusal(state, m.Sow(LAUREN, True, CW)) == (  # type: ignore[arg-type]
        "There is no tray True: the trays are numbered 1 to 8."
    )


def test_a_seat_at_an_unseated_number_is_refused() -> None:
    state = position(face="steal", cubes={JONATHAN: 1})
    assert refusal(state, m.Steal(LAUREN, BEN)) == "There is no seat 4 at this table."
