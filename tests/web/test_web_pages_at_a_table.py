"""The pages in a real browser, in moments a table meets but a test game rarely reaches in time.

The daemon serves the real pages, and a real game so that the status is real; the moment itself
(an attack nobody can deflect, two cards alike, a winner over the line) comes from the engine,
played at random until it happens, and is handed to the page in place of the table's own view
or status (playwright's ``route``). Every view is the engine's own, so the pages meet nothing
the table would not send.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, TABLET_UPRIGHT, Page, Phone, answered, needs_chromium, shot
from served_here import Here, start_here

from bench.daemon import Served
from companion.config import COUNT_PACE_S, parse_config
from companion.games import GAMES
from companion.games.fair import FairRandom
from companion.games.outcome import as_json
from companion.games.seats import SeatInfo
from companion.web.language import catalogue

pytestmark = needs_chromium

Moment = Callable[[Any], bool]
At = tuple[str, dict[str, int]]
"""A language (a browser's locale) and a screen size."""
EVERYWHERE = [("en-GB", PHONE), ("de-DE", PHONE), ("en-GB", TABLET), ("de-DE", TABLET)]


@pytest.fixture(params=EVERYWHERE, ids=["en-phone", "de-phone", "en-tablet", "de-tablet"])
def at(request: pytest.FixtureRequest) -> At:
    """Each test that takes it runs in English and German, on a phone and on a tablet."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def local(phone: Phone, at: At) -> Phone:
    """``phone``, in the test's language and size unless told otherwise."""
    locale, viewport = at

    def new(url: str, **options: Any) -> Page:
        return phone(url, **{"locale": locale, "viewport": viewport, **options})

    return new


def say(at: At, key: str, **values: Any) -> str:
    """The page's words for ``key`` in the test's language."""
    return str(catalogue(at[0][:2])[key]).format(**values)


def fixed_part(at: At, key: str) -> str:
    """The words of ``key`` that every button of it shows: "Set aside", "beiseitelegen"."""
    parts = say(at, key, lounger="\0", dice="\0").split("\0")
    return max((p.strip() for p in parts), key=len)


def called(at: At, seat: dict[str, Any]) -> str:
    """A seat's name as the page shows it: one nobody named is "Platz 2" in German."""
    unnamed = seat["name"] == f"Seat {seat['seat']}"
    return say(at, "seat.n", seat=seat["seat"]) if unnamed else str(seat["name"])


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def status_of(daemon: Served, game: str) -> dict[str, Any]:
    """The table's status with a game of ``game`` started on every seat."""
    daemon.call("POST", "/api/games", daemon.referee, {"game": game})
    return daemon.call("GET", "/api/status").body


def moment(game: str, status: dict[str, Any], found: Moment, seeds: int = 400) -> Any:
    """The first state of random play, over the table's seats, for which ``found`` holds."""
    engine = GAMES[game]
    seats = [SeatInfo(s["seat"], s["name"], s["colour"]) for s in status["seats"]]
    for seed in range(seeds):
        rnd, rng = random.Random(seed), FairRandom(seed.to_bytes(32, "big"))
        state, _ = engine.new_game({}, seats, rng)
        for _ in range(600):
            if found(state):
                return state
            if engine.outcome(state) is not None:
                break
            state, _ = engine.apply(state, engine.random_action(state, rnd), rng)
    raise AssertionError(f"no {game} game of {seeds} came to the moment")


def shown(page: Page, status: dict[str, Any], view: dict[str, Any] | None = None) -> None:
    """Give ``page`` this status on its stream, and ``view`` as its own view."""
    event = f"id: 1\nevent: status\ndata: {json.dumps(status)}\n\n"
    page.route(
        "**/api/stream*",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=event),
    )
    if view is not None:
        page.route("**/api/view", lambda route: route.fulfill(json=view))


def with_game(status: dict[str, Any], game: str, public: dict[str, Any]) -> dict[str, Any]:
    turn = public.get("turn_seat")
    changed = {**status["game"], "name": game, "view": public, "turn_seat": turn, "actions": 7}
    return {**status, "game": changed}


