"""The small things a family tripped on at the table, each tried in a real browser: a confirm
that a live update disarmed, a note that outlived its cause, a choice below a small phone's
screen, a button too narrow for its words, a refusal out of sight, a marker over a piece.

Each runs against a daemon on the simulated table (whose sensors send a status every second or
so, the live updates a phone meets), at phone and tablet size, in English and German where
words are involved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import (
    PHONE,
    TABLET,
    TABLET_UPRIGHT,
    Page,
    Phone,
    answered,
    needs_chromium,
    paused,
    shot,
)
from served_here import Here, start_here
from test_web_pages_at_a_table import apart, moment, seat_page, shown, status_of, with_game
from waiting import wait_until

from bench.daemon import Served, start
from companion.games import GAMES
from companion.games.fair import FairRandom
from companion.games.messages import to_json
from companion.web.language import catalogue

pytestmark = needs_chromium

SMALL = {"width": 320, "height": 568}
"""The smallest phone a family brought."""
WIDE_PHONE = {"width": 390, "height": 844}
PLACES = [("en-GB", PHONE), ("de-DE", PHONE), ("en-GB", TABLET), ("de-DE", TABLET)]
PLACE_IDS = ["en-phone", "de-phone", "en-tablet", "de-tablet"]
LOCALES = ["en-GB", "de-DE"]


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def words(locale: str, key: str, **values: Any) -> str:
    return str(catalogue(locale[:2])[key]).format(**values)


def own_seat(phone: Phone, daemon: Served, token: str, **options: Any) -> Page:
    """A seat's page on its own phone, holding its token as a scanned link leaves it."""
    return phone(
        f"{daemon.url}/seat",
        before=f"sessionStorage.setItem('companion.seat', '{token}')",
        **options,
    )


def statuses_heard(page: Page) -> int:
    """How many status events the page's stream has delivered since it opened."""
    return int(page.evaluate("() => window.__heard ?? 0"))


COUNT_STATUSES = """
const Source = window.EventSource;
window.__heard = 0;
window.EventSource = class extends Source {
  constructor(...args) {
    super(...args);
    this.addEventListener("status", () => (window.__heard += 1));
  }
};
"""
"""An init script: counts each status the page's stream delivers (window.__heard)."""


