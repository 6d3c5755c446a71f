"""The Daddy Cool referee: new_game, legal_actions, apply and outcome.

Pure: time never enters, and randomness comes only from the :class:`FairRandom` passed in,
positioned at the counter the state keeps, so replaying the actions rebuilds the same game.
The rules are the English rulebook and the rulings for Daddy Cool in ``shared/rules/README.md``
(quoted where the code applies them). One ruling of our own: when Daddy Cool reaches the wash
tub the cub joins him at once and wins; the seat is not asked whether to stop, since Daddy Cool
can go no further and rolling on could only lose the turn.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import default_seats
>>> state, events = new_game({}, default_seats(3), FairRandom(bytes(32)))
>>> state.phase, state.turn_seat, state.tub, state.cubs
('roll', 1, 16, {1: 0, 2: 0, 3: 0})
>>> [type(a).__name__ for a in legal_actions(state, 1)], legal_actions(state, 2)
(['Roll'], [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.board import FLOE, lengthen, path_notation
from companion.games.daddy_cool.refusals import why_illegal
from companion.games.daddy_cool.state import (
    ALL_ASIDE,
    CHOOSE,
    ON_CRACKED,
    OVER,
    ROLL,
    START,
    TURN_START,
    Options,
    State,
    fresh_dice,
    options_from_json,
)
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, Actor
from companion.games.outcome import Outcome, Part, Place, places
from companion.games.refereeing import Events, Handler, Rules, seating
from companion.games.seats import SeatInfo

NAME = "daddy-cool"
TITLE = "Daddy Cool"
SEATS = range(2, 7)
RULES = 1
"""The edition of the rules this engine plays (an export says the one it was made under)."""
HOW: Final = "tub"
TO_TUB = "to-tub"
"""What tells the cubs apart at the end: the floes each has left to the wash tub."""


def new_game(
    options: Mapping[str, Any] | Options | None, seats: Sequence[SeatInfo], rng: FairRandom
) -> tuple[State, Events]:
    """Lay the path; Daddy Cool and every cub wait in front of the first floe."""
    opts = options if isinstance(options, Options) else options_from_json(options)
    seated, first = seating(seats, SEATS, TITLE, opts.first_seat)
    numbers = [s.seat for s in seated]
    path = tuple(range(len(opts.board.path)))
    state = State(
        options=opts,
        seats=seated,
        path=path,
        box=(),
        cubs=dict.fromkeys(numbers, START),
        daddy=START,
        dice=fresh_dice(opts.board),
        turn_seat=first,
        turn=1,
        phase=ROLL,
        forced=(TURN_START,),
        winner=None,
        rng_counter=0,
        commitment=rng.commitment,
    )
    events: Events = [
        m.PathLaid(path_notation(opts.board.path), len(path) - 1),
        m.TurnStarted(first, 1, START),
    ]
    return state, events


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; then the winner, how, where every cub stands, and the cubs
    ranked by the floes each has left to the tub (the rulebook counts no points: the first cub
    in the tub wins; cubs as far from it share a place)."""
    if state.phase != OVER:
        return None
    left = {seat: state.tub - at for seat, at in state.cubs.items()}
    place = places({seat: (-n,) for seat, n in left.items()})
    ranking = tuple(Place(place[seat], seat, None, (Part(TO_TUB, left[seat]),)) for seat in place)
    return Outcome(state.winner, HOW, state.cubs, ranking=ranking)


def _for_the_turn(state: State, by: Actor) -> bool:
    """Whether ``by`` acts for the seat whose turn it is: that seat, or the referee."""
    return (type(by) is int and by == state.turn_seat) or by == REFEREE


def legal_actions(state: State, actor: Actor) -> list[m.Action]:
    """Every action ``actor`` (a seat or the referee) may take now."""
    if state.phase == OVER or not _for_the_turn(state, actor):
        return []
    if state.phase == CHOOSE:
        return [m.Roll(actor), m.Stop(actor)]
    return [m.Roll(actor)]


def is_legal(state: State, a: m.Action) -> bool:
    """Whether ``a`` is one of ``legal_actions(state, a.by)``, without listing them."""
    if state.phase == OVER or not _for_the_turn(state, a.by):
        return False
    return isinstance(a, m.Roll) or state.phase == CHOOSE


