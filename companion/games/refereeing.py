"""What every engine does the same way: check the seats and options, and settle an action.

Each game keeps its own rules; these helpers keep the checks and the order of work identical
across games, so a refusal reads alike and every action moves the random counter the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.errors import BadOptions, IllegalAction
from companion.games.fair import FairRandom
from companion.games.frame import GameState
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence

Events = list[Any]
"""The events an action caused: any game's event messages, in order."""
S = TypeVar("S", bound=GameState)
A = TypeVar("A")
Handler = Callable[[S, Any, FairRandom, Events], S]
"""What one kind of action does to a state; its action is of the kind it is filed under."""


def known_options(raw: Mapping[str, Any] | None, known: Iterable[str]) -> dict[str, Any]:
    """The options as a dict; an unknown one is refused, naming the options there are."""
    options = dict(raw or {})
    names = sorted(known)
    unknown = sorted(set(options) - set(names))
    if unknown:
        listed = ", ".join(names)
        raise BadOptions(
            Sentence(
                f"unknown option {unknown[0]!r}; the options are {listed}",
                f"unbekannte Option {unknown[0]!r}; die Optionen sind {listed}",
            )
        )
    return options


def first_seat_option(options: Mapping[str, Any]) -> int | None:
    """The ``first_seat`` option (the youngest player's seat), if one is given."""
    first = options.get("first_seat")
    if first is not None and type(first) is not int:
        raise BadOptions(
            Sentence(
                f"first_seat must be a seat number, not {first!r}",
                f"first_seat muss die Nummer eines Platzes sein, nicht {first!r}",
            )
        )
    return first


def seating(
    seats: Sequence[SeatInfo], allowed: range, title: str, first: int | None
) -> tuple[tuple[SeatInfo, ...], int]:
    """The seats clockwise (by number, whatever order they came in) and the seat that starts;
    refused when the game can't seat them.

    >>> from companion.games.seats import SeatInfo
    >>> seated, first = seating([SeatInfo(3, "Mary", "green"), SeatInfo(1, "Karen", "blue")],
    ...                         range(2, 5), "Cool Runnings", None)
    >>> [s.seat for s in seated], first
    ([1, 3], 1)
    """
    if not allowed.start <= len(seats) < allowed.stop:
        low, high = allowed.start, allowed.stop - 1
        raise BadOptions(
            Sentence(
                f"{title} is for {low} to {high} seats, not {len(seats)}",
                f"{title} ist für {low} bis {high} Plätze, nicht {len(seats)}",
            )
        )
    seated = tuple(sorted(seats, key=lambda s: s.seat))
    numbers = [s.seat for s in seated]
    start = numbers[0] if first is None else first
    if start not in numbers:
        raise BadOptions(
            Sentence(
                f"first_seat {start} is not one of the seats {numbers}",
                f"first_seat {start} ist keiner der Plätze {numbers}",
            )
        )
    return seated, start


@dataclass(frozen=True)
class Rules(Generic[S, A]):
    """How a game settles its actions: what they are, when they are legal, what they do."""

    title: str
    actions: tuple[type[A], ...]
    is_legal: Callable[[S, A], bool]
    why_illegal: Callable[[S, A], Sentence]
    handlers: Mapping[type[A], Handler[S]]

    def settle(self, state: S, action: object, rng: FairRandom) -> tuple[S, Events]:
        """Apply a legal action with the random source at the state's counter, or refuse it.

        The handler changes the state and appends events; the counter it reached is stored
        back, so the next action draws on from there and a replay draws exactly the same.
        """
        if not isinstance(action, self.actions):
            kind = type(action).__name__
            raise IllegalAction(
                Sentence(
                    f"{kind} is not an action of {self.title}.",
                    f"{kind} ist kein Zug in {self.title}.",
                )
            )
        if not self.is_legal(state, action):
            raise IllegalAction(self.why_illegal(state, action))
        r = rng.at(state.rng_counter)
        events: Events = []
        state = self.handlers[type(action)](state, action, r, events)
        return state.evolve(rng_counter=r.counter), events
