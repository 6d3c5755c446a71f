"""Verification cost: checking an exported finished game against playing it live.

``companion verify`` has to be cheap enough to run on the box itself, so the goal is that
verifying a game costs no more than twice playing it. For each game (played by
:func:`companion.games.selfplay.play_one` and exported), two things are timed:

- live: starting a :class:`GameRecord` from the same seed and applying its logged actions, the
  work the table does during a real game (the random players' choices, self-play's invariant
  checks and its replay are left out: a real game has none of them);
- verify: :func:`companion.games.verify.verify` on the export (already parsed from JSON).

The baseline is the live time per game and the ratio is verify/live. Every verdict must be ok:
a failed verification fails the benchmark. ``play_one``'s own time is reported beside.
"""

from __future__ import annotations

import gc
import time

from bench.report import BenchFailure, Result
from companion.errors import ExportError
from companion.games import verify as games_verify
from companion.games.record import GameRecord
from companion.games.selfplay import play_one

GAME = "cool-runnings"
SEED = 1
GAMES = 50
QUICK_GAMES = 3
GOAL_RATIO = 2.0  # verify may cost at most twice the live game


def replay_live(record: GameRecord) -> GameRecord:
    """The game played again as the table plays it: the same seed, the same actions."""
    live = GameRecord.start(
        record.game, record.options, record.seats, record.device_secret, record.player_seeds
    )
    for action, _events in record.log:
        live.act(action)
    return live


def check(number: int, export: dict) -> None:
    """Verify one export; :class:`BenchFailure` unless the verdict is ok."""
    try:
        verdict = games_verify.verify(export)
    except ExportError as exc:
        raise BenchFailure(f"verify: game {number} is not a finished export: {exc}") from exc
    if not verdict.ok:
        raise BenchFailure(f"verify: game {number} failed verification: {verdict.mismatch}")


def run(quick: bool = False) -> Result:
    """Play, export, replay live and verify the games; report verify time against live time."""
    games = QUICK_GAMES if quick else GAMES
    t0 = time.perf_counter()
    played = [play_one(GAME, SEED, number) for number in range(games)]
    selfplay_s = (time.perf_counter() - t0) / games
    exports = [p.record.export() for p in played]
    for number, export in enumerate(exports):  # correctness first, untimed; also warms caches
        check(number, export)
        if replay_live(played[number].record).state != played[number].record.state:
            raise BenchFailure(f"verify: game {number} replayed live differs from self-play")
    live_s = verify_s = 0.0
    gc.collect()
    cpu0 = time.process_time()
    for number, (p, export) in enumerate(zip(played, exports, strict=True)):
        t0 = time.perf_counter()
        replay_live(p.record)
        t1 = time.perf_counter()
        check(number, export)
        t2 = time.perf_counter()
        live_s += t1 - t0
        verify_s += t2 - t1
    cpu = time.process_time() - cpu0
    live, ver = live_s / games, verify_s / games
    actions = sum(len(p.record.log) for p in played) / games
    return Result(
        name="verify",
        value=ver,
        unit="s/game",
        baseline=live,
        goal=GOAL_RATIO * live,
        better="lower",
        note=(
            f"{games} exported games of {GAME}, {actions:g} actions a game, all verified ok; "
            f"verify {ver * 1000:.1f} ms vs live {live * 1000:.1f} ms a game "
            f"(self-play with its checks {selfplay_s * 1000:.1f} ms); "
            f"{live_s + verify_s:.2f} s wall, {cpu:.2f} s CPU"
        ),
        extra={
            "games": games,
            "mean_actions": round(actions, 2),
            "goal_ratio": GOAL_RATIO,
            "live_s_per_game": round(live, 6),
            "selfplay_s_per_game": round(selfplay_s, 6),
            "verify_to_selfplay": round(ver / selfplay_s, 3),
        },
    )
