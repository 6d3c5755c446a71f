"""Power cuts and the ice: a real daemon on a fast simulated table, killed with SIGKILL again and
again during a game of Cool Runnings; after each restart every cube's estimate is where it was
before the cut (within two of its sigmas, allowing for the melt while it was off) and every
melted proposal is still there.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import Daemon, start
from bench.figures import record

SPEED = "30"
CUTS = 6


def ice(daemon: Daemon) -> dict[int, dict[str, Any]]:
    seats = daemon.call("GET", "/api/status").body["seats"]
    return {s["seat"]: s["ice"] for s in seats if s["ice"] is not None}


@pytest.mark.long
def test_power_cuts_leave_every_cube_where_it_was(tmp_path: Path) -> None:
    daemon = start(tmp_path, "--speed", SPEED)
    port = int(daemon.url.rsplit(":", 1)[1])
    moved = compared = 0
    worst = 0.0
    try:
        started = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
        assert started.status == 201
        for _ in range(CUTS):
            time.sleep(4.0)  # two table minutes of melt and weigh-ins
            before = ice(daemon)
            cut_at = time.monotonic()
            daemon.kill()
            daemon = start(tmp_path, "--speed", SPEED, port=port)
            off_table_s = (time.monotonic() - cut_at) * float(SPEED)
            after = ice(daemon)
            assert set(after) == set(before), "a cube vanished"
            for seat, was in before.items():
                now = after[seat]
                # the melt while it was off: at most what the cube's rate would take
                melt = was["grams"] * off_table_s / max(was["eta_s"] or 1, 1)
                sigma = max(was["sigma_g"], now["sigma_g"], 0.02)
                off_by = max(0.0, abs(now["grams"] - was["grams"]) - melt) / sigma
                worst = max(worst, off_by)
                moved += off_by > 2.0
                compared += 1
                assert now["melted"] or not was["melted"], f"seat {seat}'s proposal vanished"
    finally:
        daemon.stop()
    record(
        "chaos: power cuts, estimates moved over 2 sigma",
        moved,
        "seats",
        goal=0,
        better="lower",
        note=f"{compared} seat estimates compared across {CUTS} SIGKILLs of a daemon at "
        f"--speed {SPEED}; the largest move was {worst:.2f} sigma beyond the melt while off",
    )
    assert moved == 0
