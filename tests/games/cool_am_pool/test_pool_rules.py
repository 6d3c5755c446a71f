"""Every rule of the Cool am Pool rulebook and every ruling of the rules notes, each in a named
test, and the rulebook's examples replayed literally.

The bundled board (an unverified default where the rulebook is silent): the 5-point loungers
"5-point a" and "5-point b"; rows 4, 3 and 2 of the columns red, yellow, green, blue and purple,
with two loungers a cell ("red 3a", "red 3b") except one in row 4 and one in green 2. The
lifeguard's track, clockwise from the diving board: red yellow green blue purple 4 3 2 purple
blue green yellow red 2 3 4.
"""

from __future__ import annotations

from typing import Any

import pytest
from pool_tables import (
    FOUR,
    KAREN,
    MARY,
    SEATS,
    TOM,
    TWO,
    act,
    faces_in_hand,
    fresh,
    labels,
    space,
    spot,
    table,
)

from companion.errors import BadOptions, IllegalAction
from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.engine import apply, legal_actions, new_game, outcome
from companion.games.cool_am_pool.occupy import choices
from companion.games.cool_am_pool.state import (
    CHIPS,
    CHOOSE,
    CONQUER,
    DECIDE,
    FIVE_POINT,
    FOREIGN,
    OCCUPY,
    OVER,
    OWN,
    RECONQUER,
    ROLL,
    SETUP,
    State,
)
from companion.games.cool_am_pool.views import view
from companion.games.dice import Rolled
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE
from companion.games.outcome import Outcome, Part, Place, TieBreak
from companion.games.seats import default_seats

RED_2_AND_3 = ["red 2a", "red 2b", "red 3a", "red 3b"]


def types(events: list) -> list[str]:
    return [e.type for e in events]


def occupy(state: State, label: str, by: int | None = None) -> tuple[State, list]:
    return act(state, m.Occupy(state.turn_seat if by is None else by, spot(state, label)))


def result_of(*colours: str, **kw: Any) -> State:
    """A table where the seat on turn stopped with these colour dice set aside."""
    return table(aside=colours, phase=OCCUPY, **kw)


# Setup: towels laid in turn order, 12/8/6 each, never on the 5-point loungers


def test_setup_starts_with_16_chips_in_the_pool_and_the_lifeguard_by_the_diving_board(
    rng: FairRandom,
) -> None:
    state, events = new_game({}, SEATS, rng)
    assert state.phase == SETUP and state.turn_seat == KAREN and state.turn == 0
    assert state.pool == CHIPS == 16 and set(state.chips.values()) == {0}
    assert state.lifeguard == 0 and state.board.track[0] == "red"
    assert set(state.towel_supply.values()) == {16} and set(state.bather_supply.values()) == {5}
    assert events == [m.SetupStarted(KAREN, 8)]


@pytest.mark.parametrize(("seats", "each"), [(2, 12), (3, 8), (4, 6)])
def test_setup_each_seat_lays_12_8_or_6_towels_by_the_number_of_players(
    rng: FairRandom, seats: int, each: int
) -> None:
    state, events = new_game({}, default_seats(seats), rng)
    assert events == [m.SetupStarted(1, each)]
    while state.phase == SETUP:
        state, _ = apply(state, legal_actions(state, state.turn_seat)[-1], rng)
    assert all(state.towels_laid(s) == each for s in range(1, seats + 1))
    assert all(state.towel_supply[s] == 16 - each for s in range(1, seats + 1))
    assert state.without_bather() == 24


def test_setup_goes_one_towel_at_a_time_clockwise_from_the_first_seat(rng: FairRandom) -> None:
    state, _ = new_game({"first_seat": TOM}, SEATS, rng)
    order = []
    while state.phase == SETUP:
        order.append(state.turn_seat)
        assert legal_actions(state, KAREN if state.turn_seat != KAREN else TOM) == []
        state, events = apply(state, legal_actions(state, state.turn_seat)[0], rng)
    assert order == [TOM, MARY, KAREN] * 8
    assert events[-1] == m.TurnStarted(TOM, 1)
    assert state.phase == ROLL and state.turn_seat == TOM


def test_setup_the_5_point_loungers_stay_free(rng: FairRandom) -> None:
    state = fresh()
    five = spot(state, "5-point a")
    assert m.PlaceTowel(KAREN, five) not in legal_actions(state, KAREN)
    with pytest.raises(IllegalAction, match="The 5-point loungers stay free at the start"):
        apply(state, m.PlaceTowel(KAREN, five), rng)


def test_setup_a_towel_goes_only_on_a_free_lounger(rng: FairRandom) -> None:
    state = fresh()
    red = spot(state, "red 3a")
    state, events = apply(state, m.PlaceTowel(KAREN, red), rng)
    assert events == [m.TowelPlaced(KAREN, red)] and state.towels[red] == KAREN
    assert state.bathers[red] is None  # bather side down
    with pytest.raises(IllegalAction, match="A towel already lies on red 3a"):
        apply(state, m.PlaceTowel(TOM, red), rng)


