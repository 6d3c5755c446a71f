"""The whole table's CPU per action: the action, and every request the pages make for it.

``companion run`` is started on the simulated table as its own process; a game of Ice Trays is
started for four seats, and four seat pages (each a phone of its own) and the table page are
opened in headless Chromium. The seat whose turn it is then taps its first offered action,
again and again, while the daemon's CPU time (user and system, from ``/proc``) is read before
and after. The table's own work (its sensor loop and the melt's refresh) is measured as long
again with nobody tapping and taken off, so what is left is each action's cost with what it
made the five pages ask. The baseline is the same run of the pages from before a seat page
stopped asking for the view its action's answer carries (and a phone whose view nothing
changed stopped asking), measured on this machine's two cores.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.daemon import Daemon, start
from bench.report import Result

ACTIONS = 40
BEFORE_MS = 7.3
"""CPU per action with the pages from before the change: this bench run against them, twice
(7.4 and 7.2 ms), on this machine's two cores while other work ran."""
BEFORE_VIEWS = 4.0
"""Views the five pages asked for per action then: each other seat's, and the actor's again."""
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def cpu_s(pid: int) -> float:
    """The process's user and system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime, stime: clock ticks


def measure(daemon: Daemon, actions: int, quiet_s: float) -> tuple[float, float, int]:
    """CPU ms per action (the table's own work, measured for ``quiet_s`` with nobody tapping,
    taken off), views asked per action, actions taken."""
    from playwright.sync_api import sync_playwright

    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "ice-trays", "seats": [1, 2, 3, 4]}
    )
    tokens = daemon.seated(started)
    views: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        pages: dict[str, Any] = {}
        for seat, token in tokens.items():
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_init_script(f"sessionStorage.setItem('companion.seat', '{token}');")
            page = context.new_page()
            page.on("request", lambda r: views.append(r.url) if "/api/view" in r.url else None)
            page.goto(f"{daemon.url}/seat")
            pages[seat] = page
        table = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        table.goto(f"{daemon.url}/")
        for page in [*pages.values(), table]:
            page.locator("#link[data-state=live]").wait_for()
        pid = daemon.process.pid
        quiet_from, cpu_from = time.monotonic(), cpu_s(pid)
        time.sleep(quiet_s)
        idle_per_s = (cpu_s(pid) - cpu_from) / (time.monotonic() - quiet_from)
        views.clear()
        taken = 0
        begun, cpu_begun = time.monotonic(), cpu_s(pid)
        for _ in range(actions):
            game = daemon.call("GET", "/api/status").body["game"]
            if game["over"]:
                break
            page = pages[str(game["turn_seat"])]
            button = page.locator("#actions button").first
            button.wait_for()
            button.click()
            while daemon.call("GET", "/api/status").body["game"]["changes"] == game["changes"]:
                time.sleep(0.02)
            time.sleep(0.5)  # the pages' follow-up requests
            taken += 1
        spent = cpu_s(pid) - cpu_begun - idle_per_s * (time.monotonic() - begun)
        browser.close()
    return 1000 * spent / max(taken, 1), len(views) / max(taken, 1), taken


def run(quick: bool = False) -> Result:
    """Measure a run of actions (fewer in quick mode); without Chromium, say so."""
    if CHROMIUM is None:
        return Result(
            "table CPU per action",
            0.0,
            "ms",
            BEFORE_MS,
            BEFORE_MS,
            "lower",
            "not measured: no chromium here (apt-get install chromium)",
            ok=False,
        )
    with tempfile.TemporaryDirectory() as folder:
        daemon = start(Path(folder))
        try:
            ms, views, taken = measure(daemon, *((10, 3.0) if quick else (ACTIONS, 10.0)))
        finally:
            daemon.stop()
    return Result(
        "table CPU per action",
        round(ms, 1),
        "ms",
        BEFORE_MS,
        BEFORE_MS,
        "lower",
        f"{taken} taps of Ice Trays with four seat pages and the table page open: the daemon's "
        f"CPU per action and its pages' follow-up requests ({views:.1f} views asked per action, "
        f"{BEFORE_VIEWS:g} before), the table's own work taken off",
        extra={"views_per_action": round(views, 2), "actions": taken},
    )


if __name__ == "__main__":
    print(run())
