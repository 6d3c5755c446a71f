"""The three pages in a real browser: Debian's chromium, driven by playwright, against a daemon.

A Cool Runnings turn is played across two seat pages while the table page follows the stream:
an attack, a deflection, the hit, the ten-count on the table; then the referee ends the game.
The German page, the switch of language, and a lost connection are tried too. Screenshots go
to ``test-output/screenshots/``. Without chromium (or playwright) these tests are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from background import in_background
from browsing import Page, Phone, answered, needs_chromium, paused, shot, sync_api
from served_here import Here, start_here
from waiting import wait_until

from bench.daemon import Served, start
from companion import __version__
from companion.cli import run as run_command
from companion.cues.process import Held
from companion.table import cue_player
from companion.table.service import TableService
from companion.web.app import create_app
from companion.web.language import catalogue

TEN_COUNT = {"polish", "squeeze", "hot-breath"}
pytestmark = needs_chromium


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def start_from_referee_page(referee: Page, again: bool = False) -> None:
    """Fill the referee's form: Karen and Tom, Karen first, a quick count; and start."""
    if again:
        referee.click("#start summary")
    form = referee.locator("form.start-form")
    form.locator("input[name=name1]").fill("Karen")
    form.locator("input[name=name2]").fill("Tom")
    form.locator("input[name=plays3]").uncheck()
    form.locator("input[name=plays4]").uncheck()
    form.locator("select[name=first]").select_option("1")
    form.locator('input[name="cool-runnings:count_pace_s"]').fill("0.3")
    if again:
        form.locator("input[name=replace]").check()
    form.locator("button[type=submit]").click()


def links_on(referee: Page, before: list[str]) -> list[str]:
    """The seats' join links the referee page shows, once they differ from ``before``."""

    def new_links() -> list[str] | None:
        links: list[str] = referee.locator(".join-link").evaluate_all("as => as.map(a => a.href)")
        return links if len(links) == 2 and links != before else None

    return wait_until(
        new_links, every_s=0.1, what="new join codes on the referee page", pause=paused(referee)
    )


def token_of(page: Page, before: str | None = None) -> str:
    """The seat token a seat page was given for its link's claim, once it is not ``before``."""

    def new_token() -> str | None:
        try:
            token = page.evaluate("() => sessionStorage.getItem('companion.seat')")
        except sync_api.Error:  # the page reloads for its new link
            return None
        return str(token) if token and token != before else None

    return wait_until(new_token, every_s=0.1, what="a seat claimed", pause=paused(page))


def seat_phones(
    referee: Page, before: list[str], phones: list[Page]
) -> tuple[list[str], list[str]]:
    """The referee page's new join links opened on ``phones``: the links, and the tokens the
    pages claimed with them."""
    links = links_on(referee, before)
    kept = [page.evaluate("() => sessionStorage.getItem('companion.seat')") for page in phones]
    for page, link in zip(phones, links, strict=True):
        page.goto(link)
    return links, [token_of(page, old) for page, old in zip(phones, kept, strict=True)]


def deflection_plan(daemon: Served, tokens: list[str]) -> tuple[int, str] | None:
    """A card in Karen's hand with a ten-count attack that Tom can deflect: its place in her
    hand and the attack's name; ``None`` when this deal has none."""
    karen, tom = (daemon.call("GET", "/api/view", token).body for token in tokens)
    pictures = {card["attack"] for card in tom["hand"]}
    for i, card in enumerate(karen["hand"]):
        if card["attack"] in TEN_COUNT and card["attack"] in pictures:
            return i, card["name"]
    return None


