"""Each game's effects reach the table: its cues, its count and its estimates, in every game.

The cue child is replaced by a recorder that hears what the table asks it to play, so the test
sees which cue plays for which seat without a process or pins.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from tabletime import FAST

from companion.config import default_config
from companion.cues.process import CueEvent, CuesStarted
from companion.games import GAMES
from companion.games.effects import CubeOut, Melt, TurnCue
from companion.games.messages import REFEREE, from_json
from companion.games.record import GameRecord
from companion.games.seats import seats_from_json
from companion.melt.attacks import DEFAULT_CONFIG
from companion.table import cue_player
from companion.table.clock import TableClock
from companion.table.count import CountKeeper
from companion.table.cubes import Cubes
from companion.table.cue_player import CuePlayer
from companion.table.happenings import Happenings
from companion.table.reactions import NewGame, Reactions
from companion.table.service import TableService


class RecordedCues:
    """A cue child that plays nothing and remembers every request."""

    def __init__(self, settings: Any, on_event: Callable[[CueEvent], object]) -> None:
        self.on_event = on_event
        self.played: list[tuple[str, tuple[int, ...]]] = []
        self.counts: list[int] = []
        self.cancels = 0
        PLAYERS.append(self)

    def start(self) -> None:
        self.on_event(CuesStarted("recorded"))

    def close(self) -> None:
        pass

    def cue(self, name: str, seats: Sequence[int] = ()) -> None:
        self.played.append((name, tuple(seats)))

    def count(self, seat: int, pace_s: float | None = None, ten_s: float | None = None) -> None:
        self.counts.append(seat)

    def cancel(self) -> None:
        self.cancels += 1

    def named(self, name: str) -> list[tuple[int, ...]]:
        return [seats for played, seats in self.played if played == name]


PLAYERS: list[RecordedCues] = []


@pytest.fixture
def cued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TableService, Any]]:
    """A fast simulated table whose cues are recorded."""
    PLAYERS.clear()
    monkeypatch.setattr(cue_player, "CueProcess", RecordedCues)
    table = TableService(default_config(), tmp_path, simulate=True, speed=FAST, seed=1)
    table.start()
    yield table, PLAYERS[-1]
    table.close()


def seat_actions(table: TableService, seats: list[int]) -> list[tuple[int, dict[str, Any]]]:
    return [(s, a) for s in seats for a in table.view(s)["legal_actions"] if a["type"] != "melted"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_turn_that_starts_plays_the_your_turn_cue_for_its_seat(
    cued: tuple[TableService, RecordedCues], name: str
) -> None:
    table, cues = cued
    seats = [1, 2, 3]
    table.start_game(REFEREE, {"game": name, "seats": seats})
    assert cues.named("game-start") == [(1, 2, 3)]
    turns: list[int] = []
    rnd = random.Random(7)
    for _ in range(400):
        game = table.status()["game"]
        if not turns or game["turn_seat"] != turns[-1]:
            turns.append(game["turn_seat"])
        if game["over"] or len(set(turns)) == len(seats):
            break
        options = seat_actions(table, seats)
        if not options:
            time.sleep(0.01)  # a count runs: the table ends it
            continue
        table.act(*rnd.choice(options))
    over = table.status()["game"]["over"]  # a lucky first turn can win Daddy Cool
    assert len(set(turns)) == len(seats) or over, turns
    assert len(turns) > 1 or over, "no second turn started"
    export = table.end_game(REFEREE) if not table.status()["game"]["over"] else None
    assert cues.named("your-turn") == [(s,) for s in turn_cues(export or table.export(REFEREE))]


def turn_cues(export: dict[str, Any]) -> list[int]:
    """The seats a game's effects cue, replayed from its export."""
    eng = GAMES[export["game"]]
    seats = seats_from_json(export["seats"], eng.SEATS)
    secret = bytes.fromhex(export["seed"]["device"])
    record = GameRecord.start(
        export["game"], export["options"], seats, secret, export["seed"]["players"]
    )
    effects = eng.effects(record.setup, record.state)
    for entry in export["log"]:
        effects += eng.effects(record.act(from_json(entry["action"])), record.state)
    return [e.seat for e in effects if isinstance(e, TurnCue)]


