"""The benchmarks run in quick mode and report well-formed results; their speed is not tested.
The long tests' runner turns outcomes and recorded figures into rows; ``bench/README.md`` shows
the rows of the last full run."""

from __future__ import annotations

import contextlib
import doctest
import fcntl
import io
import json
import math
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import bench.__main__
from bench import (
    daemon,
    figures,
    long_tests,
    memory,
    pad_drift,
    pages,
    report,
    selfplay,
    sweep,
    verify,
)
from bench.__main__ import RESULTS, main
from bench.broker import MISSING as MQTT_MISSING
from bench.long_tests import Outcome
from bench.report import BenchFailure, Result, markdown, table
from companion.games import GAMES
from companion.games import verify as games_verify

KEYS = {"name", "value", "unit", "baseline", "goal", "met", "ratio", "note"}
MELT_NAMES = [
    name
    for where in ("", ", widened")
    for name in (
        f"melt rmse{where}",
        *(["melt gain over baselines"] if not where else []),
        f"melt coverage{where}",
        f"melt eta error at 25%{where}",
        f"melt eta error at 50%{where}",
        f"melt eta error at 75%{where}",
        f"melt eta error at 25%{where}, quiet",
        f"melt eta error at 50%{where}, quiet",
        f"melt eta error at 75%{where}, quiet",
        f"melt countdown coverage{where}, quiet",
        f"melt range hits{where}, quiet",
    )
] + ["melt update cost"]
PAD_DRIFT_NAMES = [
    f"pad drift: {what}, {case.name}"
    for case in pad_drift.CASES
    for what in ("weigh-in error", "estimate RMSE")
]
SWEEP_NAMES = ["w1 sweep 4 probes", "w1 sweep 8 probes"]
API_NAMES = [
    "api status latency",
    "api action latency",
    "api action to stream",
    "table memory",
    "table memory: daemon",
    "table memory: cues",
    "daemon idle cpu",
    *(
        f"cpu per {what}{where}"
        for what in ("status request", "action", "sensor sweep")
        for where in ("", ", pi zero 2 w")
    ),
]

MQTT_NAMES = [
    f"mqtt room: {what}, 10 tables"
    for what in ("messages a second", "hall delay p99", "hall memory", "Mosquitto CPU")
]


def check_shape(result: dict) -> None:
    assert set(result) >= KEYS
    assert isinstance(result["name"], str) and isinstance(result["unit"], str)
    for key in ("value", "goal", "ratio"):
        assert isinstance(result[key], int | float) and not isinstance(result[key], bool)
        assert math.isfinite(result[key]) and result[key] >= 0
    assert result["goal"] > 0
    assert result["baseline"] is None or result["baseline"] > 0
    assert isinstance(result["met"], bool)
    assert json.loads(json.dumps(result)) == result


@pytest.mark.parametrize("bench", [selfplay, verify], ids=["selfplay", "verify"])
def test_quick_run_gives_a_well_formed_result(bench) -> None:
    result = bench.run(quick=True)
    assert isinstance(result, Result)
    check_shape(result.to_json())
    assert result.name in table([result])


def test_quick_melt_run_gives_well_formed_results(quick_bench: tuple[str, list[dict]]) -> None:
    rows = [r for r in quick_bench[1] if r["name"].startswith("melt")]
    assert [r["name"] for r in rows] == MELT_NAMES
    for row in rows:
        check_shape(row)
    rmse = rows[0]
    assert rmse["baseline"] == min(rmse["rmse_model_alone_g"], rmse["rmse_linear_g"])
    assert rmse["by_situation"]["all"]["points"] == rmse["points"] > 0
    coverage = rows[2]
    assert (coverage["goal"], coverage["goal_max"]) == (90, 98)
    assert 0 < coverage["value"] <= 100
    assert "90-98 %" in markdown(rows)


