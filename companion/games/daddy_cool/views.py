"""What each viewer sees of a Daddy Cool game.

Daddy Cool has no secrets: everyone sees the path (each floe plain, cracked or the tub), the
floes in the box, Daddy Cool and every cub, the dice (showing and set aside) and whose turn it
is. The seat whose turn it is, and the referee who may act for it, also get the legal actions and
the exact odds of the choice to make (roll on or stop); other seats get their (empty) legal
actions and no odds.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from companion.games.daddy_cool.board import path_notation
from companion.games.daddy_cool.engine import NAME, legal_actions
from companion.games.daddy_cool.odds import Faces, NextRoll, Prospect, next_roll, roll_then_stop
from companion.games.daddy_cool.state import CHOOSE, OVER, State
from companion.games.messages import REFEREE, Actor, to_json

PUBLIC = "public"


def view(state: State, viewer: Actor) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, ``"referee"`` or ``"public"``) sees it."""
    out = _public(state)
    if (type(viewer) is int and state.seat(viewer) is not None) or viewer == REFEREE:
        out["viewer"] = viewer
        out["legal_actions"] = [to_json(a) for a in legal_actions(state, viewer)]
        acting = viewer in (state.turn_seat, REFEREE) and state.phase != OVER
        out["odds"] = odds(state) if acting else None
    else:
        out["viewer"] = PUBLIC
    return out


def _public(state: State) -> dict[str, Any]:
    kinds = state.options.board.path
    running = state.phase != OVER
    return {
        "game": NAME,
        "phase": state.phase,
        "turn_seat": state.turn_seat,
        "turn": state.turn,
        "commitment": state.commitment,
        "lengthen_path": state.options.lengthen_path,
        "path": [
            {"position": i, "floe": floe, "kind": kinds[floe]}
            for i, floe in enumerate(state.path, start=1)
        ],
        "path_notation": path_notation([kinds[floe] for floe in state.path]),
        "box": [{"floe": floe, "kind": kinds[floe]} for floe in state.box],
        "daddy_cool": state.daddy,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "colour": s.colour,
                "position": state.cubs[s.seat],
                "to_tub": state.tub - state.cubs[s.seat],
            }
            for s in state.seats
        ],
        "dice": [
            {"die": i, "faces": list(faces), "showing": showing, "aside": aside}
            for i, (faces, showing, aside) in enumerate(
                zip(state.dice.faces, state.dice.showing, state.dice.aside, strict=True)
            )
        ],
        "must_roll": list(state.forced) if running else [],
        "gain": state.gain if running else None,
        "winner": state.winner,
    }


@lru_cache(maxsize=512)
def _chances(
    kinds: tuple[str, ...], faces: tuple[Faces, ...], hand: tuple[int, ...], daddy: int, cub: int
) -> tuple[NextRoll, Prospect]:
    """The odds of a position, kept: every seat's view and every refresh asks the same ones."""
    return next_roll(kinds, faces, hand, daddy), roll_then_stop(kinds, faces, hand, daddy, cub)


def odds(state: State) -> dict[str, Any]:
    """The exact odds of the active seat's choice: stop now, or roll the next dice.

    ``roll_then_stop`` is rolling once more and stopping at the first chance after (a roll
    forced by a cracked floe or by all the dice aside is taken on the way).
    """
    kinds = tuple(state.kind(p) or "" for p in range(1, state.tub + 1))
    roll, then = _chances(
        kinds, tuple(state.dice.faces), state.next_roll(), state.daddy, state.cubs[state.turn_seat]
    )
    return {
        "stop": {"allowed": state.phase == CHOOSE, "gain": state.gain},
        "roll": {
            "dice": roll.dice,
            "no_floe": _number(roll.no_floe),
            "at_least_one_floe": _number(1 - roll.no_floe),
            "tub": _number(roll.tub),
            "forced_again": _number(roll.forced),
            "may_stop_after": _number(roll.may_stop),
            "expected_floes": _number(roll.expected_floes),
            "expected_distance": _number(roll.expected_distance),
        },
        "roll_then_stop": {
            "expected_gain": _number(then.expected_gain),
            "tub": _number(then.tub),
            "nothing": _number(then.nothing),
        },
    }


def _number(value: Fraction) -> dict[str, Any]:
    """An exact fraction for checking, and its value for showing.

    >>> _number(Fraction(7, 8))
    {'exact': '7/8', 'value': 0.875}
    """
    return {"exact": str(value), "value": float(value)}