@pytest.mark.parametrize(("locale", "viewport"), PLACES, ids=PLACE_IDS)
def test_my_cube_has_melted_confirms_at_a_normal_pace_through_live_updates(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    named = [(1, "Mia", "blue"), (2, "Tom", "yellow"), (3, "Oma", "green")]
    players = [{"seat": n, "name": name, "colour": colour} for n, name, colour in named]
    body = {"game": "cool-runnings", "seats": players}
    started = daemon.call("POST", "/api/games", daemon.referee, body)
    tokens = daemon.seated(started)
    page = own_seat(phone, daemon, tokens["2"], locale=locale, viewport=viewport)
    page.add_init_script(COUNT_STATUSES)
    page.reload()
    melted = page.locator("#mine button", has_text=words(locale, "melted.mine"))
    melted.click()
    armed = page.locator("#mine button[data-armed]")
    armed.wait_for()
    assert armed.inner_text() == words(locale, "confirm.again")
    heard = statuses_heard(page)
    wait_until(  # the table's live updates redraw the page meanwhile
        lambda: statuses_heard(page) > heard,
        every_s=0.05,
        what="a live update while the button was armed",
        pause=paused(page),
    )
    page.wait_for_timeout(300)
    armed.click()  # a second tap, more than a second after the first

    def seats_with_2_out() -> list[dict[str, Any]] | None:
        seats: list[dict[str, Any]] = daemon.call("GET", "/api/status").body["game"]["view"][
            "seats"
        ]
        return seats if next(s for s in seats if s["seat"] == 2)["in_game"] is False else None

    playing = wait_until(
        seats_with_2_out, every_s=0.05, what="the melted cube confirmed", pause=paused(page)
    )
    out = page.locator("#mine .out")
    out.wait_for()
    others = [s["name"] for s in playing if s["seat"] != 2 and s["in_game"]]
    assert others == ["Mia", "Oma"]
    both = {"en": "Mia and Oma", "de": "Mia und Oma"}[locale[:2]]  # Intl.ListFormat's list
    assert out.inner_text() == words(locale, "seat.out", others=both)
    assert page.locator("#hand .cards").count() == 0, "an out seat shows no empty hand"
    shot(page, f"seat-out-{locale[:2]}-{viewport['width']}")


def test_an_armed_button_disarms_after_its_three_seconds(daemon: Served, phone: Phone) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    page = own_seat(phone, daemon, daemon.seated(started)["1"])
    page.locator("#mine button").click()
    page.locator("#mine button[data-armed]").wait_for()
    page.wait_for_timeout(3300)
    assert page.locator("#mine button[data-armed]").count() == 0


def test_the_note_that_the_table_is_away_goes_when_the_table_is_back(
    phone: Phone, tmp_path: Path
) -> None:
    daemon = start(tmp_path)  # a daemon's process of its own: the power cut kills it
    try:
        started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
        tokens = daemon.seated(started)
        turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
        page = own_seat(phone, daemon, tokens[turn])
        roll = page.locator("#actions .choices button").first
        roll.wait_for()
        page.locator("#link[data-state=live]").wait_for()
        daemon.kill()  # a power cut at the table
        page.locator("#link[data-state=lost]").wait_for()
        roll.click()
        note = page.locator("#error")
        note.wait_for()
        assert note.inner_text() == words("en", "error.offline")
        daemon = start(tmp_path, port=int(daemon.url.rsplit(":", 1)[1]))
        page.locator("#link[data-state=live]").wait_for(timeout=40000)
        note.wait_for(state="hidden")
    finally:
        daemon.stop()


def test_a_phone_that_missed_its_view_while_offline_asks_again_once_it_is_back(
    daemon: Served, phone: Phone
) -> None:
    """The stream told the phone of a change while it could not fetch its view (a Wi-Fi blip):
    back online, it asks again by itself, with no other change at the table to prompt it."""
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    tokens = daemon.seated(started)
    turn = daemon.call("GET", "/api/status").body["game"]["turn_seat"]
    page = own_seat(phone, daemon, tokens[str(turn)])
    page.locator("#actions .choices button").first.wait_for()
    page.locator("#link[data-state=live]").wait_for()
    page.context.set_offline(True)
    roll = next(
        a
        for a in daemon.call("GET", "/api/view", tokens[str(turn)]).body["legal_actions"]
        if a["type"] == "daddy-roll"
    )
    assert daemon.call("POST", "/api/actions", tokens[str(turn)], roll).status == 200
    note = page.locator("#error")
    note.wait_for(timeout=20000)  # the view it was told to fetch did not come
    page.context.set_offline(False)
    rolled = daemon.call("GET", "/api/status").body["game"]["told"][-1]["en"]
    page.locator("#told li", has_text=rolled).first.wait_for(timeout=20000)
    note.wait_for(state="hidden", timeout=20000)


def test_a_referee_page_that_missed_its_view_while_offline_asks_again_once_it_is_back(
    daemon: Served, phone: Phone
) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    tokens = daemon.seated(started)
    turn = daemon.call("GET", "/api/status").body["game"]["turn_seat"]
    page = phone(f"{daemon.url}/referee#{daemon.referee}")
    take_back = page.get_by_role("button", name=words("en", "referee.take_back"))
    page.locator("#running h2").wait_for()
    page.locator("#link[data-state=live]").wait_for()
    assert take_back.count() == 0, "nothing to take back yet"
    page.context.set_offline(True)
    view = daemon.call("GET", "/api/view", tokens[str(turn)]).body
    roll = next(a for a in view["legal_actions"] if a["type"] == "daddy-roll")
    assert daemon.call("POST", "/api/actions", tokens[str(turn)], roll).status == 200
    page.locator("#error").wait_for(timeout=20000)  # the view it was told to fetch did not come
    page.context.set_offline(False)
    take_back.wait_for(timeout=20000)  # the roll, from the view asked again by itself
    page.locator("#error").wait_for(state="hidden", timeout=20000)


def first_answer_held_back(page: Page, url: str) -> list[tuple[Any, Any]]:
    """The first request ``page`` makes to ``url``, answered by the table at once but kept from
    the page (its route and answer, to fulfill later); the later ones go through."""
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(url, hold)
    return held


def test_the_referee_s_codes_show_the_latest_joins_when_two_answers_cross(
    daemon: Served, phone: Phone
) -> None:
    """The codes are asked for again on each join; an answer that comes back after a later
    one (a Wi-Fi blip, a busy table) must not draw its seats as not joined yet."""
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "cool-runnings", "seats": [1, 2]}
    )
    page = phone(f"{daemon.url}/referee#{daemon.referee}", goto=False)
    held = first_answer_held_back(page, "**/api/join")
    page.goto(f"{daemon.url}/referee#{daemon.referee}")
    wait_until(lambda: held, what="the page asking for the codes", pause=paused(page))
    daemon.seated(started)
    joined = page.locator("#join .code.joined")
    wait_until(lambda: joined.count() == 2, what="both seats drawn as joined", pause=paused(page))
    route, answer = held[0]
    with page.expect_response("**/api/join"):
        route.fulfill(response=answer)
    page.wait_for_timeout(500)  # what the page does with the old answer
    assert joined.count() == 2
    assert page.locator("#join .join-link").count() == 0