def seat_page(phone: Phone, daemon: Served, status: dict[str, Any], view: dict[str, Any]) -> Page:
    page = phone(
        f"{daemon.url}/seat", before="sessionStorage.setItem('companion.seat', 'x')", goto=False
    )
    shown(page, status, view)
    page.goto(f"{daemon.url}/seat")
    return page


def attacked(state: Any) -> bool:
    return state.phase == "deflect" and state.pending is not None


def test_an_attack_nobody_can_deflect_says_so_and_offers_only_the_hit(
    daemon: Served, local: Phone, at: At
) -> None:
    engine = GAMES["cool-runnings"]
    status = status_of(daemon, "cool-runnings")

    def cornered(state: Any) -> bool:
        if not attacked(state):
            return False
        kinds = {type(a).__name__ for a in engine.legal_actions(state, state.pending.target)}
        return kinds - {"Melted"} == {"TakeHit"}

    state = moment("cool-runnings", status, cornered)
    view = engine.view(state, state.pending.target)
    page = seat_page(local, daemon, status, view)
    prompt = page.locator("#prompt")
    prompt.get_by_text(say(at, "prompt.no_deflect")).wait_for()
    target = next(s["name"] for s in status["seats"] if s["seat"] == state.pending.target)
    assert say(at, "stage.deflect", target=target) not in prompt.inner_text()
    assert prompt.locator("button").all_inner_texts() == [say(at, "do.take-hit")]


def test_two_cards_alike_are_one_deflection(daemon: Served, local: Phone) -> None:
    engine = GAMES["cool-runnings"]
    status = status_of(daemon, "cool-runnings")

    def can_deflect(state: Any) -> bool:
        if not attacked(state):
            return False
        return any(
            type(a).__name__ == "Deflect" for a in engine.legal_actions(state, state.pending.target)
        )

    state = moment("cool-runnings", status, can_deflect)
    view = engine.view(state, state.pending.target)
    deflects = [a for a in view["legal_actions"] if a["type"] == "deflect"]
    card = next(c for c in view["hand"] if c["id"] == deflects[0]["card"])
    twin = {**card, "id": 999}  # the deck's second copy of the same card
    view["hand"].append(twin)
    view["legal_actions"] += [{**a, "card": 999} for a in deflects if a["card"] == card["id"]]
    faces = {
        (c["attack"], c["move"]) for c in view["hand"] if c["id"] in {a["card"] for a in deflects}
    }
    page = seat_page(local, daemon, status, view)
    titles = page.locator("#prompt .choice-title")
    titles.first.wait_for()
    assert titles.count() == len(faces)


def test_a_count_tells_its_round_only_in_the_guessing_game(
    daemon: Served, local: Phone, at: At
) -> None:
    engine = GAMES["cool-runnings"]
    status = status_of(daemon, "cool-runnings")
    for guessing in (False, True):

        def carrying(state: Any, guessing: bool = guessing) -> bool:
            p = state.pending
            return (
                state.phase == "carry-out"
                and p is not None
                and (p.attack == "guessing-game") == guessing
            )

        state = moment("cool-runnings", status, carrying)
        table = local(f"{daemon.url}/", goto=False)
        shown(table, with_game(status, "cool-runnings", engine.view(state, "public")))
        table.goto(f"{daemon.url}/")
        attack = table.locator("#game .attack")
        attack.wait_for()
        rounds = say(at, "stage.carry-out.round", carrier="A", target="B", round="#")
        assert rounds.endswith(" #).")
        word = rounds[rounds.rindex("(") : -len("#).")]  # "(round " or "(Runde "
        assert (word in attack.inner_text()) == guessing, attack.inner_text()


def test_the_winner_over_the_line_leaves_its_words_readable(
    daemon: Served, local: Phone, at: At
) -> None:
    engine = GAMES["cool-runnings"]
    status = status_of(daemon, "cool-runnings")

    def crossed(state: Any) -> bool:
        view = engine.view(state, "public")
        spaces = len(view["track"]["spaces"])
        return any((s["position"] or 0) > spaces for s in view["seats"])

    state = moment("cool-runnings", status, crossed)
    table = local(f"{daemon.url}/", goto=False)
    shown(table, with_game(status, "cool-runnings", engine.view(state, "public")))
    table.goto(f"{daemon.url}/")
    words = table.locator("#board svg text.area-name", has_text=say(at, "track.finish"))
    words.wait_for()
    box = words.bounding_box()
    for piece in table.locator("#board svg g.piece").all():
        other = piece.bounding_box()
        assert apart(other, box), f"a piece at {other} covers the words at {box}"