def test_setup_nothing_but_towels_until_they_are_all_laid(rng: FairRandom) -> None:
    state = fresh()
    with pytest.raises(IllegalAction, match="The towels are laid first"):
        apply(state, m.Roll(KAREN), rng)
    with pytest.raises(IllegalAction, match="It is Karen's turn to lay a towel, not Tom's"):
        apply(state, m.PlaceTowel(TOM, spot(state, "red 2a")), rng)


def test_no_towel_is_laid_after_setup(rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="The towels were all laid"):
        apply(table(), m.PlaceTowel(KAREN, 2), rng)


def test_setup_refuses_a_seat_count_or_first_seat_the_game_does_not_have(
    rng: FairRandom,
) -> None:
    with pytest.raises(BadOptions, match="2 to 4 seats"):
        new_game({}, default_seats(5), rng)
    with pytest.raises(BadOptions, match="2 to 4 seats"):
        new_game({}, default_seats(1), rng)
    with pytest.raises(BadOptions, match="first_seat 9"):
        new_game({"first_seat": 9}, SEATS, rng)


# Rolling the dice (ruling: at least one colour die a roll; each lifeguard moves at once)


def test_a_turn_starts_by_rolling_all_six_dice() -> None:
    state = table()
    assert legal_actions(state, KAREN) == [m.Roll(KAREN)]
    state, events = act(state, m.Roll(KAREN), "red red blue lifeguard green yellow")
    assert events == [
        Rolled((0, 1, 2, 3, 4, 5), ("red", "red", "blue", "lifeguard", "green", "yellow")),
        m.LifeguardMoved(1, space(state, "purple"), space(state, "4")),
    ]
    assert state.phase == CHOOSE


def test_ruling_at_least_one_colour_die_is_set_aside_after_each_roll(rng: FairRandom) -> None:
    state = table(hand=["red", "red", "blue", "lifeguard", "green", "yellow"])
    legal = legal_actions(state, KAREN)
    assert m.SetAside(KAREN, ()) not in legal
    assert m.Roll(KAREN) not in legal and m.Stop(KAREN) not in legal
    with pytest.raises(IllegalAction, match="Set aside at least one die showing a colour"):
        apply(state, m.SetAside(KAREN, ()), rng)
    with pytest.raises(IllegalAction, match="Set at least one colour die aside first"):
        apply(state, m.Stop(KAREN), rng)
    with pytest.raises(IllegalAction, match="Set at least one colour die aside first"):
        apply(state, m.Roll(KAREN), rng)


def test_any_colour_dice_may_be_set_aside_even_of_several_colours() -> None:
    state = table(hand=["red", "red", "blue", "lifeguard", "green", "yellow"])
    # Every non-empty choice among the five colour dice: 2**5 - 1.
    assert len([a for a in legal_actions(state, KAREN) if isinstance(a, m.SetAside)]) == 31
    state, _ = act(state, m.SetAside(KAREN, (0, 2)))
    assert state.result() == {"red": 1, "blue": 1}


def test_ruling_the_lifeguard_moves_at_once_one_space_for_each_lifeguard_the_roll_shows() -> None:
    state = table(lifeguard="red")
    state, events = act(state, m.Roll(KAREN), "lifeguard red lifeguard red blue green")
    assert events == [
        Rolled((0, 1, 2, 3, 4, 5), ("lifeguard", "red", "lifeguard", "red", "blue", "green")),
        m.LifeguardMoved(2, 0, 2),
    ]
    assert state.lifeguard == 2 and state.board.track[2] == "green"
    assert state.phase == CHOOSE


def test_a_roll_without_a_lifeguard_leaves_the_lifeguard_where_it_stands() -> None:
    state = table(lifeguard="blue")
    state, events = act(state, m.Roll(KAREN), "red red blue green yellow purple")
    assert not any(isinstance(e, m.LifeguardMoved) for e in events)
    assert state.lifeguard == space(state, "blue")


def test_ruling_the_lifeguard_dice_go_aside_with_the_colour_dice_and_move_it_no_further() -> None:
    """The lifeguard already walked when the roll showed them (here onto green)."""
    state = table(lifeguard="green", hand=["lifeguard", "red", "lifeguard", "red", "blue", "green"])
    state, events = act(state, m.SetAside(KAREN, (1, 3)))
    assert events == [m.DiceSetAside(KAREN, (1, 3), ("red", "red"), (0, 2))]
    assert state.lifeguard == space(state, "green")
    assert state.dice.in_hand() == (4, 5) and state.phase == DECIDE


def test_the_lifeguard_walks_clockwise_round_the_track() -> None:
    last = 15  # the "4" before the diving board
    state = table(lifeguard=last)
    state, events = act(state, m.Roll(KAREN), "lifeguard lifeguard red red red red")
    assert m.LifeguardMoved(2, last, 1) in events
    assert state.board.track[state.lifeguard] == "yellow"


