"""A phones-only table in a real browser: every game plays to its end through the pages of a
laptop's table without probes or pads, which show no grams, no weigh-in and no sensor trouble,
only that each seat says when its cube has melted; given the room's air, a seat's countdown is
marked as resting on the air alone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Page, Phone, needs_chromium, shot
from served_here import Here, start_here
from test_web_scores import pool_move, said

from bench.daemon import Served, start
from companion.games import GAMES

pytestmark = needs_chromium

MOVES = 3000


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Here]:
    running = start_here(tmp_path_factory.mktemp("phones"), "--no-sensors", simulate=False)
    yield running
    running.stop()


def move(daemon: Served, tokens: dict[str, str], rnd: random.Random) -> bool:
    """One legal action of a seat that has one, at random (but the melted cube, which ends the
    race at once, and the water-ball chip); whether one was taken."""
    offered = []
    for token in tokens.values():
        view = daemon.call("GET", "/api/view", token).body
        if view["game"] == "cool-am-pool" and view["legal_actions"]:
            return daemon.call("POST", "/api/actions", token, pool_move(view, rnd)).status == 200
        offered += [(token, a) for a in view["legal_actions"] if a["type"] != "melted"]
    if not offered:
        return False
    token, action = rnd.choice(offered)
    return daemon.call("POST", "/api/actions", token, action).status == 200


def no_sensor_figures(page: Page, locale: str) -> None:
    """Nothing on ``page`` that a table without probes or pads cannot know."""
    assert page.locator(".gauge, .curve, .ice-air, .air, .fault, .weigh-in").count() == 0
    text = page.locator("body").inner_text()
    assert " g ±" not in text and said(locale, "ice.unknown") not in text


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_each_game_plays_to_its_end_on_a_phones_only_table(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    body: dict[str, Any] = {"game": game, "seats": [1, 2], "replace": True}
    if game == "cool-runnings":
        body["options"] = {"count_pace_s": 0.2}
    tokens = daemon.seated(daemon.call("POST", "/api/games", daemon.referee, body))
    table = phone(f"{daemon.url}/", locale=locale, viewport=TABLET)
    seat = phone(
        f"{daemon.url}/seat",
        locale=locale,
        viewport=PHONE,
        before=f"sessionStorage.setItem('companion.seat', '{tokens['2']}')",
    )
    seat.locator("#who h2").wait_for()
    uses_ice = daemon.call("GET", "/api/status").body["game"]["ice"]
    if uses_ice:
        table.locator(".seat-card .ice-none").first.wait_for()
        assert table.locator(".seat-card .ice-none").first.inner_text() == said(
            locale, "ice.no_pad"
        )
        seat.locator("#mine .ice-none").wait_for()
    rnd = random.Random(game)
    for n in range(MOVES):
        game_now = daemon.call("GET", "/api/status").body["game"]
        if game_now["over"]:
            break
        if game == "cool-runnings" and n == 10:  # the race ends as it does without scales
            seat.get_by_role("button", name=said(locale, "melted.mine")).click()
            seat.get_by_role("button", name=said(locale, "confirm.again")).click()
            seat.locator(".turn", has_text=said(locale, "outcome.winner", name="")).wait_for()
            continue
        if not move(daemon, tokens, rnd):
            table.wait_for_timeout(100)  # a count under way: the table finishes it
    status = daemon.call("GET", "/api/status").body
    assert status["game"]["over"], f"{game} did not end in {MOVES} moves"
    if game == "cool-runnings":  # the cube said to have melted ended it
        assert status["game"]["view"]["winner"] == 1, status["game"]["view"]
    assert all(s["ice"] is None and s["weigh_in"] is None for s in status["seats"])
    table.locator("#link[data-state=live]").wait_for()
    seat.locator("#link[data-state=live]").wait_for()
    for page in (table, seat):
        no_sensor_figures(page, locale)
    shot(table, f"phones-only-{game}-{locale[:2]}")


def test_given_the_room_s_air_a_seat_counts_down_marked_as_from_the_air_alone(
    tmp_path: Path, phone: Phone
) -> None:
    warm = start(tmp_path, "--no-sensors", "--air-c", "24", simulate=False)
    try:
        warm.call("POST", "/api/games", warm.referee, {"game": "cool-runnings"})
        for locale in ("en-GB", "de-DE"):
            table = phone(f"{warm.url}/", locale=locale, viewport=TABLET)
            countdown = table.locator('.seat-card[data-seat="1"] .ice-air')
            countdown.wait_for()
            words = countdown.inner_text()
            marked = said(locale, "ice.air", time="", soonest="", latest="").split(":")[0]
            assert marked.split(",")[-1].strip() in words, words
            assert table.locator(".gauge, .curve, .weigh-in").count() == 0
            shot(table, f"phones-only-air-{locale[:2]}")
    finally:
        warm.stop()


def test_a_seat_out_shows_no_countdown_and_none_shows_once_the_game_is_over(
    tmp_path: Path, phone: Phone
) -> None:
    """The countdown from the air is a guess about a cube in play: a seat whose cube has melted
    is out on every page, the referee's list of the ice leaves it out, and no countdown stays
    once the race is over."""
    warm = start(tmp_path, "--no-sensors", "--air-c", "24", simulate=False)
    try:
        started = warm.call(
            "POST", "/api/games", warm.referee, {"game": "cool-runnings", "seats": [1, 2, 3]}
        )
        tokens = warm.seated(started)
        table = phone(f"{warm.url}/", viewport=TABLET)
        referee = phone(f"{warm.url}/referee#{warm.referee}")
        referee.locator('#ice .ice-row[data-seat="3"] .ice-air').wait_for()

        def melts(seat: str) -> None:
            view = warm.call("GET", "/api/view", tokens[seat]).body
            action = next(a for a in view["legal_actions"] if a["type"] == "melted")
            assert warm.call("POST", "/api/actions", tokens[seat], action).status == 200

        melts("3")
        table.locator('.seat-card[data-seat="3"] .out').wait_for()
        referee.locator('#ice .ice-row[data-seat="3"]').wait_for(state="detached")
        assert table.locator('.seat-card[data-seat="3"] .ice-air').count() == 0
        assert referee.locator("#ice .ice-row").count() == 2
        melts("2")  # Karen has the last cube standing: the race is over
        table.locator('.seat-card[data-seat="2"] .out').wait_for()
        table.locator(".ice-air").first.wait_for(state="detached")
        assert table.locator('.seat-card[data-seat="3"] .out').is_visible()
        shot(table, "phones-only-air-over")
    finally:
        warm.stop()


def test_before_any_game_the_table_page_says_nothing_of_scales(
    tmp_path: Path, phone: Phone
) -> None:
    idle = start(tmp_path, "--no-sensors", simulate=False)
    try:
        table = phone(f"{idle.url}/", viewport=TABLET)
        table.locator(".seat-card").first.wait_for()
        table.locator("#link[data-state=live]").wait_for()
        assert table.locator(".ice-none, .ice-air, .gauge").count() == 0
    finally:
        idle.stop()
