"""Power cuts: the daemon is killed (SIGKILL) at random moments while scripted games are played
through its API; after each restart the game is where the last answered action left it, every
answered action is in its log, and the database is sound.

Each game has a lane of its own (its daemon, its state directory, its player), and the lanes
run side by side, as restarting the daemon is what takes the time. Each daemon is forked from
a Python that has imported companion once (:class:`Forks`), so that 200 restarts do not pay the
imports 200 times: from ``companion.cli.main`` on, it is ``companion run`` itself, and SIGKILL
cuts it all the same (``tests/cli`` starts the command as a user does). A cut comes at a random
moment, or while nothing is in flight (then every viewer's view is compared with the one seen
before the cut), or a few milliseconds after an action was sent (between its write and its
answer, or before either). ``COMPANION_CRASH_KILLS`` sets how many cuts the short test makes (a
handful in ``make test``); the long one makes 200 and reports its figures to the bench.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import START_S, STOP_S, Daemon, free_port
from bench.figures import record

GAMES = ("cool-am-pool", "ice-trays", "daddy-cool", "cool-runnings")
KILLS = int(os.environ.get("COMPANION_CRASH_KILLS", "8"))
LONG_KILLS = 200
SPEED = "20"
"""The table's time runs this much faster than real time, so that ten-counts end quickly."""
CALM_S = 0.1
WAIT_S = 10.0
"""How long a lane waits at most for its player to reach a calm or to send an action."""


FORK_SERVER = """
import json, os, signal, sys, traceback
import companion.cli
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for line in sys.stdin:
    argv, out = json.loads(line)
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            code = companion.cli.main(argv)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        os._exit(code)
    print(pid, flush=True)
"""
"""A Python that has imported companion, forking a ``companion run`` per line it reads:
``[argv, output file]``; it answers each with the daemon's process id."""


@dataclass
class Forked:
    """A daemon forked by :class:`Forks`: its process id, address and the referee's token;
    asked as :class:`bench.daemon.Daemon` is."""

    pid: int
    url: str
    referee: str
    out: Path
    """Where its output goes."""
    call = Daemon.call
    seated = Daemon.seated

    def kill(self) -> None:
        """A power cut: no warning, nothing flushed."""
        os.kill(self.pid, signal.SIGKILL)
        assert self._gone(10.0), f"the daemon {self.pid} outlived SIGKILL"

    def stop(self) -> bool:
        """What systemd does: SIGTERM, then wait; whether it ended in time (else it is killed)."""
        os.kill(self.pid, signal.SIGTERM)
        return self._gone(STOP_S)

    def _gone(self, within_s: float) -> bool:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            if not alive(self.pid):
                return True
            time.sleep(0.002)
        os.kill(self.pid, signal.SIGKILL)
        return False


