"""Tonight's games on the pages, in a real browser against a daemon: the referee page lists the
evening's finished games, newest first, with their winners and exports, and checks one by the
replay ``companion verify`` runs; the table page says who won what tonight while no game is
running. In English and German, on a phone and a tablet. Without chromium these are skipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Phone, needs_chromium, shot
from evening import play_evening

from bench.daemon import Daemon, start
from companion.web.language import catalogue

pytestmark = needs_chromium

LANGUAGES = [("en-GB", "en"), ("de-DE", "de")]
SIZES = {"phone": PHONE, "tablet": TABLET}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daemon, list[Any]]]:
    """A daemon after an evening of games (the last ended early: no game is running), and its
    history's games."""
    daemon = start(Path(tmp_path_factory.mktemp("evening")))
    try:
        yield daemon, play_evening(daemon)
    finally:
        daemon.stop()


def said(text: str | dict[str, str], n: int = 0, **names: Any) -> str:
    """A catalogue text as a page's ``t()`` says it (the plural form by ``n``)."""
    if isinstance(text, dict):
        text = text["one" if n == 1 else "other"]
    return text.format(n=n, **names)


@pytest.mark.parametrize(("locale", "lang"), LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_referee_page_lists_tonights_games_and_checks_one_in_words(
    evening: tuple[Daemon, list[Any]], phone: Phone, locale: str, lang: str, size: str
) -> None:
    daemon, games = evening
    words = catalogue(lang)
    page = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale, viewport=SIZES[size])
    listed = page.locator("#tonight li.finished")
    listed.nth(len(games) - 1).wait_for()
    assert listed.count() == len(games) == 4
    assert [int(n) for n in listed.evaluate_all("li => li.map(l => l.dataset.game)")] == [
        g["id"] for g in games
    ]
    ended, won = listed.nth(0), listed.nth(1)
    assert words["history.ended"] in ended.inner_text()
    names = {s["seat"]: s["name"] for s in games[1]["seats"]}
    assert said(words["history.won"], name=names[games[1]["winner"]]) in won.inner_text()
    assert won.locator("a.export-link").get_attribute("href") == games[1]["export"]
    won.get_by_role("button", name=words["history.check"]).click()
    honest = won.locator(".verdict .honest")
    honest.wait_for()
    assert honest.inner_text() == words["history.honest"]
    won.locator(".verdict summary").click()
    first_check = won.locator(".verdict li").first.inner_text()
    assert first_check.startswith("Fingerabdruck" if lang == "de" else "commitment")
    shot(page, f"referee-tonight-{lang}-{size}")


@pytest.mark.parametrize(("locale", "lang"), LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_table_page_says_who_won_tonight_while_no_game_is_running(
    evening: tuple[Daemon, list[Any]], phone: Phone, locale: str, lang: str, size: str
) -> None:
    daemon, _ = evening
    words = catalogue(lang)
    standings = daemon.call("GET", "/api/standings").body
    winners = [p for p in standings["players"] if p["won"]]
    assert winners, "Daddy Cool always has a winner"
    line = said(
        words["tonight"],
        players=", ".join(said(words["tonight.player"], p["won"], name=p["name"]) for p in winners),
    )
    assert {p["name"] for p in standings["players"]} == {"Jürgen", "Mia", "Oma", "Seat 2"}
    page = phone(f"{daemon.url}/", locale=locale, viewport=SIZES[size])
    page.locator("#game .tonight").filter(has_text=line).wait_for()
    assert page.locator("#game .tonight").inner_text() == line
    shot(page, f"table-tonight-{lang}-{size}")


def test_the_tonight_line_goes_while_a_game_is_played_and_comes_back_after(
    evening: tuple[Daemon, list[Any]], phone: Phone
) -> None:
    daemon, _ = evening
    page = phone(f"{daemon.url}/")
    tonight = page.locator("#game .tonight")
    tonight.wait_for()
    body = {"game": "ice-trays", "seats": [1, 2], "replace": True}
    assert daemon.call("POST", "/api/games", daemon.referee, body).status == 201
    tonight.wait_for(state="detached")
    assert daemon.call("POST", "/api/games/end", daemon.referee, {}).status == 200
    tonight.wait_for()
