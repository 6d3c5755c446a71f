"""The Cool am Pool referee: new_game, legal_actions, apply and outcome.

Pure: time never enters, and randomness comes only from the :class:`FairRandom` passed in,
positioned at the counter the state keeps, so replaying the actions rebuilds the same game.
The rules are the English rulebook and the rulings in ``shared/rules/README.md`` (Cool am Pool);
where the code applies a ruling it says so.

A game starts with setup: from the first seat clockwise, one towel at a time, until every seat
has laid its 12, 8 or 6. Then each turn: roll all six dice (each lifeguard the roll shows moves
the lifeguard one space at once); after each roll either spend a water-ball chip (the lifeguard
goes back, the same dice are rolled again) or set aside at least one colour die (every lifeguard
die goes aside too); roll the rest again or stop; then take one lounger the dice allow: that is
not optional when one is possible ("must ... if possible"). A roll that shows no colour at all
sets its lifeguards aside, which ends the rolling, unless a chip voids it.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import default_seats
>>> state, events = new_game({"first_seat": 2}, default_seats(3), FairRandom(bytes(32)))
>>> state.phase, state.turn_seat, legal_actions(state, 2)[0]
('setup', 2, PlaceTowel(by=2, lounger=2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import LIFEGUARD, loungers
from companion.games.cool_am_pool.occupy import choices, way
from companion.games.cool_am_pool.refusals import why_illegal
from companion.games.cool_am_pool.scoring import bathers, final, scores, winner_of
from companion.games.cool_am_pool.state import (
    CHIPS,
    CHIPS_FOR_FOREIGN,
    CHOOSE,
    CONQUER,
    DECIDE,
    END_AT,
    FIVE_POINT,
    FOREIGN,
    MAX_CHIPS,
    OCCUPY,
    OVER,
    OWN,
    RECONQUER,
    ROLL,
    SETUP,
    Options,
    State,
    fresh_dice,
    options_from_json,
    starting_supply,
)
from companion.games.fair import FairRandom
from companion.games.messages import Actor
from companion.games.outcome import Outcome
from companion.games.refereeing import Events, Handler, Rules, seating
from companion.games.seats import SeatInfo

NAME = "cool-am-pool"
TITLE = "Cool am Pool"
SEATS = range(2, 5)
RULES = 2
"""The edition of the rules this engine plays (an export says the one it was made under):
2 since the lifeguard moves as soon as a roll shows it, not when the dice are set aside."""


def new_game(
    options: Mapping[str, Any] | Options | None, seats: Sequence[SeatInfo], rng: FairRandom
) -> tuple[State, Events]:
    """Empty the board, put the 16 chips in the pool and the lifeguard by the diving board, and
    ask the first seat for its first towel."""
    opts = options if isinstance(options, Options) else options_from_json(options)
    seated, first = seating(seats, SEATS, TITLE, opts.first_seat)
    numbers = [s.seat for s in seated]
    board = opts.board
    towel_supply, bather_supply = starting_supply(seated)
    spots = loungers(board)
    state = State(
        options=opts,
        seats=seated,
        loungers=spots,
        towels=(None,) * len(spots),
        bathers=(None,) * len(spots),
        towel_supply=towel_supply,
        bather_supply=bather_supply,
        chips=dict.fromkeys(numbers, 0),
        pool=CHIPS,
        lifeguard=0,
        dice=fresh_dice(board),
        first_seat=first,
        turn_seat=first,
        turn=0,
        phase=SETUP,
        last_round=False,
        rng_counter=0,
        commitment=rng.commitment,
    )
    return state, [m.SetupStarted(first, board.towels_for(len(seats)))]


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; then the winner (None if still tied), the scores and the
    ranking (:func:`.scoring.final`)."""
    if state.phase != OVER:
        return None
    return final(state)


def legal_actions(state: State, actor: Actor) -> list[m.Action]:
    """Every action ``actor`` may take now: only the seat whose turn it is ever acts."""
    if state.phase == OVER or type(actor) is not int or actor != state.turn_seat:
        return []
    phase = state.phase
    if phase == SETUP:
        return [
            m.PlaceTowel(actor, spot.number)
            for spot in state.loungers
            if spot.colour is not None and state.towels[spot.number] is None
        ]
    if phase == ROLL:
        return [m.Roll(actor)]
    if phase == DECIDE:
        return [m.Roll(actor), m.Stop(actor)]
    if phase == OCCUPY:
        return [m.Occupy(actor, number) for number in choices(state, actor)]
    actions: list[m.Action] = [m.SpendChip(actor)] if state.chips[actor] else []
    colour_dice = _colour_dice(state)
    if not colour_dice:
        return [*actions, m.SetAside(actor, ())]
    for size in range(1, len(colour_dice) + 1):
        actions += [m.SetAside(actor, dice) for dice in combinations(colour_dice, size)]
    return actions