def test_the_referee_s_list_of_tonight_keeps_the_game_just_ended_when_two_answers_cross(
    daemon: Served, phone: Phone
) -> None:
    """Tonight's games are asked for again when a game ends; the answer asked before it ended,
    come back late, must not take the ended game off the list."""
    daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    page = phone(f"{daemon.url}/referee#{daemon.referee}", goto=False)
    held = first_answer_held_back(page, "**/api/history")
    page.goto(f"{daemon.url}/referee#{daemon.referee}")
    wait_until(lambda: held, what="the page asking for tonight's games", pause=paused(page))
    assert daemon.call("POST", "/api/games/end", daemon.referee, {}).status == 200
    listed = page.locator("#tonight li.finished")
    listed.wait_for()
    route, answer = held[0]
    with page.expect_response("**/api/history"):
        route.fulfill(response=answer)
    page.wait_for_timeout(500)  # what the page does with the old answer
    assert listed.count() == 1


def may(game: str, *kinds: str) -> Callable[[Any], bool]:
    """Whether the seat on turn may take an action of one of ``kinds`` (by class name)."""
    engine = GAMES[game]
    return lambda state: any(
        type(a).__name__ in kinds for a in engine.legal_actions(state, state.turn_seat)
    )


def turn_page(
    daemon: Served, phone: Phone, game: str, found: Callable[[Any], bool], **options: Any
) -> Page:
    """The seat page of the seat on turn at the first moment of random play where ``found``
    holds; ``options`` for the phone (its size, its language)."""
    engine = GAMES[game]
    status = status_of(daemon, game)
    state = moment(game, status, found)
    view = engine.view(state, state.turn_seat)
    status = with_game(status, game, engine.view(state, "public"))
    return seat_page(lambda url, **o: phone(url, **options, **o), daemon, status, view)


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("viewport", [SMALL, WIDE_PHONE], ids=["320", "390"])
def test_every_button_holds_its_words(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    sowing = may("ice-trays", "Sow")
    page = turn_page(daemon, phone, "ice-trays", sowing, locale=locale, viewport=viewport)
    page.locator("#actions .choices button").first.wait_for()
    spilled = page.evaluate(
        """() => [...document.querySelectorAll("button")]
          .filter((b) => b.scrollWidth > b.clientWidth + 1
            || b.getBoundingClientRect().right > innerWidth)
          .map((b) => b.textContent)"""
    )
    assert spilled == []
    shot(page, f"seat-ice-trays-sow-{locale[:2]}-{viewport['width']}")


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly on the screen as the page is scrolled now."""
    return bool(
        page.evaluate(
            """(s) => { const r = document.querySelector(s).getBoundingClientRect();
              return r.top >= -1 && r.bottom <= innerHeight + 1; }""",
            selector,
        )
    )


AT_THE_FOOT = "(c) => c.scrollIntoView({ block: 'end' })"
"""A thumb at the screen's foot: the control scrolled to the bottom of the screen."""


SMOOTH = "no-preference"
"""A phone as most are set: what a tap opens below the screen scrolls into view smoothly."""


def comes_into_view(page: Page, selector: str, what: str) -> None:
    """Wait for the element to be wholly on the screen (a smooth scroll), failing with ``what``."""
    wait_until(
        lambda: in_view(page, selector), timeout_s=3, every_s=0.1, what=what, pause=paused(page)
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_a_card_tapped_on_a_small_phone_brings_its_choice_into_view(
    daemon: Served, phone: Phone, locale: str
) -> None:
    attacking = may("cool-runnings", "PlayAttack")
    page = turn_page(
        daemon, phone, "cool-runnings", attacking, locale=locale, viewport=SMALL, motion=SMOOTH
    )
    card = page.locator("#hand .card:not([disabled])").last
    card.evaluate(AT_THE_FOOT)
    card.click()
    page.locator("#hand .choice").wait_for()
    comes_into_view(page, "#hand .choice .choices", "whom? on the screen")
    shot(page, f"seat-cool-runnings-choice-{locale[:2]}-320")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_lounger_tapped_on_a_small_phone_brings_its_choice_into_view(
    daemon: Served, phone: Phone, locale: str
) -> None:
    taking = may("cool-am-pool", "Occupy", "PlaceTowel")
    page = turn_page(
        daemon, phone, "cool-am-pool", taking, locale=locale, viewport=SMALL, motion=SMOOTH
    )
    lounger = page.locator("#board .pickable").first
    lounger.evaluate(AT_THE_FOOT)
    lounger.click()
    page.locator(".lounger-choice").wait_for()
    comes_into_view(page, ".lounger-choice button", "the lounger's button on the screen")


def test_a_phone_set_to_reduce_motion_is_brought_to_the_choice_at_once(
    daemon: Served, phone: Phone
) -> None:
    taking = may("cool-am-pool", "Occupy", "PlaceTowel")
    page = turn_page(daemon, phone, "cool-am-pool", taking, viewport=SMALL, motion="reduce")
    lounger = page.locator("#board .pickable").first
    lounger.evaluate(AT_THE_FOOT)
    lounger.click()
    page.locator(".lounger-choice").wait_for()
    assert in_view(page, ".lounger-choice button")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_die_tapped_on_a_small_phone_brings_its_button_into_view(
    daemon: Served, phone: Phone, locale: str
) -> None:
    engine = GAMES["cool-am-pool"]

    def picking(state: Any) -> bool:
        offered = engine.legal_actions(state, state.turn_seat)
        return any(type(a).__name__ == "SetAside" and a.dice for a in offered)

    page = turn_page(
        daemon, phone, "cool-am-pool", picking, locale=locale, viewport=SMALL, motion=SMOOTH
    )
    die = page.locator("#actions .die-pick:enabled").first
    die.evaluate(AT_THE_FOOT)
    die.click()
    comes_into_view(page, ".dice-pick .choices button", "the set-aside button on the screen")
    shot(page, f"seat-cool-am-pool-dice-{locale[:2]}-320")


ROLLED = bytes(32)
"""The seed of the rolls these tests make: the same roll every time."""


def roll_of(game: str, state: Any) -> Any:
    """The roll the seat on turn may make."""
    offered = GAMES[game].legal_actions(state, state.turn_seat)
    return next(a for a in offered if type(a).__name__ == "Roll")


def rolled(game: str, state: Any) -> Any:
    """``state`` once its seat on turn has rolled."""
    return GAMES[game].apply(state, roll_of(game, state), FairRandom(ROLLED))[0]


def rolls_to_a_choice(game: str) -> Callable[[Any], bool]:
    """Whether the seat on turn may roll, and after the roll has a choice to make, which fits a
    small phone's screen (a few buttons, or Cool am Pool's dice to pick)."""
    engine = GAMES[game]

    def found(state: Any) -> bool:
        if not may(game, "Roll")(state):
            return False
        after = rolled(game, state)
        if after.turn_seat != state.turn_seat:
            return False
        offered = [type(a).__name__ for a in engine.legal_actions(after, after.turn_seat)]
        if game == "cool-am-pool":
            return "SetAside" in offered and len(offered) > 1
        return 2 <= len(offered) <= 5

    return found


NEXT_CHOICE = {
    "ice-trays": "#actions .choices",
    "daddy-cool": "#actions .choices",
    "cool-am-pool": "#actions .dice-pick",
}
"""What a seat chooses from after its roll, on its page."""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", list(NEXT_CHOICE))
def test_a_roll_on_a_small_phone_brings_its_choices_into_view(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    engine = GAMES[game]
    status = status_of(daemon, game)
    state = moment(game, status, rolls_to_a_choice(game))
    seat = state.turn_seat
    status = with_game(status, game, engine.view(state, "public"))
    page = seat_page(
        lambda url, **o: phone(url, locale=locale, viewport=SMALL, **o),
        daemon,
        status,
        engine.view(state, seat),
    )
    after = engine.view(rolled(game, state), seat)
    page.route("**/api/actions", lambda route: route.fulfill(json=after))
    label = words(locale, f"do.{to_json(roll_of(game, state))['type']}")
    button = page.locator("#actions").get_by_role("button", name=label, exact=True)
    button.evaluate(AT_THE_FOOT)
    with page.expect_response("**/api/actions"):
        button.click()
    comes_into_view(page, NEXT_CHOICE[game], "the roll's choices on the screen")
    shot(page, f"seat-{game}-rolled-{locale[:2]}-320")


@pytest.mark.parametrize("game", ["cool-am-pool", "daddy-cool"])
@pytest.mark.parametrize(("locale", "viewport"), [("en-GB", SMALL), ("de-DE", SMALL), *PLACES[2:]])
def test_the_odds_take_one_line_until_tapped_and_stay_open(
    daemon: Served, phone: Phone, game: str, locale: str, viewport: dict[str, int]
) -> None:
    engine = GAMES[game]

    def with_odds(state: Any) -> bool:
        return bool(engine.view(state, state.turn_seat).get("odds"))

    page = turn_page(daemon, phone, game, with_odds, viewport=viewport, locale=locale)
    odds = page.locator("#actions details.odds")
    odds.wait_for()
    assert odds.bounding_box()["height"] < 60
    assert not odds.locator("dl").is_visible()
    odds.locator("summary").click()
    odds.locator("dl").wait_for()
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # the stream opened anew
    page.wait_for_timeout(500)
    assert odds.locator("dl").is_visible(), "an update closed the odds the player opened"


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_referee_s_start_refused_says_so_beside_the_button(
    daemon: Served, phone: Phone, locale: str
) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": "ice-trays"})
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale)
    referee.click("#start summary")
    go = referee.locator("form.start-form button[type=submit]")
    go.click()
    refusal = referee.locator("form.start-form .refusal")
    refusal.wait_for()
    assert refusal.inner_text() == words(locale, "start.replace.needed")
    assert in_view(referee, "form.start-form .refusal")
    assert referee.locator("#error").is_hidden()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_referee_s_next_game_form_stays_as_left_while_the_game_runs(
    daemon: Served, phone: Phone, locale: str
) -> None:
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "ice-trays", "seats": [1, 2]}
    )
    tokens = daemon.seated(started)
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale)
    running = referee.locator("#running p").first
    running.wait_for()
    before = running.inner_text()
    referee.click("#start summary")
    seed = referee.locator("form.start-form input[name=seed]")
    seed.fill("the next game's seed")
    turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
    action = daemon.call("GET", "/api/view", tokens[turn]).body["legal_actions"][0]
    assert daemon.call("POST", "/api/actions", tokens[turn], action).status == 200
    referee.wait_for_function(
        "before => document.querySelector('#running p').innerText !== before", arg=before
    )
    assert seed.is_visible(), "a seat's action closed the form the referee had opened"
    assert seed.input_value() == "the next game's seed"


