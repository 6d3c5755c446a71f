"""Every rule of the Cool Runnings rulebook and rulings 1-13, each in a named test.

Positions: 0 is the start area, 1..n the spaces, n + 1 across the finish line.
"""

from __future__ import annotations

import pytest
from gameplay import KAREN, MARY, TOM, TableBuilder

from companion.errors import BadOptions, IllegalAction
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import apply, legal_actions, new_game, outcome
from companion.games.cool_runnings.state import CARRY_OUT, COUNT, DEFLECT, OVER, PLAY, State
from companion.games.cool_runnings.words import narrate
from companion.games.deck import DISCARD, DRAW, Drew, Shuffled
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE
from companion.games.outcome import Outcome
from companion.games.seats import SeatInfo, default_seats

BEN = 4


def card_of(state: State, seat: int, notation: str) -> int:
    """The id of the card with this notation in a seat's hand."""
    for c in state.hand(seat):
        if state.card(c).notation() == notation:
            return c
    raise AssertionError(f"{notation} is not in seat {seat}'s hand")


def types(events: list) -> list[str]:
    return [e.type for e in events]


# Set-up (rulebook "Game Setup") and ruling 1's starting seat


def test_ruling_1_setup_lays_the_track_deals_four_and_starts_with_the_chosen_seat(
    rng: FairRandom, rulebook_seats: tuple[SeatInfo, ...]
) -> None:
    state, events = new_game({"first_seat": TOM}, rulebook_seats, rng)
    assert len(state.parts) == 5 and len(set(state.parts)) == 5
    assert types(events)[:2] == ["track-built", "shuffled"]
    assert all(len(state.hand(s.seat)) == 4 for s in rulebook_seats)
    assert state.positions == {KAREN: 0, TOM: 0, MARY: 0}
    assert len(state.deck.pile(DRAW)) == 60 - 12
    assert state.turn_seat == TOM and state.phase == PLAY
    drew = [e for e in events if isinstance(e, Drew)]
    assert [e.to for e in drew] == ["hand:2", "hand:3", "hand:1"]


def test_setup_refuses_a_seat_count_or_first_seat_the_game_does_not_have(
    rng: FairRandom,
) -> None:
    with pytest.raises(BadOptions, match="2 to 4 seats"):
        new_game({}, default_seats(5), rng)
    with pytest.raises(BadOptions, match="2 to 4 seats"):
        new_game({}, default_seats(1), rng)
    with pytest.raises(BadOptions, match="first_seat 9"):
        new_game({"first_seat": 9}, default_seats(3), rng)


def test_a_given_part_order_is_laid_as_given(rng: FairRandom) -> None:
    state, _ = new_game({"part_order": ["E", "A", "C", "B", "D"]}, default_seats(2), rng)
    assert state.parts == ("E", "A", "C", "B", "D")


def test_ruling_13_three_parts_make_a_shorter_track(rng: FairRandom) -> None:
    short, _ = new_game({"parts": 3}, default_seats(2), rng)
    full, _ = new_game({"parts": 5}, default_seats(2), rng)
    assert len(short.parts) == 3
    assert len(short.track) < len(full.track)


# A turn: one card, either half, never both


def test_a_card_is_played_either_as_an_attack_or_as_a_move_never_both(table: TableBuilder) -> None:
    state = table(hands={KAREN: ["water-bath +3"]})
    card = card_of(state, KAREN, "water-bath +3")
    actions = legal_actions(state, KAREN)
    assert m.PlayAttack(KAREN, card, TOM) in actions
    assert m.PlayMove(KAREN, card, KAREN) in actions
    after, _ = apply(state, m.PlayMove(KAREN, card, KAREN), FairRandom(bytes(32)))
    assert card not in after.hand(KAREN)
    assert after.deck.pile(DISCARD)[0] == card
    with pytest.raises(IllegalAction):
        apply(after, m.PlayAttack(KAREN, card, TOM), FairRandom(bytes(32)))


