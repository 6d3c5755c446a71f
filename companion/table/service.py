"""The running table: the one entry point that ``companion run``, the web and the tests use.

:class:`TableService` puts the table's rooms together and owns their lifecycle and the sensor
loop: the game session (:mod:`.session`), the sensing (:mod:`.sensing`), the count
(:mod:`.count`), the cues (:mod:`.cue_player`), the reactions that carry out a game's effects
(:mod:`.reactions`), the status they make (:mod:`.snapshot`) and the history of the finished
games (:mod:`.history`).

An action's order is DESIGN's: checked and stored under the lock that answers take, answered,
and then, outside that lock, its effects carried out in order and the new status broadcast
under the table's own lock. Two locks, always taken in that order when both are held: answers,
then the table; a status is read without either.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from companion.config import TableConfig
from companion.games.effects import TableFacts
from companion.games.messages import Actor
from companion.sensors.sim import SimTable
from companion.table.choices import setup
from companion.table.clock import TableClock
from companion.table.count import Count, CountKeeper
from companion.table.cubes import Cubes
from companion.table.cue_player import CodeHidden, CuePlayer, cue_settings
from companion.table.disk import StoreError
from companion.table.happenings import Happenings
from companion.table.history import History
from companion.table.hub import Hub, Subscription
from companion.table.opening import open_state, table_lock
from companion.table.own_box import own_options
from companion.table.reactions import GameEnded, NewGame, Reactions, Step
from companion.table.sensing import Sensing, SensorLoop
from companion.table.session import GameSession
from companion.table.snapshot import Held, build
from companion.table.status import Broker
from companion.table.store import Store
from companion.table.stored import MeltInput

log = logging.getLogger(__name__)
T = TypeVar("T")

REFRESH_S = 2.0
"""Real seconds after which a status is published even if nothing else changed (the melt)."""


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
        clock: TableClock | None = None,
        fresh: bool = False,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.simulate = simulate
        self.clock = clock or TableClock(speed)
        """The table's time (``speed`` times real time); a test passes one it moves itself."""
        self.referee_token = ""
        self.fresh = fresh
        """Whether a broken database is set aside and a new one begun (else it stops the start)."""
        self.read_only: str | None = None
        """Why the table stores nothing, when its disk refused writes at start; else ``None``."""
        self.found: list[str] = []
        """What the service found at start, in words (probes, pads, cues), for the start-up text."""
        self._held = contextlib.ExitStack()
        self._answers = threading.Lock()
        self._table = threading.RLock()
        self._steps: deque[Step] = deque()  # what answered changes ask, not carried out yet
        self._hub = Hub()
        self.broker: Broker | None = None
        """Where the MQTT publisher's broker stands, shown in the status (``None``: none)."""
        self._published_at = 0.0
        self._loop = SensorLoop(self._pass, tick)  # tick: the systemd watchdog's ping
        self._session: GameSession | None = None
        self._store: Store | None = None
        self._sensing = Sensing(
            config, state_dir, self.clock, simulate=simulate, seed=seed or 0, gpio=gpio
        )
        self.setting_up = self._sensing.setting_up  # the referee's set-up: see .setting_up
        self._keeper = CountKeeper(self.clock, self._table, self._publish, self._count_ended)
        settings = cue_settings(config, simulate) if with_cues else None
        self.happenings = Happenings()
        """What happened at the table, for the MQTT publisher (:mod:`.happenings`)."""
        self.history = History(lambda: self._store)
        """The finished games and who won what (:mod:`.history`), read from the store."""
        self._cues = CuePlayer(settings, self.clock, self._table, self._keeper, self.happenings)
        self._cubes = Cubes(config, self.clock, self.happenings)
        self._reactions = Reactions(self._cubes, self._keeper, self._cues, self.happenings)

    # -- lifecycle

    def start(self) -> None:
        """Take the state directory; open the sensors, store, game and cues; start the loop."""
        own = own_options(self.config)  # a wrong file stops the start, as the config's do
        self._held.enter_context(table_lock(self.state_dir))
        self._sensing.open()
        self._cubes.sim = self._sensing.sim
        with self._answers:  # the token, the store and its game: see :mod:`.opening`
            opened = open_state(self.state_dir, self.config.seats, self.clock.wall, self.fresh)
            self.referee_token, self.read_only = opened.referee_token, opened.read_only
            self._store, self._session = opened.store, opened.session
            self._session.own_options = own
        self._cues.start()
        with self._answers:
            if opened.session.game is not None:
                self._steps.extend([self._new_game(False, tuple(opened.melt)), *opened.standing])
        self._carry_out()
        self._pass()
        self.found = [*opened.said, *self._sensing.found(self._cubes.stations), self._cues.note]
        self._loop.start()

    def close(self) -> None:
        """Stop the loop, the count, the cues and the sensors; close the store."""
        self._hub.close()
        self._loop.stop()
        with self._table:
            self._keeper.stop()
        self._cues.close()
        self._sensing.close()
        if self._store is not None:
            self._store.close()
        self._held.close()

    @property
    def cued(self) -> bool:
        """Whether the buzzer, LEDs and buttons play (the cue player opened its pins)."""
        return self._cues.ok

    @property
    def sim(self) -> SimTable | None:
        """The simulated table, when the table is simulated: tests and demos play with it."""
        return self._sensing.sim

    # -- what the web asks

    def actor_of(self, token: str | None) -> Actor:
        """The referee or the seat holding ``token``; ``Unauthorized`` otherwise."""
        with self._answers:
            return self.session.actor_of(token, self.referee_token)

    def status(self) -> dict[str, Any]:
        """The public status: replaced whole, so read without a lock or a wait for the disk."""
        return self._hub.snapshot

    def referee_code(self) -> str:
        """The referee's token while seat 1's held button shows it (``CodeHidden`` else)."""
        if not self._cues.referee_code_shown:
            raise CodeHidden("no held button shows the referee's code now")
        return self.referee_token

    def subscribe(self, last_event_id: int | None) -> Subscription:
        return self._hub.subscribe(last_event_id)

    def view(self, actor: Actor) -> dict[str, Any]:
        with self._answers:
            return self.session.view(actor)

    def export(self, actor: Actor | None) -> dict[str, Any]:
        with self._answers:
            return self.session.export(actor)

    def seat_links(self, actor: Actor) -> list[dict[str, Any]]:
        """The referee's list of the game's seats, each with its open claim (never a token)."""
        with self._answers:
            return self.session.seat_links(actor)

    def claim(self, body: Any) -> dict[str, Any]:
        """A phone claims its seat (see :meth:`GameSession.claim`): the seat and its token."""
        return self._answered(lambda: (self.session.claim(body), ()))

    def renew_claim(self, actor: Actor, body: Any) -> dict[str, Any]:
        """The referee gives a seat a new claim, signing out the phone that held it."""
        return self._answered(lambda: (self.session.renew_claim(actor, body), ()))

    def curves(self) -> dict[str, Any]:
        """Every seat's melt curve since the game (or the service) started: :mod:`.curves`."""
        with self._table:
            return self._cubes.curves.to_json()

    def setup(self) -> dict[str, Any]:
        """What a game can be started with (see :func:`.choices.setup`)."""
        own = self._session.own_options if self._session is not None else {}
        return setup(self.config.seats, self._facts(), own)

    def start_game(self, actor: Actor, body: Any) -> dict[str, Any]:
        """Start a game (see :meth:`GameSession.start`): its public view and seats' claims."""
        facts = self._facts()
        with self._answers:
            game, effects = self.session.start(actor, body, facts)
            self._steps.extend([self._new_game(announce=True), *effects])
            answer = game.started()
        self._carry_out()
        return answer

    def act(self, actor: Actor, body: Any) -> dict[str, Any]:
        """Apply one of ``actor``'s legal actions, stored durably; its view after."""
        return self._answered(lambda: self.session.act(actor, body))

    def end_game(self, actor: Actor) -> dict[str, Any]:
        """The referee ends the game (see :meth:`GameSession.end`); its count stops."""
        return self._answered(lambda: (self.session.end(actor), [GameEnded()]))

    @property
    def session(self) -> GameSession:
        if self._session is None:
            raise StoreError("the table is not started")
        return self._session

    # -- effects and the status

    def _answered(self, change: Callable[[], tuple[T, Sequence[Step]]]) -> T:
        """A change under the answers' lock, its steps queued in order and carried out after it."""
        with self._answers:
            answer, steps = change()
            self._steps.extend(steps)
        self._carry_out()
        return answer

    def _new_game(self, announce: bool, inputs: tuple[MeltInput, ...] | None = None) -> NewGame:
        game = self.session.require()
        return NewGame(game.id, tuple(sorted(self.session.playing())), announce, inputs)

    def _carry_out(self) -> None:
        """Carry out the queued steps, in the order answered; then publish the status."""
        with self._table:
            while self._steps:
                self._reactions.carry_out(self._steps.popleft())
            self._reactions.estimated(self._cubes.estimate())
            self._publish()
        self._store_melt()

    def _count_ended(self, count: Count) -> bool:
        """Take a count's action when it ends; ``False`` while the disk refuses it."""
        try:
            with self._answers:
                self._steps.extend(self.session.take(count.then))
        except StoreError as exc:
            if self.read_only is None:  # else said at start, and on every page
                log.warning("the count's end is not stored yet (%s)", exc)
            return False
        self.happenings.note("count-finished", self.clock.wall(), seat=count.seat, completed=True)
        self._carry_out()
        return True

    def _publish(self) -> None:
        """Build and broadcast the status (under the table's lock)."""
        session, cubes = self.session, self._cubes
        status = build(
            Held(
                *(session.summary, session.playing(), session.joined, self.config.seats),
                *(cubes.stations, self._keeper.count, cubes.restart, self.simulate),
                *(self.clock.speed, self.clock.wall(), self.read_only),
                *(self._cues.referee_code_shown, self.broker),
            )
        )
        self._published_at = self.clock.real_s(self.clock.now())
        self._hub.publish(status.to_json())
        self.happenings.turn(status.game, status.time)  # after: a reader finds its status

    def _facts(self) -> TableFacts:
        with self._table:
            return TableFacts(self._cubes.table_air(), self.config.cues.pace_s)

    # -- the sensor loop

    def _pass(self) -> None:
        """Read what is due, feed the stations, estimate; publish on a change or when due."""
        states = self._sensing.read()
        with self._table:
            reopened = self._sensing.take_reopened()
            changed = self._cubes.feed(states, self._sensing.calibration, reopened)
            self._reactions.estimated(self._cubes.estimate())
            code = self._cues.referee_code_shown != self._hub.snapshot.get("referee_code")
            due = self.clock.real_s(self.clock.now()) - self._published_at >= REFRESH_S
            if changed or code or due:
                self._publish()
        self._store_melt()

    def _store_melt(self) -> None:
        """Store the estimates' new inputs, outside the table's lock (none on a read-only table)."""
        self._cubes.store_inputs(self._store if self.read_only is None else None, self._table)