@pytest.mark.parametrize(("locale", "viewport"), PLACES, ids=PLACE_IDS)
def test_the_referee_s_ice_bars_start_in_one_column(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    names = ["Jo", "Maximiliane", "Tom", "Oma Gertrud"]
    colours = ["blue", "yellow", "green", "pink"]
    seats = [{"seat": n, "name": names[n - 1], "colour": colours[n - 1]} for n in range(1, 5)]
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings", "seats": seats})
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale, viewport=viewport)
    gauges = referee.locator("#ice .gauge")
    gauges.nth(3).wait_for()
    lefts = {round(box["x"]) for box in (g.bounding_box() for g in gauges.all()) if box}
    assert len(lefts) == 1, lefts


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_fair_play_box_says_dealing_for_cards_and_dice_for_dice(
    daemon: Served, phone: Phone, locale: str
) -> None:
    for game, dealt in (("cool-runnings", "cards"), ("daddy-cool", "dice")):
        daemon.call("POST", "/api/games", daemon.referee, {"game": game, "replace": True})
        table = phone(f"{daemon.url}/", locale=locale, viewport=TABLET)
        summary = table.locator("#fair summary")
        summary.wait_for()
        assert summary.inner_text().startswith(words(locale, f"fair.title.{dealt}"))
        table.close()


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_daddy_cool_stands_clear_of_the_cubs_on_the_shore(
    daemon: Served, phone: Phone, viewport: dict[str, int]
) -> None:
    engine = GAMES["daddy-cool"]
    status = status_of(daemon, "daddy-cool")

    def near_the_shore(state: Any) -> bool:
        view = engine.view(state, "public")
        return 1 <= view["daddy_cool"] <= 4 and any(s["position"] == 0 for s in view["seats"])

    state = moment("daddy-cool", status, near_the_shore)
    table = phone(f"{daemon.url}/", viewport=viewport, goto=False)
    shown(table, with_game(status, "daddy-cool", engine.view(state, "public")))
    table.goto(f"{daemon.url}/")
    daddy = table.locator("#board .daddy")
    daddy.wait_for()
    marker = daddy.bounding_box()
    for piece in table.locator("#board g.piece").all():
        box = piece.bounding_box()
        assert apart(box, marker), f"Daddy Cool at {marker} covers a piece at {box}"