def test_a_cool_runnings_turn_with_a_deflection_and_a_count(daemon: Served, phone: Phone) -> None:
    referee = phone(f"{daemon.url}/referee#{daemon.referee}")
    shot(referee, "referee-start")
    start_from_referee_page(referee)
    referee.locator(".code svg").nth(1).wait_for()
    assert referee.locator(".code svg").count() == 2
    shot(referee, "referee-codes")
    karen, tom = phone(f"{daemon.url}/seat"), phone(f"{daemon.url}/seat")
    links, tokens = seat_phones(referee, [], [karen, tom])
    plan = deflection_plan(daemon, tokens)
    for _ in range(30):
        if plan is not None:
            break
        start_from_referee_page(referee, again=True)
        links, tokens = seat_phones(referee, links, [karen, tom])
        plan = deflection_plan(daemon, tokens)
    assert plan is not None, "no deal in 30 gave Tom a card to deflect with"
    place, attack = plan
    referee.locator(".code.joined").nth(1).wait_for()
    assert referee.locator(".code svg").count() == 0, "a claimed seat's code is still shown"

    table = phone(f"{daemon.url}/")
    assert "#" not in karen.url, "the claim stays in the address bar"
    karen.locator("#who").get_by_text("Your turn!").wait_for()
    shot(karen, "seat-karen-hand")

    karen.locator(".cards .card").nth(place).click()
    karen.locator(".choice .choices").first.get_by_role("button", name="Tom").click()
    attack_line = table.locator("#game .attack")
    attack_line.filter(has_text=f"{attack}: Karen → Tom").wait_for()

    prompt = tom.locator("#prompt")
    prompt.get_by_text(f"You are attacked: {attack}!").wait_for()
    shot(tom, "seat-tom-deflect")
    prompt.locator(".choices").first.get_by_role("button", name="Karen").click()
    attack_line.filter(has_text=f"{attack}: Karen → Tom → Karen").wait_for()

    karen.locator("#prompt").get_by_role("button", name="Take the hit").click()
    count = table.locator("#count")
    count.locator(".count-number").filter(has_text=re.compile(r"^[2-9]$")).wait_for()
    assert count.locator(".count-bar .lit").count() >= 2
    assert "ice cube" in count.locator(".count-words").inner_text()
    shot(table, "table-ten-count")

    tom.locator("#who").get_by_text("Your turn!").wait_for()
    assert count.is_hidden()
    shot(table, "table-after-the-turn")

    referee.get_by_role("button", name="End the game").click()
    referee.get_by_role("button", name="Sure? Tap again").click()
    table.get_by_text("The referee ended the game.").wait_for()
    assert table.get_by_role("link", name="Download the game's export").is_visible()
    karen.locator("#who").get_by_text("The referee ended the game.").wait_for()

    again = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"}).body
    karen.goto(f"{daemon.url}/seat#claim={again['seat_claims']['1']}")  # the same tab: a fragment
    karen.locator("#who").get_by_text("Daddy Cool").wait_for()


def test_the_pages_speak_german_and_the_switch_is_kept(daemon: Served, phone: Phone) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    table = phone(f"{daemon.url}/", locale="de-DE")
    assert table.locator("h1").inner_text() == "Der Tisch"
    table.get_by_text("Am Zug:").wait_for()
    words = table.locator(".seat-card .ice-words").first
    words.wait_for()
    assert "Luft" in table.locator(".seat-card .air").first.inner_text()
    assert re.search(r"lernt noch .*: weg in .+ bis .+", words.inner_text()), words.inner_text()
    shot(table, "table-de")
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale="de-DE")
    referee.get_by_text("Ein anderes Spiel starten").click()
    referee.locator("form.start-form button[type=submit]").wait_for()
    shot(referee, "referee-de")
    table.get_by_role("link", name="EN").click()
    table.locator("h1").filter(has_text="The table").wait_for()
    table.goto(f"{daemon.url}/")
    assert table.locator("h1").inner_text() == "The table"


def test_a_lost_connection_shows_and_mends_itself(tmp_path: Path, phone: Phone) -> None:
    daemon = start(tmp_path)
    try:
        answer = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
        port = int(daemon.url.rsplit(":", 1)[1])
        seat = phone(f"{daemon.url}/seat#claim={answer.body['seat_claims']['2']}")
        seat.locator(".cards .card").first.wait_for()
        link = seat.locator("#link")
        assert link.get_attribute("data-state") == "live"
        daemon.kill()
        seat.locator("#link[data-state=lost]").wait_for()
        shot(seat, "seat-connection-lost")
        daemon = start(tmp_path, port=port)
        seat.locator("#link[data-state=live]").wait_for(timeout=40000)
        seat.reload()
        seat.locator(".cards .card").first.wait_for()
        assert "Seat 2" in seat.locator("#who h2").inner_text()
    finally:
        daemon.stop()


