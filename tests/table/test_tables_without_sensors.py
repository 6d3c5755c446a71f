"""Three ways to play, each a first-class table: phones only (no probes, no pads), a room's air
given for a model-only countdown, and a table whose sensors stop short of some seats. A seat
shows only what its table knows: no grams without a pad, no weigh-in asked of a seat without
one, no cube proposed melted by sensors it has not got, and a countdown only where the air is
known, marked as resting on the air alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tabletime import HeldClock, advance, held_table

from companion.config import parse_config
from companion.games.messages import REFEREE
from companion.table import sensing
from companion.table.service import TableService

PHONES_ONLY = '[sensors]\nthermometers = "none"\nscales = "none"\n'
STEP_S = 2.0


@pytest.fixture(autouse=True)
def quick_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sensing, "LOOP_S", 0.005)


def started(
    tmp_path: Path, config_text: str, simulate: bool = False
) -> tuple[TableService, HeldClock]:
    clock = HeldClock(speed=100.0)
    table = held_table(tmp_path, clock, parse_config("table.toml", config_text), simulate)
    table.start_game(REFEREE, {"game": "cool-runnings"})
    return table, clock


def quiet(table: TableService, clock: HeldClock, hours: float = 1.5) -> list[dict[str, Any]]:
    """Every snapshot of ``hours`` of table time in which nobody plays."""
    steps = int(hours * 3600 / (STEP_S * clock.speed))
    return [advance(table, clock, STEP_S) for _ in range(steps)]


def test_a_phones_only_table_shows_no_ice_asks_no_weigh_in_and_proposes_no_melt(
    tmp_path: Path,
) -> None:
    table, clock = started(tmp_path, PHONES_ONLY)
    try:
        for snapshot in quiet(table, clock):
            for seat in snapshot["seats"]:
                assert seat["ice"] is None, "no grams and no countdown without a pad or the air"
                assert seat["weigh_in"] is None, "no weigh-in without a pad"
                assert seat["sensors"] == {"thermometer": "none", "scale": "none"}
                assert seat["air_c"] is None
                assert seat["uncalibrated"] == [], "no calibration to lack without a pad"
        assert not [h for h in table.happenings.since(0) if h.kind in ("melted", "weigh-in")]
        assert [c["points"] for c in table.curves()["seats"]] == [[]] * 4, "no curve without a pad"
    finally:
        table.close()


def test_a_phones_only_table_given_the_air_counts_down_from_the_air_alone(
    tmp_path: Path,
) -> None:
    table, clock = started(tmp_path, PHONES_ONLY + "air_c = 24\n")
    try:
        snapshots = quiet(table, clock, hours=3)
        first = snapshots[0]["seats"][0]["ice"]
        assert first["basis"] == "air"
        assert (first["grams"], first["sigma_g"], first["percent"], first["band"]) == (None,) * 4
        low, high = first["eta_range_s"]
        assert low < first["eta_s"] < high, "an honest range around the countdown"
        assert 20 * 60 < first["eta_s"] < 4 * 3600, "a 6 g cube at 24 C: an hour or so"
        etas = [s["seats"][0]["ice"]["eta_s"] for s in snapshots]
        assert etas == sorted(etas, reverse=True) and etas[-1] == 0, "it runs down to zero"
        for snapshot in snapshots:
            for seat in snapshot["seats"]:
                assert seat["ice"]["melted"] is False, "the table never calls it: the seat does"
                assert seat["weigh_in"] is None
        assert not [h for h in table.happenings.since(0) if h.kind == "melted"]
    finally:
        table.close()


def test_a_seat_without_a_pad_is_never_asked_to_weigh_in_while_the_others_are(
    tmp_path: Path,
) -> None:
    seats = "".join(
        f'[[seat]]\nname = "P{n}"\n' + ("pad = false\n" if n == 3 else "") for n in (1, 2, 3, 4)
    )
    table, clock = started(tmp_path, seats, simulate=True)
    try:
        asked: set[int] = set()
        for snapshot in quiet(table, clock):
            for seat in snapshot["seats"]:
                if seat["weigh_in"] == "requested":
                    asked.add(seat["seat"])
            third = snapshot["seats"][2]
            assert third["sensors"]["scale"] == "none" and third["sensors"]["thermometer"] == "ok"
            assert third["ice"] is None or third["ice"]["basis"] == "air"
        assert asked == {1, 2, 4}
        assert {s["seat"] for s in snapshot["seats"] if s["ice"]["grams"] is not None} == {1, 2, 4}
    finally:
        table.close()


def test_a_seat_says_its_own_cube_has_melted_at_a_phones_only_table(tmp_path: Path) -> None:
    table, _ = started(tmp_path, PHONES_ONLY)
    try:
        claims = table.start_game(
            REFEREE, {"game": "cool-runnings", "seats": [1, 2], "replace": True}
        )["seat_claims"]
        tom = table.actor_of(table.claim({"claim": claims["2"]})["token"])
        view = table.view(tom)
        melted = next(a for a in view["legal_actions"] if a["type"] == "melted")
        table.act(tom, melted)
        assert table.status()["game"]["over"]
    finally:
        table.close()


def test_a_countdown_from_the_air_alone_goes_on_after_a_power_cut(tmp_path: Path) -> None:
    """The room's air as given is stored with the game, so a restart a minute later counts on
    from where it stood, not from a guess of the air (a warm room, far from it)."""
    config = parse_config("table.toml", PHONES_ONLY + "air_c = 32\n")
    clock = HeldClock()  # real time: a restart learns how long it was off from the wall clock
    table = held_table(tmp_path, clock, config, simulate=False)
    table.start_game(REFEREE, {"game": "cool-runnings"})
    before = quiet(table, clock, hours=0.2)[-1]["seats"][0]["ice"]["eta_s"]
    table.close()
    later = HeldClock()
    later.real_s_passed = clock.real_s_passed + 60  # a minute later, by the wall clock
    again = held_table(tmp_path, later, config, simulate=False)
    try:
        after = advance(again, later, 0.0)["seats"][0]["ice"]["eta_s"]
        assert after == pytest.approx(before - 60, abs=30)
    finally:
        again.close()
