"""The table asks for weigh-ins so that every seat's uncertainty stays useful all game: when a
cube is set out, at the start of its seat's turn, after every attack that melts it, and
whenever its sigma passes :data:`~companion.table.cubes.UNSURE_G`."""

from __future__ import annotations

from pathlib import Path

import pytest
from tabletime import HeldClock, advance, held_table

from companion.games.messages import REFEREE
from companion.table import sensing
from companion.table.cubes import UNSURE_G

STEP_S = 2.0
"""Real seconds a step: a refresh each, four table seconds at twice real speed."""


def test_a_quiet_table_keeps_every_seat_sure_of_its_cube(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty minutes in which nobody plays: each seat's sigma grows, passes the bound, the seat
    is asked, its simulated player weighs in, and the sigma shown falls back."""
    monkeypatch.setattr(sensing, "LOOP_S", 0.005)
    clock = HeldClock(speed=2.0)
    table = held_table(tmp_path, clock)
    try:
        table.start_game(REFEREE, {"game": "cool-runnings"})
        worst = 0.0
        asked: set[int] = set()
        for step in range(int(40 * 60 / (STEP_S * clock.speed))):
            snapshot = advance(table, clock, STEP_S)
            for seat in snapshot["seats"]:
                ice = seat["ice"]
                if ice is None or ice["melted"]:
                    continue
                if step * STEP_S * clock.speed > 120:
                    worst = max(worst, ice["sigma_g"])
                    if seat["weigh_in"] == "requested":
                        asked.add(seat["seat"])
        assert asked == {1, 2, 3, 4}, "every seat grows unsure in forty quiet minutes"
        assert worst <= UNSURE_G + 0.1, worst
    finally:
        table.close()