def take_a_move(page: Page) -> None:
    """The first move a seat page offers: a lounger on the board (then its button), the dice to
    set aside (one, then its button), or the first button."""
    page.locator("#actions button, #board .pickable").first.wait_for()
    pickable = page.locator("#board .pickable")
    dice = page.locator("#actions .die-pick:enabled")
    if pickable.count():
        pickable.first.click()
        page.locator(".lounger-choice button").first.click()
    elif dice.count():
        dice.first.click()
        page.locator(".dice-pick .choices button").click()
    else:
        page.locator("#actions .choices button").first.click()


@pytest.mark.parametrize("game", ["cool-am-pool", "ice-trays", "daddy-cool"])
def test_a_dice_game_is_played_from_the_seat_pages(daemon: Served, phone: Phone, game: str) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": game, "seats": [1, 2]})
    claims = started.body["seat_claims"]
    table = phone(f"{daemon.url}/")
    seats = {int(s): phone(f"{daemon.url}/seat#claim={claim}") for s, claim in claims.items()}
    table.locator("#board svg").first.wait_for()
    for move in range(1, 9):
        game_now = daemon.call("GET", "/api/status").body["game"]
        page = seats[game_now["turn_seat"]]
        if game_now["over"]:  # fresh dice each game: one lucky run can win Daddy Cool early
            # the told list may say it too; the winner's own phone says "You win!"
            page.locator(".turn", has_text=re.compile("wins!|You win!")).wait_for()
            break
        take_a_move(page)
        answered(daemon, page, move)
        if page.locator("#actions .odds").count():
            shot(page, f"seat-{game}-odds")
    status = daemon.call("GET", "/api/status").body["game"]
    assert status["over"] or status["actions"] == 8, status  # every move taken on a seat page
    shot(seats[1], f"seat-{game}")
    shot(table, f"table-{game}")


def test_a_seat_given_a_new_code_moves_to_the_phone_that_scans_it(
    daemon: Served, phone: Phone
) -> None:
    """A lost phone: the referee gives its seat a new code, the old phone is told it holds no
    seat, the code shows again on the referee's page and the new phone takes the seat."""
    daemon.call("POST", "/api/games", daemon.referee, {"game": "ice-trays", "seats": [1, 2]})
    referee = phone(f"{daemon.url}/referee#{daemon.referee}")
    links = links_on(referee, [])
    lost = phone(links[1])
    lost.locator("#who").get_by_text("Seat 2").wait_for()
    code = referee.locator(".code[data-seat='2']")
    code.locator(".joined").wait_for()
    assert code.locator("svg").count() == 0
    code.get_by_role("button", name="new code").click()
    code.get_by_role("button", name="Sure? Tap again").click()
    lost.get_by_text("This phone holds no seat now").wait_for()
    code.locator("svg").wait_for()
    found = phone(code.locator(".join-link").get_attribute("href") or "")
    found.locator("#who").get_by_text("Seat 2").wait_for()
    again = phone(links[1])
    again.get_by_text("This code was used already").wait_for()
    shot(referee, "referee-new-code")


def test_a_fresh_cube_shows_its_countdown_as_a_range_still_learning(
    daemon: Served, phone: Phone
) -> None:
    """Before the weigh-ins have taught the table its cubes' h, a countdown is a wide range,
    and the page says it is still learning; the seat sees its own."""
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    table = phone(f"{daemon.url}/")
    words = table.locator(".seat-card .ice-words").first
    words.wait_for()
    text = words.inner_text()
    assert re.search(r"still learning .*: gone in .+ to .+", text), text
    ice = daemon.call("GET", "/api/status").body["seats"][0]["ice"]
    soonest, latest = ice["eta_range_s"]
    assert ice["learning"] and soonest < ice["eta_s"] < latest and latest > 2 * soonest
    seat = phone(f"{daemon.url}/seat#claim={started.body['seat_claims']['1']}")
    seat.locator(".ice-words").filter(has_text="gone in").first.wait_for()