def test_ruling_the_seat_sees_the_column_a_roll_closes_before_it_sets_dice_aside() -> None:
    """At a table the odds said "ending the turn with 2 green: 100 %" after this roll, green was
    set aside, and only then did the lifeguard close green. Now it stands on green as soon as
    the roll shows it, and everything the seat is shown counts green as closed."""
    state = table(lifeguard="yellow", aside=["green"])
    state, events = act(state, m.Roll(KAREN), "green lifeguard red red blue")
    assert events[1:] == [m.LifeguardMoved(1, space(state, "yellow"), space(state, "green"))]
    assert state.board.track[state.lifeguard] == "green"
    reach = next(
        c
        for c in view(state, KAREN)["odds"]["chances"]
        if c["key"] == "reach" and c["colour"] == "green"
    )
    assert reach["at_least"] == 2 and 0 < reach["p"] < 1
    # Any colour die may still be set aside, as the rulebook says; green no longer takes one.
    assert m.SetAside(KAREN, (1,)) in legal_actions(state, KAREN)
    state, events = act(state, m.SetAside(KAREN, (1,)))
    assert events == [m.DiceSetAside(KAREN, (1,), ("green",), (2,))]
    state, events = act(state, m.Stop(KAREN))
    assert m.NoLounger(KAREN) in events


def test_a_row_a_roll_closes_is_closed_when_the_seat_chooses() -> None:
    state = table(lifeguard=space(table(), "2") - 1, aside=["red"])
    state, _ = act(state, m.Roll(KAREN), "red lifeguard blue blue green")
    assert state.board.track[state.lifeguard] == "2"
    state, _ = act(state, m.SetAside(KAREN, (1,)))
    state, events = act(state, m.Stop(KAREN))
    assert m.NoLounger(KAREN) in events  # two red, and row 2 closed


def test_a_lifeguard_die_is_not_chosen_it_goes_aside_by_itself(rng: FairRandom) -> None:
    state = table(hand=["lifeguard", "red", "blue", "blue", "green", "green"])
    with pytest.raises(IllegalAction, match="Die 0 shows the lifeguard"):
        apply(state, m.SetAside(KAREN, (0, 1)), rng)


def test_set_aside_names_each_die_once_in_increasing_order(rng: FairRandom) -> None:
    state = table(hand=["red", "red", "blue", "blue", "green", "green"])
    for dice in [(1, 0), (0, 0)]:
        with pytest.raises(IllegalAction, match="Name each die once, in increasing order"):
            apply(state, m.SetAside(KAREN, dice), rng)
    with pytest.raises(IllegalAction, match="There is no die 6"):
        apply(state, m.SetAside(KAREN, (6,)), rng)


def test_the_dice_set_aside_stay_aside_and_only_the_rest_are_rolled_again() -> None:
    state = table(aside=["red", "red"], hand=["red", "blue", "green", "yellow"])
    state, _ = act(state, m.SetAside(KAREN, (2,)))
    assert legal_actions(state, KAREN) == [m.Roll(KAREN), m.Stop(KAREN)]
    state, events = act(state, m.Roll(KAREN), "red blue red")
    assert events == [Rolled((3, 4, 5), ("red", "blue", "red"))]
    with pytest.raises(IllegalAction, match="Die 0 is already set aside"):
        act(state, m.SetAside(KAREN, (0, 3)))
    state, _ = act(state, m.SetAside(KAREN, (3, 5)))
    assert state.result() == {"red": 5}


def test_the_seat_may_stop_at_any_time_after_setting_aside() -> None:
    state = table(aside=["green", "green"])
    state, events = act(state, m.Stop(KAREN))
    assert events[0] == m.Stopped(KAREN, ("green", "green"), False)
    assert state.phase == OCCUPY


def test_ruling_a_roll_without_any_colour_sets_its_lifeguards_aside_and_play_goes_on() -> None:
    state = table(lifeguard="green", aside=["red", "red", "red", "red"], hand=["lifeguard"] * 2)
    assert legal_actions(state, KAREN) == [m.SetAside(KAREN, ())]
    state, events = act(state, m.SetAside(KAREN, ()))
    assert events[0] == m.DiceSetAside(KAREN, (), (), (4, 5))
    # All six dice are aside now: rolling is over by itself.
    assert events[1] == m.Stopped(KAREN, ("red",) * 4, True)
    assert state.phase == OCCUPY and state.lifeguard == space(state, "green")


def test_a_roll_of_only_lifeguards_mid_turn_ends_the_rolling() -> None:
    """Every die of such a roll goes aside with its lifeguard, so none is left to roll."""
    state = table(aside=["red", "red"], hand=["lifeguard", "blue", "green", "yellow"])
    state, _ = act(state, m.SetAside(KAREN, (3,)))
    state, events = act(state, m.Roll(KAREN), "lifeguard lifeguard")
    assert types(events) == ["rolled", "pool-lifeguard-moved"]
    state, events = act(state, m.SetAside(KAREN, ()))
    assert types(events)[:2] == ["pool-set-aside-dice", "pool-stopped"]
    assert events[1] == m.Stopped(KAREN, ("red", "red", "blue"), True)


