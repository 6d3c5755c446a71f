"""``companion selfplay GAME``: random legal players play whole games, checking the rules.

With ``--json`` it prints one report. With ``--narrate`` it plays one game and tells it turn by
turn, the way a player would read it; ``--export FILE`` keeps that game to ``companion verify``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from companion.cli.arguments import positive_int, seconds, seed_int
from companion.config import COLOURS
from companion.errors import CompanionError
from companion.games import GAMES, engine
from companion.games.fair import commitment_of
from companion.games.seats import SeatInfo
from companion.games.selfplay import game_secret, play_one, selfplay

NAMES = ("Karen", "Tom", "Mary", "Ben", "Lena", "Omar")
"""Karen, Tom and Mary are the players of the rulebook's examples."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("selfplay", help="random players play whole games; the rules are checked")
    p.add_argument("game", choices=sorted(GAMES), metavar="GAME", help=f"one of {', '.join(GAMES)}")
    p.add_argument("--games", type=positive_int, default=1, help="how many games (default 1)")
    p.add_argument(
        "--seed", type=seed_int, help="the same seed plays the same games (default: random)"
    )
    p.add_argument(
        "--seats", type=positive_int, help="how many seats (default: the most the game allows)"
    )
    p.add_argument("--jobs", type=positive_int, help="processes to play in (default: every core)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--narrate", action="store_true", help="tell one game turn by turn")
    p.add_argument("--delay", type=seconds, default=None, help="seconds between narrated lines")
    p.add_argument("--export", type=Path, metavar="FILE", help="write the narrated game's export")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    seats_range = engine(args.game).SEATS
    if args.seats is not None and args.seats not in seats_range:
        raise CompanionError(
            f"{args.game} is for {seats_range.start} to {seats_range.stop - 1} seats, "
            f"not {args.seats}"
        )
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if args.export and not args.narrate:
        raise CompanionError("--export goes with --narrate (it keeps the one narrated game)")
    if args.narrate and (args.games != 1 or args.json):
        raise CompanionError("--narrate tells one game in words: leave out --games and --json")
    if args.narrate:
        return narrate(args, seed)
    jobs = args.jobs or os.cpu_count() or 1
    if jobs > 1 and args.games >= 20:
        with ProcessPoolExecutor(jobs) as pool:
            report = selfplay(args.game, args.games, seed, args.seats, mapper=_chunked(pool))
    else:
        report = selfplay(args.game, args.games, seed, args.seats)
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['games']} games of {args.game} (seed {seed}): {report['finished']} finished, "
            f"{report['invariant_violations']} invariant violations, "
            f"{report['mean_actions']} actions on average"
        )
        print("wins by seat: " + ", ".join(f"{s}: {n}" for s, n in report["wins_by_seat"].items()))
        for example in report["violation_examples"]:
            print(f"violation: {example}")
    return 0 if report["invariant_violations"] == 0 else 1


def _chunked(pool: ProcessPoolExecutor) -> Any:
    """The pool's map, with games sent in chunks so the processes are not kept waiting."""
    return lambda fn, items: pool.map(fn, items, chunksize=10)


def narrate(args: argparse.Namespace, seed: int) -> int:
    """Play one game and tell it; a short pause between lines when a person is watching."""
    eng = engine(args.game)
    count = args.seats or max(eng.SEATS)
    seats = [SeatInfo(i + 1, NAMES[i], COLOURS[i]) for i in range(count)]
    delay = args.delay if args.delay is not None else (0.15 if sys.stdout.isatty() else 0.0)
    if args.export and args.export.is_dir():
        raise CompanionError(f"--export {args.export} is a folder; name a file")
    if args.export and not args.export.parent.is_dir():
        raise CompanionError(
            f"--export {args.export}: the folder {args.export.parent} does not exist"
        )

    def tell(events: list[Any], state: Any) -> None:
        for line in eng.narrate(events, state):
            print(line, flush=True)
            if delay:
                time.sleep(delay)

    names = ", ".join(s.name for s in seats)
    print(f"A game of {eng.TITLE} for {names} (seed {seed}).")
    print(
        f"Before the first card or die, the referee commits to its randomness: sha256 "
        f"{commitment_of(game_secret(seed, 0))}."
    )
    played = play_one(args.game, seed, 0, seats, on_events=tell)
    record = played.record
    if args.export:
        try:
            args.export.write_text(json.dumps(record.export(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise CompanionError(f"--export {args.export}: cannot write: {exc.strerror}") from None
        print(
            f"The game and its seed are in {args.export}; "
            f"check every shuffle and roll with: companion verify {args.export}"
        )
    for violation in played.violations:
        print(f"violation: {violation}")
    return 0 if not played.violations else 1