def apart(one: dict[str, float], other: dict[str, float]) -> bool:
    """Whether two boxes on the screen (playwright's bounding boxes) do not overlap."""
    return (
        one["x"] >= other["x"] + other["width"]
        or one["x"] + one["width"] <= other["x"]
        or one["y"] >= other["y"] + other["height"]
        or one["y"] + one["height"] <= other["y"]
    )


def test_the_referee_page_says_who_won(daemon: Served, local: Phone, at: At) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    tokens = daemon.seated(started)
    rnd = random.Random(3)
    while not daemon.call("GET", "/api/status").body["game"]["over"]:
        views = {s: daemon.call("GET", "/api/view", t).body for s, t in tokens.items()}
        seat, action = rnd.choice([(s, a) for s, v in views.items() for a in v["legal_actions"]])
        assert daemon.call("POST", "/api/actions", tokens[seat], action).status == 200
    game = daemon.call("GET", "/api/status").body["game"]
    winner = next(
        called(at, s) for s in game["view"]["seats"] if s["seat"] == game["outcome"]["winner"]
    )
    referee = local(f"{daemon.url}/referee#{daemon.referee}")
    said = referee.locator("#running p").first
    won = say(at, "outcome.winner", name=winner)
    said.get_by_text(won).wait_for()
    assert said.inner_text() == say(at, "referee.over", outcome=won, n=game["actions"])
    shot(referee, f"referee-over-{at[0][:2]}-{at[1]['width']}")


def test_every_colour_on_the_pool_board_has_a_mark_of_its_own(daemon: Served, phone: Phone) -> None:
    status_of(daemon, "cool-am-pool")
    for locale in ("en-GB", "de-DE"):
        table = phone(f"{daemon.url}/", locale=locale)
        marks = table.locator("#board .column-name")
        marks.first.wait_for()
        shown_marks = marks.evaluate_all("marks => marks.map((m) => m.textContent)")
        assert len(set(shown_marks)) == len(shown_marks) == 5
        assert "V" not in shown_marks
    for lang in ("en", "de"):  # a die's face is marked as its colour's column is
        texts = catalogue(lang)
        for colour in ("red", "yellow", "green", "blue", "purple", "pink", "orange"):
            assert texts[f"face.{colour}.mark"] == texts[f"colour.{colour}.mark"], (lang, colour)


def test_the_referee_s_form_and_the_table_config_take_one_range_of_pace(
    daemon: Served, local: Phone
) -> None:
    referee = local(f"{daemon.url}/referee#{daemon.referee}")
    pace = referee.locator('form.start-form input[name="cool-runnings:count_pace_s"]')
    pace.wait_for()
    low, high = COUNT_PACE_S
    assert (float(pace.get_attribute("min")), float(pace.get_attribute("max"))) == (low, high)
    for edge in (low, high):
        assert parse_config("table.toml", f"[cues]\npace_s = {edge}\n").cues.pace_s == edge


def test_a_dice_game_shows_no_sensor_and_the_ice_race_shows_them(
    daemon: Served, local: Phone
) -> None:
    colours = ["blue", "yellow", "green", "pink", "orange", "purple"]
    seats = [{"seat": n, "name": f"P{n}", "colour": colours[n - 1]} for n in range(1, 7)]
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "daddy-cool", "seats": seats}
    )
    assert started.status == 201, started.body
    table = local(f"{daemon.url}/")
    table.locator(".seat-card").nth(5).wait_for()
    assert table.locator(".seat-card").count() == 6
    assert table.locator(".seat-card .fault, .seat-card .air, .seat-card .gauge").count() == 0
    daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings", "replace": True})
    table.locator(".seat-card .air").first.wait_for()
    assert table.locator(".seat-card .air").count() == 4


