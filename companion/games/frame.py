"""The frame every game is built in: the seats and the turn of its state, and who sees what.

Each game's ``State`` extends :class:`GameState` with its own pieces. Each game's ``view``
builds what everyone may see, opening with :func:`public_frame`, and hands it to
:func:`seen_by`, which adds what a seat or the referee sees besides.

>>> from companion.games.seats import default_seats
>>> state = GameState(default_seats(3), turn_seat=2, turn=1, phase="roll", rng_counter=0,
...                   commitment="c0ffee")
>>> state.name(2), state.who("referee"), state.clockwise_after(3), state.left_of(3)
('Seat 2', 'the referee', (1, 2), 1)
>>> seen = seen_by(state, 1, public_frame(state, "example"), lambda state, actor: [])
>>> seen["viewer"], seen["legal_actions"], seen_by(state, 7, {}, lambda s, a: [])
(1, [], {'viewer': 'public'})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.games.evolving import Evolving
from companion.games.messages import REFEREE, TABLE, Actor, to_json
from companion.games.seats import SeatInfo

PUBLIC = "public"
"""The viewer who is neither a seat nor the referee: the table's screen, anyone."""


@dataclass(frozen=True)
class GameState(Evolving):
    """What every game's state holds: the seats clockwise (by number), whose turn it is and
    which turn, the phase, the random counter and the commitment shown before the first draw."""

    seats: tuple[SeatInfo, ...]
    turn_seat: int
    turn: int
    phase: str
    rng_counter: int
    commitment: str

    def seat(self, number: Actor) -> SeatInfo | None:
        """The seat of that number, if it plays; never for ``True``, which equals 1."""
        if type(number) is not int:
            return None
        return next((s for s in self.seats if s.seat == number), None)

    def name(self, number: int) -> str:
        info = self.seat(number)
        return info.name if info else f"Seat {number}"

    def who(self, actor: Actor) -> str:
        """A seat's name, or "the referee" or "the table", for the middle of a sentence."""
        if isinstance(actor, int):
            return self.name(actor)
        return {REFEREE: "the referee", TABLE: "the table"}.get(actor, f"Seat {actor}")

    def who_de(self, actor: Actor) -> str:
        """:meth:`who` in German: "die Spielleitung", "der Tisch"."""
        if isinstance(actor, int):
            return self.name(actor)
        return {REFEREE: "die Spielleitung", TABLE: "der Tisch"}.get(actor, f"Platz {actor}")

    def clockwise_after(self, number: int) -> tuple[int, ...]:
        """Every other seat, clockwise from the one on ``number``'s left."""
        order = [s.seat for s in self.seats]
        i = order.index(number)
        return (*order[i + 1 :], *order[:i])

    def left_of(self, number: int) -> int:
        """The next seat clockwise: the player on the left."""
        return self.clockwise_after(number)[0]


S = TypeVar("S", bound=GameState)


def public_frame(state: GameState, game: str) -> dict[str, Any]:
    """What every game's view opens with: the game, its phase, and whose turn it is."""
    return {
        "game": game,
        "phase": state.phase,
        "turn_seat": state.turn_seat,
        "turn": state.turn,
        "commitment": state.commitment,
    }


def seen_by(
    state: S,
    viewer: Actor,
    public: dict[str, Any],
    legal_actions: Callable[[S, Actor], Sequence[object]],
    *,
    own: Callable[[S, int], dict[str, Any]] | None = None,
    turn_only: Iterable[str] = (),
) -> dict[str, Any]:
    """What ``viewer`` sees: ``public``, then for a seat of the game or the referee the actions
    it may take. A seat also sees what is its own (``own``: its hand, say), and the entries of
    ``turn_only`` (the odds of a choice) are ``None`` for a seat whose turn it is not: the
    choice is not theirs. Any other viewer is ``"public"`` and sees ``public`` alone."""
    out = dict(public)
    if state.seat(viewer) is not None:
        assert type(viewer) is int
        out["viewer"] = viewer
        out["legal_actions"] = [to_json(a) for a in legal_actions(state, viewer)]
        if viewer != state.turn_seat:
            out.update(dict.fromkeys(turn_only))
        if own is not None:
            out.update(own(state, viewer))
    elif viewer == REFEREE:
        out["viewer"] = REFEREE
        out["legal_actions"] = [to_json(a) for a in legal_actions(state, REFEREE)]
    else:
        out["viewer"] = PUBLIC
    return out
