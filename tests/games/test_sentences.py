"""Every sentence an engine says to a player is written in English and in German: the narration
of every event a game shows, and the reason for every refusal."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.errors import IllegalAction
from companion.games import GAMES, engine
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