def test_when_all_six_dice_are_aside_the_turn_goes_on_to_the_lounger() -> None:
    state = table(aside=["red"] * 3, hand=["red", "blue", "blue"])
    state, events = act(state, m.SetAside(KAREN, (3, 4, 5)))
    assert events[-1] == m.Stopped(KAREN, ("red", "red", "red", "red", "blue", "blue"), True)
    assert state.phase == OCCUPY


# Water-ball chips (ruling: a chip voids only the current roll)


def test_ruling_a_chip_voids_the_roll_and_the_same_dice_are_rolled_again() -> None:
    state = table(chips={KAREN: 2}, aside=["red", "red"], hand=["blue", "green", "yellow", "blue"])
    state, events = act(state, m.SpendChip(KAREN), "red red blue green")
    assert events == [
        m.ChipSpent(KAREN, 1),
        Rolled((2, 3, 4, 5), ("red", "red", "blue", "green")),
    ]
    assert state.chips[KAREN] == 1 and state.pool == CHIPS - 1
    assert state.result() == {"red": 2}  # the dice set aside earlier stay valid
    assert state.phase == CHOOSE


def test_ruling_a_chip_sends_the_voided_rolls_lifeguards_back_to_where_they_stood() -> None:
    state = table(chips={KAREN: 1}, lifeguard="red")
    state, _ = act(state, m.Roll(KAREN), "lifeguard lifeguard lifeguard red red red")
    assert state.board.track[state.lifeguard] == "blue"
    state, events = act(state, m.SpendChip(KAREN), "red red red red blue blue")
    assert events == [
        m.ChipSpent(KAREN, 0),
        m.LifeguardReturned(3, space(state, "blue"), space(state, "red")),
        Rolled((0, 1, 2, 3, 4, 5), ("red", "red", "red", "red", "blue", "blue")),
    ]
    assert state.lifeguard == space(state, "red")


def test_ruling_after_a_chip_the_new_rolls_lifeguards_walk_from_where_it_stood_before() -> None:
    state = table(chips={KAREN: 2}, lifeguard="red", aside=["blue"])
    state, _ = act(state, m.Roll(KAREN), "lifeguard red red red red")
    state, events = act(state, m.SpendChip(KAREN), "lifeguard lifeguard red red red")
    assert events[1:] == [
        m.LifeguardReturned(1, 1, 0),
        Rolled((1, 2, 3, 4, 5), ("lifeguard", "lifeguard", "red", "red", "red")),
        m.LifeguardMoved(2, 0, 2),
    ]
    state, events = act(state, m.SpendChip(KAREN), "red red red red red")
    assert m.LifeguardReturned(2, 2, 0) in events and state.lifeguard == 0
    assert state.result() == {"blue": 1}  # the die set aside before stays


def test_a_voided_roll_without_lifeguards_sends_nobody_back() -> None:
    state = table(chips={KAREN: 1}, lifeguard="purple", hand=["blue"] * 6)
    state, events = act(state, m.SpendChip(KAREN), "red " * 6)
    assert not any(isinstance(e, m.LifeguardReturned | m.LifeguardMoved) for e in events)
    assert state.lifeguard == space(state, "purple")


def test_several_chips_may_be_spent_one_after_another() -> None:
    state = table(chips={KAREN: 3}, hand=["blue"] * 6)
    state, _ = act(state, m.SpendChip(KAREN), "green " * 6)
    state, _ = act(state, m.SpendChip(KAREN), "red " * 6)
    assert faces_in_hand(state) == ["red"] * 6 and state.chips[KAREN] == 1
    assert state.pool == CHIPS - 1


def test_a_seat_without_chips_cannot_void_a_roll(rng: FairRandom) -> None:
    state = table(hand=["blue"] * 6)
    assert m.SpendChip(KAREN) not in legal_actions(state, KAREN)
    with pytest.raises(IllegalAction, match="Karen has no water-ball chips"):
        apply(state, m.SpendChip(KAREN), rng)


def test_ruling_a_chip_cannot_void_a_roll_already_set_aside(rng: FairRandom) -> None:
    state = table(chips={KAREN: 2}, aside=["blue", "blue"])
    with pytest.raises(IllegalAction, match="voids only a roll whose dice are not set aside"):
        apply(state, m.SpendChip(KAREN), rng)
    with pytest.raises(IllegalAction, match="roll first"):
        apply(table(chips={KAREN: 2}), m.SpendChip(KAREN), rng)


# Rulebook example: with three red dice the player may occupy one of these four sun loungers