def test_only_the_active_seat_plays_a_card(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={TOM: ["polish +1"]})
    card = card_of(state, TOM, "polish +1")
    with pytest.raises(IllegalAction, match="It is Karen's turn, not Tom's"):
        apply(state, m.PlayMove(TOM, card, TOM), rng)


def test_a_seat_cannot_play_a_card_it_does_not_hold(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["polish +1"], TOM: ["squeeze +2"]})
    toms = card_of(state, TOM, "squeeze +2")
    with pytest.raises(IllegalAction, match="Karen does not hold that card"):
        apply(state, m.PlayMove(KAREN, toms, KAREN), rng)


# Moving: blue forwards, red backwards, any piece, occupied spaces skipped (ruling 3)


def test_blue_moves_forwards_and_red_moves_backwards(table: TableBuilder, rng: FairRandom) -> None:
    state = table(positions={KAREN: 5}, hands={KAREN: ["polish +2", "squeeze -3"]})
    forward, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert forward.positions[KAREN] == 7
    back, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "squeeze -3"), KAREN), rng)
    assert back.positions[KAREN] == 2


def test_a_card_may_move_another_players_piece(table: TableBuilder, rng: FairRandom) -> None:
    state = table(positions={TOM: 3}, hands={KAREN: ["polish +2"]})
    after, events = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), TOM), rng)
    assert after.positions[TOM] == 5 and after.positions[KAREN] == 0
    assert m.Moved(TOM, 3, 5, "card") in events


