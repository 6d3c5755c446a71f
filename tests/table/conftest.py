"""The table tests' fixture: a running simulated table whose time runs fast."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tabletime import fast_table

from companion.table.service import TableService


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    t = fast_table(tmp_path)
    yield t
    t.close()
