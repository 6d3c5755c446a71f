"""A deck of cards in named piles: the draw pile, the discard pile, hands, and any others.

Cards are numbers (indices into a game's card list). The top of a pile is its first card.
Every change returns a new :class:`Deck` and the events that tell what happened, so a game
records each shuffle for ``companion verify``.

>>> from companion.games.fair import FairRandom
>>> deck, events = Deck.shuffled(range(6), FairRandom(bytes(32)), ["hand:1"])
>>> deck, drawn, _ = deck.draw("hand:1", 4, FairRandom(bytes(32)))
>>> len(deck.pile("hand:1")), len(deck.pile(DRAW)), deck.total()
(4, 2, 6)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.fair import FairRandom
from companion.games.messages import message

DRAW = "draw"
DISCARD = "discard"


@message("shuffled")
@dataclass(frozen=True)
class Shuffled:
    """A pile was shuffled into a new draw pile; ``cards`` is the new order, top first."""

    pile: str
    cards: tuple[int, ...]


@message("drew")
@dataclass(frozen=True)
class Drew:
    """Cards went from the top of the draw pile to a pile (a hand, or a reveal)."""

    to: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Deck:
    """Named piles of cards; the dict is never changed in place."""

    piles: dict[str, tuple[int, ...]]

    @classmethod
    def shuffled(
        cls, cards: Iterable[int], rng: FairRandom, others: Iterable[str] = ()
    ) -> tuple[Deck, list[Shuffled]]:
        """A fresh deck: every card shuffled into the draw pile, the other piles empty."""
        order = tuple(rng.shuffle(cards))
        piles = {DRAW: order, DISCARD: ()} | {name: () for name in others}
        return cls(piles), [Shuffled(DRAW, order)]

    def pile(self, name: str) -> tuple[int, ...]:
        return self.piles[name]

    def total(self) -> int:
        """How many cards there are in all piles together (conserved by every change)."""
        return sum(len(p) for p in self.piles.values())

    def with_piles(self, **changes: tuple[int, ...]) -> Deck:
        return Deck(self.piles | changes)

    def move(self, card: int, source: str, target: str, *, on_top: bool = False) -> Deck:
        """One card from one pile to another: on the bottom, or on top (the discard's top)."""
        if source == target:
            raise ValueError(f"a card cannot move from {source} to itself")
        if card not in self.piles[source]:
            raise ValueError(f"card {card} is not in {source}")
        rest = tuple(c for c in self.piles[source] if c != card)
        dest = (card, *self.piles[target]) if on_top else (*self.piles[target], card)
        return Deck(self.piles | {source: rest, target: dest})

    def move_all(self, source: str, target: str) -> Deck:
        """Every card of ``source`` onto the top of ``target``."""
        if source == target:
            raise ValueError(f"cards cannot move from {source} to itself")
        return Deck(self.piles | {source: (), target: self.piles[source] + self.piles[target]})

    def reshuffle(self, rng: FairRandom) -> tuple[Deck, list[Shuffled]]:
        """The discard pile shuffled in under what is left of the draw pile."""
        if not self.piles[DISCARD]:
            return self, []
        order = tuple(rng.shuffle(self.piles[DISCARD]))
        deck = Deck(self.piles | {DRAW: self.piles[DRAW] + order, DISCARD: ()})
        return deck, [Shuffled(DISCARD, order)]

    def draw(
        self, target: str, n: int, rng: FairRandom
    ) -> tuple[Deck, tuple[int, ...], list[Shuffled | Drew]]:
        """Up to ``n`` cards from the top of the draw pile to ``target``.

        When the draw pile runs out, the discard pile is shuffled into a new one; when both are
        empty, fewer cards are drawn.
        """
        if target == DRAW:
            raise ValueError("cards are drawn from the draw pile, not into it")
        deck = self
        events: list[Shuffled | Drew] = []
        if len(deck.piles[DRAW]) < n:
            deck, shuffles = deck.reshuffle(rng)
            events.extend(shuffles)
        drawn = deck.piles[DRAW][:n]
        if drawn:
            deck = Deck(
                deck.piles | {DRAW: deck.piles[DRAW][n:], target: deck.piles[target] + drawn}
            )
            events.append(Drew(target, drawn))
        return deck, drawn, events
