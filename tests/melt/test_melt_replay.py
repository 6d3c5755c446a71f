"""Replaying a recorded table: the checks on every line, the seats' air, and the sample."""

from __future__ import annotations

from importlib.resources import files

import pytest

from companion.errors import ReplayError
from companion.melt.replay import DEFAULT_AIR_C, parse, replay

HEADER = "t_s,seat,kind,value\n"


def sample_text() -> str:
    return files("companion.melt").joinpath("data/sample-table.csv").read_text(encoding="utf-8")


def outputs(text: str) -> list[dict[str, object]]:
    return [line.to_json() for line in replay(parse(text))]


def test_the_sample_gives_one_line_per_line_of_a_started_seat() -> None:
    rows = parse(sample_text())
    started: set[int] = set()
    expected = 0
    for row in rows:
        if row.kind == "start_g":
            started.add(row.seat)  # type: ignore[arg-type]
        if row.seat is None:
            expected += len(started)
        elif row.seat in started:
            expected += 1
    out = list(replay(rows))
    assert len(out) == expected
    assert {line.seat for line in out} == {1, 2, 3, 4}
    keys = {"t_s", "seat", "grams", "sigma_g", "eta_s", "eta_range_s"}
    assert all(set(line.to_json()) == keys for line in out)


def test_the_sample_is_a_game_of_forty_to_sixty_minutes_with_a_melted_cube() -> None:
    rows = parse(sample_text())
    assert 40 * 60 <= rows[-1].t_s <= 60 * 60
    assert [r.value for r in rows if r.kind == "start_g"] == [6.0] * 4
    assert sum(r.kind == "melted" for r in rows) == 1
    assert {r.kind for r in rows} == {"start_g", "air_c", "weigh_in_g", "attack", "melted"}
    out = list(replay(rows))
    melted_seat = next(r.seat for r in rows if r.kind == "melted")
    last = [line for line in out if line.seat == melted_seat][-1].to_json()
    assert last["grams"] == 0.0 and last["eta_s"] == 0


def test_replay_is_deterministic() -> None:
    assert outputs(sample_text()) == outputs(sample_text())


def test_lines_before_a_start_give_nothing() -> None:
    text = HEADER + "0,1,air_c,24\n10,1,start_g,6\n20,2,air_c,23\n"
    assert [o["t_s"] for o in outputs(text)] == [10]


def test_estimates_follow_the_weigh_ins() -> None:
    text = HEADER + "0,,air_c,24\n0,1,start_g,6\n600,1,weigh_in_g,4.8\n1200,1,weigh_in_g,3.8\n"
    last = outputs(text)[-1]
    assert last["grams"] == pytest.approx(3.8, abs=0.05)
    assert 0 < last["sigma_g"] < 0.06  # type: ignore[operator]
    assert last["eta_s"] > 0  # type: ignore[operator]


def test_melted_means_nothing_from_then_on() -> None:
    text = HEADER + "0,1,start_g,6\n60,1,melted,\n120,1,weigh_in_g,5\n"
    assert [(o["grams"], o["sigma_g"], o["eta_s"]) for o in outputs(text)[1:]] == [
        (0.0, 0.0, 0)
    ] * 2


def test_a_seat_without_a_thermometer_takes_the_median_of_the_table() -> None:
    def eta_of_seat_3(airs: str) -> object:
        text = HEADER + airs + "0,3,start_g,6\n"
        return outputs(text)[-1]["eta_s"]

    median_air = eta_of_seat_3("0,1,air_c,20\n0,2,air_c,30\n0,4,air_c,26\n")
    own_26 = eta_of_seat_3("0,3,air_c,26\n")
    assert median_air == own_26


def test_a_table_air_line_sets_every_seat() -> None:
    text = HEADER + "0,1,start_g,6\n0,2,start_g,6\n0,1,air_c,10\n0,,air_c,26\n"
    out = outputs(text)
    assert len(out) == 2 + 1 + 2
    assert out[-1]["eta_s"] == out[-2]["eta_s"]
    alone = outputs(HEADER + "0,1,air_c,26\n0,1,start_g,6\n")
    assert out[-1]["eta_s"] == alone[-1]["eta_s"]


def test_no_air_at_all_is_a_living_room() -> None:
    text = HEADER + "0,1,start_g,6\n"
    with_default = outputs(HEADER + f"0,1,air_c,{DEFAULT_AIR_C}\n0,1,start_g,6\n")
    assert outputs(text) == with_default


def test_the_air_changes_only_from_its_line_on() -> None:
    steady = outputs(HEADER + "0,1,air_c,20\n0,1,start_g,6\n1200,1,attack,polish\n")
    warmer = outputs(
        HEADER + "0,1,air_c,20\n0,1,start_g,6\n1199,1,air_c,30\n1200,1,attack,polish\n"
    )
    assert warmer[-1]["grams"] == pytest.approx(steady[-1]["grams"], abs=0.01)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("t_s,seat,kind\n", 1, "header"),
        ("", 1, "header"),
        (HEADER + "0,1,start_g,6\n5,1,weight,5\n", 3, "unknown kind 'weight'"),
        (HEADER + "0,1,weigh_in_g,5\n", 2, "before its start_g"),
        (HEADER + "0,1,start_g,6\n50,1,weigh_in_g,5\n40,1,weigh_in_g,5\n", 4, "time order"),
        (HEADER + "0,1,start_g,six\n", 2, "'six' is not a number"),
        (HEADER + "ten,1,start_g,6\n", 2, "'ten' is not a number"),
        (HEADER + "0,1,start_g,6\n1,1,weigh_in_g,nan\n", 3, "not a finite number"),
        (HEADER + "0,1,start_g,6\n1,1,attack,fan\n", 3, "unknown attack 'fan'"),
        (HEADER + "0,1,start_g,0\n", 2, "more than 0"),
        (HEADER + "0,,start_g,6\n", 2, "needs a seat"),
        (HEADER + "0,one,start_g,6\n", 2, "not a seat number"),
        (HEADER + "0,0,start_g,6\n", 2, "1 or more"),
        (HEADER + "0,1,start_g\n", 2, "3 fields"),
    ],
)
def test_bad_lines_are_named(text: str, line: int, words: str) -> None:
    with pytest.raises(ReplayError, match=words) as caught:
        parse(text, "table.csv")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"table.csv:{line}: ")


def test_blank_lines_and_spaces_are_forgiven() -> None:
    rows = parse(HEADER + "\n 0 , 1 , start_g , 6 \n\n")
    assert len(rows) == 1 and rows[0].seat == 1 and rows[0].value == 6.0