def _colour_dice(state: State) -> tuple[int, ...]:
    """The dice in hand that show a colour, after a roll."""
    return tuple(i for i, face in state.showing_in_hand() if face != LIFEGUARD)


def is_legal(state: State, a: m.Action) -> bool:
    """Whether ``a`` is one of ``legal_actions(state, a.by)``, without listing them all."""
    if state.phase == OVER or type(a.by) is not int or a.by != state.turn_seat:
        return False
    phase = state.phase
    match a:
        case m.PlaceTowel(_, number):
            return (
                phase == SETUP
                and type(number) is int
                and 0 <= number < len(state.loungers)
                and state.loungers[number].colour is not None
                and state.towels[number] is None
            )
        case m.Roll():
            return phase in (ROLL, DECIDE)
        case m.Stop():
            return phase == DECIDE
        case m.SpendChip(by):
            return phase == CHOOSE and state.chips[by] > 0
        case m.SetAside(_, dice):
            if phase != CHOOSE or not isinstance(dice, tuple):
                return False
            colour_dice = _colour_dice(state)
            if not colour_dice:
                return dice == ()
            return (
                bool(dice)
                and all(type(d) is int for d in dice)
                and list(dice) == sorted(set(dice))
                and set(dice) <= set(colour_dice)
            )
        case m.Occupy(by, number):
            return phase == OCCUPY and number in choices(state, by)
    return False


def apply(state: State, action: m.Action, rng: FairRandom) -> tuple[State, Events]:
    """The state after ``action`` and the events it caused.

    Raises :class:`IllegalAction` with a sentence for the player when the rules forbid it.
    """
    return _RULES.settle(state, action, rng)


# Setup: towels in turn order, bather side down, never on the 5-point loungers


def _place_towel(state: State, a: m.PlaceTowel, r: FairRandom, ev: Events) -> State:
    towels = list(state.towels)
    towels[a.lounger] = a.by
    supply = state.towel_supply | {a.by: state.towel_supply[a.by] - 1}
    ev.append(m.TowelPlaced(a.by, a.lounger))
    state = state.evolve(towels=tuple(towels), towel_supply=supply)
    if any(t is None for spot, t in zip(state.loungers, towels, strict=True) if spot.colour):
        return state.evolve(turn_seat=state.left_of(a.by))
    ev.append(m.TurnStarted(state.first_seat, 1))
    return state.evolve(turn_seat=state.first_seat, turn=1, phase=ROLL)


# Rolling: set aside at least one colour die per roll, or void the roll with a chip


def _roll(state: State, a: m.Roll, r: FairRandom, ev: Events) -> State:
    """Ruling: each lifeguard the roll shows moves the lifeguard one space clockwise at once,
    so the seat sees what it closes before choosing what to set aside."""
    dice, rolled = state.dice.roll(r)
    ev.append(rolled)
    state = state.evolve(dice=dice, phase=CHOOSE)
    steps = len(_lifeguard_dice(state))
    if not steps:
        return state
    start = state.lifeguard
    end = (start + steps) % len(state.board.track)
    ev.append(m.LifeguardMoved(steps, start, end))
    return state.evolve(lifeguard=end)


def _lifeguard_dice(state: State) -> tuple[int, ...]:
    """The dice in hand that show the lifeguard: those of the roll just made."""
    return tuple(i for i, face in state.showing_in_hand() if face == LIFEGUARD)


def _spend_chip(state: State, a: m.SpendChip, r: FairRandom, ev: Events) -> State:
    """Ruling: a chip voids only the current roll, so its lifeguards go back to where they
    stood before it; the same dice are rolled again, and the dice set aside earlier stay."""
    left = state.chips[a.by] - 1
    ev.append(m.ChipSpent(a.by, left))
    state = state.evolve(chips=state.chips | {a.by: left}, pool=state.pool + 1)
    steps = len(_lifeguard_dice(state))
    if steps:
        start = state.lifeguard
        end = (start - steps) % len(state.board.track)
        ev.append(m.LifeguardReturned(steps, start, end))
        state = state.evolve(lifeguard=end)
    return _roll(state, m.Roll(a.by), r, ev)


