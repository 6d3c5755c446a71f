"""The narration of Cool am Pool: what a player reads for each event, with the seats' names."""

from __future__ import annotations

from pool_tables import KAREN, MARY, TOM, act, spot, table

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool import narrate
from companion.games.cool_am_pool.state import OCCUPY


def told(state, action, *rolls: str) -> list[str]:
    after, events = act(state, action, *rolls)
    return [line.en for line in narrate(events, after)]


def test_a_roll_and_what_is_set_aside_are_told_by_colour() -> None:
    state = table(lifeguard="purple")
    assert told(state, m.Roll(KAREN), "red blue red lifeguard lifeguard green") == [
        "Karen rolls 6 dice: two red, one green, one blue and two lifeguards."
    ]
    state = table(
        lifeguard="purple", hand=["red", "blue", "red", "lifeguard", "lifeguard", "green"]
    )
    assert told(state, m.SetAside(KAREN, (0, 2))) == [
        "Karen sets aside two red (and two lifeguards).",
        "The lifeguard walks 2 spaces clockwise to a 3: row 3 is closed.",
    ]


def test_a_chip_is_told_as_a_water_ball() -> None:
    state = table(chips={KAREN: 2}, hand=["blue"] * 6)
    assert told(state, m.SpendChip(KAREN), "red " * 6)[0] == (
        "Karen throws a water ball into the pool (1 left): that roll does not count, "
        "the same dice are rolled again."
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
