"""Each seat's score and the results of a dice game, in a real browser: on the table page of a
tablet and on a seat's phone of 320 px, in English and German.

The daemon serves the real pages; the game comes from the engine, played at random until the
seats' scores stand apart (a game under way) or until it is over (with a tie on points where the
game has one to break), and is handed to the page in place of the table's own status and view
(playwright's ``route``), as ``test_web_pages_at_a_table`` does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from browsing import TABLET, Page, Phone, needs_chromium, shot
from served_here import Here, start_here
from test_web_pages_at_a_table import moment, shown, with_game

from bench.daemon import Served
from companion.games import GAMES
from companion.games.fair import FairRandom
from companion.games.seats import SeatInfo
from companion.web.language import catalogue

pytestmark = needs_chromium

SMALL_PHONE = {"width": 320, "height": 568}
DICE_GAMES = ["cool-am-pool", "ice-trays", "daddy-cool"]
LOCALES = ["en-GB", "de-DE"]
TIE_BROKEN_BY = {"cool-am-pool": "pool.tie", "ice-trays": "trays.tie"}
"""The words of the count that breaks a tie on points, in the games that count points."""
AND = {"en": "and", "de": "und"}
"""The last joint of a list of names in words (the browser's ``Intl.ListFormat``)."""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Here]:
    running = start_here(tmp_path_factory.mktemp("scores"))
    yield running
    running.stop()


def said(locale: str, key: str, **values: Any) -> str:
    """The page's words for ``key``: a text with plural forms in its form for the number."""
    text = catalogue(locale[:2])[key]
    if isinstance(text, dict):
        number = values[text.get("count", "n")]
        text = text["one"] if number == 1 else text["other"]
    return str(text).format(**values)


def name_in(locale: str, seat: dict[str, Any]) -> str:
    """A seat's name as the page shows it: one nobody named is "Platz 2" in German."""
    unnamed = seat["name"] == f"Seat {seat['seat']}"
    return said(locale, "seat.n", seat=seat["seat"]) if unnamed else str(seat["name"])


def listed(locale: str, names: list[str]) -> str:
    """Names as one list in words: "Seat 1, Seat 2 and Seat 3"; "Platz 1 und Platz 2"."""
    return f" {AND[locale[:2]]} ".join([", ".join(names[:-1]), names[-1]] if names[1:] else names)


def finished(game: str, status: dict[str, Any], level: bool = False) -> Any:
    """The first game of random play over the table's seats that is over, where the game counts
    points with a tie on them that the next count decided (``level``: that left level too)."""
    engine = GAMES[game]
    seats = [SeatInfo(s["seat"], s["name"], s["colour"]) for s in status["seats"]]
    for seed in range(200):
        rnd, rng = random.Random(seed), FairRandom(seed.to_bytes(32, "big"))
        state, _ = engine.new_game({}, seats, rng)
        for _ in range(3000):
            if engine.outcome(state) is not None:
                break
            state, _ = engine.apply(state, engine.random_action(state, rnd), rng)
        outcome = engine.outcome(state)
        if outcome is None:
            continue
        ties = [len(set(tie.counts.values())) == 1 for tie in outcome.tie_breaks]
        if game not in TIE_BROKEN_BY or level in ties:
            return state
    how = "left level" if level else "broken"
    raise AssertionError(f"no {game} game of 200 came to its end with a tie {how}")


def over(daemon: Served, game: str, level: bool = False) -> tuple[dict[str, Any], Any]:
    """The table's status with ``game`` over by its rules (with a tie as :func:`finished`
    says), and the game's state."""
    daemon.call("POST", "/api/games", daemon.referee, {"game": game, "replace": True})
    status = daemon.call("GET", "/api/status").body
    state = finished(game, status, level)
    public = GAMES[game].view(state, "public")
    summary = {
        **status["game"],
        "view": public,
        "phase": public["phase"],
        "turn_seat": public["turn_seat"],
        "over": True,
        "outcome": public["outcome"],
        "actions": 99,
        "changes": 99,
    }
    return {**status, "game": summary}, state


def score_words(locale: str, game: str, seat: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """What a seat's score says, piece by piece."""
    if game == "cool-am-pool":
        return [
            said(locale, "results.points", n=seat["points_now"]),
            said(locale, "pool.score.chips", chips=seat["chips"], most=view["chips_at_most"]),
            said(locale, "pool.score.bathers", n=seat["bathers_in_supply"]),
            said(locale, "pool.score.towels", n=seat["towels_in_supply"]),
        ]
    if game == "ice-trays":
        return [
            said(locale, "trays.score.cubes", n=seat["cubes"]),
            said(locale, "trays.score.blueberries", n=seat["blueberries"]),
            said(locale, "results.points", n=seat["points"]),
        ]
    left = seat["to_tub"]
    return [
        said(locale, "daddy.score.to_tub", n=left) if left else said(locale, "daddy.score.in_tub")
    ]


def part_words(locale: str, game: str, part: dict[str, Any]) -> str:
    """Where some of a seat's points came from, in words, with those points where the game
    counts them: "2 loungers worth 3 (6)", "noch 3 Schollen bis zum Waschzuber"."""
    n = part["count"]
    if game == "cool-am-pool":
        if part["what"] == "lounger":
            words = said(locale, "pool.part.lounger", n=n, each=part["each"])
        else:
            kind = "foreign" if part["what"] == "foreign-towel" else "chips"
            words = said(locale, f"pool.part.{kind}", n=n)
    elif game == "ice-trays":
        words = said(locale, f"trays.score.{part['what']}", n=n)
    else:
        return said(locale, "daddy.score.to_tub", n=n) if n else said(locale, "daddy.score.in_tub")
    return f"{words} ({part['points']})"


def tie_words(locale: str, game: str, tie: dict[str, Any], seats: dict[int, Any]) -> str:
    """The line of a tie on points: who is level, and the count that was to tell them apart,
    the most first ("Seat 3 (6), Seat 1 (4)"), or that it is level too."""
    counts = sorted(((int(seat), n) for seat, n in tie["counts"].items()), key=lambda c: c[0])
    names = listed(locale, [name_in(locale, seats[seat]) for seat, _ in counts])
    by_count = sorted(counts, key=lambda c: -c[1])
    counted = ", ".join(f"{name_in(locale, seats[seat])} ({n})" for seat, n in by_count)
    level = len({n for _, n in counts}) == 1
    broken = said(locale, TIE_BROKEN_BY[game] + (".level" if level else ""), counts=counted)
    return f"{said(locale, 'results.tie', names=names, n=tie['points'])} {broken}"


def assert_results(page: Page, locale: str, game: str, view: dict[str, Any], within: str) -> None:
    """The results panel shows every seat in its place, its points and where they came from,
    and each tie on points with the count that decided it."""
    outcome = view["outcome"]
    seats = {s["seat"]: s for s in view["seats"]}
    panel = page.locator(f"{within} .results")
    panel.wait_for()
    assert panel.locator("h3").inner_text() == said(locale, "results.title")
    rows = panel.locator(".ranking li")
    assert rows.count() == len(outcome["ranking"])
    for i, place in enumerate(outcome["ranking"]):
        row = rows.nth(i)
        assert row.get_attribute("data-seat") == str(place["seat"])
        text = row.inner_text()
        assert text.startswith(f"{place['place']}.")
        assert name_in(locale, seats[place["seat"]]) in text
        if place["points"] is not None:
            assert said(locale, "results.points", n=place["points"]) in text
        parts = [part_words(locale, game, part) for part in place["parts"]]
        assert parts, f"no parts of seat {place['seat']}'s score"
        assert row.locator(".parts").inner_text() == " · ".join(parts)
    assert rows.first.get_attribute("data-place") == "1"
    ties = panel.locator(".tie-break")
    assert ties.count() == len(outcome["tie_breaks"])
    for tie, line in zip(outcome["tie_breaks"], ties.all_inner_texts(), strict=True):
        assert line == tie_words(locale, game, tie, seats)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", DICE_GAMES)
def test_a_finished_game_s_table_page_shows_each_seat_s_score_and_the_results(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    """On the table, a tie on points that the next count decided."""
    status, _ = over(daemon, game)
    view = status["game"]["view"]
    table = phone(f"{daemon.url}/", locale=locale, viewport=TABLET, goto=False)
    shown(table, status)
    table.goto(f"{daemon.url}/")
    assert_results(table, locale, game, view, "#game")
    assert table.locator(".seat-card").count() == 0, "the results give each seat's score"
    table.wait_for_timeout(200)
    shot(table, f"results-{game}-table-{locale[:2]}")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", DICE_GAMES)
def test_a_finished_game_s_seat_page_shows_its_own_score_and_the_results(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    """On the phone, a tie on points that the next count left level too."""
    status, state = over(daemon, game, level=True)
    outcome = status["game"]["outcome"]
    me = outcome["ranking"][-1]["seat"]  # the last place's phone: its score and who won
    view = GAMES[game].view(state, me)
    seat = phone(
        f"{daemon.url}/seat",
        locale=locale,
        viewport=SMALL_PHONE,
        before="sessionStorage.setItem('companion.seat', 'x')",
        goto=False,
    )
    shown(seat, status, view)
    seat.goto(f"{daemon.url}/seat")
    mine = seat.locator("#mine .score")
    mine.wait_for()
    own = next(s for s in view["seats"] if s["seat"] == me)
    assert mine.inner_text() == " · ".join(score_words(locale, game, own, view))
    assert_results(seat, locale, game, view, "#mine")
    top = seat.evaluate("document.querySelector('#mine .score').getBoundingClientRect().top")
    assert top < SMALL_PHONE["height"], "the seat's score is below its first screen"
    shot(seat, f"results-{game}-seat-{locale[:2]}-320")


def under_way(game: str, status: dict[str, Any]) -> Any:
    """A game of random play, over the table's seats, still under way where each seat's score
    differs from every other's: a card that showed another seat's would show."""
    engine = GAMES[game]

    def apart(state: Any) -> bool:
        view = engine.view(state, "public")
        scores = {tuple(score_words("en-GB", game, s, view)) for s in view["seats"]}
        return engine.outcome(state) is None and len(scores) == len(view["seats"])

    return moment(game, status, apart)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", DICE_GAMES)
def test_each_seat_s_score_shows_on_its_table_card_while_the_game_runs(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    daemon.call("POST", "/api/games", daemon.referee, {"game": game, "replace": True})
    status = daemon.call("GET", "/api/status").body
    public = GAMES[game].view(under_way(game, status), "public")
    table = phone(f"{daemon.url}/", locale=locale, viewport=TABLET, goto=False)
    shown(table, with_game(status, game, public))
    table.goto(f"{daemon.url}/")
    for seat in public["seats"]:
        card = table.locator(f'.seat-card[data-seat="{seat["seat"]}"]')
        card.wait_for()
        assert name_in(locale, seat) in card.locator("h3").inner_text()
        said = " · ".join(score_words(locale, game, seat, public))
        assert card.locator(".score").inner_text() == said
    assert table.locator(".results").count() == 0, "no results while the game runs"
    shot(table, f"scores-{game}-table-{locale[:2]}")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", DICE_GAMES)
def test_a_seat_s_own_score_shows_on_its_phone_while_the_game_runs(
    daemon: Served, phone: Phone, game: str, locale: str
) -> None:
    """The phone of a seat not on turn: its own score, never another seat's."""
    daemon.call("POST", "/api/games", daemon.referee, {"game": game, "replace": True})
    status = daemon.call("GET", "/api/status").body
    state = under_way(game, status)
    public = GAMES[game].view(state, "public")
    seats = [s["seat"] for s in public["seats"]]
    me = seats[(seats.index(public["turn_seat"]) + 1) % len(seats)]
    view = GAMES[game].view(state, me)
    seat = phone(
        f"{daemon.url}/seat",
        locale=locale,
        viewport=SMALL_PHONE,
        before="sessionStorage.setItem('companion.seat', 'x')",
        goto=False,
    )
    shown(seat, with_game(status, game, public), view)
    seat.goto(f"{daemon.url}/seat")
    mine = seat.locator("#mine .score")
    mine.wait_for()
    own = next(s for s in view["seats"] if s["seat"] == me)
    assert mine.get_attribute("data-seat") == str(me)
    assert mine.inner_text() == " · ".join(score_words(locale, game, own, view))
    assert seat.locator("#mine .results").count() == 0, "no results while the game runs"
    top = seat.evaluate("document.querySelector('#mine .score').getBoundingClientRect().top")
    assert top < SMALL_PHONE["height"], "the seat's score is below its first screen"
    shot(seat, f"scores-{game}-seat-{locale[:2]}-320")


def pool_move(view: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A move of a player of Cool am Pool who sets aside the most dice of one colour, stops as
    soon as a lounger can be taken, and keeps its chips: a game ends in a few hundred moves."""
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "pool-stop" in kinds:
        wanted = "pool-stop" if view.get("can_take") else "pool-roll"
        return next(a for a in legal if a["type"] == wanted)
    asides = [a for a in legal if a["type"] == "pool-set-aside"]
    if asides:
        face = {d["die"]: d["showing"] for d in view["dice"]}
        one_colour = [a for a in asides if len({face[d] for d in a["dice"]}) <= 1]
        most = max(len(a["dice"]) for a in one_colour)
        return rnd.choice([a for a in one_colour if len(a["dice"]) == most])
    return rnd.choice([a for a in legal if a["type"] != "pool-spend-chip"] or legal)


def test_a_game_played_to_its_end_shows_the_results_on_the_table_and_each_phone(
    daemon: Served, phone: Phone
) -> None:
    """A whole game of Cool am Pool played through the API: the live pages show the scores
    the table keeps and the ranking its outcome gives."""
    started = daemon.call(
        "POST", "/api/games", daemon.referee, {"game": "cool-am-pool", "replace": True}
    )
    tokens = daemon.seated(started)
    rnd = random.Random(5)
    table = phone(f"{daemon.url}/", viewport=TABLET)
    for move in range(3000):
        game = daemon.call("GET", "/api/status").body["game"]
        if game["over"]:
            break
        if move == 60:  # each seat's card shows its score as it stands
            running = game["view"]
            for seat in running["seats"]:
                card = table.locator(f'.seat-card[data-seat="{seat["seat"]}"] .score')
                said = " · ".join(score_words("en-GB", "cool-am-pool", seat, running))
                card.get_by_text(said).wait_for()
        token = tokens[str(game["turn_seat"])]
        action = pool_move(daemon.call("GET", "/api/view", token).body, rnd)
        assert daemon.call("POST", "/api/actions", token, action).status == 200
    game = daemon.call("GET", "/api/status").body["game"]
    assert game["over"] and game["outcome"]["ranking"]
    view = game["view"]
    assert_results(table, "en-GB", "cool-am-pool", view, "#game")
    table.locator("#link[data-state=live]").wait_for()
    shot(table, "results-cool-am-pool-played-table-en")
    last = game["outcome"]["ranking"][-1]["seat"]
    token = tokens[str(last)]
    seat = phone(
        f"{daemon.url}/seat",
        viewport=SMALL_PHONE,
        before=f"sessionStorage.setItem('companion.seat', '{token}')",
    )
    seat.locator("#mine .score").wait_for()
    assert_results(seat, "en-GB", "cool-am-pool", view, "#mine")
    seat.locator("#link[data-state=live]").wait_for()
    shot(seat, "results-cool-am-pool-played-seat-en-320")