def test_rulebook_example_three_red_dice_allow_the_four_loungers_of_red_rows_2_and_3() -> None:
    state = result_of("red", "red", "red", towels=dict.fromkeys(RED_2_AND_3, TOM))
    assert labels(state, choices(state, KAREN)) == RED_2_AND_3
    assert {m.Occupy(KAREN, spot(state, label)) for label in RED_2_AND_3} == set(
        legal_actions(state, KAREN)
    )


def test_rulebook_example_three_red_dice_taken_by_a_roll_then_a_stop() -> None:
    state = table(towels=dict.fromkeys(RED_2_AND_3, TOM))
    state, _ = act(state, m.Roll(KAREN), "red red blue green yellow yellow")
    state, _ = act(state, m.SetAside(KAREN, (0, 1)))
    state, _ = act(state, m.Roll(KAREN), "red blue green yellow")
    state, _ = act(state, m.SetAside(KAREN, (2,)))
    state, events = act(state, m.Stop(KAREN))
    assert events == [m.Stopped(KAREN, ("red", "red", "red"), False)]
    assert labels(state, choices(state, KAREN)) == RED_2_AND_3


def test_ruling_n_dice_of_a_colour_allow_its_column_in_every_row_worth_n_or_less() -> None:
    state = result_of("blue", "blue", "blue", "blue", towels={"blue 4": TOM})
    assert labels(state, choices(state, KAREN)) == [
        "blue 2a",
        "blue 2b",
        "blue 3a",
        "blue 3b",
        "blue 4",
    ]


def test_only_the_dice_of_the_loungers_colour_count_other_colours_do_not_add() -> None:
    state = result_of("red", "red", "blue", "green")
    assert labels(state, choices(state, KAREN)) == ["red 2a", "red 2b"]
    assert labels(state, choices(result_of("red", "blue", "green", "yellow"), KAREN)) == []


# Rulebook examples: the lifeguard on a green space and on a 2


@pytest.mark.parametrize("nth", [0, 1])
def test_rulebook_example_and_ruling_the_lifeguard_on_a_green_space_closes_the_green_column(
    nth: int, rng: FairRandom
) -> None:
    state = table(lifeguard=space(table(), "green", nth))
    assert state.board.track[state.lifeguard] == "green"
    green = result_of("green", "green", "green", "green", lifeguard=state.lifeguard)
    assert choices(green, KAREN) == {}
    with pytest.raises(IllegalAction, match="The lifeguard is watching the green column"):
        apply(green, m.Occupy(KAREN, spot(green, "green 2")), rng)
    red = result_of("red", "red", "red", "red", lifeguard=state.lifeguard)
    assert labels(red, choices(red, KAREN)) == ["red 2a", "red 2b", "red 3a", "red 3b", "red 4"]


@pytest.mark.parametrize("nth", [0, 1])
def test_rulebook_example_and_ruling_the_lifeguard_on_a_2_closes_row_2(nth: int) -> None:
    position = space(table(), "2", nth)
    state = result_of("red", "red", "red", lifeguard=position)
    assert labels(state, choices(state, KAREN)) == ["red 3a", "red 3b"]
    for colour in ("yellow", "green", "blue", "purple"):
        two = result_of(colour, colour, lifeguard=position)
        assert choices(two, KAREN) == {}, colour


def test_ruling_the_lifeguard_never_closes_the_5_point_loungers_they_lie_in_no_column_or_row() -> (
    None
):
    for position in range(16):
        state = result_of("green", "green", "green", "green", "green", lifeguard=position)
        assert {"5-point a", "5-point b"} <= set(labels(state, choices(state, KAREN)))


# Occupying a sun lounger with a bather


def test_occupying_ones_own_lounger_turns_the_towel_and_secures_it() -> None:
    state = result_of("red", "red", towels={"red 2a": KAREN})
    state, events = occupy(state, "red 2a")
    i = spot(state, "red 2a")
    assert events[0] == m.LoungerTaken(KAREN, i, OWN, None)
    assert state.towels[i] == state.bathers[i] == KAREN
    assert state.bather_supply[KAREN] == 5  # the towel's own bather side, no figure
    tom = result_of(
        "red", "red", "red", towels={"red 2a": KAREN}, bathers={"red 2a": KAREN}, turn=TOM
    )
    assert "red 2a" not in labels(tom, choices(tom, TOM))


def test_occupying_a_foreign_lounger_puts_a_bather_figure_there_and_takes_two_chips() -> None:
    state = result_of("red", "red", towels={"red 2a": TOM})
    state, events = occupy(state, "red 2a")
    i = spot(state, "red 2a")
    assert events[:2] == [m.LoungerTaken(KAREN, i, FOREIGN, TOM), m.ChipsTaken(KAREN, 2, 2)]
    assert state.towels[i] == TOM and state.bathers[i] == KAREN
    assert state.bather_supply[KAREN] == 4
    assert state.chips[KAREN] == 2 and state.pool == CHIPS - 2