def test_the_referee_sees_the_ice_and_confirms_only_what_the_table_proposes(
    daemon: Served, local: Phone, at: At
) -> None:
    status = status_of(daemon, "cool-runnings")
    referee = local(f"{daemon.url}/referee#{daemon.referee}")
    referee.locator("#ice .ice-row").nth(3).wait_for()
    assert referee.locator("#ice .ice-row .gauge, #ice .ice-row .ice-none").count() == 4
    referee.locator("#running details summary", has_text=say(at, "referee.melts")).wait_for()
    assert referee.get_by_text(say(at, "referee.melts.proposed")).count() == 0

    seats = [dict(s) for s in status["seats"]]
    seats[1]["ice"] = {**(seats[1]["ice"] or {}), "melted": True, "grams": 0.0, "sigma_g": 0.1}
    proposing = local(f"{daemon.url}/referee#{daemon.referee}", goto=False)
    shown(proposing, {**daemon.call("GET", "/api/status").body, "seats": seats})
    proposing.goto(f"{daemon.url}/referee#{daemon.referee}")
    proposing.get_by_text(say(at, "referee.melts.proposed")).wait_for()
    buttons = proposing.locator("#running > .choices").nth(1).locator("button")
    assert buttons.all_inner_texts() == [say(at, "referee.melted", seat=called(at, seats[1]))]
    shot(proposing, f"referee-melted-{at[0][:2]}-{at[1]['width']}")


def refused_while_loading(phone: Phone, url: str) -> list[tuple[int, str]]:
    """The answers of 400 and above a page got while it loaded and settled."""
    page = phone(url, goto=False)
    refused: list[tuple[int, str]] = []
    page.on("response", lambda r: r.status >= 400 and refused.append((r.status, r.url)))
    page.goto(url)
    page.locator("#link[data-state=live]").wait_for()
    page.wait_for_timeout(500)
    return refused


def test_the_table_and_referee_pages_ask_nothing_that_is_refused(
    daemon: Served, local: Phone
) -> None:
    for game in (None, "cool-runnings"):
        if game:
            status_of(daemon, game)
        for url in (f"{daemon.url}/", f"{daemon.url}/referee#{daemon.referee}"):
            assert refused_while_loading(local, url) == [], (game, url)


@pytest.mark.parametrize("game", ["cool-runnings", "daddy-cool"])
def test_the_path_shows_which_way_the_pieces_go(daemon: Served, local: Phone, game: str) -> None:
    status = status_of(daemon, game)
    view = status["game"]["view"]
    places = len(view["track"]["spaces"]) if game == "cool-runnings" else len(view["path"])
    table = local(f"{daemon.url}/")
    ways = table.locator("#board svg .way")
    ways.first.wait_for()
    assert ways.count() == places - 1
    first, second = (ways.nth(i).bounding_box() for i in (0, 1))
    assert second["x"] > first["x"]  # the first row runs left to right


COVERED = """(selector) => {
  const shown = document.querySelector(selector);
  const note = shown.getBoundingClientRect();
  const over = (b) =>
    !(b.right <= note.left || b.left >= note.right || b.bottom <= note.top || b.top >= note.bottom);
  return [...document.querySelectorAll("button, a, input, select, summary, .code svg, #board svg")]
    .filter((e) => !shown.contains(e) && over(e.getBoundingClientRect()))
    .map((e) => e.outerHTML.slice(0, 80));
}"""
"""The controls and codes that the note matching the selector passed lies over."""


