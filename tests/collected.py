"""A pytest plugin for the tests of the suite itself: ``pytest -p collected --collect-only ...``
writes what was collected, as JSON, to the file that ``$COLLECTED_TO`` names: every test kept
(its node id, its fixtures and its markers) and the node ids left out."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

TO_ENV = "COLLECTED_TO"
_left_out: list[str] = []


def pytest_deselected(items: list[pytest.Item]) -> None:
    _left_out.extend(item.nodeid for item in items)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    kept = [
        {
            "id": item.nodeid,
            "fixtures": sorted(getattr(item, "fixturenames", ())),
            "marks": sorted({mark.name for mark in item.iter_markers()}),
        }
        for item in session.items
    ]
    Path(os.environ[TO_ENV]).write_text(json.dumps({"kept": kept, "left_out": _left_out}))
