"""What each viewer may see of a Cool Runnings game: the one place secrets are stripped.

The public and the referee see positions, whose turn it is, hand sizes, the attack in progress,
the count, the size of the draw pile and the top of the discard pile. A seat sees that and its
own hand. Nobody, the referee included, sees another seat's hand or the order of the draw pile
(ruling 12).
"""

from __future__ import annotations

from typing import Any

from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.effects import GUESS
from companion.games.cool_runnings.engine import NAME, legal_actions
from companion.games.cool_runnings.state import COUNT, TEN, State
from companion.games.cool_runnings.track import parse_spaces
from companion.games.deck import DISCARD, DRAW
from companion.games.frame import public_frame, seen_by
from companion.games.messages import Actor


def card_json(state: State, card: int) -> dict[str, Any]:
    """A card face: its number in the deck, its attack (key and names) and its move."""
    c = state.card(card)
    a = attacks()[c.attack]
    return {"id": card, "attack": c.attack, "name": a.en, "name_de": a.de, "move": c.move}


def view(state: State, viewer: Actor, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, ``"referee"`` or ``"public"``) may see it.
    ``public`` is its public part when the caller has it already."""
    public = _public(state) if public is None else public
    return seen_by(state, viewer, public, legal_actions, own=_hand)


def _hand(state: State, seat: int) -> dict[str, Any]:
    return {"hand": [card_json(state, c) for c in state.hand(seat)]}


def _public(state: State) -> dict[str, Any]:
    discard = state.deck.pile(DISCARD)
    return {
        **public_frame(state, NAME),
        "seats": [
            {
                **s.to_json(),
                "in_game": state.in_game(s.seat),
                "position": state.positions.get(s.seat),
                "on_ice": state.on_ice(s.seat),
                "hand_size": len(state.hand(s.seat)),
            }
            for s in state.seats
        ],
        "track": {
            "parts": list(state.parts),
            "sizes": _part_sizes(state),
            "spaces": [s.symbol for s in state.track],
        },
        "attack": _attack(state),
        "count": _count(state),
        "draw_pile": len(state.deck.pile(DRAW)),
        "discard": {"size": len(discard), "top": card_json(state, discard[0]) if discard else None},
        "winner": state.winner,
        "won_by": state.won_by,
    }


def _part_sizes(state: State) -> list[int]:
    """How many spaces each laid part has, then the goal part: where the board's parts meet."""
    data = state.options.track
    return [len(parse_spaces(data.parts[p])) for p in state.parts] + [len(parse_spaces(data.goal))]


def _attack(state: State) -> dict[str, Any] | None:
    p = state.pending
    if p is None:
        return None
    a = attacks()[p.attack]
    return {
        "attack": p.attack,
        "name": a.en,
        "name_de": a.de,
        "ten_count": a.ten_count,
        "instruction": a.instruction_en,
        "instruction_de": a.instruction_de,
        "source": p.source,
        "chain": [{"by": by, "card": card, "target": target} for by, card, target in p.chain],
        "target": p.target,
        "carrier": p.carrier,
        "stage": state.phase,
        "round": p.guesses + 1 if p.attack == GUESS else None,  # only guesses come in rounds
        "revealed": card_json(state, p.revealed) if p.revealed is not None else None,
    }


def _count(state: State) -> dict[str, Any] | None:
    if state.phase != COUNT or state.pending is None:
        return None
    return {"seat": state.pending.target, "counts": TEN, "pace_s": state.options.count_pace_s}
