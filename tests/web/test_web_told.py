"""What just happened, in a real browser: the table and seat pages list the last events in the
page's language, as the table told them; the referee takes back a mis-tap, which every page then
tells; a refusal the table gives comes in the page's language. At phone and tablet size, in
English and German."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Page, Phone, answered, needs_chromium, paused, shot
from served_here import Here, start_here
from waiting import wait_until

from bench.daemon import Served

pytestmark = needs_chromium

SIZES = pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
LOCALES = pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
TOOK_BACK = {"en": "The referee took back: ", "de": "Die Spielleitung nahm zurück: "}


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def new_game(daemon: Served, game: str) -> dict[str, str]:
    """Start ``game``; each seat's claim by seat number."""
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": game})
    assert started.status == 201, started.body
    return dict(started.body["seat_claims"])


def seat_token(daemon: Served, claim: str) -> str:
    return str(daemon.call("POST", "/api/claim", None, {"claim": claim}).body["token"])


def told(page: Page) -> list[str]:
    page.locator("#told li").first.wait_for()
    return [str(t) for t in page.locator("#told li").all_inner_texts()]


def last_change(daemon: Served, lang: str) -> list[str]:
    """What the last change said, in order: a roll with no floe says the next turn after it."""
    game = daemon.call("GET", "/api/status").body["game"]
    return [str(t[lang]) for t in game["told"] if t["change"] == game["changes"]]


def until_newest(page: Page, text: str) -> None:
    wait_until(
        lambda: told(page)[0] == text,
        every_s=0.05,
        what=lambda: f"the page's newest line to be {text!r}, not {told(page)[0]!r}",
        pause=paused(page),
    )


@SIZES
@LOCALES
def test_the_pages_tell_what_happened_and_what_the_referee_took_back(
    daemon: Served, phone: Phone, viewport: dict[str, int], locale: str
) -> None:
    lang = locale[:2]
    claims = new_game(daemon, "daddy-cool")
    turn = daemon.call("GET", "/api/status").body["game"]["turn_seat"]
    other = next(int(s) for s in claims if int(s) != turn)
    token = seat_token(daemon, claims[str(turn)])
    table = phone(f"{daemon.url}/", locale=locale, viewport=viewport)
    seat = phone(f"{daemon.url}/seat#claim={claims[str(other)]}", locale=locale, viewport=viewport)
    seat.locator("#who h2").wait_for()

    roll = daemon.call("GET", "/api/view", token).body["legal_actions"][0]
    assert daemon.call("POST", "/api/actions", token, roll).status == 200
    said = last_change(daemon, lang)
    rolled = said[0]
    for page in (table, seat):
        until_newest(page, said[-1])
    shot(table, f"told-table-{viewport['width']}-{lang}")

    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale, viewport=viewport)
    back = referee.locator(".take-back")
    back.wait_for()
    assert rolled in back.inner_text()
    back.locator("button").click()
    back.locator("button").click()  # the second tap confirms
    answered(daemon, referee, 0)
    for page in (table, seat):
        until_newest(page, TOOK_BACK[lang] + rolled)
    shot(seat, f"told-seat-{viewport['width']}-{lang}")
    assert daemon.call("GET", "/api/status").body["game"]["changes"] == 2


@LOCALES
def test_a_refusal_the_table_gives_is_shown_in_the_page_s_language(
    daemon: Served, phone: Phone, locale: str
) -> None:
    """The seat's tap is sent as it was offered one change too early: the table refuses it,
    in the page's language."""
    claims = new_game(daemon, "daddy-cool")
    turn = daemon.call("GET", "/api/status").body["game"]["turn_seat"]
    seat = phone(f"{daemon.url}/seat#claim={claims[str(turn)]}", locale=locale)
    button = seat.locator("#actions button").first
    button.wait_for()

    def too_early(route: Any) -> None:
        body = route.request.post_data_json
        route.continue_(post_data={**body, "after": body["after"] + 1})

    seat.route("**/api/actions", too_early)
    button.click()
    note = seat.locator("#error")
    note.wait_for()
    words = {"en": "this action was offered at change", "de": "dieser Zug wurde bei Änderung"}
    assert words[locale[:2]].lower() in note.inner_text().lower()