def test_ruling_3_occupied_spaces_are_skipped_forwards(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(positions={KAREN: 1, TOM: 2, MARY: 3}, hands={KAREN: ["polish +2"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert after.positions[KAREN] == 5  # 2 and 3 do not count: 4 is one, 5 is two


def test_ruling_3_occupied_spaces_are_skipped_backwards(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(positions={KAREN: 6, TOM: 5, MARY: 3}, hands={KAREN: ["polish -2"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish -2"), KAREN), rng)
    assert after.positions[KAREN] == 2  # 5 and 3 are skipped: 4 is one, 2 is two


def test_ruling_2_a_backward_move_ends_in_the_start_area_never_behind_it(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(positions={KAREN: 2, TOM: 1}, hands={KAREN: ["squeeze -3"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "squeeze -3"), KAREN), rng)
    assert after.positions[KAREN] == 0


def test_ruling_2_the_start_area_holds_any_number_of_pieces(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(positions={KAREN: 1, TOM: 0, MARY: 0}, hands={KAREN: ["polish -1"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish -1"), KAREN), rng)
    assert after.positions == {KAREN: 0, TOM: 0, MARY: 0}


def test_ruling_3_a_forward_move_past_the_last_free_space_crosses_the_line_and_wins(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". . . . .", positions={KAREN: 3, TOM: 5}, hands={KAREN: ["polish +2"]})
    after, events = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert after.phase == OVER
    assert outcome(after) == Outcome(KAREN, "finish")
    assert events[-1] == m.Won(KAREN, "finish")
    assert legal_actions(after, TOM) == [] and legal_actions(after, REFEREE) == []


def test_moving_another_piece_across_the_line_makes_that_player_win(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". . . .", positions={TOM: 4}, hands={KAREN: ["polish +1"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +1"), TOM), rng)
    assert outcome(after) == Outcome(TOM, "finish")


# Movement spaces (ruling 4)


def test_ruling_4_a_movement_space_moves_the_piece_again_skipping_occupied_spaces(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". +2 . . . .", positions={TOM: 3}, hands={KAREN: ["polish +2"]})
    after, events = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert after.positions[KAREN] == 5  # lands on +2 at 2; 3 is Tom's: 4, 5
    assert m.Moved(KAREN, 2, 5, "movement-space") in events


def test_ruling_4_a_movement_space_leading_onto_another_does_nothing_more(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". +2 . -1 . .", hands={KAREN: ["polish +2"]})
    after, events = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert after.positions[KAREN] == 4
    assert [e for e in events if isinstance(e, m.Moved)] == [
        m.Moved(KAREN, 0, 2, "card"),
        m.Moved(KAREN, 2, 4, "movement-space"),
    ]


def test_ruling_4_a_backward_movement_space_counts_free_spaces_too(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". . . . -2 .", positions={KAREN: 3, TOM: 4}, hands={KAREN: ["polish +1"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +1"), KAREN), rng)
    assert after.positions[KAREN] == 2  # to 5 (4 is Tom's), then -2: 3 is free now, then 2


def test_ruling_4_lava_applies_where_the_movement_space_leaves_the_piece(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(
        track=". +2 . L . .", hands={KAREN: ["polish +2"]}, draw=["squeeze +1"], turn=KAREN
    )
    after, events = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    assert after.positions[KAREN] == 4
    assert any(isinstance(e, m.LavaRevealed) for e in events)


def test_ruling_4_a_movement_space_reached_by_a_movement_space_is_ignored_even_onto_the_line(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". . +3 .", hands={KAREN: ["polish +3"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +3"), KAREN), rng)
    assert outcome(after) == Outcome(KAREN, "finish")


# Attacks and deflections (rulings 5 and 6)


def test_rulebook_example_the_water_bath_chain_karen_tom_mary_tom(
    table: TableBuilder, rng: FairRandom
) -> None:
    """Karen attacks Tom; Tom deflects to Mary; Mary deflects back to Tom; Tom has no card left
    and is hit; Mary played the last card, so she dunks Tom's cube."""
    state = table(
        hands={
            KAREN: ["water-bath +3"],
            TOM: ["water-bath +4", "polish +1"],
            MARY: ["water-bath -1"],
        }
    )
    state, ev = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    assert state.phase == DEFLECT and state.pending.target == TOM
    state, _ = apply(state, m.Deflect(TOM, card_of(state, TOM, "water-bath +4"), MARY), rng)
    state, _ = apply(state, m.Deflect(MARY, card_of(state, MARY, "water-bath -1"), TOM), rng)
    assert state.pending.target == TOM and state.pending.carrier == MARY
    assert [a for a in legal_actions(state, TOM) if isinstance(a, m.Deflect)] == []
    state, ev = apply(state, m.TakeHit(TOM), rng)
    assert m.Hit(TOM, "water-bath", MARY, "card", False) in ev
    assert state.phase == CARRY_OUT
    assert [by for by, _, _ in state.pending.chain] == [KAREN, TOM, MARY]
    with pytest.raises(IllegalAction, match="Mary carries out the Water bath"):
        apply(state, m.AttackDone(TOM), rng)
    state, ev = apply(state, m.AttackDone(MARY), rng)
    assert state.phase == PLAY and state.turn_seat == TOM
    assert types(ev)[0] == "attack-ended"


def test_ruling_6_a_deflection_needs_a_card_with_the_same_picture(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["squeeze +1"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    with pytest.raises(IllegalAction, match="To deflect a Water bath, play a Water bath card"):
        apply(state, m.Deflect(TOM, card_of(state, TOM, "squeeze +1"), MARY), rng)


def test_ruling_6_the_deflector_may_name_the_attacker_but_not_itself(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["water-bath +4"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    card = card_of(state, TOM, "water-bath +4")
    assert m.Deflect(TOM, card, KAREN) in legal_actions(state, TOM)
    with pytest.raises(IllegalAction, match="Tom cannot deflect the attack onto Tom"):
        apply(state, m.Deflect(TOM, card, TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, card, KAREN), rng)
    assert state.pending.target == KAREN and state.pending.carrier == TOM


def test_ruling_6_a_seat_may_choose_not_to_deflect(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["polish +3"], TOM: ["polish +4"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "polish +3"), TOM), rng)
    state, ev = apply(state, m.TakeHit(TOM), rng)
    assert m.Hit(TOM, "polish", KAREN, "card", True) in ev
    assert len(state.hand(TOM)) == 1


def test_a_seat_cannot_attack_itself(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["polish +3"]})
    with pytest.raises(IllegalAction, match="Karen cannot attack their own cube"):
        apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "polish +3"), KAREN), rng)


def test_ice_shields_a_piece_from_attacks(table: TableBuilder, rng: FairRandom) -> None:
    state = table(track=". . I . .", positions={MARY: 3}, hands={KAREN: ["polish +3"]})
    card = card_of(state, KAREN, "polish +3")
    assert m.PlayAttack(KAREN, card, MARY) not in legal_actions(state, KAREN)
    with pytest.raises(
        IllegalAction, match="Mary's piece is on an ice space: it cannot be attacked"
    ):
        apply(state, m.PlayAttack(KAREN, card, MARY), rng)


def test_ice_shields_a_piece_from_deflections(table: TableBuilder, rng: FairRandom) -> None:
    state = table(
        track=". . I . .",
        positions={MARY: 3},
        hands={KAREN: ["polish +3"], TOM: ["polish +4"]},
    )
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "polish +3"), TOM), rng)
    card = card_of(state, TOM, "polish +4")
    assert [a.target for a in legal_actions(state, TOM) if isinstance(a, m.Deflect)] == [KAREN]
    with pytest.raises(IllegalAction, match="Mary's piece is on an ice space"):
        apply(state, m.Deflect(TOM, card, MARY), rng)


def test_a_piece_on_ice_can_still_be_moved_by_others(table: TableBuilder, rng: FairRandom) -> None:
    state = table(track=". . I . .", positions={MARY: 3}, hands={KAREN: ["polish -1"]})
    after, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish -1"), MARY), rng)
    assert after.positions[MARY] == 2


def test_ruling_5_with_no_seat_to_target_cards_can_only_move(table: TableBuilder) -> None:
    state = table(track=". I I .", positions={TOM: 2, MARY: 3}, hands={KAREN: ["polish +3"]})
    actions = legal_actions(state, KAREN)
    assert actions and all(isinstance(a, m.PlayMove | m.Melted) for a in actions)


def test_ruling_5_a_melted_seat_cannot_be_attacked(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["polish +3"]})
    state, _ = apply(state, m.Melted(REFEREE, MARY), rng)
    state = state.evolve(turn_seat=KAREN)
    with pytest.raises(IllegalAction, match="Mary's cube has melted"):
        apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "polish +3"), MARY), rng)


# Lava (ruling 9)


def test_rulebook_example_red_2_onto_lava_karen_carries_out_the_revealed_water_bath(
    rng: FairRandom, table: TableBuilder
) -> None:
    """Mary plays the red 2 on Tom's piece; Tom lands on lava and reveals a Water bath; Karen,
    on Tom's left, dunks his cube. Seats clockwise: Tom, Karen, Mary (Karen is Tom's left)."""
    seats = (
        SeatInfo(1, "Tom", "yellow"),
        SeatInfo(2, "Karen", "blue"),
        SeatInfo(3, "Mary", "green"),
    )
    tom, karen, mary = 1, 2, 3
    state = table(
        track=". . L . . .",
        positions={tom: 5},
        hands={mary: ["squeeze -2", "polish -1", "polish -2", "polish +3"], tom: ["water-bath +1"]},
        draw=["water-bath +3", "polish +1", "polish +2"],
        turn=mary,
        seats=seats,
    )
    state, ev = apply(state, m.PlayMove(mary, card_of(state, mary, "squeeze -2"), tom), rng)
    assert state.positions[tom] == 3
    revealed = next(e for e in ev if isinstance(e, m.LavaRevealed))
    assert (revealed.seat, revealed.attack, revealed.carrier) == (tom, "water-bath", karen)
    assert state.phase == CARRY_OUT and state.pending.source == "lava"
    # No deflection: Tom holds a Water bath but the attack is not his to answer.
    assert not any(isinstance(a, m.Deflect | m.TakeHit) for a in legal_actions(state, tom))
    state, ev = apply(state, m.AttackDone(karen), rng)
    assert state.deck.pile(DISCARD)[0] == revealed.card
    assert state.turn_seat == tom


def test_ruling_9_the_lava_carrier_skips_a_melted_left_neighbour(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". L .", hands={MARY: ["polish +2"]}, draw=["polish +1"], turn=MARY)
    state, _ = apply(state, m.Melted(TOM, TOM), rng)
    state, ev = apply(state, m.PlayMove(MARY, card_of(state, MARY, "polish +2"), KAREN), rng)
    revealed = next(e for e in ev if isinstance(e, m.LavaRevealed))
    assert (revealed.seat, revealed.carrier) == (KAREN, MARY)


def test_ruling_9_a_lava_ten_count_waits_for_the_count(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". L .", hands={KAREN: ["water-bath +2"]}, draw=["hot-breath +1"])
    state, ev = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "water-bath +2"), KAREN), rng)
    assert state.phase == COUNT
    assert m.CountStarted(KAREN, 10, 0.8) in ev


def test_ruling_8_lava_on_an_empty_draw_pile_reshuffles_the_discard(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". L .", hands={KAREN: ["water-bath +2"]}, draw=[])
    state, ev = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "water-bath +2"), KAREN), rng)
    kinds = types(ev)
    assert kinds.index("shuffled") < kinds.index("lava")


# Carrying attacks out (ruling 10)


def test_ruling_10_a_ten_count_waits_for_the_table_or_the_referees_skip(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["squeeze +2", "polish +1"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "squeeze +2"), TOM), rng)
    state, ev = apply(state, m.TakeHit(TOM), rng)
    assert state.phase == COUNT
    assert m.CountStarted(TOM, 10, 0.8) in ev
    assert legal_actions(state, TABLE) == [m.CountFinished(TABLE)]
    assert m.CountFinished(REFEREE) in legal_actions(state, REFEREE)
    with pytest.raises(IllegalAction, match="Only the table's timer or the referee"):
        apply(state, m.CountFinished(KAREN), rng)
    with pytest.raises(IllegalAction, match="ten-count"):
        apply(state, m.PlayMove(KAREN, state.hand(KAREN)[0], KAREN), rng)
    done, ev = apply(state, m.CountFinished(TABLE), rng)
    assert done.phase == PLAY and done.turn_seat == TOM
    skipped, _ = apply(state, m.CountFinished(REFEREE), rng)
    assert skipped.turn_seat == TOM


def test_ruling_10_the_count_pace_is_an_option(table: TableBuilder) -> None:
    state, _ = new_game({"count_pace_s": 1.2}, default_seats(2), FairRandom(bytes(32)))
    assert state.options.count_pace_s == 1.2


@pytest.mark.parametrize("attack", ["cold-shower", "thawing-salt", "water-bath"])
def test_ruling_10_other_attacks_wait_for_the_carriers_done(
    table: TableBuilder, rng: FairRandom, attack: str
) -> None:
    hands = {KAREN: [f"{attack} +2"]}
    state = table(hands=hands)
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, f"{attack} +2"), TOM), rng)
    state, _ = apply(state, m.TakeHit(TOM), rng)
    assert state.phase == CARRY_OUT
    assert legal_actions(state, KAREN)[:1] == [m.AttackDone(KAREN)]
    assert not any(isinstance(a, m.WrongGuess) for a in legal_actions(state, KAREN))
    state, _ = apply(state, m.AttackDone(REFEREE), rng)
    assert state.phase == PLAY


def test_ruling_10_each_wrong_guess_is_one_more_round(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["guessing-game +2"]})
    state, _ = apply(
        state, m.PlayAttack(KAREN, card_of(state, KAREN, "guessing-game +2"), TOM), rng
    )
    state, _ = apply(state, m.TakeHit(TOM), rng)
    state, ev = apply(state, m.WrongGuess(KAREN), rng)
    assert ev == [m.GuessedWrong(TOM, 2)]
    state, ev = apply(state, m.WrongGuess(KAREN), rng)
    assert ev == [m.GuessedWrong(TOM, 3)] and state.phase == CARRY_OUT
    state, _ = apply(state, m.AttackDone(KAREN), rng)
    assert state.phase == PLAY


# Drawing (rulings 7 and 8)


def test_ruling_7_only_the_active_seat_refills_to_four_at_the_end_of_its_turn(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(
        hands={KAREN: ["water-bath +3", "polish +1"], TOM: ["water-bath +4", "polish +2"]},
        draw=["squeeze +1", "squeeze +2", "squeeze -1", "hot-breath +1"],
    )
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, card_of(state, TOM, "water-bath +4"), KAREN), rng)
    state, _ = apply(state, m.TakeHit(KAREN), rng)
    state, ev = apply(state, m.AttackDone(TOM), rng)
    assert len(state.hand(KAREN)) == 4
    assert len(state.hand(TOM)) == 1
    assert [e for e in ev if isinstance(e, Drew)] == [Drew("hand:1", state.hand(KAREN)[1:])]


def test_ruling_7_a_seat_that_starts_its_turn_with_no_cards_draws_four_first(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3", "polish +1"], TOM: ["water-bath +4"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, card_of(state, TOM, "water-bath +4"), MARY), rng)
    assert state.hand(TOM) == ()
    state, _ = apply(state, m.TakeHit(MARY), rng)
    state, ev = apply(state, m.AttackDone(TOM), rng)
    assert state.turn_seat == TOM and len(state.hand(TOM)) == 4
    assert Drew("hand:2", state.hand(TOM)) in ev


def test_ruling_7_played_and_deflected_cards_go_face_up_on_the_discard_pile(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["water-bath +4"]})
    k, t = card_of(state, KAREN, "water-bath +3"), card_of(state, TOM, "water-bath +4")
    state, _ = apply(state, m.PlayAttack(KAREN, k, TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, t, MARY), rng)
    assert state.deck.pile(DISCARD)[:2] == (t, k)


def test_ruling_8_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["polish +1"]}, draw=[])
    discarded = set(state.deck.pile(DISCARD))
    state, ev = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +1"), KAREN), rng)
    shuffle = next(e for e in ev if isinstance(e, Shuffled))
    played = ev[0].card
    assert shuffle.pile == DISCARD and set(shuffle.cards) == discarded | {played}
    assert len(state.hand(KAREN)) == 4
    held = sum(len(state.hand(s)) for s in (KAREN, TOM, MARY))
    assert len(state.deck.pile(DRAW)) == 60 - held


# Melted cubes and the two ways to win (ruling 11)


def test_ruling_11_a_melted_cube_leaves_the_board_and_its_hand_goes_to_the_discard(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(positions={TOM: 4}, hands={TOM: ["polish +1", "squeeze +2"]})
    tom_cards = state.hand(TOM)
    with pytest.raises(IllegalAction, match="Only Tom or the referee"):
        apply(state, m.Melted(KAREN, TOM), rng)
    state, ev = apply(state, m.Melted(TOM, TOM), rng)
    assert TOM not in state.positions and state.melted == (TOM,)
    assert state.hand(TOM) == ()
    assert set(tom_cards) <= set(state.deck.pile(DISCARD))
    assert ev == [m.CubeMelted(TOM, TOM)]
    with pytest.raises(IllegalAction, match="Tom's cube has melted"):
        apply(state, m.Melted(TOM, TOM), rng)


def test_ruling_1_the_left_neighbour_is_the_next_seat_still_in_the_game(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["polish +1"]})
    state, _ = apply(state, m.Melted(REFEREE, TOM), rng)
    state, _ = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +1"), KAREN), rng)
    assert state.turn_seat == MARY
    assert state.left_of(MARY) == KAREN


def test_ruling_11_the_last_cube_standing_wins(table: TableBuilder, rng: FairRandom) -> None:
    state = table()
    state, _ = apply(state, m.Melted(REFEREE, TOM), rng)
    assert state.phase == PLAY
    state, ev = apply(state, m.Melted(KAREN, KAREN), rng)
    assert outcome(state) == Outcome(MARY, "last-cube")
    assert ev[-1] == m.Won(MARY, "last-cube")


def test_ruling_11_the_active_seat_melting_passes_the_turn(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={TOM: ["polish +1"]})
    state, ev = apply(state, m.Melted(KAREN, KAREN), rng)
    assert state.turn_seat == TOM and state.phase == PLAY
    assert ev[-1] == m.TurnStarted(TOM, 2)


def test_ruling_11_a_cube_melting_in_an_attack_ends_that_attack(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["squeeze +2"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "squeeze +2"), TOM), rng)
    state, _ = apply(state, m.TakeHit(TOM), rng)
    state, ev = apply(state, m.Melted(TOM, TOM), rng)
    assert m.AttackEnded(TOM, "squeeze", True, out=TOM) in ev
    assert state.phase == PLAY and state.turn_seat == MARY
    assert len(state.hand(KAREN)) == 4