def _set_aside(state: State, a: m.SetAside, r: FairRandom, ev: Events) -> State:
    """Ruling: every lifeguard die is set aside too; it moved the lifeguard when rolled."""
    lifeguards = _lifeguard_dice(state)
    faces = dict(state.showing_in_hand())
    dice = state.dice.set_aside((*a.dice, *lifeguards))
    ev.append(m.DiceSetAside(a.by, a.dice, tuple(faces[i] for i in a.dice), lifeguards))
    state = state.evolve(dice=dice)
    if not dice.in_hand():
        return _stop(state, all_aside=True, ev=ev)
    return state.evolve(phase=DECIDE)


def _stop_action(state: State, a: m.Stop, r: FairRandom, ev: Events) -> State:
    return _stop(state, all_aside=False, ev=ev)


def _stop(state: State, *, all_aside: bool, ev: Events) -> State:
    result = state.result()
    ordered = tuple(c for c in state.board.colours for _ in range(result.get(c, 0)))
    ev.append(m.Stopped(state.turn_seat, ordered, all_aside))
    if choices(state, state.turn_seat):
        return state.evolve(phase=OCCUPY)
    ev.append(m.NoLounger(state.turn_seat))
    return _end_turn(state, ev)


# Occupying one lounger


def _occupy(state: State, a: m.Occupy, r: FairRandom, ev: Events) -> State:
    seat, i = a.by, a.lounger
    how = way(state, seat, state.loungers[i])
    towels, bathers_on = list(state.towels), list(state.bathers)
    towel_supply, bather_supply = dict(state.towel_supply), dict(state.bather_supply)
    other = None
    if how == OWN:
        bathers_on[i] = seat
    elif how == FOREIGN:
        other = towels[i]
        bathers_on[i] = seat
        bather_supply[seat] -= 1
    elif how == RECONQUER:
        other = bathers_on[i]
        assert other is not None
        bather_supply[other] += 1
        bathers_on[i] = seat
    elif how == CONQUER:
        other = towels[i]
        assert other is not None
        towel_supply[other] += 1
        bather_supply[seat] += 1
        towel_supply[seat] -= 1
        towels[i] = bathers_on[i] = seat
    elif how == FIVE_POINT:
        towel_supply[seat] -= 1
        towels[i] = bathers_on[i] = seat
    ev.append(m.LoungerTaken(seat, i, str(how), other))
    state = state.evolve(
        towels=tuple(towels),
        bathers=tuple(bathers_on),
        towel_supply=towel_supply,
        bather_supply=bather_supply,
    )
    if how == FOREIGN:
        got = chips_for_foreign(state, seat)
        held = state.chips[seat] + got
        ev.append(m.ChipsTaken(seat, got, held))
        state = state.evolve(chips=state.chips | {seat: held}, pool=state.pool - got)
    return _end_turn(state, ev)


def chips_for_foreign(state: State, seat: int) -> int:
    """The chips a bather on a foreign towel brings ``seat`` now: two, as far as its hand (four
    at most) and the pool allow."""
    return min(CHIPS_FOR_FOREIGN, MAX_CHIPS - state.chips[seat], state.pool)


# The end of a turn, the last round and the scores


def _end_turn(state: State, ev: Events) -> State:
    """Ruling: the game ends when four or fewer towels are without a bather, once the round
    (which began with the starting seat) is completed."""
    seat = state.turn_seat
    ev.append(m.TurnEnded(seat))
    state = state.evolve(dice=fresh_dice(state.board))
    if not state.last_round and state.without_bather() <= END_AT:
        state = state.evolve(last_round=True)
        ev.append(m.LastRound(state.without_bather(), state.last_of_round()))
    if state.last_round and seat == state.last_of_round():
        return _game_over(state, ev)
    nxt = state.left_of(seat)
    ev.append(m.TurnStarted(nxt, state.turn + 1))
    return state.evolve(turn_seat=nxt, turn=state.turn + 1, phase=ROLL)


def _game_over(state: State, ev: Events) -> State:
    points, count = scores(state), bathers(state)
    winner, tie_break = winner_of(points, count)
    order = tuple(s.seat for s in state.seats)
    ev.append(
        m.GameOver(
            order,
            tuple(points[s] for s in order),
            tuple(count[s] for s in order),
            winner,
            tie_break,
        )
    )
    return state.evolve(phase=OVER)


_HANDLERS: dict[type[m.Action], Handler[State]] = {
    m.PlaceTowel: _place_towel,
    m.Roll: _roll,
    m.SpendChip: _spend_chip,
    m.SetAside: _set_aside,
    m.Stop: _stop_action,
    m.Occupy: _occupy,
}

_RULES: Rules[State, m.Action] = Rules(TITLE, m.ACTIONS, is_legal, why_illegal, _HANDLERS)
