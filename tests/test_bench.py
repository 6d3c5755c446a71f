"""The benchmarks run in quick mode and report well-formed results; their speed is not tested."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import bench.__main__
from bench import melt, selfplay, sweep, verify
from bench.__main__ import main
from bench.report import BenchFailure, Result, table
from companion.games import verify as games_verify

KEYS = {"name", "value", "unit", "baseline", "goal", "met", "ratio", "note"}
MELT_NAMES = [
    "melt rmse",
    "melt gain over baselines",
    "melt coverage",
    "melt eta error at 50%",
    "melt eta error at 80%",
    "melt update cost",
]
SWEEP_NAMES = ["w1 sweep 4 probes", "w1 sweep 8 probes"]
API_NAMES = [
    "api status latency",
    "api action latency",
    "api action to stream",
    "daemon memory",
    "daemon idle cpu",
]


def check_shape(result: dict) -> None:
    assert set(result) >= KEYS
    assert isinstance(result["name"], str) and isinstance(result["unit"], str)
    for key in ("value", "goal", "ratio"):
        assert isinstance(result[key], int | float) and not isinstance(result[key], bool)
        assert math.isfinite(result[key]) and result[key] > 0
    assert result["baseline"] is None or result["baseline"] > 0
    assert isinstance(result["met"], bool)
    assert json.loads(json.dumps(result)) == result


@pytest.mark.parametrize("bench", [selfplay, verify], ids=["selfplay", "verify"])
def test_quick_run_gives_a_well_formed_result(bench) -> None:
    result = bench.run(quick=True)
    assert isinstance(result, Result)
    check_shape(result.to_json())
    assert result.name in table([result])


def test_quick_melt_run_gives_well_formed_results() -> None:
    results = melt.run(quick=True)
    assert [r.name for r in results] == MELT_NAMES
    for result in results:
        check_shape(result.to_json())
        assert result.name in table(results)
    rmse = results[0].to_json()
    assert rmse["baseline"] == min(rmse["rmse_model_alone_g"], rmse["rmse_linear_g"])
    assert rmse["by_situation"]["all"]["points"] == rmse["points"] > 0
    coverage = results[2].to_json()
    assert (coverage["goal"], coverage["goal_max"]) == (90, 98)
    assert 0 < coverage["value"] <= 100
    assert "90-98 %" in table(results)


def test_quick_sweep_run_gives_a_result_per_probe_count() -> None:
    results = sweep.run(quick=True)
    assert [r.name for r in results] == SWEEP_NAMES
    for result in results:
        check_shape(result.to_json())
        assert result.baseline is not None and result.unit == "conversions"
    assert [r.to_json()["probes"] for r in results] == [4, 8]


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


def test_main_writes_and_prints_the_json_list(tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.json"
    assert main(["--quick", "--json"], out=out) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(out.read_text())
    assert [r["name"] for r in printed] == [
        "selfplay cool-am-pool",
        "selfplay cool-runnings",
        "selfplay daddy-cool",
        "selfplay ice-trays",
        "verify",
        *MELT_NAMES,
        *SWEEP_NAMES,
        "ten-count timing",
        *API_NAMES,
    ]
    for result in printed:
        check_shape(result)


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