def test_rulebook_example_and_ruling_the_chip_cap_a_player_holds_at_most_four_chips() -> None:
    for held, got in [(0, 2), (2, 2), (3, 1), (4, 0)]:
        state = result_of("red", "red", towels={"red 2a": TOM}, chips={KAREN: held})
        state, events = occupy(state, "red 2a")
        assert m.ChipsTaken(KAREN, got, min(4, held + 2)) in events
        assert state.chips[KAREN] == min(4, held + 2)
        assert state.pool + state.chips[KAREN] == CHIPS


def test_a_seat_without_a_bather_figure_cannot_occupy_a_foreign_lounger(rng: FairRandom) -> None:
    foreign = ["red 3a", "yellow 3a", "green 3a", "blue 3a", "purple 3a"]
    state = result_of(
        "red",
        "red",
        towels={"red 2a": TOM, **dict.fromkeys(foreign, MARY)},
        bathers=dict.fromkeys(foreign, KAREN),
    )
    assert state.bather_supply[KAREN] == 0
    assert "red 2a" not in labels(state, choices(state, KAREN))
    with pytest.raises(IllegalAction, match="Karen has no bather left to lie on Tom's towel"):
        apply(state, m.Occupy(KAREN, spot(state, "red 2a")), rng)


def test_reconquering_ones_own_lounger_sends_the_foreign_bather_home() -> None:
    state = result_of("red", "red", towels={"red 2a": KAREN}, bathers={"red 2a": TOM})
    assert state.bather_supply[TOM] == 4
    state, events = occupy(state, "red 2a")
    i = spot(state, "red 2a")
    assert events[0] == m.LoungerTaken(KAREN, i, RECONQUER, TOM)
    assert state.towels[i] == state.bathers[i] == KAREN
    assert state.bather_supply[TOM] == 5
    assert not any(isinstance(e, m.ChipsTaken) for e in events)


def test_finally_conquering_needs_the_same_result_again_and_swaps_the_towel() -> None:
    state = result_of("blue", "blue", "blue", towels={"blue 3a": TOM}, bathers={"blue 3a": KAREN})
    towels_before = state.towel_supply[KAREN]
    state, events = occupy(state, "blue 3a")
    i = spot(state, "blue 3a")
    assert events[0] == m.LoungerTaken(KAREN, i, CONQUER, TOM)
    assert state.towels[i] == state.bathers[i] == KAREN
    assert state.towel_supply[KAREN] == towels_before - 1
    assert state.towel_supply[TOM] == 16 - state.towels_laid(TOM)
    assert state.bather_supply[KAREN] == 5  # the figure came back
    assert not any(isinstance(e, m.ChipsTaken) for e in events)


def test_finally_conquering_needs_the_colour_and_row_of_that_lounger(rng: FairRandom) -> None:
    lying = {"towels": {"blue 3a": TOM}, "bathers": {"blue 3a": KAREN}}
    for dice in [("blue", "blue"), ("red", "red", "red"), ("blue", "blue", "green")]:
        state = result_of(*dice, **lying)
        assert "blue 3a" not in labels(state, choices(state, KAREN)), dice
    state = result_of("blue", "blue", **lying)
    needs = "Lounger blue 3a needs three blue dice; Karen set aside two"
    with pytest.raises(IllegalAction, match=needs):
        apply(state, m.Occupy(KAREN, spot(state, "blue 3a")), rng)
    state = result_of("blue", "blue", "blue", "blue", **lying)
    assert choices(state, KAREN)[spot(state, "blue 3a")] == CONQUER  # a lower row is allowed


def test_finally_conquering_needs_a_towel_in_hand(rng: FairRandom) -> None:
    state = result_of("blue", "blue", "blue", towels={"blue 3a": TOM}, bathers={"blue 3a": KAREN})
    state = state.evolve(towel_supply=state.towel_supply | {KAREN: 0})
    assert "blue 3a" not in labels(state, choices(state, KAREN))
    with pytest.raises(IllegalAction, match="Karen has no towel left to conquer blue 3a"):
        apply(state, m.Occupy(KAREN, spot(state, "blue 3a")), rng)


def test_only_the_owner_can_chase_a_foreign_bather_off_a_towel(rng: FairRandom) -> None:
    state = result_of("red", "red", towels={"red 2a": TOM}, bathers={"red 2a": MARY})
    assert "red 2a" not in labels(state, choices(state, KAREN))
    with pytest.raises(IllegalAction, match="only Tom can chase it away"):
        apply(state, m.Occupy(KAREN, spot(state, "red 2a")), rng)


