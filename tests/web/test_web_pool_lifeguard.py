"""The pool board's caption says what the lifeguard closes in words that read right in each
language: the catalogue's sentence around the words of the table's view ("row 2", "die rote
Spalte"), on the page in a real browser too."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Phone, needs_chromium
from served_here import Here, start_here

from bench.daemon import Served
from companion.games.cool_am_pool import GAME as cool_am_pool
from companion.games.fair import FairRandom
from companion.games.seats import SeatInfo, default_seats
from companion.web.language import catalogue

RED, ROW_2 = 0, 7
"""Two places on the bundled track: the first space (red) and the first 2."""
CAPTIONS = {
    ("en", RED): "The lifeguard closes the red column.",
    ("en", ROW_2): "The lifeguard closes row 2.",
    ("de", RED): "Der Bademeister sperrt die rote Spalte.",
    ("de", ROW_2): "Der Bademeister sperrt die Reihe 2.",
}


def public_view(seats: list[SeatInfo], lifeguard: int) -> dict[str, Any]:
    state, _ = cool_am_pool.new_game({}, seats, FairRandom(bytes(32)))
    return cool_am_pool.view(state.evolve(lifeguard=lifeguard), "public")


@pytest.mark.parametrize(("lang", "lifeguard"), list(CAPTIONS))
def test_the_caption_fills_the_catalogue_s_sentence_with_the_view_s_words(
    lang: str, lifeguard: int
) -> None:
    words = public_view(list(default_seats(2)), lifeguard)["lifeguard"]["closes_words"]
    sentence = str(catalogue(lang)["pool.lifeguard"])
    assert sentence.format(space=words[lang]) == CAPTIONS[lang, lifeguard]


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


@needs_chromium
@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_table_page_says_what_the_lifeguard_closes(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    lang = locale[:2]
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-am-pool"})
    table = phone(f"{daemon.url}/", locale=locale, viewport=viewport)
    table.get_by_text(CAPTIONS[lang, RED], exact=True).wait_for()
    status = daemon.call("GET", "/api/status").body
    seats = [SeatInfo(s["seat"], s["name"], s["colour"]) for s in status["seats"]]
    moved = {**status, "game": {**status["game"], "view": public_view(seats, ROW_2)}}
    event = f"id: 1\nevent: status\ndata: {json.dumps(moved)}\n\n"
    row = phone(f"{daemon.url}/", locale=locale, viewport=viewport, goto=False)
    row.route(
        "**/api/stream*",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=event),
    )
    row.goto(f"{daemon.url}/")
    row.get_by_text(CAPTIONS[lang, ROW_2], exact=True).wait_for()
