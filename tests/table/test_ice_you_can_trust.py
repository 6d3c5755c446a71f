"""The ice a table shows can be trusted: it asks for weigh-ins so that every seat's uncertainty
stays useful all game (when a cube is set out, at the start of its seat's turn, after every
attack that melts it, and whenever its sigma passes :data:`~companion.melt.asking.UNSURE_G`),
and a countdown runs out when the table calls the cube melted."""

from __future__ import annotations

from pathlib import Path

import pytest
from tabletime import HeldClock, advance, held_table

from companion.games.messages import REFEREE
from companion.melt.asking import UNSURE_G
from companion.sensors.sim import SimTable
from companion.table import sensing

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


def test_a_cube_left_alone_is_called_melted_when_its_countdown_runs_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a player sees agrees with what the table then does: with nobody weighing in, each
    snapshot's countdown runs down with the table's time, and the seat is proposed melted (its
    gauge at 0) at the snapshot where the countdown before it ran out."""
    monkeypatch.setattr(sensing, "LOOP_S", 0.005)
    monkeypatch.setattr(SimTable, "place_cap", lambda *args, **kwargs: None)
    clock = HeldClock(speed=100.0)
    table = held_table(tmp_path, clock)
    step_s = STEP_S * clock.speed  # table seconds a step
    try:
        table.start_game(REFEREE, {"game": "cool-runnings"})
        last_eta: float | None = None
        for _ in range(400):
            ice = advance(table, clock, STEP_S)["seats"][0]["ice"]
            if ice["melted"]:
                assert ice["eta_s"] == 0 and ice["percent"] == 0.0
                assert last_eta is not None and last_eta <= step_s * 1.05, last_eta
                return
            assert ice["percent"] > 0.0 and ice["eta_s"] > 0
            if last_eta is not None:  # the air drifts a little: the countdown with it
                assert ice["eta_s"] == pytest.approx(last_eta - step_s, rel=0.05, abs=30)
            last_eta = ice["eta_s"]
        raise AssertionError("the cube never melted")
    finally:
        table.close()
