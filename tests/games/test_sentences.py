"""Every sentence an engine says to a player is written in English and in German: the narration
of every event a game shows, and the reason for every refusal."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest

from companion.errors import IllegalAction
from companion.games import GAMES, engine
from companion.games.daddy_cool import messages as daddy
from companion.games.deck import Shuffled
from companion.games.fair import FairRandom
from companion.games.ice_trays import messages as trays
from companion.games.seats import SeatInfo
from companion.games.selfplay import play_one
from companion.games.sentence import COLOURS_DE, Sentence
from companion.web.language import catalogue

GAME_SEEDS = [(game, seed) for game in GAMES for seed in range(3)]


def _german(said: Sentence) -> None:
    assert isinstance(said, Sentence), said
    assert said.en.strip() and said.de.strip(), said
    assert said.de != said.en, f"not put into German: {said.en!r}"


@pytest.mark.parametrize(("game", "seed"), GAME_SEEDS)
def test_every_event_a_game_narrates_is_told_in_both_languages(game: str, seed: int) -> None:
    eng = engine(game)
    told: list[Sentence] = []
    play_one(game, seed, on_events=lambda events, state: told.extend(eng.narrate(events, state)))
    assert len(told) > 10
    for line in told:
        _german(line)


@pytest.mark.parametrize(("game", "seed"), GAME_SEEDS)
def test_every_refusal_is_told_in_both_languages(game: str, seed: int) -> None:
    """At every state of a game, the actions of another moment, of another seat, of nobody,
    are refused with a sentence in both languages."""
    eng = engine(game)
    played = play_one(game, seed)
    rnd = random.Random(seed)
    record, states = played.record, played.states
    offered = [action for action, _ in record.log]
    seats = [s.seat for s in record.seats]
    refusals = 0
    for state in states[:: max(1, len(states) // 40)]:
        tried = rnd.sample(offered, min(8, len(offered)))
        tried += [dataclasses.replace(a, by=rnd.choice([*seats, 9, "referee"])) for a in tried]
        for action in tried:
            try:
                eng.apply(state, action, record.rng)
            except IllegalAction as exc:
                refusals += 1
                _german(exc.args[0])
    assert refusals > 20


def test_the_engines_name_the_colours_as_the_german_pages_do() -> None:
    assert {c: catalogue("de")[f"colour.{c}"] for c in COLOURS_DE} == COLOURS_DE


# One and many


def _started(game: str) -> Any:
    seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
    state, _ = engine(game).new_game({}, seats, FairRandom(bytes(32)))
    return state


def _said(game: str, event: Any) -> Sentence:
    (line,) = engine(game).narrate([event], _started(game))
    return line


@pytest.mark.parametrize(
    ("game", "event", "en", "de"),
    [
        (
            "ice-trays",
            trays.BoardSet(("blue",) * 8, 1, 10, (1, 2, None, None)),
            "The board is set: 1 cube in each of the 8 trays",
            "Der Spielplan ist aufgebaut: 1 Eiswürfel in jeder der 8 Schalen",
        ),
        (
            "ice-trays",
            trays.GameOver((1, 1), (1, 0), 1),
            "Karen 1 point (1 cube, 0 blueberries), Tom 1 point (0 cubes, 0 blueberries). "
            "A tie on 1 point: Karen has more cubes",
            "Karen 1 Punkt (1 Eiswürfel, 0 Blaubeeren), Tom 1 Punkt (0 Eiswürfel, 0 Blaubeeren). "
            "Gleichstand mit 1 Punkt: Karen hat mehr Eiswürfel",
        ),
        (
            "daddy-cool",
            daddy.PathLaid(". T", 1),
            "The path is laid: 1 ice floe, then the wash tub.",
            "Der Weg liegt: eine Eisscholle, dann der Waschzuber.",
        ),
        (
            "daddy-cool",
            daddy.PathLaid(". . C . T", 4),
            "The path is laid: 4 ice floes, a cracked one at 3, then",
            "Der Weg liegt: 4 Eisschollen, die rissige bei 3, dann",
        ),
        (
            "cool-runnings",
            Shuffled("discard", (7,)),
            "The draw pile is empty: 1 discarded card makes a new one.",
            "Der Nachziehstapel ist leer: 1 abgelegte Karte wird der neue.",
        ),
        (
            "cool-runnings",
            Shuffled("draw", (7, 8)),
            "The 2 cards are shuffled.",
            "Die 2 Karten sind gemischt.",
        ),
    ],
)
def test_a_count_of_one_reads_as_one_and_more_as_many(
    game: str, event: Any, en: str, de: str
) -> None:
    said = _said(game, event)
    assert en in said.en
    assert de in said.de


PLURALS = {
    "en": "cubes points floes dice cards spaces parts blueberries chips towels",
    "de": "Punkte Punkten Schollen Eisschollen Karten Felder Teile Blaubeeren Chips Handtücher",
}
ONE_OF_MANY = {
    lang: re.compile(rf"\b1 (?:[^\W\d][\w-]* )?(?:{'|'.join(nouns.split())})\b")
    for lang, nouns in PLURALS.items()
}
"""A count of one before a plural noun: "1 floes", "1 Punkte"."""


@pytest.mark.parametrize(("game", "seed"), GAME_SEEDS)
def test_no_sentence_a_game_tells_puts_one_before_a_plural(game: str, seed: int) -> None:
    eng = engine(game)
    told: list[Sentence] = []
    play_one(game, seed, on_events=lambda events, state: told.extend(eng.narrate(events, state)))
    for line in told:
        for lang, plural in ONE_OF_MANY.items():
            assert not plural.search(line.said(lang)), line.said(lang)


@pytest.mark.parametrize("seed", range(3))
def test_ice_trays_calls_its_cubes_eiswuerfel_and_only_the_die_a_wuerfel(seed: int) -> None:
    """In Ice Trays a "Würfel" is the colour die; its ice cubes are "Eiswürfel", in what it
    tells and in why it refuses."""
    eng = engine("ice-trays")
    told: list[Sentence] = []
    played = play_one(
        "ice-trays", seed, on_events=lambda events, state: told.extend(eng.narrate(events, state))
    )
    offered = [action for action, _ in played.record.log]
    for state in played.states[:: max(1, len(played.states) // 40)]:
        for action in offered[:: max(1, len(offered) // 20)]:
            try:
                eng.apply(state, dataclasses.replace(action, by=state.turn_seat), played.record.rng)
            except IllegalAction as exc:
                told.append(exc.args[0])
    assert len(told) > 40
    assert [line.de for line in told if re.search(r"(?<!Eis)Würfel", line.de)] == []