def test_zero_tracking_weighs_drifting_pads_in_as_the_still_ones(
    quick_bench: tuple[str, list[dict]],
) -> None:
    """An hour at a table of two (the quick bench's), read as the daemon reads it: the kit's
    drift spoils the weigh-ins without tracking, and tracking brings them back to the still
    pads' error."""
    rows = {r["name"]: r for r in quick_bench[1] if r["name"].startswith("pad drift")}
    assert list(rows) == PAD_DRIFT_NAMES

    def weigh_in(case: str) -> float:
        return float(rows[f"pad drift: weigh-in error, {case}"]["value"])

    still = weigh_in("still pads")
    assert weigh_in("drifting pads, no zero tracking") > 5 * still
    assert weigh_in("drifting pads, zero tracking") < 2 * still <= pad_drift.WEIGH_IN_GOAL_G


def test_quick_sweep_run_gives_a_result_per_probe_count(
    quick_bench: tuple[str, list[dict]],
) -> None:
    rows = [r for r in quick_bench[1] if r["name"].startswith("w1 sweep")]
    assert [r["name"] for r in rows] == SWEEP_NAMES
    for row in rows:
        assert row["baseline"] is not None and row["unit"] == "conversions"
    assert [r["probes"] for r in rows] == [4, 8]


def test_a_sweep_that_skips_the_bulk_trigger_fails_the_benchmark(monkeypatch) -> None:
    monkeypatch.setattr(sweep.TimedW1, "_convert_all", lambda self: None)
    with pytest.raises(BenchFailure, match="bulk sweep did"):
        sweep.timed_sweeps(probes=2, bulk=True, sweeps=1)


def test_a_range_goal_is_met_only_inside_it() -> None:
    def within(value: float) -> Result:
        return Result("r", value, "%", None, 90.0, "higher", goal_max=98.0)

    assert [within(v).met for v in (89.9, 90.0, 95.0, 98.0, 98.1)] == [
        False,
        True,
        True,
        True,
        False,
    ]
    assert "goal_max" in within(95.0).to_json()
    assert "goal_max" not in Result("r", 1.0, "g", None, 2.0, "lower").to_json()


