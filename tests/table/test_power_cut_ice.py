"""A power cut loses nothing a player can see of the ice: after a restart every cube's estimate,
its melted proposal and its curve are rebuilt from what the table stored with the game.

The tables run on held clocks whose wall moves with them, so a restart can come back a minute
later (the wall clock says how long the table was off) or with its wall clock set back (a Pi
without a real-time clock: nobody knows how long, and the estimate says so).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tabletime import HeldClock, advance, held_table

from companion.games.effects import Melt
from companion.games.messages import REFEREE
from companion.table.service import TableService

MINUTE_S = 60.0


def seat(status: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in status["seats"] if s["seat"] == number)


def attack(table: TableService, number: int, kind: str) -> None:
    """An attack carried out on a seat's cube, as a game's effect would ask."""
    with table._table:
        table._reactions.carry_out(Melt(number, kind))


@pytest.fixture
def melting(tmp_path: Path) -> Iterator[tuple[TableService, HeldClock, dict[str, Any]]]:
    """A game of Cool Runnings with seat 1's cube at about 2 g and seat 2's proposed melted,
    stopped as a power cut would stop it: what the table shows just before, and its curves."""
    clock = HeldClock(speed=1.0)
    table = held_table(tmp_path, clock)
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2, 3]})
    for _ in range(8):
        attack(table, 2, "water-bath")
    for _ in range(4):
        attack(table, 1, "squeeze")
    for _ in range(10):  # the simulated players set their caps on the pads as asked
        status = advance(table, clock, 2.0)
    for _ in range(200):
        if seat(status, 1)["ice"]["grams"] <= 2.2:
            break
        status = advance(table, clock, 3 * MINUTE_S)
    before = {"status": status, "curves": table.curves()}
    table.close()
    yield table, clock, before


def test_after_a_restart_each_cube_and_its_curve_are_as_they_were(
    melting: tuple[TableService, HeldClock, dict[str, Any]], tmp_path: Path
) -> None:
    _, clock, before = melting
    ice = seat(before["status"], 1)["ice"]
    assert 1.5 < ice["grams"] <= 2.2 and seat(before["status"], 2)["ice"]["melted"]
    later = HeldClock()
    later.real_s_passed = clock.real_s_passed + MINUTE_S  # back a minute later, wall and all
    again = held_table(tmp_path, later)
    try:
        status = again.status()
        now = seat(status, 1)["ice"]
        assert abs(now["grams"] - ice["grams"]) <= max(ice["sigma_g"], 0.05) + 0.05
        assert seat(status, 2)["ice"]["melted"], "the melted proposal vanished"
        assert status["restart"] == {"off_s": MINUTE_S}
        curves = again.curves()
        assert curves["start"] == pytest.approx(before["curves"]["start"], abs=0.5)
        for was, now_curve in zip(before["curves"]["seats"], curves["seats"], strict=True):
            if was["seat"] == 4:  # plays no part
                assert now_curve["points"] == was["points"] == []
                continue
            assert len(now_curve["points"]) >= len(was["points"]) > 5
            for t, grams, sigma_g in was["points"][1:]:  # the first came before the attacks
                near = min(now_curve["points"], key=lambda p: abs(p[0] - t))
                assert abs(near[0] - t) <= 20.0
                assert abs(near[1] - grams) <= max(0.15, sigma_g), (t, grams, near)
    finally:
        again.close()


def test_with_its_clock_set_back_the_table_says_it_lost_track_and_asks_for_weigh_ins(
    melting: tuple[TableService, HeldClock, dict[str, Any]], tmp_path: Path
) -> None:
    _, _, before = melting
    ice = seat(before["status"], 1)["ice"]
    again = held_table(tmp_path, HeldClock())  # its wall clock starts where fake-hwclock left it
    try:
        status = again.status()
        assert status["restart"] == {"off_s": None}
        now = seat(status, 1)
        # anything from all of it to none may have melted while off: the band reaches 0 g
        assert now["ice"]["sigma_g"] > 2 * ice["sigma_g"]
        assert 2 * now["ice"]["sigma_g"] >= now["ice"]["grams"]
        assert abs(now["ice"]["grams"] - ice["grams"]) <= now["ice"]["sigma_g"]
        assert {s["seat"]: s["weigh_in"] for s in status["seats"] if s["playing"]}[1] == (
            "requested"
        )
    finally:
        again.close()