def test_the_pages_show_who_is_asked_to_weigh_in(tmp_path: Path, phone: Phone) -> None:
    """A cube set out is weighed in first: the table page says which seats are asked, and the
    seat page tells its player what to do (the simulated players obey 3 game seconds later,
    so the table runs at a tenth of real time to give the pages the moment to show it)."""
    slow = start(tmp_path, "--speed", "0.1")
    try:
        table = phone(f"{slow.url}/")
        table.locator("h1").wait_for()
        started = slow.call("POST", "/api/games", slow.referee, {"game": "cool-runnings"})
        seat = phone(f"{slow.url}/seat#claim={started.body['seat_claims']['1']}", locale="de-DE")
        table.locator(".seat-card .air").filter(has_text="weigh-in asked").first.wait_for()
        seat.get_by_text("Wiegen: Stell deine Kappe").wait_for()
        asked = [s["weigh_in"] for s in slow.call("GET", "/api/status").body["seats"]]
        assert "requested" in asked, asked
    finally:
        slow.stop()


def test_a_table_with_its_own_network_shows_how_to_join_it(
    tmp_path: Path, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table away from any Wi-Fi: the table page shows its network's QR code with the name
    and password, then its own address's (a fake nmcli stands for NetworkManager)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "nmcli").write_text('#!/bin/sh\ncase "$*" in *IP4*) echo 10.42.0.1/24;; esac\n')
    (folder / "nmcli").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    config = tmp_path / "table.toml"
    config.write_text(
        '[sensors]\nthermometers = "sim"\nscales = "sim"\n[network]\nhotspot = true\n'
    )
    daemon = start(tmp_path / "state", "--config", str(config))
    try:
        table = phone(f"{daemon.url}/")
        network = table.locator("#network")
        network.get_by_text("Join the Wi-Fi companion-table (password").wait_for()
        assert network.locator("svg").count() == 2
        shot(table, "table-hotspot")
        german = phone(f"{daemon.url}/", locale="de-DE")
        german.locator("#network").get_by_text("Ins WLAN companion-table").wait_for()
    finally:
        daemon.stop()


def test_a_held_seat_1_button_shows_the_referee_s_code_on_the_table_page(
    table: TableService, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hold comes from the cue child's pins (its own test drives gpiozero's mock pins); here
    the table hears it as the child sends it, and the table page shows the code, then not."""
    monkeypatch.setattr(cue_player, "REFEREE_CODE_S", 3.0)
    server = run_command.make_server(create_app(table), "127.0.0.1", 0)
    with in_background(server) as port:
        page = phone(f"http://127.0.0.1:{port}/")
        page.locator(".seat-card").first.wait_for()
        box = page.locator("#referee-code")
        assert box.is_hidden()
        table._cues.heard(Held(1))
        box.get_by_text("The referee's page").wait_for()
        assert box.locator("svg").count() == 1
        shot(page, "table-referee-code")
        box.wait_for(state="hidden", timeout=30_000)


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("de-DE", "de")])
def test_the_referee_page_says_which_companion_runs(
    daemon: Served, phone: Phone, locale: str, lang: str
) -> None:
    """In small print at its foot: the package's version and the commit it came from."""
    version = daemon.call("GET", "/api/setup").body["version"]
    assert version["package"] == __version__
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale)
    line = referee.locator("#version")
    line.wait_for()
    words = catalogue(lang)
    if "commit" in version:
        said = words["referee.version"].format(package=__version__, commit=version["commit"][:7])
    else:
        said = words["referee.version.package"].format(package=__version__)
    assert line.inner_text() == said
    assert line.evaluate("p => parseFloat(getComputedStyle(p).fontSize)") < 14
    line.scroll_into_view_if_needed()
    shot(referee, f"referee-version-{lang}")
