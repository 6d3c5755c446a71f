"""The game session: the current game, who holds its seats, its store, and who may do what.

A game is started, acted on, ended, viewed and exported here, its seats claimed by the phones
that sit there (:mod:`.seat_keys`), and it is restored from the store after a restart. Every
change is stored before it changes the live game, so a failed write changes nothing and an
answered action survives a power cut. Each change gives back the effects the
table must carry out (:mod:`companion.games.effects`); the session itself starts no thread and
takes no lock, so it is tested alone: the table calls it under the lock that answers take.
"""

from __future__ import annotations

import json
import secrets
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.config import SeatConfig
from companion.errors import BadMessage, BadOptions, CompanionError, IllegalAction
from companion.games import engine
from companion.games.effects import Effect, StartCount, TableFacts
from companion.games.messages import REFEREE, Actor, from_json, to_json
from companion.games.record import ALREADY_OVER, GameRecord, TakeBack
from companion.games.seats import SeatInfo, seats_from_json
from companion.games.sentence import Sentence, counted
from companion.table.choices import seats_of
from companion.table.database_file import BrokenDatabase
from companion.table.history import REPLAY_ERRORS, finished
from companion.table.offers import AFTER, Answers, Stale, moved_on, offer, stamped
from companion.table.reactions import Step, TakenBack
from companion.table.seat_keys import SeatKeys, claim_in, links, seat_in
from companion.table.status import GameSummary, Told
from companion.table.store import Store
from companion.table.tokens import actor_of, new_token

TOLD = 8
"""How many of the last things that happened the status tells."""
START_FIELDS = frozenset({"game", "seats", "options", "seeds", "replace"})


class Unauthorized(CompanionError):
    """No token, or a token nobody holds (401)."""


class Forbidden(CompanionError):
    """A token that may not do this (403): another seat's action, or the referee's."""


class NoGame(CompanionError):
    """There is no game yet (404)."""


@dataclass
class Game:
    """The game being played (or the last one): its row in the store, its record, its seats'
    claims and tokens, and when it started (Unix seconds)."""

    id: int
    record: GameRecord
    keys: SeatKeys
    told: deque[Told] = field(default_factory=lambda: deque(maxlen=TOLD))
    started_at: float = 0.0

    def tell(self, action: object, events: list[object]) -> None:
        """Keep what a change just made says in words (the set-up's, for ``action`` None)."""
        record = self.record
        lines = (
            record.engine.narrate(events, record.state)
            if action is None
            else record.told(action, events)
        )
        self.told.extend(Told(record.changes, line.en, line.de, line.aloud) for line in lines)

    def started(self) -> dict[str, Any]:
        """The answer to its start: its public view and each seat's one-time claim."""
        view = self.record.engine.view(self.record.state, "public")
        return {"view": view, "seat_claims": {str(s): c for s, c in self.keys.claims.items()}}

    def summary(self) -> GameSummary:
        """What the status shows of it: made once a change, not once a snapshot."""
        record = self.record
        view = record.engine.view(record.state, "public")
        return GameSummary(
            name=record.game,
            title=record.engine.TITLE,
            dealt=record.engine.DEALT,
            ice=record.engine.USES_ICE,
            phase=view.get("phase"),
            turn_seat=view.get("turn_seat"),
            commitment=record.commitment,
            over=record.over,
            ended=record.ended,
            outcome=record.outcome_json(),
            actions=record.actions,
            changes=record.changes,
            told=tuple(self.told),
            view=view,
        )