@pytest.mark.parametrize(("locale", "viewport"), PLACES, ids=PLACE_IDS)
def test_dice_tapped_stay_tapped_when_the_table_changes_around_them(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "cool-am-pool", "seats": [1, 2, 3]}
    )
    tokens = daemon.seated(started)
    rnd = random.Random(2)
    for _ in range(40):  # the towels laid, then a roll to set dice aside from
        turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
        legal = daemon.call("GET", "/api/view", tokens[turn]).body["legal_actions"]
        if any(a["type"] == "pool-set-aside" and a["dice"] for a in legal):
            break
        action = rnd.choice([a for a in legal if a["type"] != "pool-stop"])
        daemon.call("POST", "/api/actions", tokens[turn], action)
    else:
        raise AssertionError("no roll to set dice aside from")
    page = own_seat(phone, daemon, tokens[turn], locale=locale, viewport=viewport)
    die = page.locator("#actions .die-pick:enabled").first
    die.click()
    assert die.get_attribute("aria-pressed") == "true"
    other = next(s for s in tokens if s != turn)
    renewed = daemon.call("POST", "/api/join", daemon.referee, {"seat": int(other)})
    assert renewed.status == 200  # another seat's phone signed out: the page asks its view again
    page.wait_for_timeout(1500)
    assert page.locator("#actions .die-pick[aria-pressed=true]").count() == 1