def test_ruling_five_of_a_colour_take_a_5_point_lounger_with_a_towel_bather_side_up() -> None:
    state = result_of("yellow", "yellow", "yellow", "yellow", "yellow")
    assert {"5-point a", "5-point b", "yellow 4"} <= set(labels(state, choices(state, KAREN)))
    state, events = occupy(state, "5-point b")
    i = spot(state, "5-point b")
    assert events[0] == m.LoungerTaken(KAREN, i, FIVE_POINT, None)
    assert state.towels[i] == state.bathers[i] == KAREN
    tom = result_of("red", "red", "red", "red", "red", "red", turn=TOM)
    tom = tom.evolve(towels=state.towels, bathers=state.bathers, towel_supply=state.towel_supply)
    assert "5-point b" not in labels(tom, choices(tom, TOM))
    assert "5-point a" in labels(tom, choices(tom, TOM))


def test_four_of_a_colour_are_not_enough_for_a_5_point_lounger(rng: FairRandom) -> None:
    state = result_of("yellow", "yellow", "yellow", "yellow", "red")
    with pytest.raises(IllegalAction, match="A 5-point lounger needs five dice of one colour"):
        apply(state, m.Occupy(KAREN, spot(state, "5-point a")), rng)


def test_only_one_lounger_is_taken_per_turn_then_the_next_seat_rolls() -> None:
    state = result_of("red", "red", "red", "red")
    state, events = occupy(state, "red 4")
    assert types(events)[-2:] == ["pool-turn-ended", "pool-turn-started"]
    assert state.turn_seat == TOM and state.phase == ROLL
    assert state.dice.in_hand() == tuple(range(6)) and set(state.dice.showing) == {None}


def test_taking_a_lounger_is_not_optional_when_one_is_possible() -> None:
    state = table(aside=["red", "red"])
    state, _ = act(state, m.Stop(KAREN))
    assert state.phase == OCCUPY
    assert all(isinstance(a, m.Occupy) for a in legal_actions(state, KAREN))


def test_when_the_dice_allow_no_lounger_the_turn_ends_without_one() -> None:
    state = table(aside=["purple"] * 4, lifeguard="purple")
    state, events = act(state, m.Stop(KAREN))
    assert types(events) == [
        "pool-stopped",
        "pool-no-lounger",
        "pool-turn-ended",
        "pool-turn-started",
    ]
    assert state.turn_seat == TOM


def test_a_single_die_of_a_colour_allows_no_lounger() -> None:
    state = table(aside=["red", "blue", "green", "yellow", "purple"])
    state, events = act(state, m.Stop(KAREN))
    assert m.NoLounger(KAREN) in events


def test_turns_go_clockwise_and_wrap_round() -> None:
    state = result_of("red", "red", turn=MARY)
    state, events = occupy(state, "red 2a")
    assert events[-1] == m.TurnStarted(KAREN, 6)


# The end and the scoring


def almost_over(turn: int, seats: tuple = SEATS, **kw: Any) -> State:
    """Five towels left without a bather (red 2a, red 2b, red 3a, red 3b and purple 2a): the next
    lounger taken starts the last round."""
    free = ["red 2a", "red 2b", "red 3a", "red 3b", "purple 2a"]
    state = table(seats=seats, turn=turn, **kw)
    bathers = tuple(
        None if lounger.label in free or lounger.colour is None else towel
        for lounger, towel in zip(state.loungers, state.towels, strict=True)
    )
    return state.evolve(bathers=bathers)


def test_ruling_at_four_free_towels_the_round_is_completed_before_the_end() -> None:
    state = almost_over(KAREN).evolve(dice=table(aside=["red"] * 3).dice, phase=OCCUPY)
    owner = state.towels[spot(state, "red 3a")]
    assert owner is not None
    state, events = occupy(state, "red 3a")
    assert m.LastRound(4, MARY) in events
    assert state.last_round and state.phase == ROLL and state.turn_seat == TOM
    assert outcome(state) is None
    state, events = act(state.evolve(dice=table(aside=["blue"]).dice, phase=DECIDE), m.Stop(TOM))
    assert state.turn_seat == MARY and outcome(state) is None
    state, events = act(state.evolve(dice=table(aside=["blue"]).dice, phase=DECIDE), m.Stop(MARY))
    assert state.phase == OVER
    assert isinstance(events[-1], m.GameOver)
    assert legal_actions(state, KAREN) == []


def test_ruling_the_last_seat_of_the_round_ending_it_ends_the_game_at_once() -> None:
    state = almost_over(MARY).evolve(dice=table(aside=["red"] * 3).dice, phase=OCCUPY)
    state, events = occupy(state, "red 3a")
    assert types(events)[-3:] == ["pool-turn-ended", "pool-last-round", "pool-game-over"]
    assert state.phase == OVER


def test_the_round_begins_with_the_starting_seat() -> None:
    state = almost_over(KAREN).evolve(
        first_seat=TOM, dice=table(aside=["red"] * 3).dice, phase=OCCUPY
    )
    state, events = occupy(state, "red 3a")
    assert m.LastRound(4, KAREN) in events and state.phase == OVER


def test_the_game_goes_on_while_more_than_four_towels_are_free() -> None:
    state = almost_over(MARY).evolve(dice=table(aside=["blue"]).dice, phase=DECIDE)
    state, _ = act(state, m.Stop(MARY))
    assert state.phase == ROLL and not state.last_round


