"""The Ice Trays referee: new_game, legal_actions, apply and outcome.

Pure: randomness comes only from the :class:`FairRandom` passed in, positioned at the counter the
state keeps, so replaying the actions rebuilds the same game. The rules are the rulebook
(``shared/rules/ice-trays.en.txt``) and the rulings in ``shared/rules/README.md``; where both
are silent the referee decides as follows, and the code says where it applies each decision:

- D1 Directions are named "clockwise" and "counterclockwise" (seen from above). A seat faces
  the middle, so clockwise is to its left: Lauren's "to the right" is counterclockwise.
- D2 Cups where no one sits are passed over when sowing, like opponents' cups, so no cube ever
  leaves the game. Seats sit at cups 1, 2, ... in seat order: two players side by side.
- D3 The Last Cubes rule is a choice ("you may"): the seat may sow that tray instead.
- D4 A blueberry is taken by naming the empty tray of the colour rolled; it is the blueberry of
  that tray's side, whatever the other tray of the side holds.
- D5 Steal takes from a cup that holds a cube; when no opponent's cup has one, nothing happens.
- D6 A roll that allows no move ends the turn at once, with an event saying why.
- D7 The game ends right after the action that takes the last cube or blueberry off the board.
- D8 Only the seat whose turn it is acts: the referee has no moves in this game.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import default_seats
>>> state, events = new_game({}, default_seats(2), FairRandom(bytes(32)))
>>> state.trays, state.phase, legal_actions(state, 1)
((3, 3, 3, 3, 3, 3, 3, 3), 'roll', [Roll(by=1)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.dice import Dice
from companion.games.fair import FairRandom
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.board import START_CUBES, STEAL, TRAYS, WILD, side_of
from companion.games.ice_trays.refusals import why_illegal
from companion.games.ice_trays.ring import CUPS, DIRECTIONS, sow
from companion.games.ice_trays.state import (
    BLUEBERRY_POINTS,
    CHOOSE,
    CUBE_POINTS,
    OVER,
    ROLL,
    Options,
    State,
    options_from_json,
)
from companion.games.messages import Actor
from companion.games.outcome import Outcome, Part, ranked
from companion.games.refereeing import Events, Handler, Rules, seating
from companion.games.seats import SeatInfo

NAME = "ice-trays"
TITLE = "Ice Trays"
SEATS = range(2, 5)
RULES = 1
"""The edition of the rules this engine plays (an export says the one it was made under)."""
CUBES, BLUEBERRIES = "cubes", "blueberries"
"""What points come from (a cube 1, a blueberry 2); the cubes break a tie."""


def new_game(
    options: Mapping[str, Any] | Options | None, seats: Sequence[SeatInfo], rng: FairRandom
) -> tuple[State, Events]:
    """Fill each tray with three cubes, lay a blueberry on each side, and start the first turn."""
    opts = options if isinstance(options, Options) else options_from_json(options)
    seated, first = seating(seats, SEATS, TITLE, opts.first_seat)
    numbers = [s.seat for s in seated]
    state = State(
        options=opts,
        seats=seated,
        trays=(START_CUBES,) * TRAYS,
        berries=(True,) * (TRAYS // 2),
        cubes=dict.fromkeys(numbers, 0),
        blueberries=dict.fromkeys(numbers, 0),
        turn_seat=first,
        turn=1,
        phase=ROLL,
        face=None,
        rng_counter=0,
        commitment=rng.commitment,
    )
    board = opts.board
    cups = tuple(state.seat_at(cup) for cup in range(1, CUPS + 1))
    colours = tuple(board.colour(t) for t in range(1, TRAYS + 1))
    events: Events = [
        m.BoardSet(colours, START_CUBES, board.capacity, cups),
        m.TurnStarted(first, 1),
    ]
    return state, events


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; then the winner (ties by cubes), the points, the cubes and
    the ranking, each seat's points from its cubes and its blueberries."""
    if state.phase != OVER:
        return None
    points = {s.seat: state.points(s.seat) for s in state.seats}
    every = {s.seat: parts(state, s.seat) for s in state.seats}
    ranking, ties = ranked(points, every, CUBES, state.cubes)
    return Outcome(winner(state), "points", points, {CUBES: dict(state.cubes)}, ranking, ties)


def parts(state: State, seat: int) -> tuple[Part, ...]:
    """Where a seat's points come from: the cubes and the blueberries in its cup."""
    cubes, berries = state.cubes[seat], state.blueberries[seat]
    return (
        Part(CUBES, cubes, cubes * CUBE_POINTS, CUBE_POINTS),
        Part(BLUEBERRIES, berries, berries * BLUEBERRY_POINTS, BLUEBERRY_POINTS),
    )


def winner(state: State) -> int | None:
    """The seat with the most points; on a tie the one with more cubes; still tied, nobody."""
    ranked = sorted((state.points(s.seat), state.cubes[s.seat], s.seat) for s in state.seats)
    best, second = ranked[-1], ranked[-2]
    return None if best[:2] == second[:2] else best[2]


def legal_actions(state: State, actor: Actor) -> list[m.Action]:
    """Every action ``actor`` may take now: only the active seat acts (D8)."""
    if state.phase == OVER or type(actor) is not int or actor != state.turn_seat:
        return []
    if state.phase == ROLL:
        return [m.Roll(state.turn_seat)]
    return moves(state)