def test_ruling_11_an_attack_called_off_says_who_is_out_and_why(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["thawing-salt +2"]})
    card = card_of(state, KAREN, "thawing-salt +2")
    state, _ = apply(state, m.PlayAttack(KAREN, card, TOM), rng)
    state, _ = apply(state, m.TakeHit(TOM), rng)
    state, ev = apply(state, m.Melted(REFEREE, KAREN), rng)
    lines = narrate(ev, state)
    assert "Karen is out: the Thawing salt on Tom is called off." in [line.en for line in lines]
    german = "Karen ist raus: Der Angriff „Streusalz“ an Tom fällt aus."
    assert german in [line.de for line in lines]


def test_ruling_11_an_earlier_deflector_melting_does_not_stop_the_chain(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["water-bath +4"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, card_of(state, TOM, "water-bath +4"), MARY), rng)
    state, _ = apply(state, m.Melted(REFEREE, KAREN), rng)
    assert state.phase == DEFLECT and state.pending.target == MARY
    state, _ = apply(state, m.TakeHit(MARY), rng)
    state, _ = apply(state, m.AttackDone(TOM), rng)
    assert state.turn_seat == TOM  # the turn passes on from Karen, who is out


def test_referee_can_answer_for_a_target_whose_phone_is_away(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["cold-shower +2"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "cold-shower +2"), TOM), rng)
    assert m.TakeHit(REFEREE) in legal_actions(state, REFEREE)
    with pytest.raises(IllegalAction, match="aimed at Tom, not Mary"):
        apply(state, m.TakeHit(MARY), rng)
    with pytest.raises(IllegalAction, match="aimed at Tom, not the table"):
        apply(state, m.TakeHit(TABLE), rng)
    state, _ = apply(state, m.TakeHit(REFEREE), rng)
    assert state.phase == CARRY_OUT


