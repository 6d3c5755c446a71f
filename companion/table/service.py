"""The running table: sensors -> estimates, actions -> the game, the game -> cues, all on disk.

One :class:`TableService` owns the clock, the threads and the store. The sensor loop reads the
probes and pads, feeds each seat's station and publishes a new snapshot when something changed;
an action is checked (a seat acts only as itself, the referee's token for the referee's
actions), applied by the pure engine, stored durably, and only then answered; its events start
ten-counts, ask for weigh-ins, feed attacks to the estimator and play the cues. The web sees
only this class's methods and the public snapshot, never its insides.

On a simulated table the players obey the device: a cap is set on the pad a little after a
weigh-in is asked for, and an attack melts the simulated cube as it melts the estimate.
"""

from __future__ import annotations

import json
import logging
import secrets
import statistics
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import COLOURS, TableConfig
from companion.cues.process import (
    Counted,
    CountEnded,
    CueEvent,
    CueProcess,
    CueSettings,
    CuesFailed,
    CuesStarted,
    Pressed,
)
from companion.cues.tunes import CueName
from companion.errors import BadMessage, BadOptions, CompanionError, IllegalAction
from companion.games import GAMES, engine
from companion.games.cool_runnings.track import default_track, recommended_parts
from companion.games.messages import REFEREE, TABLE, Actor, from_json, to_json
from companion.games.record import GameRecord
from companion.games.seats import SeatInfo, seats_from_json
from companion.melt.attacks import DEFAULT_CONFIG
from companion.sensors.calibration import FILENAME, Calibration, load_calibration
from companion.sensors.lock import SensorsBusy, pads_lock
from companion.sensors.pipeline import Pipeline
from companion.sensors.pod import pad_seats as pod_pad_seats
from companion.sensors.sim import SimScales, SimTable
from companion.sensors.sources import (
    NO_PAD,
    NO_PROBE,
    Sources,
    open_sources,
    pad_settings,
    probe_seats,
    with_factory_calibration,
)
from companion.table.clock import TableClock
from companion.table.curves import Curves
from companion.table.hub import Hub, Subscription
from companion.table.station import ABSENT, Station
from companion.table.store import Store, StoreError
from companion.table.tokens import actor_of, referee_token, seat_tokens

log = logging.getLogger(__name__)

DATABASE = "companion.db"
LOOP_S = 0.25
"""Real seconds between two passes of the sensor loop."""
CUES_START_S = 5.0
"""How long start-up waits to hear whether the cue player opened its pins."""
REFRESH_S = 2.0
"""Real seconds after which a snapshot is published even if nothing else changed (the melt)."""
ROOM_C = 21.0
"""The air temperature assumed while no probe of the table reads."""
STORE_RETRY_S = 1.0
"""Real seconds between two tries at storing the table's own action (a count's end) while the
disk refuses writes."""
SIM_REACTION_S = 3.0
SIM_HOLD_S = 6.0
"""A simulated player sets the cap down this long after being asked, for this long."""
WET_ATTACKS = frozenset(k for k, a in DEFAULT_CONFIG.attacks.items() if a.wet)
BUSY = (
    "another process is reading the pads (companion calibrate, or a second daemon): "
    "let it finish, or stop it, then start companion again"
)

FileMark = tuple[int, int, int] | None
"""A file's (mtime_ns, size, inode): it changes whenever the file is saved; ``None``: no file."""


class Unauthorized(CompanionError):
    """No token, or a token nobody holds (401)."""


class Forbidden(CompanionError):
    """A token that may not do this (403): another seat's action, or the referee's."""


class NoGame(CompanionError):
    """There is no game yet (404)."""


@dataclass
class _Game:
    id: int
    record: GameRecord
    tokens: dict[str, str]


