"""The referee sets the sensors up from a phone while the table runs: the whole set-up on
``companion run --simulate`` in a real browser, at phone size, in English and German, from the
start to a written calibration, with an abort and a refusal on the way; the table page says
which seat is not calibrated until it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from browsing import Page, Phone, needs_chromium, shot
from served_here import Here, start_here
from test_web_pages_at_a_table import shown
from test_web_scores import said

from bench.daemon import Served
from companion.sensors.calibration import FILENAME, load_calibration
from companion.sensors.sim import SimTable

pytestmark = needs_chromium

SMALL = {"width": 320, "height": 568}
PHONE = {"width": 390, "height": 844}
TRUTH = SimTable(seats=4, seed=0)
"""The simulated table ``companion run --simulate`` opens: its hidden probes and pads."""


@pytest.fixture
def daemon(tmp_path: Path) -> Here:
    running = start_here(tmp_path, "--speed", "4")
    yield running  # type: ignore[misc]
    running.stop()


def step(page: Page, locale: str, name: str, seat: int | None = None) -> None:
    """Choose a step and its seat in the set-up's form and start it."""
    form = page.locator("#setting-up form.setup-form").first
    form.get_by_label(said(locale, f"setup.step.{name}"), exact=False).check()
    form.locator("select[name=seat]").select_option("" if seat is None else str(seat))
    form.get_by_role("button", name=said(locale, "setup.start")).click()


def go(page: Page, locale: str) -> None:
    """Tap the go once the stage waits for it, and let the table read."""
    page.locator("#setting-up").get_by_role(
        "button", name=said(locale, "setup.go"), exact=True
    ).click()


def accepted(page: Page, locale: str) -> None:
    box = page.locator("#setting-up")
    box.get_by_role("button", name=said(locale, "setup.accept")).click()
    box.locator(".setup-written").wait_for()
    assert box.locator(".setup-written").inner_text() == said(locale, "setup.written")
    box.get_by_role("button", name=said(locale, "setup.done")).click()
    box.locator("form.setup-form").wait_for()


def uncalibrated_on(page: Page, locale: str, seat: int) -> bool:
    words = said(locale, "ice.uncalibrated", seat=seat)
    return words in page.locator("body").inner_text()


