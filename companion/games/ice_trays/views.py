"""What each viewer sees of an Ice Trays game. Nothing is secret: every viewer sees the whole
board and the odds of the roll the seat on turn is to make (:mod:`.odds`); a seat's view and the
referee's add the actions they may take now, and the other seats get no odds: the roll is not
theirs.

Each seat shows what its cup holds and the points it makes so far (``points_from``: its cubes and
its blueberries). The ring is listed clockwise from cup 1, as the places lie on the board: each
cup with who sits there and what it holds, each tray with its colour, its cubes and its side.
"""

from __future__ import annotations

from typing import Any

from companion.games.frame import public_frame, seen_by
from companion.games.ice_trays.board import side_of
from companion.games.ice_trays.engine import NAME, legal_actions, outcome, parts
from companion.games.ice_trays.odds import odds_json
from companion.games.ice_trays.ring import CUPS
from companion.games.ice_trays.state import State
from companion.games.messages import Actor
from companion.games.outcome import as_json


def view(state: State, viewer: Actor, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, ``"referee"`` or ``"public"``) sees it.
    ``public`` is its public part when the caller has it already."""
    public = _public(state) if public is None else public
    return seen_by(state, viewer, public, legal_actions, turn_only=["odds"])


def _public(state: State) -> dict[str, Any]:
    return {
        **public_frame(state, NAME),
        "face": state.face,
        "seats": [
            {
                **s.to_json(),
                "cup": state.cup_of(s.seat),
                "cubes": state.cubes[s.seat],
                "blueberries": state.blueberries[s.seat],
                "points": state.points(s.seat),
                "points_from": [part.to_json() for part in parts(state, s.seat)],
            }
            for s in state.seats
        ],
        "ring": _ring(state),
        "sides": [
            {"side": side, "trays": [2 * side - 1, 2 * side], "blueberry": state.berries[side - 1]}
            for side in range(1, len(state.berries) + 1)
        ],
        "capacity": state.board.capacity,
        "die": list(state.board.faces),
        "outcome": as_json(outcome(state)),
        "odds": odds_json(state),
    }


def _ring(state: State) -> list[dict[str, Any]]:
    """The twelve places clockwise from cup 1: a cup, then the two trays of its side, ..."""
    places: list[dict[str, Any]] = []
    for cup in range(1, CUPS + 1):
        seat = state.seat_at(cup)
        places.append(
            {
                "place": "cup",
                "cup": cup,
                "seat": seat,
                "cubes": state.cubes[seat] if seat is not None else 0,
                "blueberries": state.blueberries[seat] if seat is not None else 0,
            }
        )
        for tray in range(2 * cup - 1, 2 * cup + 1):
            places.append(
                {
                    "place": "tray",
                    "tray": tray,
                    "colour": state.board.colour(tray),
                    "cubes": state.trays[tray - 1],
                    "side": side_of(tray),
                }
            )
    return places