class TableService:
    """The device: one per process, started by ``companion run``; see the module's description."""

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        *,
        simulate: bool = False,
        speed: float = 1.0,
        seed: int | None = None,
        with_cues: bool = True,
        gpio: str = "RPi.GPIO",
        tick: Callable[[], object] | None = None,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.simulate = simulate
        self.clock = TableClock(speed)
        self.seed = seed
        self.with_cues = with_cues
        self.gpio = gpio
        self.tick = tick
        """Called on every pass of the sensor loop (the systemd watchdog's ping)."""
        self.referee_token = ""
        self.found: list[str] = []
        """What the service found at start, in words (probes, pads, cues), for the start-up text."""
        self._lock = threading.RLock()
        self._hub = Hub()
        self._stop = threading.Event()
        self._stations = {s.seat: Station(s.seat) for s in config.seats}
        self._curves = Curves(self._stations, self.clock.now(), self.clock.wall())
        self._game: _Game | None = None
        self._count: dict[str, Any] | None = None
        self._proposed: set[int] = set()
        self._cues: CueProcess | None = None
        self._cues_ok = False
        self._cues_note = "cues: off"
        self._sources: Sources | None = None
        self._pipeline: Pipeline | None = None
        self._held = ExitStack()
        """The pads' lock, held while real HX711 pads are open."""
        self._calibration = Calibration()
        """The calibration as its file says (the sources add a simulated table's own)."""
        self._calibration_mark: FileMark = None
        self._store: Store | None = None
        self._thread: threading.Thread | None = None
        self._snapshot: dict[str, Any] = {}
        self._published_at = 0.0
        self._next_sweep = 0.0
        self._cues_answered = threading.Event()

    # -- lifecycle

    def start(self) -> None:
        """Open the store and restore its game, open the sensors and cues, start the loop."""
        if self._real("scales"):
            try:
                self._held.enter_context(pads_lock(self.state_dir))
            except SensorsBusy:
                raise SensorsBusy(BUSY) from None
        self.referee_token = referee_token(self.state_dir)
        self._store = Store(self.state_dir / DATABASE)
        self._calibration_mark = file_mark(self.state_dir / FILENAME)
        self._calibration = load_calibration(self.state_dir / FILENAME)
        self._sources = open_sources(
            self.config,
            self._calibration,
            simulate=self.simulate,
            clock=self.clock.now,
            seed=self.seed or 0,
            gpio=self.gpio,
        )
        if isinstance(self._sources.scales, SimScales):
            self._sources.scales.backlog_s = max(5.0, 4 * LOOP_S * self.clock.speed)
        self._pipeline = Pipeline(self.config.filters, self._sources.calibration)
        self._restore()
        self._pass()
        if self.with_cues:
            settings = CueSettings(
                self.config.pins,
                len(self.config.seats),
                pace_s=self.config.cues.pace_s,
                pin_factory="mock" if self.simulate else None,
            )
            self._cues = CueProcess(settings, self._on_cue)
            self._cues.start()
            self._cues_answered.wait(CUES_START_S)
            self._pass()  # the pads' reader has had time to start too
        self.found = self._found()
        self._publish()
        self._thread = threading.Thread(target=self._sense_loop, name="sensors", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the loop, the cues and the sensors; close the store."""
        self._stop.set()
        self._hub.close()
        if self._thread is not None:
            self._thread.join(5.0)
        if self._cues is not None:
            self._cues.close()
        if self._sources is not None:
            self._sources.close()
        self._held.close()
        if self._store is not None:
            self._store.close()

    @property
    def sim(self) -> SimTable | None:
        """The simulated table, when the table is simulated: tests and demos play with it."""
        return self._sources.sim if self._sources is not None else None

    # -- what the web asks

    def actor_of(self, token: str | None) -> Actor:
        """The referee or the seat holding ``token``; :class:`Unauthorized` otherwise."""
        if not token:
            raise Unauthorized("this needs a token: scan your seat's code, or use the referee's")
        with self._lock:
            seats = self._game.tokens if self._game is not None else {}
            found = actor_of(token, self.referee_token, seats)
        if found is None:
            raise Unauthorized("this token belongs to no seat of the current game")
        return found

    def status(self) -> dict[str, Any]:
        """The public snapshot: the game's public view, every seat's ice, air and sensors.

        Never waits: the snapshot is replaced whole, so reading it needs no lock, and a phone
        asking for the status is not held up by an action being written to disk.
        """
        return self._snapshot

    def subscribe(self, last_event_id: int | None) -> Subscription:
        return self._hub.subscribe(last_event_id)

    def view(self, actor: Actor) -> dict[str, Any]:
        """What ``actor`` may see of the game, with the actions it may take (none, and no odds,
        once the referee has ended it)."""
        with self._lock:
            game = self._require_game()
            view = game.record.engine.view(game.record.state, actor)
            if game.record.ended:
                stopped = {"legal_actions": [], "odds": None}
                view = {**view, **{k: v for k, v in stopped.items() if k in view}}
            return view

    def export(self, actor: Actor | None) -> dict[str, Any]:
        """The game's export: for the referee, or for anyone once the game is over."""
        with self._lock:
            game = self._require_game()
            if actor != REFEREE and not game.record.over:
                raise Forbidden("the export is the referee's until the game is over")
            return game.record.export()

    def setup(self) -> dict[str, Any]:
        """What a game can be started with: the games, the table's seats and colours, and
        Cool Runnings' track parts with the count recommended for the air now."""
        with self._lock:
            airs = [s.air_c for s in self._stations.values() if s.air_c is not None]
        air_c = round(statistics.fmean(airs), 2) if airs else None
        games = [(name, engine(name)) for name in GAMES]
        return {
            "games": [
                {"name": name, "title": e.TITLE, "seats": {"min": e.SEATS[0], "max": e.SEATS[-1]}}
                for name, e in games
            ],
            "seats": [
                {"seat": s.seat, "name": s.name, "colour": s.colour} for s in self.config.seats
            ],
            "colours": list(COLOURS),
            "cool_runnings": {
                "parts": list(default_track().parts),
                "air_c": air_c,
                "recommended_parts": 5 if air_c is None else recommended_parts(air_c),
                "count_pace_s": self.config.cues.pace_s,
            },
        }

    def seat_tokens(self, actor: Actor) -> list[dict[str, Any]]:
        """The referee's list of the game's seats with each one's join token: the only way a
        seat's token leaves the table after the game's start."""
        if actor != REFEREE:
            raise Forbidden("only the referee hands out the seats' codes")
        with self._lock:
            game = self._require_game()
            return [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "colour": s.colour,
                    "token": game.tokens[str(s.seat)],
                }
                for s in game.record.seats
            ]

    def curves(self) -> dict[str, Any]:
        """Every seat's melt curve since the game started (since the service started, without
        a game): see :class:`~companion.table.curves.Curves`."""
        with self._lock:
            return self._curves.to_json()

    def start_game(self, actor: Actor, body: Any) -> dict[str, Any]:
        """Start ``{"game", "seats"?, "options"?, "seeds"?, "replace"?}``; the public view and
        the seats' tokens. A game being played is ended only with ``"replace": true``."""
        if actor != REFEREE:
            raise Forbidden("only the referee starts a game")
        if not isinstance(body, Mapping):
            raise BadMessage("the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "seats", "options", "seeds", "replace"})
        if unknown:
            raise BadMessage(f"unknown field {unknown[0]!r}")
        name = body.get("game")
        if not isinstance(name, str):
            raise BadMessage('"game" must name a game')
        eng = engine(name)
        seats = self._seats(body.get("seats"), eng.SEATS)
        options = body.get("options") or {}
        if not isinstance(options, Mapping):
            raise BadOptions("options must be a JSON object")
        if name == "cool-runnings" and "count_pace_s" not in options:
            options = {**options, "count_pace_s": self.config.cues.pace_s}
        seeds = body.get("seeds") or []
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise BadMessage('"seeds" must be a list of texts')
        replace = body.get("replace", False)
        if not isinstance(replace, bool):
            raise BadMessage('"replace" must be true or false')
        record = GameRecord.start(name, options, seats, secrets.token_bytes(32), seeds)
        tokens = seat_tokens(s.seat for s in seats)
        with self._lock:
            current = self._game
            if current is not None and not current.record.over and not replace:
                raise IllegalAction(
                    f"a game of {current.record.engine.TITLE} is being played "
                    f"({len(current.record.log)} actions): to end it and start another, "
                    'send "replace": true'
                )
            assert self._store is not None
            game_id = self._store.new_game(
                name,
                record.options,
                [s.to_json() for s in seats],
                record.device_secret.hex(),
                list(record.player_seeds),
                tokens,
                self.clock.wall(),
            )
            self._game = _Game(game_id, record, tokens)
            self._cancel_count()
            self._curves.reset(self.clock.now(), self.clock.wall())
            self._begin(record)
            self._publish()
            return {"view": eng.view(record.state, "public"), "seat_tokens": tokens}

    def act(self, actor: Actor, body: Any) -> dict[str, Any]:
        """Apply one of ``actor``'s legal actions, store it durably, and answer its new view."""
        with self._lock:
            game = self._require_game()
            action = from_json(body, game.record.engine.ACTIONS)
            by = getattr(action, "by", None)
            if by != actor:
                who = f"seat {actor}" if isinstance(actor, int) else "the referee"
                raise Forbidden(f"{who}'s token acts only as {who}, not as {json.dumps(by)}")
            self._apply(game, action)
            return game.record.engine.view(game.record.state, actor)

    def end_game(self, actor: Actor) -> dict[str, Any]:
        """The referee ends the game before its rules do: stored durably, a running count
        stopped, every action refused from then on; the export, its seed revealed."""
        if actor != REFEREE:
            raise Forbidden("only the referee ends a game")
        with self._lock:
            game = self._require_game()
            if game.record.over:
                raise IllegalAction("the game is already over")
            assert self._store is not None
            self._store.end_game(game.id, self.clock.wall())
            game.record.end()
            self._cancel_count()
            self._publish()
            return game.record.export()

    # -- the game

    def _require_game(self) -> _Game:
        if self._game is None:
            raise NoGame("no game yet: the referee starts one")
        return self._game

    def _seats(self, raw: Any, allowed: range) -> tuple[SeatInfo, ...]:
        """The seats that play: the table's own when not given; numbers take the table's names."""
        table = {
            s.seat: {"seat": s.seat, "name": s.name, "colour": s.colour} for s in self.config.seats
        }
        if raw is None:
            raw = list(table.values())
        if isinstance(raw, list):
            raw = [
                {**table.get(e, {}), "seat": e}
                if isinstance(e, int) and not isinstance(e, bool)
                else e
                for e in raw
            ]
        return seats_from_json(raw, allowed)

    def _apply(self, game: _Game, action: Any) -> None:
        """Apply, store, then change the live state: a failed write changes nothing."""
        record = game.record
        record.check_open()
        state, events = record.engine.apply(record.state, action, record.rng)
        assert self._store is not None
        self._store.append(game.id, len(record.log), to_json(action), self.clock.wall())
        record.state = state
        record.log.append((action, events))
        self._react(record, events)
        self._publish()

    def _restore(self) -> None:
        """Rebuild the current game from the store: the state after the last stored action."""
        assert self._store is not None
        stored = self._store.current()
        if stored is None:
            return
        eng = engine(stored.game)
        seats = seats_from_json(stored.seats, eng.SEATS)
        record = GameRecord.start(
            stored.game,
            stored.options,
            seats,
            bytes.fromhex(stored.device_secret),
            stored.player_seeds,
        )
        for entry in stored.actions:
            record.act(from_json(entry, eng.ACTIONS))
        if stored.ended_at is not None:
            record.end()
        self._game = _Game(stored.id, record, stored.seat_tokens)
        self._begin(record, restored=True)

    def _begin(self, record: GameRecord, restored: bool = False) -> None:
        """Set the table up for a game: cubes out, weigh-ins asked, a running count resumed."""
        t = self.clock.now()
        seats = [s.seat for s in record.seats]
        cubes = record.game == "cool-runnings"
        for number, station in self._stations.items():
            station.melt = None
            station.weigh_in = None
            if cubes and number in seats and not record.over:
                station.start_cube(t)
                self._ask_weigh_in(number, t)
                if self._sources is not None and self._sources.sim is not None:
                    self._sources.sim.start_cube(number, t)
        if not restored:
            self._cue("game-start", seats)
            self._react(record, record.setup)
        count = record.engine.view(record.state, "public").get("count")
        if restored and count and not record.over:
            self._start_count(count["seat"], count["pace_s"], count.get("counts", 10))

    def _react(self, record: GameRecord, events: Sequence[Any]) -> None:
        """What the table does about a game's events: counts, weigh-ins, attacks, cues."""
        t = self.clock.now()
        for event in events:
            kind = to_json(event)["type"]
            if kind == "count-started":
                self._start_count(event.seat, event.pace_s, event.counts)
            elif kind == "count-ended":
                self._cancel_count()
            elif kind == "turn-started":
                self._cue("your-turn", [event.seat])
                if record.game == "cool-runnings":
                    self._ask_weigh_in(event.seat, t)
            elif kind == "attack-ended":
                self._melt(event.seat, event.attack, t)
                if event.attack in WET_ATTACKS:
                    self._ask_weigh_in(event.seat, t)
            elif kind == "guessed-wrong":
                self._melt(event.seat, "guessing-game", t)
        outcome = record.engine.outcome(record.state)
        if outcome is not None and events:
            winners = outcome.get("winners") or [outcome.get("winner")]
            self._cue("winner", [w for w in winners if isinstance(w, int)])

    def _melt(self, seat: int, attack: str, t: float) -> None:
        station = self._stations.get(seat)
        if station is not None:
            station.attack(t, attack, self._air(seat))
        sim = self._sources.sim if self._sources is not None else None
        if sim is not None and seat in sim.seats and attack in DEFAULT_CONFIG.attacks:
            sim.melt(seat, t, DEFAULT_CONFIG.attacks[attack].mean_g)

    def _ask_weigh_in(self, seat: int, t: float) -> None:
        station = self._stations.get(seat)
        if station is None:
            return
        station.weigh_in = "requested"
        self._cue("weigh-in", [seat])
        sim = self._sources.sim if self._sources is not None else None
        if sim is not None and seat in sim.seats:
            sim.place_cap(seat, t + SIM_REACTION_S, SIM_HOLD_S)

    # -- the ten-count

    def _start_count(self, seat: int, pace_s: float, counts: int) -> None:
        self._cancel_count()
        self._count = {"seat": seat, "n": 0, "of": counts, "pace_s": pace_s}
        if self._cues is not None and self._cues_ok:
            self._cues.count(seat, self.clock.real_s(pace_s), self.clock.real_s(1.0))
            return
        threading.Thread(
            target=self._count_without_cues,
            args=(self._count, self.clock.now(), pace_s, counts),
            name="ten-count timer",
            daemon=True,
        ).start()

    def _count_without_cues(
        self, count: dict[str, Any], start: float, pace_s: float, counts: int
    ) -> None:
        """Keep the count's time when there is no cue player (no GPIO, or it failed).

        Beat n is due at ``start`` plus n - 1 paces on the table's clock, as the cue player
        times its own: a late wake-up (a sensor pass holding the lock) does not push the later
        beats back, and a clock that runs faster, or that a test moves, is kept.
        """
        for n in range(1, counts + 1):
            if not self._wait_until(start + (n - 1) * pace_s):
                return
            with self._lock:
                if self._count is not count:
                    return
                count["n"] = n
                self._publish()
        if self._wait_until(start + (counts - 1) * pace_s + 1.0):
            self._count_finished(count)

    def _wait_until(self, t: float) -> bool:
        """Wait for the table's time ``t``; ``False`` when the service stops first."""
        while (left := t - self.clock.now()) > 0:
            if self._stop.wait(self.clock.real_s(left)):
                return False
        return not self._stop.is_set()

    def _count_finished(self, count: dict[str, Any], retrying: bool = False) -> None:
        with self._lock:
            if self._count is not count or self._game is None:
                return
            self._count = None
            finished = [
                a
                for a in self._game.record.engine.legal_actions(self._game.record.state, TABLE)
                if to_json(a)["type"] == "count-finished"
            ]
            if finished:
                try:
                    self._apply(self._game, finished[0])
                except StoreError as exc:
                    if not retrying:
                        log.warning("the count's end is not stored yet (%s): trying again", exc)
                    self._count = count
                    self._finish_later(count)
                except (IllegalAction, CompanionError) as exc:
                    log.warning("the count's end could not be recorded: %s", exc)
            self._publish()

    def _finish_later(self, count: dict[str, Any]) -> None:
        """End a count whose end could not be stored once the disk takes it: the count stays
        shown at its last number meanwhile, and no action of the game is lost or skipped."""

        def retry() -> None:
            if not self._stop.wait(STORE_RETRY_S):
                self._count_finished(count, retrying=True)

        threading.Thread(target=retry, name="count end retry", daemon=True).start()

    def _cancel_count(self) -> None:
        if self._count is not None and self._cues is not None and self._cues_ok:
            self._cues.cancel()
        self._count = None

    # -- cues

    def _cue(self, name: CueName, seats: Sequence[int]) -> None:
        if self._cues is not None and self._cues_ok:
            self._cues.cue(name, [s for s in seats if s in self._stations])

    def _on_cue(self, event: CueEvent) -> None:
        """An event from the cue player (on its listening thread)."""
        with self._lock:
            count = self._count
            if isinstance(event, CuesStarted):
                self._cues_ok = True
                pins = "mock pins" if self.simulate else "GPIO"
                self._cues_note = f"cues: buzzer, LEDs and buttons on {pins} ({event.priority})"
                self._cues_answered.set()
            elif isinstance(event, CuesFailed):
                self._cues_ok = False
                self._cues_note = f"cues: none ({event.reason})"
                self._cues_answered.set()
                log.warning("cues: %s; the game goes on without buzzer and lights", event.reason)
                if count is not None:  # the count goes on, timed by the service alone
                    self._start_count(count["seat"], count["pace_s"], count["of"])
            elif isinstance(event, Counted) and count is not None and count["seat"] == event.seat:
                count["n"] = event.n
                self._publish()
            elif isinstance(event, CountEnded) and event.finished and count is not None:
                if count["seat"] == event.seat:
                    self._count_finished(count)
            elif isinstance(event, Pressed):
                log.info("seat %d pressed its button", event.seat)

    # -- sensors and the snapshot

    def _sense_loop(self) -> None:
        while not self._stop.wait(LOOP_S):
            try:
                self._pass()
            except Exception:
                log.exception("the sensor loop failed a pass; it goes on")
            if self.tick is not None:
                self.tick()

    def _pass(self) -> None:
        """Read what is due, feed the stations, publish when something shown changed."""
        self._recalibrate()
        assert self._sources is not None and self._pipeline is not None
        readings = []
        if self._sources.thermometers is not None and self.clock.now() >= self._next_sweep:
            readings += self._sources.thermometers.sweep()
            self._next_sweep = self.clock.now() + self.config.sensors.sweep_s
        if self._sources.scales is not None:
            readings += self._sources.scales.readings()
        states = self._pipeline.push_all(readings)
        with self._lock:
            changed = self._sense(states)
            if changed or self.clock.wall() - self._published_at >= REFRESH_S:
                self._publish()

    def _sense(self, states: Sequence[Any]) -> bool:
        """Feed the sensor states to their seats' stations; whether anything shown changed."""
        assert self._sources is not None
        changed = False
        calibration = self._sources.calibration
        for state in states:
            station = self._stations.get(state.seat) if state.seat is not None else None
            if station is None:
                continue
            before = (station.thermometer, station.scale, station.weigh_in)
            if station.sense(state, calibration.seat(station.seat).cap_g):
                changed = True
            changed = changed or before != (station.thermometer, station.scale, station.weigh_in)
        return changed

    def _recalibrate(self) -> None:
        """Use ``calibration.toml`` from the next reading on when the file has changed.

        A broken file is warned about once, naming its line and the fix, and the table keeps
        the calibration it had. A file that gives a real probe or pad to another seat opens
        the sensors again, as at start (the pads' lock stays held); a simulated table's
        readings carry their seats already, so only its values change.
        """
        path = self.state_dir / FILENAME
        mark = file_mark(path)
        if mark == self._calibration_mark:
            return
        self._calibration_mark = mark
        try:
            calibration = load_calibration(path)
        except CompanionError as exc:
            log.warning("%s; the table goes on with the calibration it had", exc)
            return
        assert self._sources is not None and self._pipeline is not None
        moved = self._moved(self._calibration, calibration)
        if moved and self._sources.sim is not None:
            log.warning(
                "%s gives %s to other seats: restart companion to read them so; until then "
                "the table goes on with the calibration it had",
                path,
                " and ".join(moved),
            )
            return
        self._calibration = calibration
        if moved:
            self._reopen(calibration)
        elif self._sources.sim is not None:
            calibration = with_factory_calibration(
                calibration,
                self._sources.sim,
                self._simulated("thermometers"),
                self._simulated("scales"),
            )
        self._sources.calibration = self._pipeline.calibration = calibration
        how = ", the sensors opened again" if moved else ""
        log.info("%s: the new calibration is in use%s", path, how)

    def _moved(self, before: Calibration, after: Calibration) -> list[str]:
        """The real sensors ("probes", "pads") whose seats differ between two calibrations."""
        moved = []
        if self._real("thermometers") and probe_seats(self.config, before) != probe_seats(
            self.config, after
        ):
            moved.append("probes")
        if self._real("scales"):
            if self.config.sensors.scales == "pod":
                seats = [pod_pad_seats(self.config, c) for c in (before, after)]
            else:
                seats = [pad_settings(self.config, c, self.gpio).seats for c in (before, after)]
            if seats[0] != seats[1]:
                moved.append("pads")
        return moved

    def _reopen(self, calibration: Calibration) -> None:
        """Close the sensors and open them with ``calibration``'s seats; every seat's sensors
        read as absent until they are heard from again, as at start."""
        assert self._sources is not None
        self._sources.close()
        self._sources = open_sources(
            self.config,
            calibration,
            simulate=self.simulate,
            clock=self.clock.now,
            seed=self.seed or 0,
            gpio=self.gpio,
        )
        self._next_sweep = 0.0
        with self._lock:
            for station in self._stations.values():
                station.thermometer = station.scale = ABSENT
                station.air_c = station.pad_g = None

    def _real(self, kind: str) -> bool:
        """Whether the table reads real ``kind`` ("thermometers", "scales"): w1 probes, HX711s,
        or either through the pod."""
        real = {"thermometers": ("w1", "pod"), "scales": ("hx711", "pod")}[kind]
        return not self.simulate and getattr(self.config.sensors, kind) in real

    def _simulated(self, kind: str) -> bool:
        return self.simulate or getattr(self.config.sensors, kind) == "sim"

    def _air(self, seat: int) -> float:
        """A seat's air, else the median of the others', else a room's."""
        own = self._stations[seat].air_c if seat in self._stations else None
        if own is not None:
            return own
        others = [s.air_c for s in self._stations.values() if s.air_c is not None]
        return statistics.median(others) if others else ROOM_C

    def _publish(self) -> None:
        self._snapshot = self._build()
        self._published_at = self.clock.wall()
        self._hub.publish(self._snapshot)

    def _build(self) -> dict[str, Any]:
        t = self.clock.now()
        game = None
        names = {s.seat: (s.name, s.colour, False) for s in self.config.seats}
        if self._game is not None:
            record = self._game.record
            eng = record.engine
            view = eng.view(record.state, "public")
            outcome = eng.outcome(record.state)
            game = {
                "name": record.game,
                "title": eng.TITLE,
                "phase": view.get("phase"),
                "turn_seat": view.get("turn_seat"),
                "commitment": record.commitment,
                "over": record.over,
                "ended": record.ended,
                "outcome": outcome,
                "actions": len(record.log),
                "view": view,
            }
            names.update({s.seat: (s.name, s.colour, True) for s in record.seats})
        seats = []
        for number in sorted(set(names) | set(self._stations)):
            name, colour, playing = names.get(number, (f"Seat {number}", None, False))
            station = self._stations.get(number)
            entry = {"seat": number, "name": name, "colour": colour, "playing": playing}
            if station is not None:
                estimate = station.estimate(t, self._air(number))
                entry.update(station.to_json(estimate))
                if estimate is not None:
                    self._curves.record(number, t, estimate.grams, estimate.sigma_g)
                self._propose_melted(number, estimate is not None and estimate.melted and playing)
            else:
                entry.update(
                    ice=None, air_c=None, sensors={"thermometer": "absent", "scale": "absent"}
                )
            seats.append(entry)
        return {
            "game": game,
            "seats": seats,
            "count": dict(self._count) if self._count is not None else None,
            "simulated": self.simulate,
            "speed": self.clock.speed,
            "time": round(self.clock.wall(), 3),
        }

    def _propose_melted(self, seat: int, melted: bool) -> None:
        """When a playing seat's cube seems gone, say so once: the status shows it and the cue
        sounds; the seat (or the referee) confirms with the game's "melted" action."""
        if melted and seat not in self._proposed:
            self._proposed.add(seat)
            self._cue("melt-warning", [seat])
        elif not melted:
            self._proposed.discard(seat)

    def _found(self) -> list[str]:
        """What the table has, in lines a maker reads at start: each faulty part with its fix."""
        lines = []
        for kind in ("thermometer", "scale"):
            statuses = {n: getattr(st, kind) for n, st in sorted(self._stations.items())}
            good = [n for n, status in statuses.items() if status == "ok"]
            source = getattr(self.config.sensors, f"{kind}s")
            where = "simulated" if self.simulate else source
            lines.append(f"{kind}s ({where}): {len(good)} of {len(statuses)} seats read")
            unheard = NO_PROBE if kind == "thermometer" else NO_PAD
            lines += [
                f"  seat {n}'s {kind}: {unheard if status == ABSENT else status}"
                for n, status in statuses.items()
                if status != "ok" and source != "none"
            ]
        lines.append(self._cues_note)
        return lines


def file_mark(path: Path) -> FileMark:
    """What tells a file's versions apart without reading it: (mtime_ns, size, inode).

    A save renames a new file over the old one, so the inode changes even when the time and
    the size do not.
    """
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)