@pytest.fixture(scope="module")
def quick_bench(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> tuple[str, list[dict]]:
    """``python -m bench --quick --json``, run once for the tests that read its rows, however
    many of pytest-xdist's workers they are given to (the first runs it, the others wait and
    read it): what it printed, and the rows it wrote."""
    run = tmp_path_factory.getbasetemp()
    shared = run if worker_id == "master" else run.parent
    out, printed = shared / "quick-bench.json", shared / "quick-bench.printed"
    with (shared / "quick-bench.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not printed.exists():
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                assert main(["--quick", "--json"], out=out) == 0
            printed.write_text(said.getvalue())
    return printed.read_text(), json.loads(out.read_text())


def test_main_writes_and_prints_the_json_list(quick_bench: tuple[str, list[dict]]) -> None:
    printed = json.loads(quick_bench[0])
    assert printed == quick_bench[1]
    assert [r["name"] for r in printed] == [
        *(f"selfplay {name}" for name in GAMES),
        "verify",
        *MELT_NAMES,
        *PAD_DRIFT_NAMES,
        *SWEEP_NAMES,
        "ten-count timing",
        "page weight",
        "table CPU per action",
        *API_NAMES,
        *(MQTT_NAMES if MQTT_MISSING is None else ["mqtt room"]),
        "bench wall time",
    ]
    for result in printed:
        check_shape(result)
    assert "--quick" in printed[-1]["note"]


def test_bad_argument_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--fast"], out=tmp_path / "results.json")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--fast" in err
    assert not (tmp_path / "results.json").exists()


def test_a_failed_verification_fails_the_benchmark(monkeypatch, tmp_path: Path) -> None:
    def wrong(export: dict) -> games_verify.Verdict:
        return games_verify.Verdict(mismatch="seed: changed")

    monkeypatch.setattr(games_verify, "verify", wrong)
    with pytest.raises(BenchFailure, match="seed: changed"):
        verify.run(quick=True)
    monkeypatch.setattr(bench.__main__, "BENCHMARKS", (("verify", verify.run),))
    assert main(["--quick"], out=tmp_path / "results.json") == 1
    assert not (tmp_path / "results.json").exists()


def test_the_page_weight_counts_every_page_in_every_language() -> None:
    result = pages.run(quick=True).to_json()
    check_shape(result)
    assert set(result["bytes"]) == {
        f"{page} ({lang})" for page in ("table", "seat", "referee") for lang in ("en", "de")
    }
    assert result["value"] == pytest.approx(max(result["bytes"].values()) / 1000, rel=1e-3)


def test_a_result_whose_source_failed_is_not_met() -> None:
    assert Result("r", 1.0, "g", None, 2.0, "lower").met
    assert not Result("r", 1.0, "g", None, 2.0, "lower", ok=False).met


def test_a_figure_is_recorded_once_per_name_and_read_back(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(figures.FOLDER_ENV, str(tmp_path))
    figures.record("soak: memory growth", 3.0, "MB", 2.0, "lower", samples=4)
    figures.record("soak: memory growth", 1.5, "MB", 2.0, "lower", samples=5)
    figures.record("chaos: power cuts", 200, "kills", 200)
    found, broken = figures.collect(tmp_path)
    assert broken == []
    assert [(f.name, f.value) for f in found] == [
        ("soak: memory growth", 1.5),
        ("chaos: power cuts", 200),
    ]
    assert found[0].test == figures.current_test()
    assert "test_a_figure_is_recorded" in found[0].test
    row = found[0].result(ok=True).to_json()
    assert row["met"] and row["samples"] == 5 and row["test"] == found[0].test
    figures.clear(tmp_path)
    assert figures.collect(tmp_path) == ([], [])


def test_a_figure_file_written_by_other_means_is_read_too(tmp_path: Path) -> None:
    def write(name: str, data: dict) -> None:
        (tmp_path / name).write_text(json.dumps(data))

    plain = {"name": "soak", "unit": "MB", "baseline": None, "note": "n"}
    write("a.json", {**plain, "value": 1.0, "goal": 2.0, "met": True, "rss": [1, 2]})
    write("b.json", {**plain, "value": 3.0, "goal": 2.0, "met": False})
    write("c.json", {**plain, "value": 3.0, "goal": 2.0, "met": True})
    write("d.json", {**plain, "value": 2.0, "goal": 2.0, "met": False})
    write("e.json", {"name": "no value"})
    found, broken = figures.collect(tmp_path)
    assert broken == ["e.json"]
    rows = {f.file[0]: f.result(ok=True).to_json() for f in found}
    assert [(rows[n]["better"], rows[n]["met"]) for n in "abcd"] == [
        ("lower", True),
        ("lower", False),
        ("higher", True),
        ("lower", False),
    ]
    assert rows["a"]["rss"] == [1, 2]


@pytest.mark.parametrize("bad", [math.nan, math.inf, "3"])
def test_a_figure_must_be_a_finite_number(tmp_path: Path, monkeypatch, bad) -> None:
    monkeypatch.setenv(figures.FOLDER_ENV, str(tmp_path))
    with pytest.raises(ValueError, match="finite number"):
        figures.record("x", bad, "g", 1.0)
    assert not list(tmp_path.iterdir())


SAMPLE = """
import json

import pytest
from bench.figures import folder, record

@pytest.mark.long
def test_measures():
    record("chaos: power cuts", 200, "kills", goal=200, note="0 lost", games=8)

@pytest.mark.long
def test_measures_then_fails():
    record("soak: memory growth", 1.5, "MB", goal=2.0, better="lower")
    assert False, "it grew on"

@pytest.mark.long
def test_passes():
    pass

@pytest.mark.long
def test_writes_its_own_file():
    figure = {"name": "pod unplugged", "value": 20, "unit": "plugs", "goal": 10, "met": True}
    (folder() / "pod.json").write_text(json.dumps(figure))

@pytest.mark.long
def test_skips():
    pytest.skip("no chromium here")

def test_is_not_long():
    pass
"""


def test_long_tests_become_rows_with_their_figures(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    long: long\n")
    (tmp_path / "test_sample_long.py").write_text(textwrap.dedent(SAMPLE))
    results = long_tests.run(
        budget_s=300, where=tmp_path / "long", args=(str(tmp_path / "test_sample_long.py"),)
    )
    rows = {r.name: r.to_json() for r in results}
    for row in rows.values():
        check_shape(row)
    assert list(rows) == [
        "chaos: power cuts",
        "soak: memory growth",
        "long: test_sample_long::test_passes",
        "pod unplugged",
        "long: test_sample_long::test_skips",
        "long tests",
    ]
    assert rows["pod unplugged"]["test"].endswith("test_sample_long.py::test_writes_its_own_file")
    assert rows["pod unplugged"]["met"]
    cuts = rows["chaos: power cuts"]
    assert (cuts["value"], cuts["unit"], cuts["goal"], cuts["met"]) == (200, "kills", 200, True)
    assert cuts["games"] == 8 and cuts["note"] == "0 lost"
    soak = rows["soak: memory growth"]
    assert soak["value"] < soak["goal"] and not soak["met"]
    assert "the test failed" in soak["note"] and "it grew on" in soak["note"]
    assert rows["long: test_sample_long::test_passes"]["met"]
    skipped = rows["long: test_sample_long::test_skips"]
    assert skipped["value"] == 0 and not skipped["met"] and "no chromium here" in skipped["note"]
    count = rows["long tests"]
    assert (count["value"], count["goal"], count["met"]) == (3, 5, False)
    assert "3 passed, 1 failed, 1 skipped" in count["note"]


def test_a_long_run_past_its_budget_is_stopped_and_unmet(tmp_path: Path) -> None:
    (tmp_path / "test_sample_forever.py").write_text(
        "import pytest, threading\n\n@pytest.mark.long\n"
        "def test_forever():\n    threading.Event().wait()\n"
    )
    results = long_tests.run(
        budget_s=0.01, where=tmp_path / "long", args=(str(tmp_path / "test_sample_forever.py"),)
    )
    assert results[-1].name == "long tests" and not results[-1].met
    assert "budget" in results[-1].note


def test_a_test_that_never_finished_says_so_and_cases_share_a_row() -> None:
    outcomes = {
        "t.py::a": Outcome("t.py::a", "passed", 2.0),
        "t.py::c[1]": Outcome("t.py::c[1]", "passed", 1.0),
        "t.py::c[2]": Outcome("t.py::c[2]", "failed", 1.0, "boom"),
    }
    results = long_tests.rows(
        ["t.py::a", "t.py::c[1]", "t.py::b", "t.py::c[2]"],
        outcomes,
        [],
        stopped="did not finish within the budget",
        summary="",
    )
    assert [(r.name, r.value, r.goal, r.met) for r in results] == [
        ("long: t::a", 1, 1, True),
        ("long: t::c", 1, 2, False),
        ("long: t::b", 0, 1, False),
        ("long tests", 2, 4, False),
    ]
    assert "[2] the test failed: boom" in results[1].note
    assert "did not finish within the budget" in results[2].note
    assert "2 passed, 1 failed, 1 unfinished" in results[3].note


def test_a_failure_outside_the_call_fails_the_test() -> None:
    outcome = Outcome("t.py::a")
    outcome.add("setup", "passed", 0.1, "")
    outcome.add("call", "passed", 1.0, "")
    outcome.add("teardown", "failed", 0.1, "daemon would not stop")
    assert (outcome.outcome, outcome.message) == ("failed", "in teardown: daemon would not stop")


def fake_process(proc: Path, pid: int, comm: str, rss_kb: int, pss_kb: int, *kids: int) -> None:
    """One process of a fake ``/proc``: its name, its memory and its children."""
    task = proc / str(pid) / "task" / str(pid)
    task.mkdir(parents=True)
    (task / "children").write_text(" ".join(map(str, kids)) + (" " if kids else ""))
    (proc / str(pid) / "comm").write_text(comm + "\n")
    (proc / str(pid) / "status").write_text(f"Name:\t{comm}\nVmRSS:\t  {rss_kb} kB\n")
    (proc / str(pid) / "smaps_rollup").write_text(f"Rss: {rss_kb} kB\nPss: {pss_kb} kB\n")


def test_the_memory_of_a_table_is_its_whole_tree_by_proportional_size(tmp_path: Path) -> None:
    fake_process(tmp_path, 10, "python", 40 * 1024, 30 * 1024, 11, 12)
    fake_process(tmp_path, 11, "companion-hx711", 12 * 1024, 7 * 1024)
    fake_process(tmp_path, 12, "companion-cues", 20 * 1024, 14 * 1024)
    processes = memory.tree(10, tmp_path)
    assert [(p.pid, p.role) for p in processes] == [(10, "daemon"), (12, "cues"), (11, "hx711")]
    rows = [r.to_json() for r in memory.results(processes, "at rest")]
    assert [r["name"] for r in rows] == [*API_NAMES[3:6], "table memory: hx711"]
    assert [r["value"] for r in rows] == [51, 30, 14, 7]
    assert rows[0]["goal"] == 60 and rows[0]["met"]
    assert rows[2]["rss_mb"] == 20 and "resident (RSS) 72.0 MB" in rows[0]["note"]
    for row in rows:
        check_shape(row)


def test_a_table_without_its_cue_child_fails_the_memory_benchmark(tmp_path: Path) -> None:
    fake_process(tmp_path, 10, "python", 40 * 1024, 30 * 1024)
    with pytest.raises(BenchFailure, match="no cue child"):
        memory.results(memory.tree(10, tmp_path), "at rest")


def test_markdown_prints_the_last_results(tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.json"
    assert main(["--markdown"], out=out) == 2
    out.write_text(json.dumps([Result("memory", 44.2, "MB", None, 60.0, "lower").to_json()]))
    assert main(["--markdown"], out=out) == 0
    assert "| memory | 44.2 MB | - | <= 60 MB | 0.737x goal | yes |" in capsys.readouterr().out


def test_the_bench_readme_shows_the_rows_of_the_last_run() -> None:
    readme = (Path(__file__).parents[1] / "bench" / "README.md").read_text()
    section = readme.split("\n## Measured\n", 1)[1].split("\n## ", 1)[0]
    shown = re.findall(r"^\| (.+?) \| .* \| (?:yes|NO) \|$", section, re.M)
    last = [row["name"] for row in json.loads(RESULTS.read_text())]
    assert shown == last, (
        "run make bench and paste python -m bench --markdown into bench/README.md's Measured"
    )


@pytest.mark.parametrize("module", [report, figures, long_tests], ids=lambda m: m.__name__)
def test_the_examples_in_the_docstrings_hold(module) -> None:
    outcome = doctest.testmod(module)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_a_daemon_that_will_not_stop_is_reported_with_its_threads_stacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stop that hangs in CI must say where: the stacks faulthandler prints at SIGABRT."""
    stubborn = (
        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "print('up', flush=True)\n"
        "def waits_for_nothing():\n    time.sleep(60)\nwaits_for_nothing()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", stubborn],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"PYTHONFAULTHANDLER": "1"},
    )
    assert process.stdout is not None
    lines = [process.stdout.readline()]
    threading.Thread(target=lines.extend, args=(process.stdout,), daemon=True).start()
    monkeypatch.setattr(daemon, "STOP_S", 0.5)
    with pytest.raises(daemon.StopHung, match=r"did not stop 0\.5 s after SIGTERM") as hung:
        daemon.Daemon("http://127.0.0.1:1", "", process=process, lines=lines).stop()
    assert "in waits_for_nothing" in str(hung.value)
    assert process.poll() is not None
