"""The Cool Runnings referee: new_game, legal_actions, apply and outcome.

Pure: time never enters, and randomness comes only from the :class:`FairRandom` passed in,
positioned at the counter the state keeps, so replaying the actions rebuilds the same game.
The rules are the English rulebook and the rulings in ``shared/rules/README.md``; each rule's
number is named where the code applies it.

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import default_seats
>>> rng = FairRandom(bytes(32))
>>> state, events = new_game({"first_seat": 1}, default_seats(3), rng)
>>> state.phase, state.turn_seat, len(state.hand(1)), len(state.track) > 20
('play', 1, 4, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BadOptions
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.cards import attacks
from companion.games.cool_runnings.refusals import why_illegal
from companion.games.cool_runnings.state import (
    CARRY_OUT,
    COUNT,
    DEFLECT,
    HAND_SIZE,
    OVER,
    PLAY,
    REVEALED,
    TEN,
    Options,
    Pending,
    State,
    hand,
    options_from_json,
)
from companion.games.cool_runnings.track import MOVE, build_track, choose_parts, step
from companion.games.deck import DISCARD, Deck
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, TABLE, Actor
from companion.games.outcome import How, Outcome
from companion.games.refereeing import Events, Handler, Rules, seating
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence

NAME = "cool-runnings"
TITLE = "Cool Runnings"
SEATS = range(2, 5)
RULES = 1
"""The edition of the rules this engine plays (an export says the one it was made under)."""


def new_game(
    options: Mapping[str, Any] | Options | None, seats: Sequence[SeatInfo], rng: FairRandom
) -> tuple[State, Events]:
    """Lay the track, shuffle the deck, deal four cards to each seat, and start the first turn."""
    opts = options if isinstance(options, Options) else options_from_json(options)
    seated, first = seating(seats, SEATS, TITLE, opts.first_seat)
    numbers = [s.seat for s in seated]
    if len(opts.deck) < (HAND_SIZE + 1) * len(seats):
        n = len(seats)
        raise BadOptions(
            Sentence(
                f"a deck for {n} seats needs at least {5 * n} cards",
                f"ein Stapel für {n} Plätze braucht mindestens {5 * n} Karten",
            )
        )
    r = rng.at(0)
    parts = choose_parts(list(opts.track.parts), opts.parts, r, opts.part_order)
    track = build_track(opts.track, parts)
    events: Events = [m.TrackBuilt(parts, len(track))]
    deck, shuffled = Deck.shuffled(
        range(len(opts.deck)), r, [hand(n) for n in numbers] + [REVEALED]
    )
    events += shuffled
    for number in numbers[numbers.index(first) :] + numbers[: numbers.index(first)]:
        deck, _, drawn = deck.draw(hand(number), HAND_SIZE, r)
        events += drawn
    state = State(
        options=opts,
        seats=seated,
        parts=parts,
        track=track,
        deck=deck,
        positions=dict.fromkeys(numbers, 0),
        melted=(),
        turn_seat=first,
        turn=1,
        phase=PLAY,
        pending=None,
        winner=None,
        won_by=None,
        rng_counter=r.counter,
        commitment=rng.commitment,
    )
    events.append(m.TurnStarted(first, 1))
    return state, events


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; then the winner and how they won."""
    if state.phase != OVER:
        return None
    assert state.won_by is not None, "a game that is over was won somehow"
    return Outcome(state.winner, state.won_by)


def legal_actions(state: State, actor: Actor) -> list[m.Action]:
    """Every action ``actor`` (a seat, the referee or the table) may take now."""
    if state.phase == OVER:
        return []
    actions: list[m.Action] = []
    p = state.pending
    if isinstance(actor, int) and state.in_game(actor):
        if state.phase == PLAY and actor == state.turn_seat:
            targets = state.targets(actor)
            for card in state.hand(actor):
                actions += [m.PlayAttack(actor, card, t) for t in targets]
                actions += [m.PlayMove(actor, card, piece) for piece in state.positions]
        elif state.phase == DEFLECT and p and actor == p.target:
            targets = state.targets(actor)
            for card in state.hand(actor):
                if state.card(card).attack == p.attack:
                    actions += [m.Deflect(actor, card, t) for t in targets]
            actions.append(m.TakeHit(actor))
        elif state.phase in (COUNT, CARRY_OUT) and p and actor == p.carrier:
            actions += _carrying_out(state, actor)
        actions.append(m.Melted(actor, actor))
    elif actor == REFEREE:
        if state.phase == DEFLECT:
            actions.append(m.TakeHit(REFEREE))
        elif state.phase == COUNT:
            actions.append(m.CountFinished(REFEREE))
        actions += _carrying_out(state, REFEREE)
        actions += [m.Melted(REFEREE, seat) for seat in state.positions]
    elif actor == TABLE and state.phase == COUNT:
        actions.append(m.CountFinished(TABLE))
    return actions