def test_cool_runnings_counts_on_the_cues_weighs_in_and_melts_the_cube(
    cued: tuple[TableService, RecordedCues],
) -> None:
    table, cues = cued
    for _ in range(30):  # until the first seat holds a ten-count attack
        cues.played.clear()
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3], "replace": True})
        status = table.status()
        first = status["game"]["turn_seat"]
        attacks = [
            a
            for a in table.view(first)["legal_actions"]
            if a["type"] == "play-attack" and table_attack(table, first, a) in TEN_COUNTS
        ]
        if attacks:
            break
    assert sorted(seats for (seats,) in cues.named("weigh-in")) == [1, 1, 2, 3]
    assert {s["seat"]: s["weigh_in"] for s in status["seats"] if s["playing"]}[first] == (
        "requested"
    )
    assert all(s["ice"] is not None for s in status["seats"] if s["playing"])
    attack = attacks[0]
    target = attack["target"]
    table_attack_kind = table_attack(table, first, attack)
    before = grams(table, target)
    table.act(first, attack)
    hit = next(a for a in table.view(target)["legal_actions"] if a["type"] == "take-hit")
    table.act(target, hit)
    assert cues.counts == [target]
    assert table.status()["count"]["seat"] == target
    skip = next(a for a in table.view(REFEREE)["legal_actions"] if a["type"] == "count-finished")
    table.act(REFEREE, skip)
    assert cues.cancels == 1 and table.status()["count"] is None
    melted = before - grams(table, target)
    assert melted >= 0.8 * DEFAULT_CONFIG.attack(table_attack_kind).mean_g


TEN_COUNTS = {"squeeze", "polish", "hot-breath"}


def table_attack(table: TableService, seat: int, action: dict[str, Any]) -> str:
    hand = {c["id"]: c["attack"] for c in table.view(seat)["hand"]}
    return hand[action["card"]]


def grams(table: TableService, seat: int) -> float:
    return next(s["ice"]["grams"] for s in table.status()["seats"] if s["seat"] == seat)


def test_the_winner_cue_plays_when_the_rules_end_a_game(
    cued: tuple[TableService, RecordedCues],
) -> None:
    table, cues = cued
    table.start_game(REFEREE, {"game": "daddy-cool", "seats": [1, 2]})
    rnd = random.Random(2)
    while not table.status()["game"]["over"]:
        table.act(*rnd.choice(seat_actions(table, [1, 2])))
    winner = table.status()["game"]["outcome"]["winner"]
    assert cues.named("winner") == [(winner,)]


@pytest.mark.parametrize(
    "kind, melts",
    [("water-bath", True), ("cold-shower", True), ("polish", True), ("thawing-salt", False)],
)
def test_an_attack_that_melts_the_cube_asks_for_a_weigh_in(kind: str, melts: bool) -> None:
    """Its estimate knows the attack's melt only give or take its spread (and a wet cube's
    water): a weigh-in settles it. Salt melts nothing at once."""
    clock = TableClock()
    lock = threading.RLock()
    happenings = Happenings()
    cubes = Cubes(default_config(), clock, happenings)
    keeper = CountKeeper(clock, lock, lambda: None, lambda count: True)
    reactions = Reactions(
        cubes, keeper, CuePlayer(None, clock, lock, keeper, happenings), happenings
    )
    with lock:
        reactions.carry_out(NewGame(1, (1, 2), announce=False))
        reactions.carry_out(CubeOut(2))
        station = cubes.stations[2]
        assert station.weigh_in == "requested" and station.melt is not None
        station.weigh_in = None
        grams = station.estimate(cubes.now(), 21.0).grams
        reactions.carry_out(Melt(2, kind))
        assert (station.estimate(cubes.now(), 21.0).grams < grams) is melts
        assert station.weigh_in == ("requested" if melts else None)
        assert keeper.count is None
        assert [(i.seat, i.kind, i.value) for i in cubes.log.take()] == [
            (2, "start_g", 6.0),
            (2, "attack", kind),
        ]


def test_a_game_over_withdraws_its_weigh_ins_and_asks_no_more(
    cued: tuple[TableService, RecordedCues],
) -> None:
    table, _ = cued
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    asked = [s["seat"] for s in table.status()["seats"] if s["weigh_in"] == "requested"]
    assert asked, "the first turn asks its seat for a weigh-in"
    for seat in (2, 3):
        melted = next(
            a
            for a in table.view(REFEREE)["legal_actions"]
            if a == {**a, "type": "melted", "seat": seat}
        )
        table.act(REFEREE, melted)
    assert table.status()["game"]["over"]
    requested = [s["seat"] for s in table.status()["seats"] if s["weigh_in"] == "requested"]
    assert requested == []
    table._reactions.ask_weigh_in(1)
    assert table.status()["seats"][0]["weigh_in"] != "requested"
