"""What each viewer sees of a Cool am Pool game.

Nothing in Cool am Pool is secret: the board, the towels and bathers, the supplies, the chips,
each seat's points so far and where they come from (:mod:`.scoring`), the lifeguard, the dice
and the odds of the push-your-luck choice of the seat on turn (:mod:`.odds`) are on the table
for all to see. A seat's view adds the actions it may take and,
for the seat on turn, the loungers its dice set aside would take now; the other seats get no
odds: the choice is not theirs.
"""

from __future__ import annotations

from typing import Any

from companion.games.cool_am_pool.board import COLUMN, closed
from companion.games.cool_am_pool.engine import NAME, chips_for_foreign, legal_actions, outcome
from companion.games.cool_am_pool.occupy import choices
from companion.games.cool_am_pool.odds import odds_json
from companion.games.cool_am_pool.scoring import bathers, parts, scores
from companion.games.cool_am_pool.state import (
    CONQUER,
    DECIDE,
    END_AT,
    FOREIGN,
    MAX_CHIPS,
    OCCUPY,
    RECONQUER,
    SETUP,
    State,
)
from companion.games.cool_am_pool.words import closes
from companion.games.frame import public_frame, seen_by
from companion.games.messages import Actor
from companion.games.outcome import as_json


def view(state: State, viewer: Actor, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, ``"referee"`` or ``"public"``) sees it.
    ``public`` is its public part when the caller has it already."""
    public = _public(state) if public is None else public
    return seen_by(state, viewer, public, legal_actions, own=_can_take, turn_only=["odds"])


def _can_take(state: State, seat: int) -> dict[str, Any]:
    """The loungers the dice set aside would take now, for the seat on turn once it rolled:
    how, the other seat it concerns (the towel's or the bather's), the chips it brings and the
    points it is worth at the end."""
    if seat != state.turn_seat or state.phase not in (DECIDE, OCCUPY):
        return {"can_take": None}
    return {"can_take": [_taking(state, seat, n, how) for n, how in choices(state, seat).items()]}


def _taking(state: State, seat: int, number: int, how: str) -> dict[str, Any]:
    spot = state.loungers[number]
    other = state.bathers[number] if how == RECONQUER else state.towels[number]
    return {
        "lounger": number,
        "label": spot.label,
        "how": how,
        "other": other if how in (FOREIGN, RECONQUER, CONQUER) else None,
        "chips": chips_for_foreign(state, seat) if how == FOREIGN else 0,
        "points": 1 if how == FOREIGN else spot.row,
    }


def _public(state: State) -> dict[str, Any]:
    points, count = scores(state), bathers(state)
    to_lay = state.board.towels_for(len(state.seats))
    return {
        **public_frame(state, NAME),
        "first_seat": state.first_seat,
        "last_round": state.last_round,
        "seats": [
            {
                **s.to_json(),
                "chips": state.chips[s.seat],
                "towels_in_supply": state.towel_supply[s.seat],
                "bathers_in_supply": state.bather_supply[s.seat],
                "towels_to_lay": (
                    to_lay - state.towels_laid(s.seat) if state.phase == SETUP else 0
                ),
                "bathers_on_board": count[s.seat],
                "points_now": points[s.seat],
                "points_from": [part.to_json() for part in parts(state, s.seat)],
            }
            for s in state.seats
        ],
        "pool_chips": state.pool,
        "chips_at_most": MAX_CHIPS,
        "board": {
            "colours": list(state.board.colours),
            "loungers": [
                {
                    "id": spot.number,
                    "label": spot.label,
                    "colour": spot.colour,
                    "row": spot.row,
                    "towel": state.towels[spot.number],
                    "bather": state.bathers[spot.number],
                }
                for spot in state.loungers
            ],
            "without_bather": state.without_bather(),
            "game_ends_at": END_AT,
        },
        "lifeguard": _lifeguard(state),
        "dice": [
            {"die": i, "showing": face, "aside": aside}
            for i, (face, aside) in enumerate(
                zip(state.dice.showing, state.dice.aside, strict=True)
            )
        ],
        "result": state.result(),
        "outcome": as_json(outcome(state)),
        "odds": odds_json(state),
    }


def _lifeguard(state: State) -> dict[str, Any]:
    """Where the lifeguard stands (moved already by the lifeguards of a roll just made) and
    what it closes, also in the words the pages show: "the red column", "die rote Spalte"."""
    kind, what = closed(state.board, state.lifeguard)
    return {
        "position": state.lifeguard,
        "space": state.board.track[state.lifeguard],
        "closes": {"column": what} if kind == COLUMN else {"row": what},
        "closes_words": closes(state.board, state.lifeguard).to_json(),
        "track": list(state.board.track),
    }