def is_legal(state: State, a: m.Action) -> bool:
    """Whether ``a`` is one of ``legal_actions(state, a.by)``, without listing them all."""
    p, by = state.pending, a.by
    seat_in_game = isinstance(by, int) and state.in_game(by)
    if state.phase == OVER or not (seat_in_game or by in (REFEREE, TABLE)):
        return False
    match a:
        case m.Melted(by, seat):
            return state.in_game(seat) and by in (seat, REFEREE)
        case m.PlayAttack(by, card, target) | m.PlayMove(by, card, target):
            return (
                state.phase == PLAY
                and by == state.turn_seat
                and card in state.hand(by)
                and target in (state.positions if isinstance(a, m.PlayMove) else state.targets(by))
            )
        case m.Deflect(by, card, target):
            return (
                state.phase == DEFLECT
                and p is not None
                and by == p.target
                and card in state.hand(by)
                and state.card(card).attack == p.attack
                and target in state.targets(by)
            )
        case m.TakeHit(by):
            return state.phase == DEFLECT and p is not None and by in (p.target, REFEREE)
        case m.CountFinished(by):
            return state.phase == COUNT and by in (TABLE, REFEREE)
        case m.AttackDone(by) | m.WrongGuess(by):
            return (
                state.phase == CARRY_OUT
                and p is not None
                and by in (p.carrier, REFEREE)
                and (isinstance(a, m.AttackDone) or p.attack == "guessing-game")
            )
    return False


def _carrying_out(state: State, actor: Actor) -> list[m.Action]:
    if state.phase != CARRY_OUT or state.pending is None:
        return []
    done: list[m.Action] = [m.AttackDone(actor)]
    if state.pending.attack == "guessing-game":
        done.append(m.WrongGuess(actor))
    return done


def apply(state: State, action: m.Action, rng: FairRandom) -> tuple[State, Events]:
    """The state after ``action`` and the events it caused.

    Raises :class:`IllegalAction` with a sentence for the player when the rules forbid it.
    """
    return _RULES.settle(state, action, rng)


# Playing a card (rules: play one card, attack or move, never both halves)


def _play_attack(state: State, a: m.PlayAttack, r: FairRandom, ev: Events) -> State:
    deck = state.deck.move(a.card, hand(a.by), DISCARD, on_top=True)
    attack = state.card(a.card).attack
    ev.append(m.Attacked(a.by, a.card, attack, a.target, deflected=False))
    pending = Pending(attack, "card", ((a.by, a.card, a.target),), a.target, a.by)
    return state.evolve(deck=deck, phase=DEFLECT, pending=pending)


def _deflect(state: State, a: m.Deflect, r: FairRandom, ev: Events) -> State:
    """Ruling 6: same picture, a new target that is not the deflector; the deflector carries it."""
    p = state.pending
    assert p is not None
    deck = state.deck.move(a.card, hand(a.by), DISCARD, on_top=True)
    ev.append(m.Attacked(a.by, a.card, p.attack, a.target, deflected=True))
    pending = p.evolve(chain=(*p.chain, (a.by, a.card, a.target)), target=a.target, carrier=a.by)
    return state.evolve(deck=deck, pending=pending)


def _take_hit(state: State, a: m.TakeHit, r: FairRandom, ev: Events) -> State:
    assert state.pending is not None
    return _hit(state, state.pending, ev)


def _hit(state: State, p: Pending, ev: Events) -> State:
    """The target is hit: a ten-count starts, or the carrier carries it out (ruling 10)."""
    ten = attacks()[p.attack].ten_count
    ev.append(m.Hit(p.target, p.attack, p.carrier, p.source, ten))
    if ten:
        ev.append(m.CountStarted(p.target, TEN, state.options.count_pace_s))
        return state.evolve(phase=COUNT, pending=p)
    return state.evolve(phase=CARRY_OUT, pending=p)


def _count_finished(state: State, a: m.CountFinished, r: FairRandom, ev: Events) -> State:
    assert state.pending is not None
    ev.append(m.CountEnded(state.pending.target, a.by))
    return _attack_over(state, r, ev, cancelled=False)


def _attack_done(state: State, a: m.AttackDone, r: FairRandom, ev: Events) -> State:
    return _attack_over(state, r, ev, cancelled=False)


def _wrong_guess(state: State, a: m.WrongGuess, r: FairRandom, ev: Events) -> State:
    p = state.pending
    assert p is not None
    ev.append(m.GuessedWrong(p.target, p.guesses + 2))
    return state.evolve(pending=p.evolve(guesses=p.guesses + 1))


