"""The evening remembered: the finished games, newest first, and who won what since a time.

A game's summary is made once, when it finishes (by its rules at its last action, or by the
referee's end), and stored in the same transaction as that change (:class:`.store.Store`), so
the history survives whatever the game survives; a finished game never changes, so answering
replays nothing. A database from before summaries were kept is summarised at start, each
earlier game replayed once (:func:`settle_earlier`).

A player is known only by the name typed at the start, case and spaces aside; nothing else
about players is kept:

>>> player_key(" Oma  Inge "), player_key("OMA inge")
('omainge', 'omainge')
>>> game = {"game": "ice-trays", "winner": 1, "seats": [
...     {"seat": 1, "name": "Mia"}, {"seat": 2, "name": "oma"}]}
>>> later = {**game, "winner": 2, "seats": [{"seat": 1, "name": "mia"}, {"seat": 2, "name": "Oma"}]}
>>> [(p["name"], p["played"], p["won"]) for p in standings([later, game], 0.0)["players"]]
[('mia', 2, 1), ('Oma', 2, 1)]
"""

from __future__ import annotations

import json
import logging
import math
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.errors import BadMessage, CompanionError
from companion.games.outcome import Outcome
from companion.games.record import GameRecord
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence
from companion.table.database_file import BrokenDatabase
from companion.table.disk import StoreError
from companion.table.replaying import REPLAY_ERRORS, replayed
from companion.table.results import last_action_at, last_start, summaries, summary_of, unsettled
from companion.table.store import Store
from companion.table.stored import Finished

log = logging.getLogger(__name__)

PAGE_SIZE = 20
"""Finished games on a page of the history."""
MOST_PAGES = 10_000
"""The last page of the history a caller may ask for."""
EVENING_S = 6 * 3600.0
"""The standings count, unless told otherwise, the games started since this long before the
latest game's start: this evening."""
MOST_COUNTED = 1000
"""The standings count at most this many games, the newest: years of evenings."""
EXPORTS_KEPT = 4
"""Finished games' exports kept in memory, so a page that checks one does not replay it twice."""


class UnknownGame(CompanionError):
    """No finished game has the number asked for (404): its export would tell its seed."""


def summary(
    game_id: int,
    game: str,
    seats: Sequence[SeatInfo],
    outcome: Outcome | None,
    actions: int,
    started_at: float,
    ended_at: float,
) -> dict[str, Any]:
    """What the history tells of a finished game: its seats, the winner and how (none when the
    referee ended it early), the scores, its times (Unix seconds), its actions and minutes.

    >>> seats = [SeatInfo(1, "Mia", "blue"), SeatInfo(2, "Oma", "red")]
    >>> s = summary(7, "ice-trays", seats, Outcome(2, "points", {1: 5, 2: 9}), 40, 0.0, 1530.0)
    >>> s["winner"], s["how"], s["scores"], s["minutes"], s["ended_early"]
    (2, 'points', {'1': 5, '2': 9}, 25.5, False)
    """
    said = outcome.to_json() if outcome is not None else {}
    return {
        "id": game_id,
        "game": game,
        "seats": [s.to_json() for s in seats],
        "winner": said.get("winner"),
        "how": said.get("how"),
        "scores": said.get("scores"),
        "started_at": started_at,
        "ended_at": ended_at,
        "actions": actions,
        "minutes": round(max(0.0, ended_at - started_at) / 60, 1),
        "ended_early": outcome is None,
    }


def finished(
    game_id: int,
    record: GameRecord,
    started_at: float,
    ended_at: float,
    outcome: Outcome | None,
    actions: int,
) -> Finished:
    """The row the store keeps for a game that just finished with ``outcome`` (``None``: the
    referee ended it) after ``actions`` actions."""
    return Finished(
        started_at,
        summary(game_id, record.game, record.seats, outcome, actions, started_at, ended_at),
    )


def player_key(name: str) -> str:
    """Who a name means: the same letters whatever their case, spaces and Unicode form."""
    return "".join(unicodedata.normalize("NFC", name).split()).casefold()


def standings(games: Iterable[Mapping[str, Any]], since: float | None) -> dict[str, Any]:
    """Per player, the games played and won, in all and by game, of ``games`` (summaries,
    newest first); each player under the name typed last. Most wins first, then most played."""
    players: dict[str, dict[str, Any]] = {}
    counted = 0
    for game in games:
        counted += 1
        won = {player_key(s["name"]) for s in game["seats"] if s["seat"] == game["winner"]}
        named = {player_key(s["name"]): s["name"] for s in reversed(game["seats"])}
        for key, name in named.items():
            player = players.setdefault(key, {"name": name, "played": 0, "won": 0, "games": {}})
            tally = player["games"].setdefault(game["game"], {"played": 0, "won": 0})
            for count in (player, tally):
                count["played"] += 1
                count["won"] += key in won
    order = sorted(players.values(), key=lambda p: (-p["won"], -p["played"], p["name"].casefold()))
    return {"since": since, "counted": counted, "players": order}


