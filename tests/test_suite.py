"""The suite itself: any of its folders run together, every test that opens a browser is
marked ``browser`` (so ``pytest -m "not browser"`` runs the rest), and the long tests stay out
of a run that does not ask for them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from collected import TO_ENV

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
FOLDERS = sorted(p for p in TESTS.iterdir() if p.is_dir() and p.name[0] not in "._")
COLLECT = (sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider")
COLLECT += ("-p", "no:xdist", "-p", "collected")  # collected.py writes what was collected
BROWSER_FIXTURES = {"browser", "phone"}
"""The fixtures of browsing.py that start Chromium."""


def collect(where: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """``pytest --collect-only ARGS`` in a process of its own, and what it collected."""
    out = where / "collected.json"
    run = subprocess.run(
        [*COLLECT, *args],
        cwd=ROOT,
        env={**os.environ, TO_ENV: str(out), "PYTHONPATH": str(TESTS)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return run, json.loads(out.read_text()) if out.exists() else {}


@pytest.fixture(scope="module")
def every_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Every folder of tests/ given as an argument of its own, and the tests beside them."""
    files = sorted(TESTS.glob("test_*.py"))
    return collect(
        tmp_path_factory.mktemp("every"), *(str(p.relative_to(ROOT)) for p in FOLDERS + files)
    )


def test_any_test_folders_are_collected_together(
    every_folder: tuple[subprocess.CompletedProcess[str], dict[str, Any]],
) -> None:
    run, collected = every_folder
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    folders = {item["id"].split("/")[1] for item in collected["kept"]}
    assert folders >= {p.name for p in FOLDERS}


def test_every_test_that_opens_a_browser_is_marked_browser(
    every_folder: tuple[subprocess.CompletedProcess[str], dict[str, Any]],
) -> None:
    kept = every_folder[1]["kept"]
    browsing = [item["id"] for item in kept if BROWSER_FIXTURES & set(item["fixtures"])]
    marked = [item["id"] for item in kept if "browser" in item["marks"]]
    assert browsing, "no test uses a browser: the fixtures' names changed?"
    assert marked == browsing


def test_the_long_tests_stay_out_unless_asked_for(
    every_folder: tuple[subprocess.CompletedProcess[str], dict[str, Any]], tmp_path: Path
) -> None:
    collected = every_folder[1]
    assert collected["left_out"], "no long test was left out"
    assert not [item["id"] for item in collected["kept"] if "long" in item["marks"]]
    some = ["tests/mqtt/test_hall.py", "tests/chaos/test_chaos_taps.py"]
    run, no_browser = collect(tmp_path, "-m", "not browser", *some)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    kept = no_browser["kept"]
    assert kept and not [item for item in kept if {"browser", "long"} & set(item["marks"])]
    run, long = collect(tmp_path, "-m", "long", *some)
    assert long["kept"] and all("long" in item["marks"] for item in long["kept"])