def test_nothing_is_legal_once_the_game_is_over(rng: FairRandom) -> None:
    state = almost_over(MARY).evolve(dice=table(aside=["red"] * 3).dice, phase=OCCUPY)
    state, _ = occupy(state, "red 3a")
    with pytest.raises(IllegalAction, match="The game is over"):
        apply(state, m.Roll(KAREN), rng)


def finished(**kw: Any) -> State:
    return table(**kw).evolve(phase=OVER)


def test_scoring_own_towels_score_their_row_foreign_bathers_one_and_two_chips_one() -> None:
    state = finished(
        seats=TWO,
        towels={"red 4": KAREN, "red 3a": KAREN, "red 2a": TOM, "blue 2a": TOM, "5-point a": KAREN},
        bathers={
            "red 4": KAREN,
            "red 3a": KAREN,
            "red 2a": KAREN,
            "blue 2a": TOM,
            "5-point a": KAREN,
        },
        chips={KAREN: 3, TOM: 4},
    )
    # Karen: 4 + 3 + 5 on her own towels, 1 on Tom's, 3 // 2 = 1 for chips. Tom: 2 + 4 // 2.
    karen = (
        Part("lounger", 1, 5, 5),
        Part("lounger", 1, 4, 4),
        Part("lounger", 1, 3, 3),
        Part("foreign-towel", 1, 1, 1),
        Part("chips", 3, 1),
    )
    tom = (Part("lounger", 1, 2, 2), Part("chips", 4, 2))
    ranking = (Place(1, KAREN, 14, karen), Place(2, TOM, 4, tom))
    assert outcome(state) == Outcome(KAREN, "points", {KAREN: 14, TOM: 4}, ranking=ranking)


def test_a_towel_without_a_bather_scores_nothing() -> None:
    result = outcome(finished(seats=TWO))
    assert result is not None
    assert (result.winner, result.scores) == (None, {KAREN: 0, TOM: 0})
    assert result.ranking == (Place(1, KAREN, 0), Place(1, TOM, 0))


def test_a_tie_on_points_goes_to_the_seat_with_more_bathers() -> None:
    state = finished(
        seats=TWO,
        towels={"red 4": KAREN, "red 2a": TOM, "blue 2a": TOM},
        bathers={"red 4": KAREN, "red 2a": TOM, "blue 2a": TOM},
    )
    ranking = (
        Place(1, TOM, 4, (Part("lounger", 2, 4, 2),)),
        Place(2, KAREN, 4, (Part("lounger", 1, 4, 4),)),
    )
    tie = TieBreak("bathers", 4, {KAREN: 1, TOM: 2})
    assert outcome(state) == Outcome(TOM, "points", {KAREN: 4, TOM: 4}, {}, ranking, (tie,))


def test_a_tie_on_points_and_bathers_has_no_winner() -> None:
    tied = finished(
        seats=TWO,
        towels={"red 3a": KAREN, "blue 3a": TOM},
        bathers={"red 3a": KAREN, "blue 3a": TOM},
    )
    result = outcome(tied)
    assert result is not None
    assert (result.winner, result.scores) == (None, {KAREN: 3, TOM: 3})
    assert [(p.place, p.seat) for p in result.ranking] == [(1, KAREN), (1, TOM)]
    assert result.tie_breaks == (TieBreak("bathers", 3, {KAREN: 1, TOM: 1}),)


def test_the_game_over_event_names_the_scores_and_the_tie_break() -> None:
    state = almost_over(MARY, towels={"red 3a": MARY}).evolve(
        dice=table(aside=["red"] * 3).dice, phase=OCCUPY
    )
    state, events = occupy(state, "red 3a")
    over = events[-1]
    assert isinstance(over, m.GameOver)
    result = outcome(state)
    assert result is not None
    assert over.seats == (KAREN, TOM, MARY)
    assert dict(zip(over.seats, over.scores, strict=True)) == result.scores
    assert over.winner == result.winner


# Who may act


def test_only_the_seat_on_turn_acts(rng: FairRandom) -> None:
    state = table()
    assert legal_actions(state, TOM) == [] and legal_actions(state, REFEREE) == []
    with pytest.raises(IllegalAction, match="It is Karen's turn, not Tom's"):
        apply(state, m.Roll(TOM), rng)


def test_a_seat_that_is_not_at_the_table_cannot_act(rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="There is no seat 7"):
        apply(table(), m.Roll(7), rng)


def test_a_foreign_object_is_not_an_action(rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="not an action of Cool am Pool"):
        apply(table(), "roll", rng)  # type: ignore[arg-type]


def test_four_seats_play_in_order(rng: FairRandom) -> None:
    state = table(seats=FOUR, turn=MARY, aside=["purple"], lifeguard="purple")
    state, events = act(state, m.Stop(MARY))
    assert events[-1] == m.TurnStarted(4, 6)
