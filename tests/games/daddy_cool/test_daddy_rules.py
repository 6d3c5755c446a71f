"""Every rule of the Daddy Cool rulebook and every ruling, each in a named test, and the
rulebook's examples replayed literally.

Positions: 0 is the start in front of the first floe, ``i`` the ``i``-th floe of the path in
play, ``len(path)`` the wash tub (16 on the rulebook's path). Dice show planned faces: ``F`` a
floe, ``-`` a blank (see ``daddy_table``).
"""

from __future__ import annotations

import pytest
from daddy_table import (
    FOUR,
    KAREN,
    MARY,
    RULEBOOK_PATH,
    SEATS,
    TOM,
    act,
    roll,
    stop,
    table,
)

from companion.errors import BadOptions, IllegalAction
from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.board import CRACKED, PLAIN, TUB, path_notation
from companion.games.daddy_cool.engine import apply, legal_actions, new_game, outcome
from companion.games.daddy_cool.state import (
    ALL_ASIDE,
    CHOOSE,
    ON_CRACKED,
    OVER,
    ROLL,
    TURN_START,
    State,
)
from companion.games.dice import Rolled
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE
from companion.games.outcome import Outcome, Part, Place
from companion.games.seats import SeatInfo, default_seats

TUB_AT = 16
"""The wash tub's position on the rulebook's path: 15 floes, then the tub."""


def kinds(state: State) -> str:
    """The path in play in its notation."""
    return path_notation([state.options.board.path[f] for f in state.path])


