"""Self-play speed: games per second with random legal players, for each game.

The product requirement is that ``companion selfplay GAME --games 1000`` finishes in well under
a minute, so the goal is 1000/60 games per second, here on one core (the command uses every
core). What is timed is exactly what that command runs in each process:
:func:`companion.games.selfplay.selfplay`, which checks every invariant after every action and
replays each game's log. Wall time (``time.perf_counter``) gives the value; the
process's CPU time is reported beside it, with the actions per second.
"""

from __future__ import annotations

import gc
import time

from bench.report import BenchFailure, Result
from companion.games import selfplay as games_selfplay

GAME = "cool-runnings"
SEED = 1
GAMES = 100
QUICK_GAMES = 10
GOAL = 1000 / 60  # games per second: 1000 games in a minute


def run(quick: bool = False, game: str = GAME) -> Result:
    """Play the games once and report games per second against the goal."""
    games = QUICK_GAMES if quick else GAMES
    games_selfplay.selfplay(game, games=1, seed=SEED + 1)  # warm-up, untimed
    gc.collect()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    report = games_selfplay.selfplay(game, games=games, seed=SEED)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if report["invariant_violations"]:
        raise BenchFailure(
            f"selfplay: {report['invariant_violations']} invariant violations, first: "
            f"{report['violation_examples'][0]}"
        )
    rate = games / wall
    actions_per_s = rate * report["mean_actions"]
    return Result(
        name=f"selfplay {game}",
        value=rate,
        unit="games/s",
        baseline=None,
        goal=GOAL,
        better="higher",
        note=(
            f"{games} games of {game} ({report['finished']} finished, 0 invariant violations), "
            f"{report['mean_actions']:g} actions a game, {actions_per_s:,.0f} actions/s; "
            f"{wall:.2f} s wall, {cpu:.2f} s CPU; 1000 games would take {1000 / rate:.0f} s"
        ),
        extra={
            "games": games,
            "finished": report["finished"],
            "mean_actions": report["mean_actions"],
            "actions_per_s": round(actions_per_s, 1),
            "wall_s": round(wall, 3),
            "cpu_s": round(cpu, 3),
        },
    )