def _attack_over(
    state: State, r: FairRandom, ev: Events, *, cancelled: bool, out: int | None = None
) -> State:
    p = state.pending
    assert p is not None
    deck = state.deck
    if p.revealed is not None:
        deck = deck.move(p.revealed, REVEALED, DISCARD, on_top=True)
    ev.append(m.AttackEnded(p.target, p.attack, cancelled, out))
    return _end_turn(state.evolve(deck=deck, pending=None), r, ev)


def _play_move(state: State, a: m.PlayMove, r: FairRandom, ev: Events) -> State:
    """Rules 3 and 4: count free spaces; a movement space once; lava and ice where it stops."""
    card = state.card(a.card)
    state = state.evolve(deck=state.deck.move(a.card, hand(a.by), DISCARD, on_top=True))
    ev.append(m.MovePlayed(a.by, a.card, a.piece, card.move))
    state = _move(state, a.piece, card.move, "card", ev)
    end = state.positions[a.piece]
    if end > len(state.track):
        return _win(state, a.piece, "finish", ev)
    space = state.track[end - 1] if end else None
    if space is not None and space.kind == MOVE:
        state = _move(state, a.piece, space.shift, "movement-space", ev)
        end = state.positions[a.piece]
        if end > len(state.track):
            return _win(state, a.piece, "finish", ev)
    if end and state.track[end - 1].kind == "lava":
        return _lava(state, a.piece, r, ev)
    return _end_turn(state, r, ev)


def _move(state: State, piece: int, n: int, cause: str, ev: Events) -> State:
    start = state.positions[piece]
    occupied = {pos for seat, pos in state.positions.items() if seat != piece and pos > 0}
    end = step(len(state.track), occupied, start, n)
    ev.append(m.Moved(piece, start, end, cause))
    return state.evolve(positions=state.positions | {piece: end})


def _lava(state: State, seat: int, r: FairRandom, ev: Events) -> State:
    """Ruling 9: reveal the top card; its attack hits at once, carried out by the left neighbour."""
    deck, drawn, events = state.deck.draw(REVEALED, 1, r)
    ev += events
    state = state.evolve(deck=deck)
    if not drawn:
        return _end_turn(state, r, ev)
    card = drawn[0]
    attack = state.card(card).attack
    carrier = state.left_of(seat)
    ev.append(m.LavaRevealed(seat, card, attack, carrier))
    return _hit(state, Pending(attack, "lava", (), seat, carrier, revealed=card), ev)


def _melted(state: State, a: m.Melted, r: FairRandom, ev: Events) -> State:
    """Ruling 11: the piece leaves, the hand goes to the discard pile; one cube left wins."""
    seat = a.seat
    positions = {s: p for s, p in state.positions.items() if s != seat}
    deck = state.deck.move_all(hand(seat), DISCARD)
    state = state.evolve(positions=positions, deck=deck, melted=(*state.melted, seat))
    ev.append(m.CubeMelted(seat, a.by))
    if len(positions) == 1:
        return _win(state, next(iter(positions)), "last-cube", ev)
    p = state.pending
    if p is not None and seat in (p.target, p.carrier):
        return _attack_over(state, r, ev, cancelled=True, out=seat)
    if p is None and seat == state.turn_seat:
        return _end_turn(state, r, ev)
    return state


def _end_turn(state: State, r: FairRandom, ev: Events) -> State:
    """Ruling 7: the active seat refills to four; the next seat draws four if it has none."""
    seat, deck = state.turn_seat, state.deck
    if state.in_game(seat):
        ev.append(m.TurnEnded(seat))
        deck, _, events = deck.draw(hand(seat), HAND_SIZE - len(state.hand(seat)), r)
        ev += events
    nxt = state.left_of(seat)
    if not deck.pile(hand(nxt)):
        deck, _, events = deck.draw(hand(nxt), HAND_SIZE, r)
        ev += events
    ev.append(m.TurnStarted(nxt, state.turn + 1))
    return state.evolve(deck=deck, turn_seat=nxt, turn=state.turn + 1, phase=PLAY, pending=None)


def _win(state: State, seat: int, how: How, ev: Events) -> State:
    ev.append(m.Won(seat, how))
    deck = state.deck
    if state.pending is not None and state.pending.revealed is not None:
        deck = deck.move(state.pending.revealed, REVEALED, DISCARD, on_top=True)
    return state.evolve(deck=deck, phase=OVER, pending=None, winner=seat, won_by=how)


_HANDLERS: dict[type[m.Action], Handler[State]] = {
    m.PlayAttack: _play_attack,
    m.PlayMove: _play_move,
    m.Deflect: _deflect,
    m.TakeHit: _take_hit,
    m.CountFinished: _count_finished,
    m.AttackDone: _attack_done,
    m.WrongGuess: _wrong_guess,
    m.Melted: _melted,
}

_RULES: Rules[State, m.Action] = Rules(TITLE, m.ACTIONS, is_legal, why_illegal, _HANDLERS)