def of_type(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


# Set-up


def test_setup_lays_the_path_and_daddy_cool_and_every_cub_wait_in_front_of_the_first_floe(
    rng: FairRandom,
) -> None:
    state, events = new_game({}, SEATS, rng)
    assert kinds(state) == RULEBOOK_PATH
    assert state.tub == TUB_AT
    assert state.daddy == 0 and state.cubs == {KAREN: 0, TOM: 0, MARY: 0}
    assert state.box == ()
    assert events == [m.PathLaid(RULEBOOK_PATH, 15), m.TurnStarted(KAREN, 1, 0)]
    assert state.phase == ROLL and state.forced == (TURN_START,)


def test_the_rulebook_path_has_cracked_floes_after_the_fifth_and_the_tenth_floe() -> None:
    state = table()
    assert [i for i in range(1, state.tub) if state.cracked(i)] == [6, 12]
    plain = [i for i in range(1, state.tub) if state.kind(i) == PLAIN]
    assert len(plain) == 13
    assert state.kind(state.tub) == TUB


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_two_to_six_seats_play(count: int, rng: FairRandom) -> None:
    state, _ = new_game({}, default_seats(count), rng)
    assert len(state.cubs) == count


@pytest.mark.parametrize("count", [1, 7])
def test_setup_refuses_fewer_than_two_or_more_than_six_seats(count: int, rng: FairRandom) -> None:
    seats = [SeatInfo(i, f"P{i}", "blue") for i in range(1, count + 1)]
    with pytest.raises(BadOptions, match=f"2 to 6 seats, not {count}"):
        new_game({}, seats, rng)


def test_the_youngest_player_starts_as_first_seat(rng: FairRandom) -> None:
    state, events = new_game({"first_seat": MARY}, SEATS, rng)
    assert state.turn_seat == MARY
    assert events[-1] == m.TurnStarted(MARY, 1, 0)
    with pytest.raises(BadOptions, match="first_seat 9"):
        new_game({"first_seat": 9}, SEATS, rng)


# A turn


def test_the_first_roll_of_a_turn_throws_all_six_dice() -> None:
    _, events = roll(table(), "FF----")
    assert of_type(events, Rolled)[0].dice == (0, 1, 2, 3, 4, 5)
    assert m.Threw(KAREN, KAREN, 6, 2, again=False) in events


def test_a_seat_cannot_stop_before_it_has_rolled() -> None:
    state = table()
    assert legal_actions(state, KAREN) == [m.Roll(KAREN)]
    with pytest.raises(IllegalAction, match="Karen must roll first"):
        stop(state)


def test_floes_move_daddy_cool_only_and_their_dice_are_set_aside() -> None:
    state, events = roll(table(), "F-F-F-")
    assert state.daddy == 3
    assert state.cubs[KAREN] == 0, "the cub does not move yet"
    assert state.dice.aside == (True, False, True, False, True, False)
    assert m.Walked(0, 3, PLAIN, 0) in events
    assert state.phase == CHOOSE
    assert legal_actions(state, KAREN) == [m.Roll(KAREN), m.Stop(KAREN)]


def test_rolling_again_throws_only_the_dice_without_floes() -> None:
    state, _ = roll(table(), "F-F-F-")
    state, events = roll(state, "-F-")
    assert of_type(events, Rolled)[0].dice == (1, 3, 5)
    assert state.daddy == 4
    assert state.dice.in_hand() == (1, 5)


def test_stopping_moves_the_cub_to_daddy_cool_and_the_turn_passes_clockwise() -> None:
    state, _ = roll(table(cubs={TOM: 2}), "FF----")
    state, events = stop(state)
    assert state.cubs[KAREN] == 2
    assert m.CubJoined(KAREN, KAREN, 0, 2) in events
    assert events[-2:] == [m.TurnEnded(KAREN), m.TurnStarted(TOM, 2, 2)]
    assert state.turn_seat == TOM and state.phase == ROLL


def test_at_the_start_of_a_turn_daddy_cool_goes_next_to_that_players_cub() -> None:
    state, _ = roll(table(cubs={KAREN: 1, TOM: 5}), "FFF---")
    assert state.daddy == 4
    state, _ = stop(state)
    assert state.turn_seat == TOM and state.daddy == 5
    assert all(not aside for aside in state.dice.aside)
    assert state.dice.showing == (None,) * 6


def test_several_cubs_can_share_one_floe() -> None:
    state, _ = roll(table(cubs={TOM: 3}), "FFF---")
    state, _ = stop(state)
    assert state.cubs[KAREN] == state.cubs[TOM] == 3


def test_turns_go_clockwise_and_come_round_again() -> None:
    state = table(turn=MARY, cubs={KAREN: 1, TOM: 2, MARY: 1})
    state, events = roll(state, "------")
    assert state.turn_seat == KAREN
    assert events[-1] == m.TurnStarted(KAREN, 2, 1)


def test_ruling_a_roll_with_no_floe_ends_the_turn_and_the_cub_stays() -> None:
    state, _ = roll(table(cubs={KAREN: 2, TOM: 2, MARY: 2}), "FFF---")
    state, _ = roll(state, "FF-")
    assert state.daddy == 7
    state, events = roll(state, "-")
    assert m.NoFloe(KAREN, 2) in events
    assert state.cubs[KAREN] == 2
    assert state.turn_seat == TOM and state.daddy == 2


def test_ruling_a_first_roll_with_no_floe_ends_the_turn_at_once() -> None:
    state, events = roll(table(), "------")
    assert [type(e) for e in events] == [Rolled, m.Threw, m.NoFloe, m.TurnEnded, m.TurnStarted]
    assert state.cubs[KAREN] == 0 and state.turn_seat == TOM


def test_ruling_daddy_cool_may_not_stop_on_a_cracked_floe_so_the_remaining_dice_are_rolled() -> (
    None
):
    state, events = roll(table(cubs={KAREN: 4}), "FF----")
    assert state.daddy == 6 and state.cracked(6)
    assert m.MustRoll(KAREN, (ON_CRACKED,), 4) in events
    assert state.phase == ROLL and state.forced == (ON_CRACKED,)
    assert legal_actions(state, KAREN) == [m.Roll(KAREN)]
    with pytest.raises(IllegalAction, match="cannot stay on a cracked floe: Karen must roll the 4"):
        stop(state)
    state, events = roll(state, "F---")
    assert of_type(events, Rolled)[0].dice == (2, 3, 4, 5)
    assert state.daddy == 7 and state.phase == CHOOSE


def test_ruling_no_floe_after_a_cracked_floe_ends_the_turn_and_the_cub_stays() -> None:
    state, _ = roll(table(cubs={KAREN: 5}), "F-----")
    state, events = roll(state, "-----")
    assert m.NoFloe(KAREN, 5) in events
    assert state.cubs[KAREN] == 5 and state.turn_seat == TOM


def test_ruling_when_all_six_dice_are_set_aside_all_six_are_rolled_again() -> None:
    state, events = roll(table(), "FFFFFF")
    assert state.daddy == 6 + 0 and state.cracked(6)
    assert m.MustRoll(KAREN, (ON_CRACKED, ALL_ASIDE), 6) in events
    state2, _ = roll(table(cubs={KAREN: 1}), "FFF---")
    state2, events = roll(state2, "FFF")
    assert state2.daddy == 7 and not state2.cracked(7)
    assert m.MustRoll(KAREN, (ALL_ASIDE,), 6) in events
    with pytest.raises(IllegalAction, match="All the dice show floes: Karen must roll all"):
        stop(state2)
    state2, events = roll(state2, "-F----")
    assert of_type(events, Rolled)[0].dice == (0, 1, 2, 3, 4, 5)
    assert m.Threw(KAREN, KAREN, 6, 1, again=True) in events
    assert state2.daddy == 8 and state2.dice.in_hand() == (0, 2, 3, 4, 5)


def test_ruling_all_six_aside_then_no_floe_ends_the_turn() -> None:
    state, _ = roll(table(cubs={KAREN: 7}), "FFFFFF")
    state, events = roll(state, "------")
    assert m.NoFloe(KAREN, 7) in events and state.cubs[KAREN] == 7


def test_ruling_the_tub_ends_the_path_floes_beyond_it_count_for_nothing() -> None:
    state = table(cubs={KAREN: 14})
    state, events = roll(state, "FFFF--")
    assert m.Walked(14, TUB_AT, TUB, 2) in events
    assert state.daddy == TUB_AT


def test_our_ruling_daddy_cool_at_the_tub_takes_the_cub_along_and_it_wins_at_once() -> None:
    state, _ = roll(table(cubs={KAREN: 12, TOM: 3}), "FF----")
    state, events = roll(state, "FF--")
    assert events[-2:] == [m.CubJoined(KAREN, KAREN, 12, TUB_AT), m.Won(KAREN, "tub")]
    assert state.phase == OVER and state.winner == KAREN
    ranking = tuple(
        Place(place, seat, None, (Part("to-tub", left),))
        for place, seat, left in [(1, KAREN, 0), (2, TOM, TUB_AT - 3), (3, MARY, TUB_AT)]
    )
    assert outcome(state) == Outcome(
        KAREN, "tub", {KAREN: TUB_AT, TOM: 3, MARY: 0}, ranking=ranking
    )


def test_cubs_as_far_from_the_tub_share_a_place() -> None:
    state, _ = roll(table(cubs={KAREN: 12, TOM: 3, MARY: 3}), "FF----")
    state, _ = roll(state, "FF--")
    result = outcome(state)
    assert result is not None and result.tie_breaks == ()
    assert [(p.place, p.seat) for p in result.ranking] == [(1, KAREN), (2, TOM), (2, MARY)]


def test_a_forced_roll_that_reaches_the_tub_wins_too() -> None:
    state, _ = roll(table(path="C T"), "F-----")
    assert state.forced == (ON_CRACKED,)
    state, events = roll(state, "F----")
    assert state.winner == KAREN and events[-1] == m.Won(KAREN, "tub")


def test_the_game_is_over_when_the_first_cub_reaches_the_tub() -> None:
    state, _ = roll(table(cubs={KAREN: 15}), "F-----")
    assert outcome(state) is not None
    for actor in (KAREN, TOM, MARY, REFEREE):
        assert legal_actions(state, actor) == []
    with pytest.raises(IllegalAction, match="The game is over: Karen's cub is at the wash tub"):
        roll(state, by=TOM)


def test_the_game_runs_until_then() -> None:
    assert outcome(table(cubs={KAREN: 15, TOM: 15, MARY: 15})) is None


# Who acts


def test_only_the_seat_whose_turn_it_is_acts() -> None:
    state = table()
    assert legal_actions(state, TOM) == []
    with pytest.raises(IllegalAction, match=r"It is Karen's turn, not Tom's\."):
        roll(state, by=TOM)
    with pytest.raises(IllegalAction, match=r"There is no seat 9 at this table\."):
        roll(state, by=9)
    with pytest.raises(IllegalAction, match=r"'table' is not a seat or the referee\."):
        roll(state, by=TABLE)
    assert legal_actions(state, TABLE) == []


def test_the_referee_may_roll_and_stop_for_the_seat_whose_turn_it_is() -> None:
    state = table()
    assert legal_actions(state, REFEREE) == [m.Roll(REFEREE)]
    state, events = roll(state, "FF----", by=REFEREE)
    assert m.Threw(KAREN, REFEREE, 6, 2, again=False) in events
    state, events = stop(state, by=REFEREE)
    assert m.CubJoined(KAREN, REFEREE, 0, 2) in events
    assert state.cubs[KAREN] == 2


def test_an_action_of_another_game_is_refused(rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="not an action of Daddy Cool"):
        apply(table(), Rolled((0,), ("floe",)), rng)  # type: ignore[arg-type]


# The rulebook's examples


def test_rulebook_example_three_floes_then_stop_moves_the_cub_three_floes() -> None:
    """The rulebook: "Three of the dice show ice floes ... He decides not to roll again
    and moves his bear cub three ice floes forward to stand next to Daddy Cool. His turn is
    over."
    """
    state, _ = roll(table(), "FFF---")
    assert state.daddy == 3
    state, _ = stop(state)
    assert state.cubs[KAREN] == 3 and state.turn_seat == TOM


def test_rulebook_example_3_plus_3_all_six_on_a_cracked_floe_plus_2_is_8_floes() -> None:
    """The rulebook: "He rolls all six dice. Three ... show ice floes ... Only the three
    dice not showing ice floes are thrown ... All three dice show ice floes ... he must roll all
    the dice again because all six dice show ice floes. Besides, Daddy Cool is now standing on a
    cracked ice floe ... He rolls two ice floes ... moves his bear cub next to Daddy Cool ...
    eight floes forward."
    """
    state = table()
    state, _ = roll(state, "-F-FF-")
    assert state.daddy == 3 and state.phase == CHOOSE
    state, events = roll(state, "FFF")
    assert of_type(events, Rolled)[0].dice == (0, 2, 5)
    assert state.daddy == 6 and state.cracked(6)
    assert m.MustRoll(KAREN, (ON_CRACKED, ALL_ASIDE), 6) in events
    assert legal_actions(state, KAREN) == [m.Roll(KAREN)]
    state, events = roll(state, "F--F--")
    assert of_type(events, Rolled)[0].dice == (0, 1, 2, 3, 4, 5)
    assert state.daddy == 8 and state.phase == CHOOSE
    state, events = stop(state)
    assert m.CubJoined(KAREN, KAREN, 0, 8) in events
    assert state.cubs[KAREN] == 8


def test_rulebook_example_the_yellow_cub_makes_the_path_longer() -> None:
    """The rulebook: "After the turn of the player with the yellow bear cub, all the cubs
    are past the first six ice floes. The first ice floe is put back in the box. The other five
    ice floes are repositioned between the next to the last ice floe and the wash tub ... The
    cracked ice floe is laid first."
    """
    state = table(turn=TOM, cubs={KAREN: 9, TOM: 5, MARY: 8})
    assert state.seat(TOM).colour == "yellow"
    state, _ = roll(state, "FF----")
    state, events = stop(state)
    assert state.box == (0,), "the first floe goes back in the box"
    assert state.path == (6, 7, 8, 9, 10, 11, 12, 13, 14, 5, 1, 2, 3, 4, 15)
    assert kinds(state) == ". . . . . C . . . C . . . . T"
    lengthened = of_type(events, m.PathLengthened)
    assert lengthened == [
        m.PathLengthened(0, (5, 1, 2, 3, 4), (CRACKED, *[PLAIN] * 4), 6, kinds(state))
    ]
    assert state.cubs == {KAREN: 3, TOM: 1, MARY: 2}
    assert state.tub == 15
    assert events.index(lengthened[0]) < events.index(m.TurnStarted(MARY, 2, 2))


# The path gets longer


def test_ruling_one_floe_behind_the_last_cub_stays_where_it_is() -> None:
    state, _ = roll(table(cubs={TOM: 2, MARY: 2}), "FF----")
    state, events = stop(state)
    assert of_type(events, m.PathLengthened) == []
    assert state.path == tuple(range(16)) and state.cubs == {KAREN: 2, TOM: 2, MARY: 2}


def test_ruling_two_floes_behind_the_last_cub_the_first_to_the_box_the_other_before_the_tub() -> (
    None
):
    state, _ = roll(table(cubs={TOM: 3, MARY: 4}), "FFF---")
    state, _ = stop(state)
    assert state.box == (0,)
    assert state.path == (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1, 15)
    assert state.cubs == {KAREN: 1, TOM: 1, MARY: 2}


def test_ruling_cracked_floes_are_laid_first_before_the_tub() -> None:
    path = ". C . C . . . T"
    state, _ = roll(table(path=path, cubs={TOM: 6, MARY: 7}), "FFFFF-")
    state, _ = stop(state)
    assert state.box == (0,)
    assert state.path == (4, 5, 6, 1, 3, 2, 7), "cracked floes 1 and 3 first, then plain 2"
    assert kinds(state) == ". . . C C . T"
    assert state.cubs == {KAREN: 1, TOM: 2, MARY: 3}


def test_lengthening_moves_every_cub_with_its_floe() -> None:
    state = table(turn=TOM, cubs={KAREN: 11, TOM: 4, MARY: 9})
    under = {seat: state.path[pos - 1] for seat, pos in state.cubs.items() if seat != TOM}
    state, _ = roll(state, "FFFFF-")
    state, _ = stop(state)
    assert {s: state.path[p - 1] for s, p in state.cubs.items() if s != TOM} == under


def test_no_lengthening_while_a_cub_waits_at_the_start() -> None:
    state, _ = roll(table(cubs={TOM: 9}), "FFFF--")
    state, events = stop(state)
    assert state.cubs[MARY] == 0
    assert of_type(events, m.PathLengthened) == [] and state.box == ()


def test_lengthening_happens_as_soon_as_two_floes_lie_behind_the_last_cub() -> None:
    state = table(turn=MARY, cubs={KAREN: 5, TOM: 7, MARY: 0}, seats=SEATS)
    state, _ = roll(state, "FFF---")
    state, events = stop(state)
    (lengthened,) = of_type(events, m.PathLengthened)
    assert lengthened.shift == 2 and state.box == (0,)
    assert state.cubs == {KAREN: 3, TOM: 5, MARY: 1}


def test_ruling_in_the_game_for_the_youngest_players_the_path_stays_as_laid() -> None:
    state = table(turn=TOM, cubs={KAREN: 9, TOM: 5, MARY: 8}, lengthen_path=False)
    state, _ = roll(state, "FF----")
    state, events = stop(state)
    assert of_type(events, m.PathLengthened) == []
    assert state.path == tuple(range(16)) and state.box == ()
    assert state.cubs == {KAREN: 9, TOM: 7, MARY: 8}


def test_the_path_keeps_its_floes_over_many_lengthenings() -> None:
    state = table(seats=FOUR[:2])
    boxed = []
    for _ in range(300):
        if state.phase == OVER:
            break
        n = len(state.next_roll())
        state, events = roll(state, "F" + "-" * (n - 1))
        if state.phase == CHOOSE:
            state, more = stop(state)
            events += more
        boxed += [e.boxed for e in of_type(events, m.PathLengthened)]
        assert sorted((*state.path, *state.box)) == list(range(16))
        assert list(state.box) == boxed
    assert state.phase == OVER and len(boxed) >= 10


def test_a_forced_roll_is_explained_with_both_reasons() -> None:
    state, _ = roll(table(), "FFFFFF")
    with pytest.raises(IllegalAction) as info:
        act(state, m.Stop(KAREN))
    assert str(info.value) == (
        "Daddy Cool cannot stay on a cracked floe and all the dice show floes: "
        "Karen must roll all the dice again."
    )
