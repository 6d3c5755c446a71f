"""The deck in named piles: shuffling, drawing from the top, reshuffling, and conserved cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.deck import DISCARD, DRAW, Deck, Drew, Shuffled
from companion.games.fair import FairRandom

SEED = bytes(range(32))
PILES = (DRAW, DISCARD, "hand:1", "hand:2", "revealed")


def rng(seed: int = 0) -> FairRandom:
    return FairRandom(seed.to_bytes(32, "big"))


def test_shuffled_holds_every_card_once_in_the_draw_pile() -> None:
    deck, events = Deck.shuffled(range(60), FairRandom(SEED), ["hand:1", "hand:2"])
    assert sorted(deck.pile(DRAW)) == list(range(60))
    assert deck.pile(DRAW) != tuple(range(60))
    assert deck.pile(DISCARD) == ()
    assert deck.pile("hand:1") == deck.pile("hand:2") == ()
    assert set(deck.piles) == {DRAW, DISCARD, "hand:1", "hand:2"}
    assert deck.total() == 60
    assert events == [Shuffled(DRAW, deck.pile(DRAW))]


def test_shuffled_is_the_fair_random_shuffle_and_replays() -> None:
    a, _ = Deck.shuffled(range(20), FairRandom(SEED))
    b, _ = Deck.shuffled(range(20), FairRandom(SEED))
    c, _ = Deck.shuffled(range(20), rng(1))
    assert a == b
    assert a.pile(DRAW) != c.pile(DRAW)
    assert list(a.pile(DRAW)) == FairRandom(SEED).shuffle(range(20))


def test_draw_takes_cards_from_the_top_of_the_draw_pile() -> None:
    deck = Deck({DRAW: (5, 3, 8, 1), DISCARD: (9,), "hand:1": (7,)})
    after, drawn, events = deck.draw("hand:1", 2, rng())
    assert drawn == (5, 3)
    assert after.pile(DRAW) == (8, 1)
    assert after.pile("hand:1") == (7, 5, 3)
    assert after.pile(DISCARD) == (9,)
    assert events == [Drew("hand:1", (5, 3))]
    assert deck.pile(DRAW) == (5, 3, 8, 1), "the old deck is unchanged"


def test_draw_of_exactly_the_draw_pile_does_not_reshuffle() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (3, 4), "hand:1": ()})
    after, drawn, events = deck.draw("hand:1", 2, rng())
    assert drawn == (1, 2)
    assert after.pile(DRAW) == ()
    assert after.pile(DISCARD) == (3, 4)
    assert events == [Drew("hand:1", (1, 2))]


def test_draw_reshuffles_the_discard_pile_under_the_rest_when_short() -> None:
    deck = Deck({DRAW: (10,), DISCARD: (1, 2, 3, 4, 5), "hand:1": ()})
    after, drawn, events = deck.draw("hand:1", 3, FairRandom(SEED))
    order = tuple(FairRandom(SEED).shuffle((1, 2, 3, 4, 5)))
    assert events == [Shuffled(DISCARD, order), Drew("hand:1", drawn)]
    assert drawn == (10, *order[:2])
    assert after.pile(DRAW) == order[2:]
    assert after.pile(DISCARD) == ()
    assert after.pile("hand:1") == drawn
    assert after.total() == deck.total() == 6


def test_draw_with_both_piles_empty_draws_nothing() -> None:
    deck = Deck({DRAW: (), DISCARD: (), "hand:1": (4,)})
    after, drawn, events = deck.draw("hand:1", 4, rng())
    assert drawn == ()
    assert events == []
    assert after.pile("hand:1") == (4,)


def test_draw_draws_fewer_when_both_piles_together_are_short() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (), "hand:1": ()})
    after, drawn, events = deck.draw("hand:1", 4, rng())
    assert drawn == (1, 2)
    assert events == [Drew("hand:1", (1, 2))]
    assert after.pile(DRAW) == ()

    deck = Deck({DRAW: (1,), DISCARD: (2,), "hand:1": ()})
    after, drawn, events = deck.draw("hand:1", 4, rng())
    assert drawn == (1, 2)
    assert events == [Shuffled(DISCARD, (2,)), Drew("hand:1", (1, 2))]


def test_reshuffle_with_an_empty_discard_pile_changes_nothing() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: ()})
    source = rng()
    after, events = deck.reshuffle(source)
    assert after == deck
    assert events == []
    assert source.counter == 0


def test_move_puts_a_card_on_the_bottom_by_default() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (7,), "hand:1": (3, 4, 5)})
    after = deck.move(4, "hand:1", DISCARD)
    assert after.pile("hand:1") == (3, 5)
    assert after.pile(DISCARD) == (7, 4)
    assert after.total() == deck.total()


def test_move_on_top_puts_the_card_first() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (7,), "hand:1": (3, 4, 5)})
    after = deck.move(5, "hand:1", DISCARD, on_top=True)
    assert after.pile(DISCARD) == (5, 7)
    assert after.pile("hand:1") == (3, 4)


def test_move_of_a_card_not_in_the_source_is_refused() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (7,)})
    with pytest.raises(ValueError, match="card 7 is not in draw"):
        deck.move(7, DRAW, DISCARD)


def test_move_all_puts_the_source_on_top_of_the_target() -> None:
    deck = Deck({DRAW: (1,), DISCARD: (7, 8), "hand:1": (3, 4)})
    after = deck.move_all("hand:1", DISCARD)
    assert after.pile("hand:1") == ()
    assert after.pile(DISCARD) == (3, 4, 7, 8)
    assert after.total() == 5


def test_with_piles_replaces_only_the_named_piles() -> None:
    deck = Deck({DRAW: (1,), DISCARD: (2,)})
    after = deck.with_piles(discard=(2, 3))
    assert after.piles == {DRAW: (1,), DISCARD: (2, 3)}
    assert deck.piles == {DRAW: (1,), DISCARD: (2,)}


def test_moving_within_one_pile_is_refused_so_no_card_is_duplicated() -> None:
    deck = Deck({DRAW: (1, 2), DISCARD: (3,)})
    with pytest.raises(ValueError, match="itself"):
        deck.move(1, DRAW, DRAW)
    with pytest.raises(ValueError, match="itself"):
        deck.move_all(DRAW, DRAW)
    with pytest.raises(ValueError, match="not into it"):
        deck.draw(DRAW, 1, FairRandom(bytes(32)))


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("draw"), st.sampled_from(PILES[1:]), st.integers(0, 6)),
        st.tuples(
            st.just("move"),
            st.sampled_from(PILES),
            st.sampled_from(PILES),
            st.integers(0, 59),
            st.booleans(),
        ),
        st.tuples(st.just("move_all"), st.sampled_from(PILES), st.sampled_from(PILES)),
    ),
    max_size=40,
)


@given(OPS, st.binary(min_size=32, max_size=32))
def test_random_draws_and_moves_conserve_every_card(ops: list[tuple], seed: bytes) -> None:
    source = FairRandom(seed)
    deck, _ = Deck.shuffled(range(60), source, PILES[2:])
    for op in ops:
        if op[0] == "draw":
            _, target, n = op
            before = len(deck.pile(DRAW)) + len(deck.pile(DISCARD))
            deck, drawn, _ = deck.draw(target, n, source)
            assert len(drawn) == min(n, before)
        elif op[0] == "move":
            _, src, dst, index, on_top = op
            if src == dst or not deck.pile(src):
                continue
            card = deck.pile(src)[index % len(deck.pile(src))]
            deck = deck.move(card, src, dst, on_top=on_top)
        else:
            _, src, dst = op
            if src == dst:
                continue
            deck = deck.move_all(src, dst)
        assert deck.total() == 60
        everything = [c for pile in deck.piles.values() for c in pile]
        assert sorted(everything) == list(range(60))