def test_nothing_is_legal_once_the_game_is_over(table: TableBuilder, rng: FairRandom) -> None:
    state = table()
    state, _ = apply(state, m.Melted(REFEREE, TOM), rng)
    state, _ = apply(state, m.Melted(REFEREE, MARY), rng)
    with pytest.raises(IllegalAction, match="The game is over"):
        apply(state, m.Melted(REFEREE, KAREN), rng)


def test_a_seat_that_is_not_at_the_table_cannot_act(table: TableBuilder, rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="There is no seat 7"):
        apply(table(), m.Melted(7, 7), rng)


def test_a_foreign_object_is_not_an_action(table: TableBuilder, rng: FairRandom) -> None:
    with pytest.raises(IllegalAction, match="not an action of Cool Runnings"):
        apply(table(), "play", rng)  # type: ignore[arg-type]


def test_a_count_is_told_when_it_starts_and_when_it_is_over_not_counted_ahead(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["squeeze +2"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "squeeze +2"), TOM), rng)
    state, ev = apply(state, m.TakeHit(TOM), rng)
    started = [line.en for line in narrate(ev, state)]
    assert "The count for Tom starts: ten ice cubes." in started
    assert not [line for line in started if "one ice cube" in line or "two" in line]
    state, ev = apply(state, m.CountFinished(TABLE), rng)
    lines = narrate(ev, state)
    assert lines[0].en == "The count for Tom is over."
    assert lines[0].de == "Das Zählen für Tom ist vorbei."