@pytest.mark.parametrize(("locale", "viewport"), PLACES, ids=PLACE_IDS)
def test_a_card_chosen_stays_chosen_when_the_table_changes_around_it(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int]
) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    tokens = daemon.seated(started)
    turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
    page = own_seat(phone, daemon, tokens[turn], locale=locale, viewport=viewport)
    card = page.locator("#hand .card:not([disabled])").first
    card.click()
    page.locator("#hand .choice").wait_for()
    chosen = page.locator("#hand .card[aria-pressed=true]")
    assert chosen.count() == 1
    face = chosen.inner_text()
    others = [s for s in tokens if s != turn]
    renewed = daemon.call("POST", "/api/join", daemon.referee, {"seat": int(others[0])})
    assert renewed.status == 200  # another seat's phone signed out: the page asks its view again
    page.wait_for_timeout(1500)
    assert chosen.count() == 1, "a renewed code dropped the card the player chose"
    melted = next(  # another seat's cube gone: the game moves on around the card
        a
        for a in daemon.call("GET", "/api/view", daemon.referee).body["legal_actions"]
        if a["type"] == "melted" and str(a["seat"]) == others[1]
    )
    assert daemon.call("POST", "/api/actions", daemon.referee, melted).status == 200
    answered(daemon, page, 1)
    page.wait_for_timeout(1500)  # the page's view asked again and drawn
    assert chosen.count() == 1, "another seat's action dropped the card the player chose"
    assert chosen.inner_text() == face
    assert page.locator("#hand .choice .choices button").count() > 0


