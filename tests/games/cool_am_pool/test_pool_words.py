"""The narration of Cool am Pool: what a player reads for each event, with the seats' names."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pool_tables import KAREN, MARY, TOM, act, spot, table

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import default_board
from companion.games.cool_am_pool.state import OCCUPY
from companion.games.cool_am_pool.words import closes, narrate
from companion.games.sentence import Sentence


def told(state, action, *rolls: str) -> list[str]:
    after, events = act(state, action, *rolls)
    return [line.en for line in narrate(events, after)]


def told_de(state, action, *rolls: str) -> list[str]:
    after, events = act(state, action, *rolls)
    return [line.de for line in narrate(events, after)]


def test_a_roll_tells_the_lifeguard_walking_at_once_and_the_set_aside_after() -> None:
    state = table(lifeguard="purple")
    roll = "red blue red lifeguard lifeguard green"
    assert told(state, m.Roll(KAREN), roll) == [
        "Karen rolls 6 dice: two red, one green, one blue and two lifeguards.",
        "The lifeguard walks 2 spaces clockwise to a 3: row 3 is closed.",
    ]
    assert told_de(state, m.Roll(KAREN), roll) == [
        "Karen würfelt mit 6 Würfeln: zweimal rot, einmal grün, einmal blau und zweimal "
        "Bademeister.",
        "Der Bademeister geht 2 Felder im Uhrzeigersinn auf eine 3: Die Reihe 3 ist gesperrt.",
    ]
    state = table(lifeguard="3", hand=["red", "blue", "red", "lifeguard", "lifeguard", "green"])
    assert told(state, m.SetAside(KAREN, (0, 2))) == [
        "Karen sets aside two red (and two lifeguards)."
    ]
    assert told_de(state, m.SetAside(KAREN, (0, 2))) == [
        "Karen legt zweimal rot beiseite (und zwei Bademeister)."
    ]


def test_the_lifeguard_on_a_colour_space_closes_that_colours_column_in_words() -> None:
    state = table(lifeguard="blue")
    roll = "lifeguard red red red red red"
    assert told(state, m.Roll(KAREN), roll)[1] == (
        "The lifeguard walks 1 space clockwise to the purple space: the purple column is closed."
    )
    assert told_de(state, m.Roll(KAREN), roll)[1] == (
        "Der Bademeister geht 1 Feld im Uhrzeigersinn auf das lila Feld: Die lila Spalte ist "
        "gesperrt."
    )
    state = table(lifeguard="red")
    assert told_de(state, m.Roll(KAREN), roll)[1] == (
        "Der Bademeister geht 1 Feld im Uhrzeigersinn auf das gelbe Feld: Die gelbe Spalte ist "
        "gesperrt."
    )


def test_a_chip_is_told_as_a_water_ball() -> None:
    state = table(chips={KAREN: 2}, hand=["blue"] * 6)
    assert told(state, m.SpendChip(KAREN), "red " * 6)[0] == (
        "Karen throws a water ball into the pool (1 left): that roll does not count, "
        "the same dice are rolled again."
    )


def test_a_chip_tells_the_lifeguard_going_back_before_the_new_roll() -> None:
    state = table(
        chips={KAREN: 1},
        lifeguard="green",
        aside=["blue"] * 3,
        hand=["lifeguard", "lifeguard", "red"],
    )
    roll = "red red red"
    assert told(state, m.SpendChip(KAREN), roll)[1:] == [
        "The lifeguard goes back 2 spaces to the red space: the red column is closed.",
        "Karen rolls 3 dice: three red.",
    ]
    assert told_de(state, m.SpendChip(KAREN), roll)[1] == (
        "Der Bademeister geht 2 Felder zurück auf das rote Feld: Die rote Spalte ist gesperrt."
    )


def test_taking_a_foreign_lounger_and_the_chips_are_told() -> None:
    state = table(aside=["red", "red"], phase=OCCUPY, towels={"red 2a": TOM}, chips={KAREN: 3})
    lines = told(state, m.Occupy(KAREN, spot(state, "red 2a")))
    assert lines[:2] == [
        "Karen puts a bather on Tom's towel on red 2a.",
        "Karen takes 1 water-ball chip from the pool (now 4).",
    ]
    assert lines[2].startswith("Turn 6, Tom (0 chips); the lifeguard closes the purple column;")


def test_every_way_of_taking_a_lounger_reads_right() -> None:
    cases = [
        ({"towels": {"red 2a": KAREN}}, "red 2a", "Karen turns their towel on red 2a over"),
        (
            {"towels": {"red 2a": KAREN}, "bathers": {"red 2a": MARY}},
            "red 2a",
            "Karen reconquers red 2a: Mary's bather goes home",
        ),
        (
            {"towels": {"red 2a": MARY}, "bathers": {"red 2a": KAREN}},
            "red 2a",
            "Karen conquers red 2a for good: Mary's towel goes back",
        ),
    ]
    for lying, label, line in cases:
        state = table(aside=["red", "red"], phase=OCCUPY, **lying)
        assert told(state, m.Occupy(KAREN, spot(state, label)))[0].startswith(line)
    state = table(aside=["red"] * 5, phase=OCCUPY)
    assert told(state, m.Occupy(KAREN, spot(state, "5-point a")))[0] == (
        "Karen takes 5-point a, a lounger right by the pool, for good (5 points)!"
    )


def test_a_turn_without_a_lounger_says_why() -> None:
    state = table(aside=["purple", "purple"], lifeguard="purple")
    assert told(state, m.Stop(KAREN))[:2] == [
        "Karen stops with two purple.",
        "Karen's dice allow no lounger that is free to take (the lifeguard closes the purple "
        "column): the turn ends.",
    ]
    assert told_de(state, m.Stop(KAREN))[:2] == [
        "Karen hört auf und hat zweimal lila.",
        "Mit diesen Würfeln kann Karen keine Liege nehmen (der Bademeister sperrt die lila "
        "Spalte): Der Zug endet.",
    ]


def test_a_turn_names_the_row_or_column_the_lifeguard_closes() -> None:
    state = table(aside=["purple"], lifeguard="2")
    assert "the lifeguard closes row 2;" in told(state, m.Stop(KAREN))[-1]
    assert "der Bademeister sperrt die Reihe 2;" in told_de(state, m.Stop(KAREN))[-1]
    state = table(aside=["purple"], lifeguard="green")
    assert "the lifeguard closes the green column;" in told(state, m.Stop(KAREN))[-1]
    assert "der Bademeister sperrt die grüne Spalte;" in told_de(state, m.Stop(KAREN))[-1]


@pytest.mark.parametrize(
    ("colour", "column"),
    [
        ("red", "die rote Spalte"),
        ("yellow", "die gelbe Spalte"),
        ("green", "die grüne Spalte"),
        ("blue", "die blaue Spalte"),
        ("purple", "die lila Spalte"),
        ("orange", "die orange Spalte"),
        ("pink", "die pinke Spalte"),
        ("teal", "die Spalte teal"),
    ],
)
def test_every_colour_names_its_column_in_german(colour: str, column: str) -> None:
    """Declined after the article; lila and orange stay as they are, and a colour German has
    no word for here is named after the noun."""
    board = replace(default_board(), colours=(colour,), track=(colour,))
    assert closes(board, 0) == Sentence(f"the {colour} column", column)