def moves(state: State) -> list[m.Action]:
    """The moves the face rolled allows the active seat, Last Cubes first when it applies."""
    seat, face = state.turn_seat, state.face
    if face == STEAL:
        # D5: a cube from an opponent's cup, never a blueberry; opponents clockwise from the left.
        return [m.Steal(seat, s) for s in state.clockwise_after(seat) if state.cubes[s]]
    assert face is not None
    matching = state.board.trays_of(face)
    with_cubes = [t for t in matching if state.trays[t - 1]]
    found: list[m.Action] = []
    # Last Cubes (D3: a choice); with Wild every tray matches, so every blueberry must be gone.
    if len(with_cubes) == 1 and not any(state.berry_beside(t) for t in matching):
        found.append(m.LastCubes(seat, with_cubes[0]))
    found += [m.Sow(seat, t, d) for t in with_cubes for d in DIRECTIONS]
    if face != WILD:
        found += [
            m.TakeBlueberry(seat, t)
            for t in matching
            if not state.trays[t - 1] and state.berry_beside(t)
        ]
    return found


def is_legal(state: State, action: m.Action) -> bool:
    """Whether ``action`` is one of ``legal_actions(state, action.by)``.

    ``True == 1`` in Python, so a field holding ``True`` would pass for seat or tray 1: refused.
    """
    if any(isinstance(value, bool) for value in vars(action).values()):
        return False
    return action in legal_actions(state, action.by)


def apply(state: State, action: m.Action, rng: FairRandom) -> tuple[State, Events]:
    """The state after ``action`` and the events it caused.

    Raises :class:`IllegalAction` with a sentence for the player when the rules forbid it.
    """
    return _RULES.settle(state, action, rng)


def _roll(state: State, a: m.Roll, r: FairRandom, ev: Events) -> State:
    """Roll the die; a face that allows no move ends the turn at once (D6)."""
    _, rolled = Dice.of(state.board.faces, 1).roll(r)
    ev.append(rolled)
    state = state.evolve(phase=CHOOSE, face=rolled.faces[0])
    if moves(state):
        return state
    ev.append(m.NothingToDo(a.by, rolled.faces[0], _why_stuck(rolled.faces[0])))
    return _next_turn(state, ev)


def _why_stuck(face: str) -> str:
    if face == STEAL:
        return "nothing-to-steal"
    return "no-cube" if face == WILD else "no-cube-or-blueberry"


def _sow(state: State, a: m.Sow, r: FairRandom, ev: Events) -> State:
    """Sow the tray's cubes one by one: trays and the own cup receive (rulings, D2)."""
    cup = state.cup_of(a.by)
    trays, path = sow(state.trays, state.board.capacity, a.tray, cup, a.direction)
    ev.append(m.Sowed(a.by, a.tray, a.direction, path))
    cubes = state.cubes | {a.by: state.cubes[a.by] + path.count(f"cup {cup}")}
    return _after_move(state.evolve(trays=trays, cubes=cubes), ev)


def _take_blueberry(state: State, a: m.TakeBlueberry, r: FairRandom, ev: Events) -> State:
    """Blueberry bonus (D4): the blueberry beside the empty tray goes to the seat's cup."""
    side = side_of(a.tray)
    berries = tuple(False if i == side - 1 else b for i, b in enumerate(state.berries))
    ev.append(m.BlueberryTaken(a.by, a.tray, side))
    blueberries = state.blueberries | {a.by: state.blueberries[a.by] + 1}
    return _after_move(state.evolve(berries=berries, blueberries=blueberries), ev)


def _last_cubes(state: State, a: m.LastCubes, r: FairRandom, ev: Events) -> State:
    """Last Cubes: every cube of the tray goes straight to the seat's cup."""
    taken = state.trays[a.tray - 1]
    trays = tuple(0 if t == a.tray else n for t, n in enumerate(state.trays, start=1))
    ev.append(m.LastCubesTaken(a.by, a.tray, taken))
    cubes = state.cubes | {a.by: state.cubes[a.by] + taken}
    return _after_move(state.evolve(trays=trays, cubes=cubes), ev)


def _steal(state: State, a: m.Steal, r: FairRandom, ev: Events) -> State:
    ev.append(m.Stole(a.by, a.victim))
    cubes = state.cubes | {a.by: state.cubes[a.by] + 1, a.victim: state.cubes[a.victim] - 1}
    return _after_move(state.evolve(cubes=cubes), ev)


def _after_move(state: State, ev: Events) -> State:
    """End the game when the board is empty (D7), else pass the turn to the left."""
    if not state.board_empty:
        return _next_turn(state, ev)
    over = state.evolve(phase=OVER)
    ev.append(
        m.GameOver(
            tuple(over.points(s.seat) for s in over.seats),
            tuple(over.cubes[s.seat] for s in over.seats),
            winner(over),
        )
    )
    return over


def _next_turn(state: State, ev: Events) -> State:
    nxt = state.left_of(state.turn_seat)
    ev.append(m.TurnStarted(nxt, state.turn + 1))
    return state.evolve(turn_seat=nxt, turn=state.turn + 1, phase=ROLL, face=None)


_HANDLERS: dict[type[m.Action], Handler[State]] = {
    m.Roll: _roll,
    m.Sow: _sow,
    m.TakeBlueberry: _take_blueberry,
    m.LastCubes: _last_cubes,
    m.Steal: _steal,
}

_RULES: Rules[State, m.Action] = Rules(TITLE, m.ACTIONS, is_legal, why_illegal, _HANDLERS)
