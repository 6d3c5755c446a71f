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
from collections.abc import Mapping, Sequence
from typing import Any

from companion.config import SeatConfig
from companion.errors import CompanionError, IllegalAction
from companion.games import engine
from companion.games.effects import Effect, StartCount, TableFacts
from companion.games.messages import REFEREE, Actor, from_json, to_json
from companion.games.record import ALREADY_OVER, GameRecord, TakeBack
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence, counted
from companion.table.choices import seats_of
from companion.table.history import finished
from companion.table.offers import AFTER, Answers, Stale, moved_on, offer, stamped
from companion.table.reactions import Step, TakenBack
from companion.table.seat_keys import SeatKeys, claim_in, links, seat_in
from companion.table.starting import Game, StartGame, restored
from companion.table.status import GameSummary
from companion.table.store import Store
from companion.table.tokens import Forbidden, Unauthorized, actor_of, new_token, referee_only


class NoGame(CompanionError):
    """There is no game yet (404)."""


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
        referee_only(
            actor, "only the referee starts a game", "nur die Spielleitung startet ein Spiel"
        )
        asked = StartGame.from_json(body)
        name, eng = asked.game, engine(asked.game)
        seats = seats_of(asked.seats, eng.SEATS, self.table_seats)
        options = {**eng.table_defaults(facts), **self.own_options.get(name, {}), **asked.options}
        replace = asked.replace
        record = GameRecord.start(name, options, seats, secrets.token_bytes(32), asked.seeds)
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
            record.engine.RULES,
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
        referee_only(
            actor,
            "only the referee gives a seat a new code",
            "nur die Spielleitung gibt einem Platz einen neuen Code",
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
        referee_only(
            actor, "only the referee ends a game", "nur die Spielleitung beendet ein Spiel"
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
        game = restored(self.store)
        if game is None:
            return []
        self._now_playing(game)
        record = game.record
        return [] if record.over else record.engine.standing(record.state)

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
        referee_only(
            actor,
            "only the referee hands out the seats' codes",
            "nur die Spielleitung gibt die Codes der Plätze aus",
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