def refuse_once(page: Page, path: str) -> None:
    """The next POST to ``path`` refused as the table refuses a stale tap; later ones go through."""
    body = {"error": {"code": "stale", "message": "The game moved on: try again."}}

    left = [1]

    def refuse(route: Any) -> None:
        if route.request.method != "POST" or not left:
            return route.fallback()
        left.pop()
        return route.fulfill(status=409, json=body)

    page.route(f"**{path}", refuse)


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_note_covers_no_control_and_goes_when_the_next_action_succeeds(
    daemon: Served, phone: Phone, viewport: dict[str, int]
) -> None:
    started = daemon.call("POST", "/api/games", daemon.referee, {"game": "daddy-cool"})
    links = daemon.call("GET", "/api/join", daemon.referee).body["seats"]
    seat = phone(links[0]["url"], viewport=viewport)
    roll = seat.locator("#actions button").first
    roll.wait_for()
    refuse_once(seat, "/api/actions")
    roll.click()
    note = seat.locator("#error")
    note.get_by_text("The game moved on").wait_for()
    assert seat.evaluate(COVERED, "#error") == []
    seat.locator("#actions button").first.click()
    note.wait_for(state="hidden")
    assert started.status == 201

    referee = phone(f"{daemon.url}/referee#{daemon.referee}", viewport=viewport)
    referee.locator(".code svg").first.wait_for()
    refuse_once(referee, "/api/join")
    renew = referee.locator(".code button").nth(1)
    renew.click()
    renew.click()
    refusal = referee.locator(".code[data-seat='2'] .refusal")  # beside the seat's button
    refusal.get_by_text("The game moved on").wait_for()
    assert referee.locator("#error").is_hidden()
    assert referee.evaluate(COVERED, ".code .refusal") == []
    renew.click()
    renew.click()
    refusal.wait_for(state="detached")


FITS = """() => {
  const parts =
    "#board svg, #game .turn, #game .attack, #count:not([hidden]), .seat-card, #told li, #fair";
  const bottoms = [...document.querySelectorAll(parts)]
    .map((e) => [e.id || e.className.baseVal || e.className, e.getBoundingClientRect().bottom]);
  bottoms.push(["page", document.documentElement.scrollHeight]);
  const turn = document.querySelector("#game .turn");
  return { bottoms, turn_px: turn ? parseFloat(getComputedStyle(turn).fontSize) : null };
}"""
"""How far down the page each part that matters ends, and the size of the turn's words."""
TWO_METRES_PX = 40
"""Words a player reads from two metres: about 1 cm tall on a tablet's screen."""


@pytest.mark.parametrize("viewport", [TABLET, TABLET_UPRIGHT], ids=["landscape", "portrait"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_table_page_fits_a_tablet_with_the_turn_readable_across_the_table(
    daemon: Served, phone: Phone, viewport: dict[str, int], locale: str
) -> None:
    colours = ["blue", "yellow", "green", "pink", "orange", "purple"]
    for game in ("cool-runnings", "cool-am-pool", "ice-trays", "daddy-cool"):
        body: dict[str, Any] = {"game": game, "replace": True}
        if game == "daddy-cool":
            body["seats"] = [
                {"seat": n, "name": f"Player {n}", "colour": colours[n - 1]} for n in range(1, 7)
            ]
        status = daemon.call("POST", "/api/games", daemon.referee, body)
        assert status.status == 201, status.body
        status = daemon.call("GET", "/api/status").body
        if game == "cool-runnings":  # the fullest screen: an attack, its count running
            engine = GAMES[game]
            state = moment(game, status, lambda s: s.phase == "count")
            status = {
                **with_game(status, game, engine.view(state, "public")),
                "count": {"seat": state.pending.target, "n": 4, "of": 10, "pace_s": 0.8},
            }
        told = status["game"]["told"]  # a game a few moves on: three happenings at least
        status["game"]["told"] = [*told, *[told[-1]] * 3][: max(3, len(told))]
        table = phone(f"{daemon.url}/", locale=locale, viewport=viewport, goto=False)
        shown(table, status)
        table.goto(f"{daemon.url}/")
        table.locator("#board svg").first.wait_for()
        table.locator(".seat-card").first.wait_for()
        table.wait_for_timeout(300)
        shot(table, f"table-{game}-{viewport['width']}x{viewport['height']}-{locale[:2]}")
        assert table.locator("#told li").count() >= 3, "the last few happenings are shown"
        found = table.evaluate(FITS)
        below = [(what, bottom) for what, bottom in found["bottoms"] if bottom > viewport["height"]]
        assert below == [], f"{game}: below the fold of {viewport}: {below}"
        assert found["turn_px"] >= TWO_METRES_PX, game
        table.close()


CONTROLS = """() => ({
  dice: [...document.querySelectorAll("#actions .die-pick")].map((b) => b.dataset.die),
  cells: [...document.querySelectorAll("#board .pickable")].map((g) => g.dataset.lounger),
  buttons: [...document.querySelectorAll("#actions button:not(.die-pick)")]
    .map((b) => b.textContent),
})"""
"""The controls of a Cool am Pool seat page: its dice, its tappable loungers, its other buttons."""


def test_cool_am_pool_is_played_by_tapping_dice_and_loungers_one_control_each(
    daemon: Served, local: Phone, at: At
) -> None:
    set_aside, take, towel = (
        fixed_part(at, k) for k in ("do.pool-set-aside", "do.pool-occupy", "do.pool-place-towel")
    )
    lay = say(at, "pool.lay", lounger="").split()[0]
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "cool-am-pool", "seats": [1, 2]}
    )
    pages = {
        int(s): local(f"{daemon.url}/seat#claim={c}")
        for s, c in started.body["seat_claims"].items()
    }
    rnd = random.Random(11)
    said: set[str] = set()
    for move in range(1, 71):
        game = daemon.call("GET", "/api/status").body["game"]
        if game["over"]:
            break
        page = pages[game["turn_seat"]]
        page.locator(f"body[data-changes='{game['changes']}']").wait_for()
        shown_now = page.evaluate(CONTROLS)
        assert len(shown_now["dice"]) == len(set(shown_now["dice"])) <= 6
        assert len(shown_now["cells"]) == len(set(shown_now["cells"]))
        assert sum(set_aside in t for t in shown_now["buttons"]) <= 1
        assert not [t for t in shown_now["buttons"] if take in t or towel in t]
        if shown_now["cells"]:
            cell = page.locator("#board .pickable").nth(rnd.randrange(len(shown_now["cells"])))
            cell.click()
            choice = page.locator(".lounger-choice .choice-title")
            said.add(choice.inner_text().split(" ")[0])
            page.locator(".lounger-choice button", has_text=say(at, "pool.do")).click()
        elif shown_now["dice"]:
            enabled = page.locator("#actions .die-pick:enabled")
            for i in range(enabled.count()):
                if i == 0 or rnd.random() < 0.5:
                    enabled.nth(i).click()
            page.locator(".dice-pick .choices button").click()
        else:
            buttons = page.locator("#actions .choices button")
            buttons.nth(rnd.randrange(buttons.count())).click()
        answered(daemon, page, move)
    assert lay in said and said - {lay}, said  # towels laid, then loungers taken
    shot(pages[1], f"seat-cool-am-pool-board-{at[0][:2]}-{at[1]['width']}")


