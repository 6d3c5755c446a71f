"""Every refusal on the referee's page is said beside the control that was refused, on the
screen, in the page's language, and goes when that control's next action goes through.

Each refusal is met for real: the table moved on (a seat's phone acted, another referee page
ended the game or started another) while this page had not heard yet, as a phone on slow Wi-Fi
has not, or the table cannot be reached. At phone and tablet size, in English and German.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Page, Phone, needs_chromium
from served_here import Here, start_here

from bench.daemon import Served
from companion.games.record import ALREADY_OVER
from companion.games.sentence import Sentence
from companion.table.offers import moved_on
from companion.table.seat_keys import not_playing
from companion.web.language import catalogue

pytestmark = needs_chromium

SMALL = {"width": 320, "height": 568}
"""The smallest phone a family brought."""
PLACES = [("en-GB", SMALL), ("de-DE", PHONE), ("en-GB", TABLET), ("de-DE", TABLET)]
PLACE_IDS = ["en-small", "de-phone", "en-tablet", "de-tablet"]
places = pytest.mark.parametrize(("locale", "viewport"), PLACES, ids=PLACE_IDS)

DEAF = """
const Source = window.EventSource;
window.__deaf = false;
window.EventSource = class extends Source {
  addEventListener(type, listener, ...rest) {
    const heard = type === "status" ? (event) => window.__deaf || listener(event) : listener;
    super.addEventListener(type, heard, ...rest);
  }
};
"""
"""An init script: while ``window.__deaf``, the page hears none of the table's news."""


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def words(locale: str, key: str) -> str:
    return str(catalogue(locale[:2])[key])


def as_said(locale: str, sentence: Sentence) -> str:
    """A table's sentence as its refusal says it in ``locale``: capitalised, with a full stop."""
    text = sentence.said(locale[:2])
    return f"{text[0].upper()}{text[1:]}."


def referee_page(phone: Phone, daemon: Served, locale: str, viewport: dict[str, int]) -> Page:
    """The referee's page, which can be made deaf to the table's news (``deaf``)."""
    return phone(
        f"{daemon.url}/referee#{daemon.referee}", locale=locale, viewport=viewport, before=DEAF
    )


def deaf(page: Page, yes: bool = True) -> None:
    page.evaluate(f"window.__deaf = {'true' if yes else 'false'}")


def tap_twice(button: Any) -> None:
    """A confirm button's two taps: it arms, then it runs."""
    button.click()
    button.page.locator("button[data-armed]").first.wait_for()
    button.page.locator("button[data-armed]").first.click()


def said_beside(control: Any, text: str) -> Any:
    """The refusal beside ``control``: its words are ``text``, it lies just below the control
    (or beside it), wholly on the screen, and the note at the top of the page is not used."""
    note = control.locator("xpath=following-sibling::*[contains(@class, 'refusal')][1]")
    note.wait_for()
    assert note.inner_text() == text
    near = control.evaluate(
        """(c) => { const note = c.parentElement.querySelector(".refusal");
          const a = c.getBoundingClientRect(), b = note.getBoundingClientRect();
          return b.top - a.bottom < 60 && b.top >= a.top - 1; }"""
    )
    assert near, "the refusal lies far from its control"
    assert on_screen(note)
    assert control.page.locator("#error").is_hidden()
    return note


def on_screen(element: Any) -> bool:
    """Whether the element is wholly on the screen as the page is scrolled now."""
    return bool(
        element.evaluate(
            """(e) => { const r = e.getBoundingClientRect();
              return r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1; }"""
        )
    )


def redrawn(page: Page, selector: str) -> Any:
    """Hear the table again, and wait until ``selector``'s element has been drawn anew."""
    page.locator(selector).first.evaluate("(e) => (e.dataset.old = '1')")
    deaf(page, False)
    again = page.locator(f"{selector}:not([data-old])")
    again.first.wait_for()
    return again