def alive(pid: int) -> bool:
    """Whether the process runs still (the fork server reaps its daemons as they end)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


PORT_TRIES = 5
"""How many free ports a start tries before it gives up."""


class Forks:
    """Starts daemons as :func:`bench.daemon.start` does, forked from :data:`FORK_SERVER`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server = subprocess.Popen(
            [sys.executable, "-c", FORK_SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._lock = threading.Lock()
        self._started = 0

    def start(self, state_dir: Path, *args: str) -> Forked:
        """A daemon on a free port; on another one where something took that port between
        finding it free and the daemon's bind (four daemons and their phones open ports)."""
        for _ in range(PORT_TRIES):
            started = self._start(free_port(), state_dir, *args)
            if started is not None:
                return started
        raise AssertionError(f"no free port held in {PORT_TRIES} tries")

    def _start(self, port: int, state_dir: Path, *args: str) -> Forked | None:
        argv = ["run", "--simulate", "--no-cues", "--host", "127.0.0.1", "--port", str(port)]
        argv += ["--state-dir", str(state_dir), *args]
        with self._lock:
            self._started += 1
            out = self.folder / f"daemon-{self._started}.out"
            assert self.server.stdin is not None and self.server.stdout is not None
            self.server.stdin.write(json.dumps([argv, str(out)]) + "\n")
            self.server.stdin.flush()
            pid = int(self.server.stdout.readline())
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            text = out.read_text() if out.exists() else ""
            if "companion: cues" in text:
                referee = text.split("referee token ", 1)[1].split("\n", 1)[0].strip()
                return Forked(pid, f"http://127.0.0.1:{port}", referee, out)
            if not alive(pid):
                break
            time.sleep(0.005)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
        if "Address already in use" in text:
            return None
        raise AssertionError("the daemon did not start:\n" + text)

    def close(self) -> None:
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.close()
        self.server.wait(STOP_S)
        self.server.stdout.close()


Start = Callable[..., Forked]
"""Starts a daemon on a state directory with more arguments (:meth:`Forks.start`)."""


class Plug:
    """The daemon's power: pulled once, by the lane or by its player, whichever comes first."""

    def __init__(self, daemon: Forked) -> None:
        self.daemon = daemon
        self.pulled = threading.Event()
        self._lock = threading.Lock()

    def pull(self) -> None:
        with self._lock:
            if not self.pulled.is_set():
                self.daemon.kill()
                self.pulled.set()


class Player:
    """Posts legal actions, one at a time, and remembers what it saw after each answer."""

    def __init__(
        self,
        daemon: Forked,
        tokens: dict[str, str],
        rnd: random.Random,
        plug: Plug,
        cut: tuple[int, float] | None = None,
    ) -> None:
        self.daemon = daemon
        self.tokens = {"referee": daemon.referee, **tokens}
        self.rnd = rnd
        self.plug = plug
        self.cut = cut
        """(n, s): the power is cut s seconds after the n-th action is sent."""
        self.sent = 0
        self.in_flight: dict[str, Any] | None = None
        """The action sent and not answered yet."""
        self.answered: list[dict[str, Any]] = []
        """The actions the daemon answered 200, in order."""
        self.published = 0
        """The most actions a status has shown: a status shows only stored actions."""
        self.seen: tuple[int, dict[str, Any], dict[str, Any]] | None = None
        """(actions stored, the status's game, every viewer's view), all read in one calm."""
        self.over = False
        self.calm = threading.Event()
        """Set while nothing is in flight and what was seen is the daemon's state."""

    def play(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set() and not self.over:
                self._step()
        except (OSError, http.client.HTTPException):
            pass  # the daemon is gone: the power was cut

    def _status(self) -> dict[str, Any]:
        game: dict[str, Any] = self.daemon.call("GET", "/api/status").body["game"]
        self.published = max(self.published, game["actions"])
        return game

    def _step(self) -> None:
        before = self._status()["actions"]
        views = {
            who: self.daemon.call("GET", "/api/view", t).body for who, t in self.tokens.items()
        }
        game = self._status()
        count = game["actions"]
        calm = before == count == self._status()["actions"]  # no action came between the reads
        if calm and (self.seen is None or self.seen[0] != count):
            self.seen = (count, game, views)
        if game["over"]:
            self.over = True
        if calm:
            self.calm.set()
            time.sleep(CALM_S)
            self.calm.clear()
        if self.over:
            return
        every = [(who, a) for who, v in views.items() for a in v.get("legal_actions", [])]
        choices = [c for c in every if c[1]["type"] != "melted"] or every  # let a game last
        if not choices:
            time.sleep(0.01)  # a ten-count runs: the table ends it
            return
        who, action = self.rnd.choice(choices)
        self.sent += 1
        if self.cut is not None and self.cut[0] == self.sent:
            threading.Timer(self.cut[1], self.plug.pull).start()
        logged = {k: v for k, v in action.items() if k != "after"}  # as the log keeps it
        self.in_flight = logged
        answer = self.daemon.call("POST", "/api/actions", self.tokens[who], action)
        self.in_flight = None
        if answer.status == 200:
            self.answered.append(logged)
            self._status()


def unmatched(answered: list[dict[str, Any]], log: list[dict[str, Any]]) -> int:
    """How many of the answered actions the log lacks, in order (the table's own actions, a
    count's end, come between them).

    >>> unmatched([{"a": 1}, {"a": 3}], [{"a": 1}, {"a": 2}, {"a": 3}])
    0
    >>> unmatched([{"a": 1}, {"a": 3}], [{"a": 3}, {"a": 1}])
    1
    """
    rest = iter(log)
    return sum(1 for action in answered if not any(action == entry for entry in rest))


def integrity(state_dir: Path) -> str:
    """SQLite's own check of the database, read beside the running daemon."""
    db = sqlite3.connect(f"file:{state_dir / 'companion.db'}?mode=ro", uri=True)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


@dataclass
class Tally:
    """What the lanes did, added up."""

    kills: int = 0
    answered: int = 0
    lost: int = 0
    compared: int = 0
    """Cuts after which every viewer's view was compared with the one seen before."""
    in_flight: int = 0
    """Cuts that came while an action was sent and not answered..."""
    kept: int = 0
    """...and of those, the cuts that came after it was stored: the restart shows it."""
    games: set[str] = field(default_factory=set)
    restart_s: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    failed: threading.Event = field(default_factory=threading.Event)
    slow_stops: int = 0
    """Lanes whose last daemon did not stop on SIGTERM within ``STOP_S`` (killed then)."""


def new_game(daemon: Forked, game: str) -> dict[str, str]:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": game})
    assert started.status == 201, started.body
    tokens: dict[str, str] = daemon.seated(started)
    return tokens


def lane(game: str, state_dir: Path, kills: int, seed: int, tally: Tally, start: Start) -> None:
    """Play ``game`` on a daemon of its own, cutting its power ``kills`` times."""
    rnd = random.Random(seed)
    daemon = start(state_dir, "--speed", SPEED)
    tokens = new_game(daemon, game)
    log: list[dict[str, Any]] = []  # the game's actions as the daemon last gave them
    try:
        for kill in range(kills):
            if tally.failed.is_set():
                return  # another lane failed: the test ends
            plug = Plug(daemon)
            way = (kill + seed) % 3
            cut = (rnd.randint(1, 4), rnd.uniform(0.0, 0.004)) if way == 2 else None
            player = Player(daemon, tokens, rnd, plug, cut)
            stop = threading.Event()
            worker = threading.Thread(target=player.play, args=(stop,), daemon=True)
            worker.start()
            if way == 0:
                plug.pulled.wait(rnd.uniform(0.1, 1.5))
            elif way == 1:
                wanted = rnd.randint(1, 4)
                deadline = time.monotonic() + WAIT_S
                while len(player.answered) < wanted and not player.over:
                    assert time.monotonic() < deadline, f"{game}: the player is stuck"
                    time.sleep(0.005)
                player.calm.wait(WAIT_S)
            else:
                plug.pulled.wait(WAIT_S)
            plug.pull()
            stop.set()
            worker.join(WAIT_S)
            began = time.monotonic()
            daemon = start(state_dir, "--speed", SPEED)
            restart_s = time.monotonic() - began
            status = daemon.call("GET", "/api/status").body["game"]
            export = daemon.call("GET", "/api/export", daemon.referee).body
            stored = [entry["action"] for entry in export["log"]]
            lost = unmatched(log + player.answered, stored)
            sent = player.in_flight
            kept = (
                sent is not None
                and len(stored) > len(log) + len(player.answered)
                and stored[-1] == sent
            )
            seen = player.seen
            compared = False
            if seen is not None and status["actions"] == seen[0]:
                views = {
                    w: daemon.call("GET", "/api/view", t).body for w, t in player.tokens.items()
                }
                # A restored ten-count goes on, and its end may come while the views are read.
                if daemon.call("GET", "/api/status").body["game"]["actions"] == seen[0]:
                    assert status == seen[1], f"{game}: the status differs after the cut"
                    assert views == seen[2], f"{game}: a view differs after the cut"
                    compared = True
            with tally.lock:
                tally.kills += 1
                tally.answered += len(player.answered)
                tally.lost += lost
                tally.compared += compared
                tally.in_flight += sent is not None
                tally.kept += kept
                tally.games.add(game)
                tally.restart_s.append(restart_s)
            assert lost == 0, f"{game}: {lost} answered actions lost to the cut"
            assert status["actions"] >= player.published, f"{game}: a shown action was lost"
            assert len(stored) >= status["actions"]
            assert integrity(state_dir) == "ok"
            log = stored
            if status["over"]:
                tokens = new_game(daemon, game)
                log = []
    finally:
        if not daemon.stop():
            tail = daemon.out.read_text()[-2000:]
            warnings.warn(f"{game}: the daemon took over {STOP_S} s to stop:\n{tail}", stacklevel=1)
            with tally.lock:
                tally.slow_stops += 1
    assert integrity(state_dir) == "ok"


def power_cuts(tmp_path: Path, kills: int) -> tuple[Tally, float]:
    """Cut the power ``kills`` times over the four games' lanes; the tally and the seconds."""
    forks = Forks(tmp_path)
    try:
        return cut_lanes(tmp_path, kills, forks.start)
    finally:
        forks.close()


def cut_lanes(tmp_path: Path, kills: int, start: Start) -> tuple[Tally, float]:
    tally = Tally()
    failures: list[BaseException] = []
    each = math.ceil(kills / len(GAMES))

    def run(index: int, game: str) -> None:
        try:
            lane(game, tmp_path / game, each, index, tally, start)
        except BaseException as exc:
            failures.append(exc)
            tally.failed.set()

    began = time.monotonic()
    lanes = [
        threading.Thread(target=run, args=(i, game), name=game) for i, game in enumerate(GAMES)
    ]
    for thread in lanes:
        thread.start()
    for thread in lanes:
        thread.join()
    if failures:
        raise failures[0]
    assert tally.games == set(GAMES)
    assert tally.compared > 0, "no restart could be compared with what was seen before the cut"
    assert tally.answered > 0
    return tally, time.monotonic() - began


def test_no_answered_action_is_lost_to_a_power_cut(tmp_path: Path) -> None:
    tally, _ = power_cuts(tmp_path, KILLS)
    assert tally.kills >= KILLS and tally.lost == 0


@pytest.mark.long
def test_200_power_cuts_over_every_game_lose_nothing(tmp_path: Path) -> None:
    tally, seconds = power_cuts(tmp_path, LONG_KILLS)
    assert tally.kills >= LONG_KILLS and tally.lost == 0
    mean_restart_s = sum(tally.restart_s) / len(tally.restart_s)
    note = (
        f"SIGKILLs over the four games, {tally.answered} actions answered, {tally.lost} lost, "
        f"every view equal after {tally.compared} calm cuts, {tally.in_flight} cuts with an "
        f"action in flight ({tally.kept} of them stored, not answered, and kept), "
        "the database sound after each; "
        f"{seconds:.0f} s ({mean_restart_s:.2f} s a restart, four daemons side by side)"
    )
    record(
        "chaos: power cuts",
        tally.kills,
        "kills",
        goal=LONG_KILLS,
        note=note,
        answered=tally.answered,
        lost=tally.lost,
        compared=tally.compared,
        in_flight=tally.in_flight,
        kept=tally.kept,
        slow_stops=tally.slow_stops,
        seconds=round(seconds, 1),
        mean_restart_s=round(mean_restart_s, 3),
    )
    record(
        "chaos: answered actions lost to power cuts",
        tally.lost,
        "actions",
        goal=0,
        better="lower",
        note=f"of {tally.answered} answered over {tally.kills} power cuts",
    )