class History:
    """The finished games of the table's store, for the API; safe from any thread."""

    def __init__(self, store: Callable[[], Store | None]) -> None:
        self._store = store
        """The table's store, once it is opened."""
        self._exports: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def store(self) -> Store:
        store = self._store()
        if store is None:
            raise StoreError("the table is not started")
        return store

    def page(self, number: int) -> dict[str, Any]:
        """Page ``number`` (from 1) of the finished games, newest first, and the next page's
        number (``None`` on the last)."""
        if not 1 <= number <= MOST_PAGES:
            raise BadMessage(
                Sentence(
                    f"a page of the history is a number from 1 to {MOST_PAGES}",
                    f"eine Seite der Liste ist eine Zahl von 1 bis {MOST_PAGES}",
                )
            )
        rows = summaries(self.store, (number - 1) * PAGE_SIZE, PAGE_SIZE + 1)
        games = [game for game in map(_summary, rows[:PAGE_SIZE]) if game is not None]
        after = number + 1 if len(rows) > PAGE_SIZE else None
        return {"page": number, "per_page": PAGE_SIZE, "next": after, "games": games}

    def standings(self, since: float | None = None) -> dict[str, Any]:
        """Who played and won what since ``since`` (Unix seconds); by default this evening:
        since :data:`EVENING_S` before the latest game's start."""
        if since is None:
            last = last_start(self.store)
            since = float(last) - EVENING_S if _seconds(last) else None
        rows = [] if since is None else summaries(self.store, 0, MOST_COUNTED, since)
        return standings((g for g in map(_summary, rows) if g is not None), since)

    def export(self, game_id: int) -> dict[str, Any]:
        """The export of finished game ``game_id``, its seed revealed; :class:`UnknownGame`
        for a game that is not finished, whose seed stays secret."""
        with self._lock:
            if game_id in self._exports:
                self._exports.move_to_end(game_id)
                return self._exports[game_id]
        stored = self.store.game(game_id) if _summary(summary_of(self.store, game_id)) else None
        if stored is None:
            raise UnknownGame(
                Sentence(
                    f"no finished game has the number {game_id}",
                    f"kein beendetes Spiel hat die Nummer {game_id}",
                )
            )
        try:
            export = replayed(stored).export()
        except REPLAY_ERRORS as exc:
            raise BrokenDatabase(
                self.store.path, f"holds game {game_id}, which does not replay ({exc})"
            ) from None
        with self._lock:
            self._exports[game_id] = export
            while len(self._exports) > EXPORTS_KEPT:
                self._exports.popitem(last=False)
        return export


def settle_earlier(store: Store, playing: int | None) -> int:
    """Summarise every game stored without a row in ``results`` (a database from before they
    were kept), each replayed once: a finished one with its summary, one that never will finish
    (another followed it, or it no longer replays) as such; the game being ``playing`` is left
    to finish. How many finished games were summarised."""
    done = 0
    for game_id in unsettled(store):
        if game_id == playing:
            continue
        started_at, row = _settled(store, game_id)
        try:
            store.settle(game_id, started_at, row)
        except StoreError as exc:
            log.warning("the history's earlier games are not summarised yet (%s)", exc)
            break
        done += row is not None
    return done


def _settled(store: Store, game_id: int) -> tuple[float, Finished | None]:
    """When game ``game_id`` started, and its summary when it finished; ``None`` when it has
    not (or no longer replays, which the log says)."""
    try:
        stored = store.game(game_id)
        record = replayed(stored) if stored is not None else None
    except (BrokenDatabase, *REPLAY_ERRORS) as exc:
        log.warning("game %s is left out of the history: it does not replay (%s)", game_id, exc)
        return 0.0, None
    if stored is None or record is None:
        return 0.0, None
    started_at = float(stored.started_at) if _seconds(stored.started_at) else 0.0
    if not record.over:
        return started_at, None
    end: Any = stored.ended_at if _seconds(stored.ended_at) else last_action_at(store, game_id)
    ended_at = float(end) if _seconds(end) else started_at
    return started_at, finished(
        game_id, record, started_at, ended_at, record.outcome, record.actions
    )


def _seconds(value: Any) -> bool:
    """Whether a stored value is a time: a finite number."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _summary(text: Any) -> dict[str, Any] | None:
    """A stored summary, or ``None`` (logged) when the row holds something else: a damaged row
    is left out of the history, never a failed answer."""
    if text is None:
        return None
    try:
        game = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        game = None
    if isinstance(game, dict) and _whole(game):
        return game
    log.warning("a stored game summary is left out of the history: %.80r", text)
    return None


def _whole(game: Any) -> bool:
    """Whether a summary holds what the history and the standings read, within bounds."""
    if not isinstance(game, dict) or not isinstance(game.get("game"), str):
        return False
    if not isinstance(game.get("id"), int) or not _seconds(game.get("started_at")):
        return False
    seats = game.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 6:
        return False
    return all(
        isinstance(s, dict) and isinstance(s.get("seat"), int) and isinstance(s.get("name"), str)
        for s in seats
    ) and (game.get("winner") is None or isinstance(game.get("winner"), int))