def test_a_stream_that_went_silent_is_opened_again_and_its_note_goes(
    phone: Phone, tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"  # a table with no sensors is quiet between moves
    config.write_text('[sensors]\nthermometers = "none"\nscales = "none"\n')
    daemon = start(tmp_path / "state", "--config", str(config), simulate=False)
    try:
        started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
        tokens = daemon.seated(started)
        turn = str(daemon.call("GET", "/api/status").body["game"]["turn_seat"])
        page = phone(
            f"{daemon.url}/seat",
            before=f"sessionStorage.setItem('companion.seat', '{tokens[turn]}')",
            goto=False,
        )
        page.clock.install()
        page.goto(f"{daemon.url}/seat")
        roll = page.locator("#actions .choices button").first
        roll.wait_for()
        page.context.set_offline(True)
        roll.click()
        note = page.locator("#error")
        note.wait_for()
        page.context.set_offline(False)
        page.clock.run_for(60_000)  # no status and no beat for longer than a page waits
        page.locator("#link[data-state=live]").wait_for()
        note.wait_for(state="hidden")
    finally:
        daemon.stop()


def test_a_seat_out_says_so_on_its_card_and_the_winner_s_phone_says_you_win(
    daemon: Served, phone: Phone
) -> None:
    seats = [1, 2, 3]
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "cool-runnings", "seats": seats}
    )
    tokens = daemon.seated(started)
    table = phone(f"{daemon.url}/", viewport=TABLET)
    winner = own_seat(phone, daemon, tokens["1"])
    for seat in (2, 3):
        melted = next(
            a
            for a in daemon.call("GET", "/api/view", daemon.referee).body["legal_actions"]
            if a["type"] == "melted" and a["seat"] == seat
        )
        assert daemon.call("POST", "/api/actions", daemon.referee, melted).status == 200
        if seat == 2:
            card = table.locator(".seat-card[data-seat='2']")
            card.locator(".out").wait_for()
            assert card.locator(".gauge").count() == 0, "an out seat's card shows no ice left"
    won = winner.locator("#who .turn", has_text=words("en", "outcome.you_win"))
    won.wait_for()


def test_a_phone_of_the_last_game_shows_nothing_of_it(daemon: Served, phone: Phone) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    page = own_seat(phone, daemon, daemon.seated(started)["1"])
    page.locator("#hand .card").first.wait_for()
    body = {"game": "ice-trays", "replace": True}
    assert daemon.call("POST", "/api/games", daemon.referee, body).status == 201
    page.get_by_text(words("en", "seat.stale")).wait_for()
    for part in ("#hand", "#mine", "#actions", "#told", "#board"):
        assert page.locator(part).inner_text().strip() == "", part


@pytest.mark.parametrize("viewport", [TABLET, TABLET_UPRIGHT], ids=["landscape", "portrait"])
@pytest.mark.parametrize("game", ["cool-runnings", "cool-am-pool", "ice-trays", "daddy-cool"])
def test_a_finished_game_s_table_page_fits_the_tablet(
    daemon: Served, phone: Phone, viewport: dict[str, int], game: str
) -> None:
    engine = GAMES[game]
    status = status_of(daemon, game)
    state = moment(game, status, lambda s: engine.outcome(s) is not None)
    over = with_game(status, game, engine.view(state, "public"))
    over["game"] |= {"over": True, "outcome": engine.outcome(state).to_json()}
    told = over["game"]["told"]  # the game's last few happenings, under its results
    over["game"]["told"] = [*told, *[told[-1]] * 3][: max(3, len(told))]
    table = phone(f"{daemon.url}/", viewport=viewport, goto=False)
    shown(table, over)
    table.goto(f"{daemon.url}/")
    table.locator("#fair summary a").wait_for()  # the export's link, on the fair-play line
    table.wait_for_timeout(300)
    shot(table, f"table-over-{game}-{viewport['width']}x{viewport['height']}")
    assert table.locator("#told li").count() >= 3, "the last few happenings are shown"
    height = table.evaluate("document.documentElement.scrollHeight")
    assert height <= viewport["height"], f"{height} px on a {viewport['height']} px screen"