@pytest.mark.parametrize("viewport", [SMALL, PHONE], ids=["320", "390"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_referee_sets_a_seat_up_from_a_phone(
    daemon: Served, phone: Phone, tmp_path: Path, locale: str, viewport: dict[str, int]
) -> None:
    size = f"{locale[:2]}-{viewport['width']}"
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale, viewport=viewport)
    table = phone(f"{daemon.url}/", locale=locale, viewport=viewport)
    box = referee.locator("#setting-up")
    box.locator("summary").click()
    box.locator("form.setup-form").wait_for()
    path = tmp_path / FILENAME

    # which probe and pad is seat 1's: warm it, then press it
    step(referee, locale, "identify", 1)
    box.get_by_text(said(locale, "setup.do.hold-probe", seat=1)).wait_for()
    shot(referee, f"setting-up-hold-{size}")
    go(referee, locale)
    box.locator("progress").wait_for()
    box.get_by_text(said(locale, "setup.do.press-pad", seat=1)).wait_for()
    go(referee, locale)
    box.get_by_role("button", name=said(locale, "setup.accept")).wait_for()
    assert not path.exists(), "nothing is written before it is accepted"
    assert TRUTH.seats[1].pad_id in box.inner_text()
    accepted(referee, locale)
    seat = load_calibration(path).seat(1)
    assert (seat.thermometer, seat.scale) == (TRUTH.seats[1].probe_id, TRUTH.seats[1].pad_id)

    # seat 1's pad is its own now, and not calibrated: both pages say so
    table.wait_for_function(
        "text => document.body.innerText.includes(text)",
        arg=said(locale, "ice.uncalibrated", seat=1),
    )
    assert not uncalibrated_on(table, locale, 2)
    assert box.locator(".uncalibrated").inner_text() == said(locale, "ice.uncalibrated", seat=1)
    shot(table, f"setting-up-table-uncalibrated-{size}")

    # an abort on the way writes nothing
    before = path.read_bytes()
    step(referee, locale, "tare")
    box.get_by_text(said(locale, "setup.do.empty-pads.all")).wait_for()
    box.get_by_role("button", name=said(locale, "setup.abort")).click()
    box.locator("form.setup-form").wait_for()
    assert path.read_bytes() == before

    # the empty pad
    step(referee, locale, "tare", 1)
    go(referee, locale)
    accepted(referee, locale)

    # a weight that saturates the pad is refused, and said so in the page's words
    before_weight = path.read_bytes()
    step_weight(referee, locale, typed="500")
    go(referee, locale)
    box.get_by_text(
        said(locale, "setup.do.put-weight", seat=1, grams=number(locale, 500.0))
    ).wait_for()
    go(referee, locale)
    box.locator(".setup-refused").wait_for()
    refusal = box.locator(".setup-refused").inner_text()
    assert refusal.startswith(said(locale, "setup.why.saturated", seat=1)[:20]), refusal
    shot(referee, f"setting-up-refused-{size}")
    box.get_by_role("button", name=said(locale, "setup.close")).click()
    box.locator("form.setup-form").wait_for()
    assert path.read_bytes() == before_weight, "a refused step writes nothing"

    # a 1 euro coin is the known weight, its error said beside it
    box.get_by_label(said(locale, "setup.step.weight"), exact=False).check()
    coin = box.locator("label.coin").first.inner_text()
    assert coin.startswith(f"{said(locale, 'coin.euro-1')}: {number(locale, 7.5)} g"), coin
    assert f"±{number(locale, 0.3)} g" in coin
    step_weight(referee, locale)
    go(referee, locale)
    box.get_by_text(
        said(locale, "setup.do.put-weight", seat=1, grams=number(locale, 7.5))
    ).wait_for()
    go(referee, locale)
    box.get_by_role("button", name=said(locale, "setup.accept")).wait_for()
    shot(referee, f"setting-up-weight-{size}")
    accepted(referee, locale)

    # the empty cap: seat 1 is calibrated, and no page says otherwise any more
    step(referee, locale, "cap", 1)
    go(referee, locale)
    accepted(referee, locale)
    table.wait_for_function(
        "text => !document.body.innerText.includes(text)",
        arg=said(locale, "ice.uncalibrated", seat=1),
    )
    box.locator(".uncalibrated").wait_for(state="detached")  # the referee's page, a moment later
    seat = load_calibration(path).seat(1)
    truth = TRUTH.seats[1]
    assert seat.pad_lacks() == ()
    assert seat.counts_per_gram == pytest.approx(truth.counts_per_gram, rel=0.01)
    assert seat.cap_g == pytest.approx(truth.cap_g, abs=0.05)
    assert (tmp_path / (FILENAME + ".bak")).exists()
    assert daemon.call("GET", "/api/status").body["seats"][0]["uncalibrated"] == []
    shot(referee, f"setting-up-written-{size}")


def step_weight(page: Page, locale: str, typed: str | None = None) -> None:
    """Start the weight step on seat 1: with the first coin, or with grams typed."""
    form = page.locator("#setting-up form.setup-form").first
    form.get_by_label(said(locale, "setup.step.weight"), exact=False).check()
    form.locator("select[name=seat]").select_option("1")
    if typed is not None:
        form.get_by_label(said(locale, "setup.grams"), exact=True).fill(typed)
    form.get_by_role("button", name=said(locale, "setup.start")).click()


def number(locale: str, x: float) -> str:
    """A number as the page writes it with two decimals: 7.50, or 7,50 in German."""
    text = f"{x:.2f}"
    return text.replace(".", ",") if locale.startswith("de") else text


def test_a_seat_found_uncalibrated_leaves_the_step_as_the_referee_left_it(
    daemon: Served, phone: Phone
) -> None:
    """The seats not calibrated yet are said above the step; a status that changes them must
    not draw the step again under the referee's finger (a button replaced between its press
    and its release takes no tap) nor undo what they chose in its form."""
    status = daemon.call("GET", "/api/status").body
    referee = phone(f"{daemon.url}/referee#{daemon.referee}", goto=False)
    shown(referee, status)
    referee.goto(f"{daemon.url}/referee#{daemon.referee}")
    box = referee.locator("#setting-up")
    box.locator("summary").click()
    form = box.locator("form.setup-form")
    form.get_by_label(said("en-GB", "setup.step.tare"), exact=False).check()
    form.locator("select[name=seat]").select_option("2")
    form.evaluate("form => { form.dataset.drawn = 'once'; }")
    seats = [{**s, "uncalibrated": ["cap_g"] if s["seat"] == 1 else []} for s in status["seats"]]
    referee.unroute("**/api/stream*")
    shown(referee, {**status, "seats": seats})  # on the stream's next connection
    box.locator(".uncalibrated").wait_for()
    assert form.get_attribute("data-drawn") == "once"
    assert form.locator("select[name=seat]").input_value() == "2"
    assert form.locator("input[name=step][value=tare]").is_checked()
