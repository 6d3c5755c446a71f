"""Self-play: random legal players play whole games while every invariant is checked.

After every action the game's invariants must hold; after every game, replaying its log from the
seed must give the same state after every action. The same seed gives the same report.

>>> report = selfplay("cool-runnings", games=3, seed=1)
>>> report["games"], report["finished"], report["invariant_violations"]
(3, 3, 0)
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import engine
from companion.games.outcome import Outcome
from companion.games.record import GameRecord
from companion.games.seats import SeatInfo, default_seats

MAX_ACTIONS = 5000


@dataclass
class PlayedGame:
    """One self-played game, the states along the way, and what went wrong."""

    record: GameRecord
    states: list[Any]
    violations: list[str] = field(default_factory=list)


def game_secret(seed: int, number: int) -> bytes:
    """The device secret of game ``number`` of a self-play run: fixed by the run's seed."""
    return hashlib.sha256(f"companion-selfplay:{seed}:{number}".encode()).digest()


def play_one(
    game: str,
    seed: int,
    number: int = 0,
    seats: Sequence[SeatInfo] | None = None,
    options: dict[str, Any] | None = None,
    on_events: Callable[[list[Any], Any], None] | None = None,
) -> PlayedGame:
    """Play one game with random legal players, checking invariants after every action."""
    eng = engine(game)
    seats = tuple(seats or default_seats(max(eng.SEATS)))
    rnd = random.Random(f"{seed}:{number}")
    record = GameRecord.start(game, options, seats, game_secret(seed, number))
    played = PlayedGame(record, [record.state])
    if on_events:
        on_events(record.setup, record.state)
    while not record.over and len(record.log) < MAX_ACTIONS:
        events = record.act(eng.random_action(record.state, rnd))
        played.states.append(record.state)
        if on_events:
            on_events(events, record.state)
        played.violations += [
            f"after action {len(record.log)}: {v}" for v in eng.invariants(record.state)
        ]
    played.violations += replay_differences(played)
    return played


def replay_differences(played: PlayedGame) -> list[str]:
    """Replay the log from the seed; every state must equal the live one."""
    rec = played.record
    eng = rec.engine
    rng = rec.rng
    state, _ = eng.new_game(rec.options, rec.seats, rng)
    if state != played.states[0]:
        return ["replay: the set-up differs from the live game"]
    for i, (action, _) in enumerate(rec.log, start=1):
        state, _ = eng.apply(state, action, rng)
        if state != played.states[i]:
            return [f"replay: the state after action {i} differs from the live game"]
    return []


@dataclass(frozen=True)
class Summary:
    """What a report needs of one game: small, so it crosses a process boundary cheaply."""

    actions: int
    outcome: Outcome | None
    violations: tuple[str, ...]


def summarise(job: tuple[str, int, int, tuple[SeatInfo, ...]]) -> Summary:
    """Play game ``number`` of a run and keep its summary (a top-level function for pools)."""
    game, seed, number, seats = job
    played = play_one(game, seed, number, seats)
    record = played.record
    return Summary(len(record.log), record.outcome, tuple(played.violations))


Mapper = Callable[[Callable[[Any], Summary], Iterable[Any]], Iterable[Summary]]


def selfplay(
    game: str, games: int, seed: int, seats: int | None = None, mapper: Mapper = map
) -> dict[str, Any]:
    """Play ``games`` games and report how they went (the format of ``companion selfplay``).

    ``mapper`` runs the games: ``map`` here, or a process pool's ``map`` to use every core;
    the report is the same either way.
    """
    eng = engine(game)
    seat_list = default_seats(seats or max(eng.SEATS))
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    finished = violations = actions = 0
    examples: list[str] = []
    jobs = ((game, seed, number, seat_list) for number in range(games))
    for summary in mapper(summarise, jobs):
        actions += summary.actions
        violations += len(summary.violations)
        examples += summary.violations[: max(0, 5 - len(examples))]
        if summary.outcome is not None:
            finished += 1
            winner = summary.outcome.winner
            wins["tie" if winner is None else str(winner)] += 1
            endings[summary.outcome.how] += 1
    return {
        "game": game,
        "games": games,
        "seed": seed,
        "finished": finished,
        "invariant_violations": violations,
        "mean_actions": round(actions / games, 2) if games else 0.0,
        "wins_by_seat": {str(s.seat): wins[str(s.seat)] for s in seat_list},
        "ties": wins["tie"],
        "endings": dict(sorted(endings.items())),
        "violation_examples": examples,
    }
