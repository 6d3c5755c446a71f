"""A damaged melt row is a broken database like any other: named at start in one line, set
aside by ``--fresh``, and never a traceback or a start that grows without bound.

The rows are made by a game of Cool Runnings at a simulated table (its cubes set out, their
air noted), then one is changed as a failing card or a hand at ``sqlite3`` would change it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from tabletime import fast_table
from test_database_faults import broken_start, database, one_line

from companion.games.messages import REFEREE
from companion.table.database_file import BrokenDatabase
from companion.table.service import TableService

DAMAGE: dict[str, tuple[str, str]] = {
    "value 'abc'": ("UPDATE melt_inputs SET value = 'abc' WHERE kind = 'start_g'", "start_g"),
    "value 'nan'": ("UPDATE melt_inputs SET value = 'nan' WHERE kind = 'start_g'", "start_g"),
    "attack '{'": (
        "UPDATE melt_inputs SET kind = 'attack', value = '{' WHERE kind = 'start_g'",
        "unknown attack",
    ),
    "t_s 'x'": ("UPDATE melt_inputs SET t_s = 'x' WHERE kind = 'start_g'", "game time"),
    "t_s 1e9": (
        "UPDATE melt_inputs SET t_s = 1e9 WHERE kind = 'start_g'",
        "game time 1000000000.0 is not from 0 to 604800",
    ),
    "seat 0": ("UPDATE melt_inputs SET seat = 0 WHERE kind = 'start_g'", "for no seat"),
    "kind 'x'": ("UPDATE melt_inputs SET kind = 'x' WHERE kind = 'start_g'", "unknown kind"),
}
"""Each damage: the SQL that makes it, and a piece of the line that must name it."""


def melting(state_dir: Path) -> None:
    """A game of Cool Runnings whose cubes are out: melt rows stored with it."""
    table = fast_table(state_dir)
    try:
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2]})
    finally:
        table.close()
    db = sqlite3.connect(database(state_dir))
    kinds = {k for (k,) in db.execute("SELECT kind FROM melt_inputs")}
    db.close()
    assert "start_g" in kinds, kinds


def damaged(state_dir: Path, name: str) -> str:
    sql, says = DAMAGE[name]
    melting(state_dir)
    db = sqlite3.connect(database(state_dir))
    with db:
        assert db.execute(sql).rowcount >= 1
    db.close()
    return says


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_melt_row_stops_the_start_with_one_line_naming_it(
    tmp_path: Path, name: str
) -> None:
    says = damaged(tmp_path, name)
    with pytest.raises(BrokenDatabase) as broken:
        fast_table(tmp_path)
    line = one_line(str(broken.value))
    assert line.startswith(f"{database(tmp_path)} holds a melt input of game 1 "), line
    assert says in line and line.endswith("start with --fresh to set it aside and begin anew")


@pytest.mark.parametrize("name", ["value 'abc'", "t_s 1e9"])
def test_fresh_sets_a_database_with_a_damaged_melt_row_aside(tmp_path: Path, name: str) -> None:
    damaged(tmp_path, name)
    table: TableService = fast_table(tmp_path, fresh=True)
    try:
        assert table.status()["game"] is None
        assert any("set aside as companion.db.broken-" in line for line in table.found)
    finally:
        table.close()
    assert len(list(tmp_path.glob("companion.db.broken-*"))) == 1


def test_companion_run_says_one_line_and_exits_2(tmp_path: Path) -> None:
    damaged(tmp_path, "t_s 'x'")
    stopped = broken_start(tmp_path)
    assert stopped.returncode == 2 and "Traceback" not in stopped.stderr + stopped.stdout
    line = one_line(stopped.stderr)
    assert "holds a melt input of game 1 whose game time is not a number ('x')" in line
    assert "--fresh" in line


MAKERS: dict[str, Callable[[Path], None]] = {"melting": melting}
