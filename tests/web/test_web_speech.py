"""A table you can hear, in a real browser: the table page says the ten-count in step with its
counter, whose turn it is and each attack as it lands, in the page's language; a seat page says
its own count; where no voice is installed, each count ticks.

The browser's speech synthesis and Web Audio are replaced by recorders before the page's own
scripts run (``speak()`` keeps what is said, its language and when; an oscillator keeps its
tone), and the counter is watched for the moment each number shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, TABLET, Page, Phone, needs_chromium, paused, shot
from served_here import Here, start_here
from waiting import wait_until

from bench.daemon import Served
from companion.web.language import catalogue

pytestmark = needs_chromium

TEN_COUNT = {"polish", "squeeze", "hot-breath"}
LOCALES = {"en": "en-GB", "de": "de-DE"}
VOICES = [{"name": "Fake Emma", "lang": "en-GB"}, {"name": "Fake Anna", "lang": "de-DE"}]
RECORDER = """(() => {
  const voices = %(voices)s;
  window.said = [];
  window.ticks = [];
  window.shown = {};
  if (%(speech)s) {
    const synth = {
      speaking: false, pending: false, paused: false,
      getVoices: () => voices.map((v) => ({ ...v, voiceURI: v.name, localService: true })),
      speak: (u) => window.said.push(
        { text: u.text, lang: u.lang, voice: u.voice?.lang ?? null, t: performance.now() }
      ),
      cancel: () => {}, pause: () => {}, resume: () => {},
      addEventListener: () => {}, removeEventListener: () => {},
    };
    Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
    window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  } else {
    Object.defineProperty(window, "speechSynthesis", { value: undefined, configurable: true });
  }
  window.AudioContext = class {
    constructor() { this.start = performance.now(); this.destination = {}; this.state = "running"; }
    get currentTime() { return (performance.now() - this.start) / 1000; }
    resume() { return Promise.resolve(); }
    createGain() {
      const gain = { value: 1, setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain, connect: (next) => next };
    }
    createOscillator() {
      const tone = {
        frequency: { value: 440 }, connect: (next) => next,
        start(at) { tone.at = at; },
        stop(at) {
          window.ticks.push({ hz: tone.frequency.value, s: at - tone.at, t: performance.now() });
        },
      };
      return tone;
    }
  };
  new MutationObserver(() => {
    const n = document.querySelector("#count .count-number")?.textContent ?? "";
    if (/^[0-9]+$/.test(n) && !(n in window.shown)) window.shown[n] = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();"""


def recorder(voices: list[dict[str, str]] = VOICES, speech: bool = True) -> str:
    return RECORDER % {"voices": json.dumps(voices), "speech": json.dumps(speech)}


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Here]:
    running = start_here(tmp_path)
    yield running
    running.stop()


def words(lang: str, key: str, **values: Any) -> str:
    return str(catalogue(lang)[key]).format(**values)


def said(page: Page) -> list[dict[str, Any]]:
    """What the page said, in order, but the silent word that wakes a voice inside a tap."""
    return [s for s in page.evaluate("window.said") if s["text"]]


def until_said(page: Page, text: str) -> list[dict[str, Any]]:
    def heard() -> list[dict[str, Any]] | None:
        so_far = said(page)
        return so_far if text in [s["text"] for s in so_far] else None

    return wait_until(
        heard,
        every_s=0.05,
        what=lambda: f"the page to say {text!r}; it said {[s['text'] for s in said(page)]}",
        pause=paused(page),
    )


def sound_on(page: Page, lang: str) -> None:
    page.get_by_role("button", name=words(lang, "sound.switch")).click()
    page.locator(".sound[aria-pressed=true]").wait_for()


def deal(daemon: Served, pace: float, attacks: set[str]) -> tuple[dict[str, str], dict[str, Any]]:
    """A new game of Karen and Tom, Karen first, whose hand has an attack of ``attacks``: each
    seat's token, and Karen's play of it on Tom."""
    game = {
        "game": "cool-runnings",
        "seats": [{"seat": 1, "name": "Karen"}, {"seat": 2, "name": "Tom"}],
        "options": {"first_seat": 1, "count_pace_s": pace},
        "replace": True,
    }
    for _ in range(30):
        tokens = daemon.seated(daemon.call("POST", "/api/games", daemon.referee, game))
        karen = daemon.call("GET", "/api/view", tokens["1"]).body
        kinds = {card["id"]: card["attack"] for card in karen["hand"]}
        for action in karen["legal_actions"]:
            if action["type"] == "play-attack" and kinds[action["card"]] in attacks:
                return tokens, action
    raise AssertionError(f"no deal in 30 gave Karen one of {attacks}")


def act(daemon: Served, token: str, kind: str) -> None:
    view = daemon.call("GET", "/api/view", token).body
    action = next(a for a in view["legal_actions"] if a["type"] == kind)
    assert daemon.call("POST", "/api/actions", token, action).status == 200


def newest_aloud(daemon: Served, lang: str) -> str:
    game = daemon.call("GET", "/api/status").body["game"]
    return str([line for line in game["told"] if line["aloud"]][-1][lang])


@pytest.mark.parametrize(
    ("locale", "viewport", "pace"),
    [("en-GB", PHONE, 0.4), ("de-DE", PHONE, 0.6), ("en-GB", TABLET, 0.6), ("de-DE", TABLET, 0.4)],
    ids=["en-phone-fast", "de-phone", "en-tablet", "de-tablet-fast"],
)
def test_the_table_page_says_the_count_in_step_the_turn_and_the_attack(
    daemon: Served, phone: Phone, locale: str, viewport: dict[str, int], pace: float
) -> None:
    lang = locale[:2]
    table = phone(f"{daemon.url}/", locale=locale, viewport=viewport, before=recorder())
    hint = table.locator(".sound-hint")
    assert hint.inner_text() == words(lang, "sound.why")
    shot(table, f"speech-off-{lang}-{viewport['width']}")
    sound_on(table, lang)
    assert hint.is_hidden()
    assert [s["text"] for s in said(table)] == [words(lang, "sound.on")]

    tokens, attack = deal(daemon, pace, TEN_COUNT)
    until_said(table, words(lang, "sound.turn", name="Karen"))  # the page has seen the new game
    assert daemon.call("POST", "/api/actions", tokens["1"], attack).status == 200
    attack_line = newest_aloud(daemon, lang)
    until_said(table, attack_line)
    act(daemon, tokens["2"], "take-hit")
    tom = words(lang, "sound.turn", name="Tom")
    heard = until_said(table, tom)
    shot(table, f"speech-table-{lang}-{viewport['width']}")

    assert {s["lang"] for s in heard} == {LOCALES[lang]}
    assert {s["voice"] for s in heard} == {LOCALES[lang]}, "the voice of the page's language"
    texts = [s["text"] for s in heard]
    assert texts[:2] == [words(lang, "sound.on"), words(lang, "sound.turn", name="Karen")]
    # The stream sends the latest status, not a backlog: on a machine loaded past a count's
    # pace a page can be sent 2 and then 4, and it shows and says 4. What it shows, it says.
    shown = {int(n): t for n, t in table.evaluate("window.shown").items()}
    steps = sorted(shown)
    assert steps[-1] == 10 and len(steps) >= 5, shown
    counted = [words(lang, f"count.{n}") if pace >= 0.6 else str(n) for n in steps]
    assert texts[texts.index(attack_line) :] == [attack_line, *counted, tom]

    times = {n: heard[texts.index(text)]["t"] for n, text in zip(steps, counted, strict=True)}
    for before, n, after in zip([0, *steps[:-1]], steps, [*steps[1:], None], strict=True):
        assert shown.get(before, 0) < times[n], f"{n} was said before {before} showed"
        assert after is None or times[n] < shown[after], f"{n} was said after {after} showed"

    table.reload()
    table.locator(".sound[aria-pressed=true]").wait_for()
    assert hint.inner_text() == words(lang, "sound.tap")
    table.locator("h1").click()
    hint.wait_for(state="hidden")
    assert said(table) == [], "nothing said again when the page opens"


def test_a_seat_page_says_its_own_count_and_nothing_else(daemon: Served, phone: Phone) -> None:
    tokens, attack = deal(daemon, 0.4, TEN_COUNT)
    pages = {}
    for seat, token in tokens.items():
        page = phone(
            f"{daemon.url}/seat",
            locale="de-DE",
            before=f"sessionStorage.setItem('companion.seat', {json.dumps(token)});" + recorder(),
        )
        page.locator("#who h2").wait_for()
        sound_on(page, "de")
        pages[seat] = page
    assert daemon.call("POST", "/api/actions", tokens["1"], attack).status == 200
    act(daemon, tokens["2"], "take-hit")
    heard = until_said(pages["2"], "10")
    shot(pages["2"], "speech-seat-de")
    texts = [s["text"] for s in heard]
    numbers = [int(text) for text in texts[1:]]  # all ten, but on a machine loaded past the pace
    assert texts[0] == "Ton an" and numbers == sorted(set(numbers)) and len(numbers) >= 5, texts
    assert {s["lang"] for s in heard} == {"de-DE"}
    pages["2"].locator("#who").get_by_text("Du bist dran!").wait_for()
    assert [s["text"] for s in said(pages["1"])] == ["Ton an"], "no other seat's count, no call"
    assert [s["text"] for s in said(pages["2"])] == [s["text"] for s in heard]


@pytest.mark.parametrize("speech", [True, False], ids=["no-voice", "no-speech"])
def test_where_no_voice_is_installed_each_count_ticks(
    daemon: Served, phone: Phone, speech: bool
) -> None:
    table = phone(f"{daemon.url}/", before=recorder(voices=[], speech=speech))
    sound_on(table, "en")
    assert table.locator(".sound-hint").inner_text() == words("en", "sound.ticks")
    tokens, attack = deal(daemon, 0.4, TEN_COUNT)
    assert daemon.call("POST", "/api/actions", tokens["1"], attack).status == 200
    act(daemon, tokens["2"], "take-hit")
    table.locator("#count .count-number").filter(has_text="10").wait_for()

    def the_last_tick() -> list[dict[str, Any]] | None:
        """One as the sound is switched on, one a number of the count, the last one lower."""
        ticks: list[dict[str, Any]] = table.evaluate("window.ticks")
        return ticks if len(ticks) > 1 and ticks[-1]["hz"] == 660 else None

    ticks = wait_until(
        the_last_tick,
        every_s=0.05,
        what=lambda: f"the last tick; heard {table.evaluate('window.ticks')}",
        pause=paused(table),
    )
    shown = len(table.evaluate("window.shown"))  # ten, but on a machine loaded past the pace
    assert shown >= 5 and len(ticks) == 1 + shown, ticks
    assert all(0.02 <= tick["s"] <= 0.04 for tick in ticks), ticks
    assert [tick["hz"] for tick in ticks[1:]] == [1320] * (shown - 1) + [660], "the last lower"
    assert table.evaluate("window.said") == []


def test_only_what_happens_while_the_page_is_open_is_said_once(
    daemon: Served, phone: Phone
) -> None:
    """The lines on the page's first snapshot are not said, even with its sound on before it
    came, nor those it is sent again when its stream is opened again; a line that comes after
    is said once."""
    tokens, attack = deal(daemon, 0.8, {"water-bath", "cold-shower", "thawing-salt"})
    assert daemon.call("POST", "/api/actions", tokens["1"], attack).status == 200
    stream: dict[str, Any] = {"body": None, "sent": 0}

    def send(route: Any) -> None:
        if stream["body"] is None:  # the table not reached yet
            route.fulfill(status=503, body="")
            return
        stream["sent"] += 1
        event = f"retry: 100\nevent: status\ndata: {json.dumps(stream['body'])}\n\n"
        route.fulfill(status=200, content_type="text/event-stream", body=event)

    table = phone(f"{daemon.url}/", before=recorder(), goto=False)
    table.route("**/api/stream*", send)
    table.goto(f"{daemon.url}/")
    sound_on(table, "en")
    stream["body"] = daemon.call("GET", "/api/status").body

    def sent_again(times: int) -> None:
        until = stream["sent"] + times
        wait_until(
            lambda: stream["sent"] >= until,
            every_s=0.05,
            what=f"the status sent {times} times again",
            pause=paused(table),
        )

    sent_again(3)
    assert table.locator("#game .attack").is_visible()
    assert [s["text"] for s in said(table)] == ["Sound on"]
    act(daemon, tokens["2"], "take-hit")
    stream["body"] = daemon.call("GET", "/api/status").body
    hit = newest_aloud(daemon, "en")
    assert hit.startswith("Tom is hit by the ")
    until_said(table, hit)
    sent_again(3)
    assert [s["text"] for s in said(table)] == ["Sound on", hit]
