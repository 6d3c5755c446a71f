"""Less work for each phone: a seat page asks for its view only when something it shows may
have changed. The phone that acted draws the view its action's answer carries and asks for
none when the status of that change comes; a phone whose view the action changed asks once;
neither asks again while only the ice and the air move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import Page, Phone, needs_chromium
from served_here import Here, start_here

from bench.daemon import Served

pytestmark = needs_chromium

QUIET_S = 5.0
"""Longer than two of the table's refreshes of the melt (every 2 s): statuses that change no
view."""


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def counted(page: Page) -> list[str]:
    """The view requests ``page`` makes from now on."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/view") else None)
    return asked


def test_the_acting_phone_asks_for_no_view_the_others_ask_once_and_idle_phones_none(
    daemon: Served, phone: Phone
) -> None:
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "daddy-cool", "seats": [1, 2]}
    )
    tokens = daemon.seated(started)
    turn = str(started.body["view"]["turn_seat"])
    other = next(seat for seat in tokens if seat != turn)
    pages = {
        seat: phone(
            f"{daemon.url}/seat",
            before=f"sessionStorage.setItem('companion.seat', '{token}');",
        )
        for seat, token in tokens.items()
    }
    for page in pages.values():
        page.locator("#link[data-state=live]").wait_for()
    asked = {seat: counted(page) for seat, page in pages.items()}
    pages[turn].wait_for_timeout(QUIET_S * 1000)
    assert asked == {turn: [], other: []}, "a melt refresh asks for no view"

    changes = daemon.call("GET", "/api/status").body["game"]["changes"]
    pages[turn].locator("#actions button").first.click()
    while daemon.call("GET", "/api/status").body["game"]["changes"] == changes:
        pages[turn].wait_for_timeout(50)
    pages[other].wait_for_timeout(QUIET_S * 1000)  # the status has reached both pages
    assert len(asked[turn]) == 0, "the acting phone drew its answer's view"
    assert len(asked[other]) == 1, "the other phone asked once for its changed view"