def apply(state: State, action: m.Action, rng: FairRandom) -> tuple[State, Events]:
    """The state after ``action`` and the events it caused.

    Raises :class:`IllegalAction` with a sentence for the player when the rules forbid it.
    """
    return _RULES.settle(state, action, rng)


def _roll(state: State, by: Actor, r: FairRandom, ev: Events) -> State:
    """Roll the dice in hand; floes move Daddy Cool and their dice are set aside.

    Rulings: a roll with no floe ends the turn and the cub stays; the tub ends the path (no
    overshoot); Daddy Cool may not stop on a cracked floe, and when all the dice are set aside
    all are rolled again: either way the next roll is forced.
    """
    seat, dice = state.turn_seat, state.dice
    again = not dice.in_hand()
    if again:
        dice = dice.take_back()
    dice, rolled = dice.roll(r)
    ev.append(rolled)
    floes = [die for die, face in zip(rolled.dice, rolled.faces, strict=True) if face == FLOE]
    ev.append(m.Threw(seat, by, len(rolled.dice), len(floes), again))
    if not floes:
        ev.append(m.NoFloe(seat, state.cubs[seat]))
        return _end_turn(state.evolve(dice=dice), ev)
    dice = dice.set_aside(floes)
    start = state.daddy
    end = min(start + len(floes), state.tub)
    ev.append(m.Walked(start, end, state.kind(end) or "", len(floes) - (end - start)))
    state = state.evolve(dice=dice, daddy=end)
    if end == state.tub:
        return _join(state, by, ev)
    reasons = ((ON_CRACKED,) if state.cracked(end) else ()) + (
        (ALL_ASIDE,) if not dice.in_hand() else ()
    )
    if reasons:
        ev.append(m.MustRoll(seat, reasons, len(state.next_roll())))
        return state.evolve(phase=ROLL, forced=reasons)
    return state.evolve(phase=CHOOSE, forced=())


def _join(state: State, by: Actor, ev: Events) -> State:
    """The cub joins Daddy Cool and the turn ends; at the wash tub the seat wins."""
    seat = state.turn_seat
    ev.append(m.CubJoined(seat, by, state.cubs[seat], state.daddy))
    state = state.evolve(cubs=state.cubs | {seat: state.daddy})
    if state.daddy == state.tub:
        ev.append(m.Won(seat, HOW))
        return state.evolve(phase=OVER, forced=(), winner=seat)
    return _end_turn(state, ev)


def _end_turn(state: State, ev: Events) -> State:
    """The path gets longer if it must; Daddy Cool goes next to the next seat's cub."""
    ev.append(m.TurnEnded(state.turn_seat))
    if state.options.lengthen_path:
        state = _lengthen(state, ev)
    seat = state.left_of(state.turn_seat)
    at = state.cubs[seat]
    ev.append(m.TurnStarted(seat, state.turn + 1, at))
    return state.evolve(
        turn_seat=seat,
        turn=state.turn + 1,
        daddy=at,
        dice=fresh_dice(state.options.board),
        phase=ROLL,
        forced=(TURN_START,),
    )


def _lengthen(state: State, ev: Events) -> State:
    """The Path Gets Longer: at least two floes behind the last cub are taken away, the
    first to the box, the rest laid before the tub, cracked floes first."""
    last = min(state.cubs.values())
    kinds = state.options.board.path
    path, boxed, relaid = lengthen(state.path, kinds, last)
    if boxed is None:
        return state
    shift = last - 1
    ev.append(
        m.PathLengthened(
            boxed,
            relaid,
            tuple(kinds[f] for f in relaid),
            shift,
            path_notation([kinds[f] for f in path]),
        )
    )
    return state.evolve(
        path=path,
        box=(*state.box, boxed),
        cubs={seat: position - shift for seat, position in state.cubs.items()},
        daddy=state.daddy - shift,
    )


def _roll_action(state: State, a: m.Roll, r: FairRandom, ev: Events) -> State:
    return _roll(state, a.by, r, ev)


def _stop_action(state: State, a: m.Stop, r: FairRandom, ev: Events) -> State:
    return _join(state, a.by, ev)


_HANDLERS: dict[type[m.Action], Handler[State]] = {m.Roll: _roll_action, m.Stop: _stop_action}

_RULES: Rules[State, m.Action] = Rules(TITLE, m.ACTIONS, is_legal, why_illegal, _HANDLERS)
