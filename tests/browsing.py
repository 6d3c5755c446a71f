"""A real browser for the page tests: Debian's chromium (its headless shell where installed:
:mod:`bench.chromium`), driven by playwright.

The ``phone`` fixture (``tests/conftest.py``, with :func:`phones`) opens a page in a browser
context of its own (360 x 740 unless told), failing the test on any error the page raises, in
one Chromium for the whole run (:func:`chromium`); ``shot`` saves a screenshot to
``test-output/screenshots/`` and checks the page is no wider than its screen and shows no
text's key. Without chromium (or playwright) the tests that use them are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_until

from bench.chromium import CHROMIUM
from companion.web.language import catalogue

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium installed: `apt-get install chromium` to run the browser tests",
)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SHOTS = Path(__file__).resolve().parents[1] / "test-output" / "screenshots"
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
TABLET_UPRIGHT = {"width": 768, "height": 1024}
WAIT_MS = 30000
KEYS = [key for key in catalogue("en") if "." in key and " " not in key]
"""The catalogue's keys: a page that shows one lacks its words."""

Page = Any
Phone = Callable[..., Page]


def chromium() -> Iterator[Any]:
    """Chromium, launched once for the run (once for each worker of ``pytest -n``) by the
    ``browser`` fixture of ``tests/conftest.py``; skipped where it will not start."""
    with sync_api.sync_playwright() as p:
        try:
            launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        except sync_api.Error as exc:
            pytest.skip(f"chromium would not start: {str(exc).splitlines()[0]}")
        yield launched
        launched.close()


def phones(browser: Any) -> Iterator[Phone]:
    """A new phone (a browser context of its own), for the ``phone`` fixture of
    ``tests/conftest.py``; page errors fail the test. ``before`` is a script run before the
    page's own (a token kept, say); ``goto=False`` opens no page yet. A phone is set to reduce
    motion unless ``motion="no-preference"``: a smooth scroll renders a frame at a time, a
    quarter of the browser's work in a test that taps through a game."""
    errors: list[str] = []
    contexts: list[Any] = []

    def new(
        url: str,
        locale: str = "en-GB",
        viewport: dict[str, int] = PHONE,
        before: str = "",
        goto: bool = True,
        motion: str = "reduce",
    ) -> Page:
        context = browser.new_context(viewport=viewport, locale=locale, reduced_motion=motion)
        context.set_default_timeout(WAIT_MS)
        if before:
            context.add_init_script(before)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{url}: {error}"))
        if goto:
            page.goto(url)
        return page

    yield new
    for context in contexts:
        context.close()
    assert errors == []


def shot(page: Page, name: str) -> None:
    """Save a screenshot of the whole page, and check it fits its screen's width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    screen = page.viewport_size["width"]
    assert width <= screen, f"{name}: {width} px wide on a {screen} px screen"
    shown = page.inner_text("body")
    assert not [key for key in KEYS if key in shown], f"{name} shows a text's key, not its words"


def paused(page: Page) -> Callable[[float], None]:
    """A pause for ``waiting.wait_until`` that lets the page's events through meanwhile."""
    return lambda s: page.wait_for_timeout(s * 1000)


def answered(table: Any, page: Page, actions: int) -> None:
    """Wait until ``table`` (a daemon) has taken ``actions`` actions, asking as a phone waits."""
    wait_until(
        lambda: table.call("GET", "/api/status").body["game"]["actions"] == actions,
        every_s=0.05,
        what=f"action {actions} to be answered",
        pause=paused(page),
    )
