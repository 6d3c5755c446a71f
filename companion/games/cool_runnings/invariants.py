"""What must hold after every action of Cool Runnings, checked by self-play and the tests."""

from __future__ import annotations

from collections import Counter

from companion.games.cool_runnings.state import HAND_SIZE, OVER, PLAY, State


def invariants(state: State) -> list[str]:
    """The broken invariants of ``state``, in words; empty when all hold."""
    broken = []
    cards = [c for pile in state.deck.piles.values() for c in pile]
    if sorted(cards) != list(range(len(state.options.deck))):
        counts = Counter(cards)
        broken.append(
            f"cards not conserved: {len(cards)} in piles, {len(state.options.deck)} in the deck, "
            f"duplicated {sorted(c for c, n in counts.items() if n > 1)}"
        )
    spaces = [p for p in state.positions.values() if 1 <= p <= len(state.track)]
    if len(spaces) != len(set(spaces)):
        broken.append(f"two pieces on one space: {state.positions}")
    for s in state.seats:
        held = len(state.hand(s.seat))
        if held > HAND_SIZE:
            broken.append(f"seat {s.seat} holds {held} cards")
        if s.seat in state.melted and (held or s.seat in state.positions):
            broken.append(f"melted seat {s.seat} still holds cards or a piece")
    if state.phase != OVER and state.winner is not None:
        broken.append("a winner while the game runs")
    if state.phase == OVER and state.winner not in state.positions:
        broken.append("the game is over without a winner in the game")
    finished = [s for s, p in state.positions.items() if p > len(state.track)]
    if finished and (state.phase != OVER or finished != [state.winner]):
        broken.append(f"pieces across the line {finished} but winner {state.winner}")
    if state.phase != OVER and len(state.positions) < 2:
        broken.append("fewer than two cubes left but the game goes on")
    if state.phase == PLAY and not state.in_game(state.turn_seat):
        broken.append(f"the turn is with melted seat {state.turn_seat}")
    return broken