def percent(locale: str, p: float) -> str:
    """A chance as the page writes it: "17 %", "8,3 %" (a tenth below 10 %)."""
    digits = "0.1" if 0 < p < 0.1 else "1"
    shown = Decimal(str(round(p * 100, 6))).quantize(Decimal(digits), rounding=ROUND_HALF_UP)
    return f"{shown} %".replace(".", "," if locale.startswith("de") else ".")


CHANCE_OF = {"en-GB": ("the die shows ", "of these, "), "de-DE": ("der Würfel zeigt ", "davon ")}
"""How the odds of Ice Trays begin a face's chance, and the share of them that allows no move."""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_odds_of_ice_trays_say_what_each_figure_is_the_chance_of(
    daemon: Served, phone: Phone, locale: str
) -> None:
    """Each face's chance is "the die shows ...", and the roll that allows no move is a share
    of those ("of these, ..."), the last line, never one more outcome beside them."""
    engine = GAMES["ice-trays"]
    status = status_of(daemon, "ice-trays")

    def stuck_on_a_face(state: Any) -> bool:
        odds = engine.view(state, state.turn_seat).get("odds")
        return bool(odds) and any(c["key"] == "no-move" and c["p"] > 0 for c in odds["chances"])

    state = moment("ice-trays", status, stuck_on_a_face)
    view = engine.view(state, state.turn_seat)
    status = with_game(status, "ice-trays", engine.view(state, "public"))
    page = seat_page(lambda url, **o: phone(url, locale=locale, **o), daemon, status, view)
    odds = page.locator("#actions details.odds")
    odds.locator("summary").click()
    odds.locator("dl").wait_for()
    lines = list(
        zip(odds.locator("dt").all_inner_texts(), odds.locator("dd").all_inner_texts(), strict=True)
    )
    at: At = (locale, PHONE)
    chances = view["odds"]["chances"]
    faces = [
        say(at, f"odds.ice-trays.{c['key']}", colour=say(at, f"colour.{c.get('colour')}"))
        if c["key"] == "colour"
        else say(at, f"odds.ice-trays.{c['key']}")
        for c in chances
    ]
    assert lines == [
        (say(at, "odds.dice_in_hand"), "1"),
        *zip(faces, [percent(locale, c["p"]) for c in chances], strict=True),
    ]
    the_die_shows, of_these = CHANCE_OF[locale]
    *shows, no_move = faces
    assert all(face.startswith(the_die_shows) for face in shows), shows
    assert chances[-1]["key"] == "no-move" and no_move.startswith(of_these)
    assert sum(c["p"] for c in chances[:-1]) == pytest.approx(1, abs=0.01)
    shot(page, f"seat-ice-trays-odds-{locale[:2]}")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_referee_s_start_form_lays_a_strecke_in_german(
    daemon: Served, phone: Phone, locale: str
) -> None:
    """The ice race's track option in the words /api/setup gives: "Die Strecke", never "Bahn"."""
    status_of(daemon, "cool-runnings")
    setup = daemon.call("GET", "/api/setup").body
    options = next(g["options"] for g in setup["games"] if g["name"] == "cool-runnings")
    lang = locale[:2]
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale)
    referee.click("#start summary")
    race = referee.locator('form.start-form fieldset[data-for="cool-runnings"]')
    race.wait_for()
    text = race.inner_text()
    parts = next(o for o in options if o["name"] == "parts")
    assert parts["label"][lang] in text
    assert all(c["label"][lang] in text for c in parts["choices"])
    order = next(o for o in options if o["name"] == "part_order")
    assert order["hint"][lang] in text
    if lang == "de":
        assert "Die Strecke" in text and "zufällige Strecke" in text
        assert "Bahn" not in referee.inner_text("body")
    shot(referee, f"referee-start-cool-runnings-{lang}")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_weigh_in_asked_is_gone_once_the_game_is_over(
    daemon: Served, phone: Phone, locale: str
) -> None:
    """A weigh-in the table still held for the winner when the race ended: while the game runs
    its card and its phone ask for it; once it is over, neither does."""
    engine = GAMES["cool-runnings"]
    status = status_of(daemon, "cool-runnings")
    start = moment("cool-runnings", status, lambda s: True)
    end = moment("cool-runnings", status, lambda s: engine.outcome(s) is not None)
    winner = engine.outcome(end).winner
    asked = [{**s, "weigh_in": "requested"} if s["seat"] == winner else s for s in status["seats"]]
    running = with_game({**status, "seats": asked}, "cool-runnings", engine.view(start, "public"))
    public = engine.view(end, "public")
    ended = with_game({**status, "seats": asked}, "cool-runnings", public)
    outcome = as_json(engine.outcome(end))
    ended["game"] = {**ended["game"], "over": True, "outcome": outcome, "changes": 99}
    at: At = (locale, PHONE)
    for summary, state, over in ((running, start, False), (ended, end, True)):
        table = phone(f"{daemon.url}/", locale=locale, viewport=TABLET, goto=False)
        shown(table, summary)
        table.goto(f"{daemon.url}/")
        card = table.locator(f'.seat-card[data-seat="{winner}"]')
        card.locator(".air").wait_for()
        seat = phone(
            f"{daemon.url}/seat",
            locale=locale,
            before="sessionStorage.setItem('companion.seat', 'x')",
            goto=False,
        )
        shown(seat, summary, engine.view(state, winner))
        seat.goto(f"{daemon.url}/seat")
        seat.locator("#who .turn").wait_for()
        won = say(at, "outcome.you_win") in seat.locator("#who .turn").inner_text()
        assert won is over, "the winner's phone says it won once the game is over"
        asks = (
            say(at, "weigh_in.requested") in card.locator(".air").inner_text(),
            say(at, "weigh_in.yours") in seat.locator("#mine").inner_text(),
        )
        assert asks == (not over, not over), f"over: {over}, asked on (card, phone): {asks}"
    shot(table, f"table-cool-runnings-over-{locale[:2]}")
    shot(seat, f"seat-cool-runnings-over-winner-{locale[:2]}")
