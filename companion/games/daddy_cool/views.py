"""What each viewer sees of a Daddy Cool game.

Daddy Cool has no secrets: everyone sees the path (each floe plain, cracked or the tub), the
floes in the box, Daddy Cool and every cub (with its floes to the tub), the dice (showing and
set aside), whose turn it is, once it is over the outcome (the cubs ranked), and the odds of
the roll the seat on turn is to make (:mod:`.odds`). A seat's view and the referee's add the
legal actions: the seat whose turn it is, and the referee who may act for it, get its roll and
stop; the other seats get none, and no odds: the choice is not theirs.
"""

from __future__ import annotations

from typing import Any

from companion.games.daddy_cool.board import path_notation
from companion.games.daddy_cool.engine import NAME, legal_actions, outcome
from companion.games.daddy_cool.odds import odds_json
from companion.games.daddy_cool.state import OVER, State
from companion.games.frame import public_frame, seen_by
from companion.games.messages import Actor
from companion.games.outcome import as_json


def view(state: State, viewer: Actor, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, ``"referee"`` or ``"public"``) sees it.
    ``public`` is its public part when the caller has it already."""
    public = _public(state) if public is None else public
    return seen_by(state, viewer, public, legal_actions, turn_only=["odds"])


def _public(state: State) -> dict[str, Any]:
    kinds = state.options.board.path
    running = state.phase != OVER
    return {
        **public_frame(state, NAME),
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
                **s.to_json(),
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
        "outcome": as_json(outcome(state)),
        "odds": odds_json(state),
    }