def play(daemon: Served, tokens: dict[str, str], actions: int) -> None:
    """The seats on turn take ``actions`` actions, each its first legal one."""
    for _ in range(actions):
        turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
        legal = daemon.call("GET", "/api/view", tokens[turn]).body["legal_actions"]
        assert daemon.call("POST", "/api/actions", tokens[turn], legal[0]).status == 200


@places
def test_a_take_back_refused_is_said_beside_it_and_goes_when_a_take_back_goes_through(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    tokens = daemon.seated(started)
    play(daemon, tokens, 1)
    referee = referee_page(phone, daemon, locale, viewport)
    take_back = referee.locator("#running .take-back button")
    take_back.wait_for()
    offered = daemon.call("GET", "/api/view", daemon.referee).body["take_back"]["action"]["after"]
    deaf(referee)
    play(daemon, tokens, 1)  # a seat's phone acts while the referee takes back
    tap_twice(take_back)
    said_beside(take_back, as_said(locale, moved_on(offered + 1, offered)))

    take_back = redrawn(referee, "#running .take-back button")  # the take-back of the new action
    said_beside(take_back, as_said(locale, moved_on(offered + 1, offered)))
    tap_twice(take_back)
    referee.locator("#running .refusal").wait_for(state="detached")
    assert daemon.call("GET", "/api/status").body["game"]["actions"] == 1


@places
def test_an_end_refused_is_said_beside_it_and_stays_when_the_page_hears_the_game_is_over(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": "ice-trays"})
    referee = referee_page(phone, daemon, locale, viewport)
    end = referee.locator("#running button.danger")  # "End the game", "Tap again" once armed
    end.wait_for()
    deaf(referee)
    assert daemon.call("POST", "/api/games/end", daemon.referee, {}).status == 200  # another page
    tap_twice(end)
    said_beside(end, as_said(locale, ALREADY_OVER))

    redrawn(referee, "#running h2")
    assert referee.locator("#running button.danger").count() == 0
    note = referee.locator("#running .refusal")
    assert note.inner_text() == as_said(locale, ALREADY_OVER)
    assert on_screen(note)


@places
def test_a_new_code_refused_is_said_beside_its_seat_s_button(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    referee = referee_page(phone, daemon, locale, viewport)
    renew = referee.locator(".code[data-seat='4'] button")
    renew.wait_for()
    deaf(referee)
    body = {"game": "cool-runnings", "seats": [1, 2], "replace": True}  # another referee page
    assert daemon.call("POST", "/api/games", daemon.referee, body).status == 201
    tap_twice(renew)
    said_beside(renew, as_said(locale, not_playing(4, [1, 2])))

    redrawn(referee, "#join .code")  # seat 4's code is gone: its refusal stays where it was
    note = referee.locator("#join .refusal")
    assert note.inner_text() == as_said(locale, not_playing(4, [1, 2]))
    assert on_screen(note)


@places
def test_an_export_refused_is_said_beside_it_and_goes_when_an_export_goes_through(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-am-pool"})
    referee = referee_page(phone, daemon, locale, viewport)
    export = referee.locator("#running button", has_text=words(locale, "referee.export"))
    export.wait_for()
    referee.context.set_offline(True)  # the phone left the table's Wi-Fi
    export.click()
    note = said_beside(export, words(locale, "error.offline"))
    referee.context.set_offline(False)
    with referee.expect_download() as download:
        export.click()
    assert download.value.suggested_filename.startswith("companion-")
    note.wait_for(state="detached")


@places
def test_a_wrong_referee_token_is_said_beside_its_button(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    referee = phone(f"{daemon.url}/referee", locale=locale, viewport=viewport)
    referee.fill("#key-input", "not-the-token")
    use = referee.locator("#key-form button")
    use.click()
    said_beside(use, words(locale, "referee.token.wrong"))
    referee.fill("#key-input", daemon.referee)
    use.click()
    referee.locator("#key").wait_for(state="hidden")
    assert referee.locator("#key-form .refusal").count() == 0
