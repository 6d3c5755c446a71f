"""The whole table's CPU per action: the action, and every request the pages make for it.

``companion run`` is started on the simulated table as its own process; a game of Ice Trays is
started for four seats, and four seat pages (each a phone of its own) and the table page are
opened in headless Chromium. The seat whose turn it is then taps its first offered action,
again and again, while the daemon's CPU time (the scheduler's count for its threads) is read
before and after; nothing but the pages asks the daemon anything meanwhile. The table's own
work (its sensor loop and the melt's refresh) is measured with nobody tapping and taken off, so
what is left is each action's cost with what it made the five pages ask. The baseline is this
bench run against the code from before a seat page stopped asking for the view its action's
answer carries (and a phone whose view nothing changed stopped asking), on this machine's two
cores: a run varies by about a millisecond, so both were run three times, alternately.
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.chromium import CHROMIUM
from bench.cpu import cpu_s
from bench.daemon import Daemon, start
from bench.report import Result

ACTIONS = 40
BEFORE_MS = 7.7
"""CPU per action with the code from before the change: the median of three runs of this bench
against it (7.6, 7.7 and 8.6 ms; the same three of today's gave 6.9, 5.8 and 7.1)."""
FOLLOW_UP_S = 0.5
"""How long the pages are given to ask what an action made them ask."""
BEFORE_VIEWS = 4.0
"""Views the five pages asked for per action then: each other seat's, and the actor's again."""


def measure(daemon: Daemon, actions: int, quiet_s: float) -> tuple[float, float, int]:
    """CPU ms per action (the table's own work, measured for ``quiet_s`` with nobody tapping,
    taken off), views asked per action, actions taken. While it counts, nothing but the pages
    asks the daemon anything: the next seat to tap is read from the action's answer."""
    from playwright.sync_api import sync_playwright

    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "ice-trays", "seats": [1, 2, 3, 4]}
    )
    tokens = daemon.seated(started)
    turn = daemon.call("GET", "/api/status").body["game"]["turn_seat"]
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
        while taken < actions:
            page = pages[str(turn)]
            button = page.locator("#actions button").first
            button.wait_for()
            with page.expect_response(lambda r: "/api/actions" in r.url) as answered:
                button.click()
            answer = answered.value.json()
            time.sleep(FOLLOW_UP_S)
            taken += 1
            if answer["outcome"] is not None:
                break
            turn = answer["turn_seat"]
        spent = cpu_s(pid) - cpu_begun - idle_per_s * (time.monotonic() - begun)
        browser.close()
    return 1000 * spent / max(taken, 1), len(views) / max(taken, 1), taken


def measured(actions: int, quiet_s: float) -> tuple[float, float, int]:
    """:func:`measure` on a daemon of its own, in a thread of its own: playwright's sync API
    will not start in a thread where it already runs (a test's browser)."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = start(Path(folder))
        try:
            with ThreadPoolExecutor(1) as thread:
                return thread.submit(measure, daemon, actions, quiet_s).result()
        finally:
            daemon.stop()


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
    ms, views, taken = measured(*((10, 3.0) if quick else (ACTIONS, 10.0)))
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