class GameSession:
    """The table's games, one at a time, kept in ``store``; see the module's description."""

    def __init__(self, store: Store, table_seats: Sequence[SeatConfig], wall: Any) -> None:
        self.store = store
        self.table_seats = tuple(table_seats)
        self.wall = wall
        """The wall clock (Unix seconds), for the times stored with a game and its actions."""
        self.game: Game | None = None
        self.summary: GameSummary | None = None
        self.joined: frozenset[int] = frozenset()
        """The seats a phone holds, replaced whole on every change."""
        self.answers = Answers()
        self.own_options: Mapping[str, Mapping[str, Any]] = {}
        """Each game's options from the table's own box (:mod:`.own_box`), under the referee's."""

    def require(self) -> Game:
        if self.game is None:
            raise NoGame(
                Sentence(
                    "no game yet: the referee starts one",
                    "noch kein Spiel: die Spielleitung startet eins",
                )
            )
        return self.game

    def actor_of(self, token: str | None, referee: str) -> Actor:
        """The referee or the seat holding ``token``; :class:`Unauthorized` otherwise."""
        if not token:
            raise Unauthorized(
                Sentence(
                    "this needs a token: scan your seat's code, or use the referee's",
                    "dafür braucht es einen Schlüssel: scanne den Code deines Platzes, oder nimm "
                    "den der Spielleitung",
                )
            )
        found = actor_of(token, referee, self.game.keys if self.game is not None else None)
        if found is None:
            raise Unauthorized(
                Sentence(
                    "this token is no seat's of the game at this table now: scan your seat's code",
                    "dieser Schlüssel gehört zu keinem Platz des Spiels an diesem Tisch: scanne "
                    "den Code deines Platzes",
                )
            )
        return found

    # -- what changes the game

    def start(self, actor: Actor, body: Any, facts: TableFacts) -> tuple[Game, list[Effect]]:
        """Start ``{"game", "seats"?, "options"?, "seeds"?, "replace"?}``: the new game and
        what it asks of the table. A game being played ends only with ``"replace": true``."""
        if actor != REFEREE:
            raise Forbidden(
                Sentence("only the referee starts a game", "nur die Spielleitung startet ein Spiel")
            )
        if not isinstance(body, Mapping):
            raise BadMessage("the body must be a JSON object")
        unknown = sorted(set(body) - START_FIELDS)
        if unknown:
            raise BadMessage(f"unknown field {unknown[0]!r}")
        name = body.get("game")
        if not isinstance(name, str):
            raise BadMessage('"game" must name a game')
        eng = engine(name)
        seats = seats_of(body.get("seats"), eng.SEATS, self.table_seats)
        options = body.get("options") or {}
        if not isinstance(options, Mapping):
            raise BadOptions("options must be a JSON object")
        options = {**eng.table_defaults(facts), **self.own_options.get(name, {}), **options}
        seeds = body.get("seeds") or []
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise BadMessage('"seeds" must be a list of texts')
        replace = body.get("replace", False)
        if not isinstance(replace, bool):
            raise BadMessage('"replace" must be true or false')
        record = GameRecord.start(name, options, seats, secrets.token_bytes(32), seeds)
        current = self.game
        if current is not None and not current.record.over and not replace:
            title = current.record.engine.TITLE
            n = counted(
                current.record.actions, ("{n} action", "{n} actions"), ("{n} Zug", "{n} Züge")
            )
            raise IllegalAction(
                Sentence(
                    f"a game of {title} is being played ({n.en}): to end it and start "
                    'another, send "replace": true',
                    f"eine Partie {title} läuft ({n.de}): um sie zu beenden und eine neue zu "
                    'starten, "replace": true senden',
                )
            )
        keys = SeatKeys.new({s.seat: new_token() for s in seats})
        started_at = self.wall()
        game_id = self.store.new_game(
            name,
            record.options,
            [s.to_json() for s in seats],
            record.device_secret.hex(),
            list(record.player_seeds),
            keys.claims,
            started_at,
        )
        game = Game(game_id, record, keys, started_at=started_at)
        game.tell(None, record.setup)
        self._now_playing(game)
        return game, [
            *eng.standing(record.state),
            *eng.effects(record.setup, record.state),
        ]

    def act(self, actor: Actor, body: Any) -> tuple[dict[str, Any], list[Step]]:
        """Take one of ``actor``'s offered actions once (see :mod:`.offers`), or the referee's
        offered take-back: its view after, and what the table must do."""
        game = self.require()
        after, posted = offer(body)
        action = from_json(posted, (*game.record.engine.ACTIONS, TakeBack))
        by = getattr(action, "by", None)
        if by != actor:
            who = f"seat {actor}" if isinstance(actor, int) else "the referee"
            who_de = f"Platz {actor}" if isinstance(actor, int) else "der Spielleitung"
            raise Forbidden(
                Sentence(
                    f"{who}'s token acts only as {who}, not as {json.dumps(by)}",
                    f"der Schlüssel von {who_de} handelt nur als {who_de}, nicht als "
                    f"{json.dumps(by)}",
                )
            )
        count = game.record.changes
        if after != count:
            first = self.answers.repeated(actor, after, to_json(action))
            if first is not None:
                return first, []
            raise Stale(moved_on(count, after), self.view(actor))
        effects = self._apply(game, action)
        view = self.view(actor)
        self.answers.keep(actor, after, to_json(action), view)
        return view, effects

    def take(self, action: Any) -> list[Step]:
        """The table's own action (a count's end), if the game still allows it."""
        game = self.game
        if game is None or game.record.over:
            return []
        record = game.record
        if action not in record.engine.legal_actions(record.state, action.by):
            return []
        return self._apply(game, action)

    def claim(self, body: Any) -> dict[str, Any]:
        """A phone takes its seat with the claim of the seat's link: the seat and a new token
        for it, once (see :mod:`.seat_keys`)."""
        claim = claim_in(body)
        game = self.require()
        seat = game.keys.claimed_seat(claim)
        token = new_token()
        self.store.claimed(game.id, claim, token, self.wall())
        game.keys.taken(seat, token)
        self.joined = game.keys.joined()
        return {"seat": seat, "token": token}

    def renew_claim(self, actor: Actor, body: Any) -> dict[str, Any]:
        """The referee gives ``{"seat": n}`` a new claim: the phone that held the seat is signed
        out, and the seat's old code is spent. The seat's entry of :meth:`seat_links`."""
        if actor != REFEREE:
            raise Forbidden(
                Sentence(
                    "only the referee gives a seat a new code",
                    "nur die Spielleitung gibt einem Platz einen neuen Code",
                )
            )
        game = self.require()
        seat = seat_in(body, [s.seat for s in game.record.seats])
        claim = new_token()
        self.store.give_claim(game.id, seat, claim, self.wall())
        game.keys.renewed(seat, claim)
        self.joined = game.keys.joined()
        return next(entry for entry in self.seat_links(actor) if entry["seat"] == seat)

    def end(self, actor: Actor) -> dict[str, Any]:
        """The referee ends the game before its rules do; the export, its seed revealed."""
        if actor != REFEREE:
            raise Forbidden(
                Sentence("only the referee ends a game", "nur die Spielleitung beendet ein Spiel")
            )
        game = self.require()
        if game.record.over:
            raise IllegalAction(ALREADY_OVER)
        at = self.wall()
        record = game.record
        self.store.end_game(
            game.id, at, finished(game.id, record, game.started_at, at, None, record.actions)
        )
        game.record.end()
        self.summary = game.summary()
        return game.record.export()

    def restore(self) -> list[Effect]:
        """Rebuild the current game from the store, at its last stored action; what must stand
        at the table for it (cubes out, a count under way, started again)."""
        stored = self.store.current()
        if stored is None:
            return []
        try:
            eng = engine(stored.game)
            seats = seats_from_json(stored.seats, eng.SEATS)
            record = GameRecord.start(
                stored.game,
                stored.options,
                seats,
                bytes.fromhex(stored.device_secret),
                stored.player_seeds,
            )
        except REPLAY_ERRORS as exc:
            raise BrokenDatabase(
                self.store.path, f"holds game {stored.id}, which cannot be started again ({exc})"
            ) from None
        keys = SeatKeys.stored(stored.seat_tokens, stored.claims)
        game = Game(stored.id, record, keys, started_at=stored.started_at)
        game.tell(None, record.setup)
        for n, entry in enumerate(stored.actions):
            try:
                action = from_json(entry, (*eng.ACTIONS, TakeBack))
                game.tell(action, record.act(action))
            except REPLAY_ERRORS as exc:
                raise BrokenDatabase(
                    self.store.path,
                    f"holds action {n} of game {stored.id} ({json.dumps(entry)[:80]}), which "
                    f"does not replay: {_unsentence(str(exc))}",
                ) from None
        if stored.ended_at is not None:
            record.end()
        self._now_playing(game)
        return [] if record.over else eng.standing(record.state)

    # -- what reads it

    def view(self, actor: Actor) -> dict[str, Any]:
        """What ``actor`` may see of the game, with the actions it may take (none, and no odds,
        once the referee has ended it); the referee's also offers to take back the last action
        (``take_back``: the action to post and what it takes back, in words), or null."""
        game = self.require()
        record = game.record
        public = self.summary.view if self.summary else None  # the same state's, made once
        view = record.engine.view(record.state, actor, public)
        if record.ended:
            stopped: dict[str, Any] = {"legal_actions": [], "odds": None}
            view = {**view, **{k: v for k, v in stopped.items() if k in view}}
        if actor == REFEREE:
            last = record.last_standing()
            offered = {**to_json(TakeBack()), AFTER: record.changes}
            view["take_back"] = None if last is None else {"action": offered, **last.to_json()}
        return stamped(view, record.changes)

    def export(self, actor: Actor | None) -> dict[str, Any]:
        """The game's export: for the referee, or for anyone once the game is over."""
        game = self.require()
        if actor != REFEREE and not game.record.over:
            raise Forbidden(
                Sentence(
                    "the export is the referee's until the game is over",
                    "der Export gehört der Spielleitung, bis das Spiel vorbei ist",
                )
            )
        return game.record.export()

    def seat_links(self, actor: Actor) -> list[dict[str, Any]]:
        """The referee's list of the game's seats, each with its open claim (see
        :func:`.seat_keys.links`)."""
        if actor != REFEREE:
            raise Forbidden(
                Sentence(
                    "only the referee hands out the seats' codes",
                    "nur die Spielleitung gibt die Codes der Plätze aus",
                )
            )
        game = self.require()
        return links(game.keys, game.record.seats)

    def playing(self) -> dict[int, SeatInfo]:
        """The seats of the current game, by number (none without a game)."""
        return {s.seat: s for s in self.game.record.seats} if self.game is not None else {}

    # -- inside

    def _now_playing(self, game: Game) -> None:
        self.answers.forget()
        self.game = game
        self.summary = game.summary()
        self.joined = game.keys.joined()

    def _apply(self, game: Game, action: Any) -> list[Step]:
        """Apply, store (with the game's summary, when the action finishes it), then change
        the live game: a failed write changes nothing."""
        record = game.record
        state, events = record.applied(action)
        at, outcome = self.wall(), record.engine.outcome(state)
        done = None
        if outcome is not None:  # this action ends the game: never a take-back
            done = finished(game.id, record, game.started_at, at, outcome, record.actions + 1)
        self.store.append(game.id, record.changes, to_json(action), at, done)
        record.record(action, state, events)
        game.tell(action, events)
        self.summary = game.summary()
        if isinstance(action, TakeBack):
            self.answers.forget()  # a tap answered before it is now a tap of another game
            counts = [e for e in record.engine.standing(state) if isinstance(e, StartCount)]
            return [TakenBack(), *counts]
        return [*record.engine.effects(events, state)]


def _unsentence(text: str) -> str:
    """A game's sentence inside another one: no full stop of its own.

    >>> _unsentence("It is seat 2's turn.")
    "It is seat 2's turn"
    """
    return text.strip().rstrip(".")
