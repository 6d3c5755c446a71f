"""The phone pages as the server sends them: every page in every language, their weight, their
catalogues, and that no secret is ever in one."""

from __future__ import annotations

import gzip
import importlib
import json
import re
from pathlib import Path

import pytest
from apicheck import Start
from flask.testing import FlaskClient

from companion.config import COLOURS
from companion.games import GAMES
from companion.games.daddy_cool.state import ALL_ASIDE, ON_CRACKED, TURN_START
from companion.games.record import GameRecord
from companion.games.seats import default_seats
from companion.table.service import TableService
from companion.web.language import LANGUAGES, catalogue
from companion.web.pages import PAGES, scripts_of

WEB = Path(__file__).resolve().parents[2] / "companion" / "web"
STATIC = WEB / "static"
PAGE_BUDGET = 60_000
"""60 KB over the Wi-Fi (scripts and styles go compressed), counted in thousands: the stricter
reading."""
GZIP = {"Accept-Encoding": "gzip, deflate"}
"""What every phone's browser says it takes."""
HANDLED_ON_THE_SEAT_PAGE = {"play-attack", "play-move", "deflect"}
"""Actions whose buttons the seat page words from the card and the seats, not from a text."""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_comes_in_every_language(client: FlaskClient, page: str, lang: str) -> None:
    response = client.get(PAGES[page], headers={"Accept-Language": f"{lang};q=0.9"})
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    texts = catalogue(lang)
    assert f"<h1>{texts[page + '.title']}</h1>" in html
    inline = json.loads(re.search(r'id="catalogue">(.*?)</script>', html, re.S).group(1))
    assert inline.items() <= texts.items()
    assert keys_used(page) <= set(inline)
    assert f'src="/static/js/{page}.js"' in html


def test_a_page_sends_scripts_only_from_the_table(client: FlaskClient) -> None:
    response = client.get("/seat")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "connect-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    html = response.get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>", html)
    assert all('type="module" src=' in s or 'type="application/json"' in s for s in scripts)
    assert "http://" not in html and "https://" not in html


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "expected"),
    [
        ("", None, "de-DE,de;q=0.9,en;q=0.8", "de"),
        ("", None, "fr-FR,fr;q=0.9", "en"),
        ("", None, None, "en"),
        ("?lang=en", None, "de", "en"),
        ("", "de", "en", "de"),
        ("?lang=xx", "zz", "de", "de"),
    ],
)
def test_the_language_is_asked_kept_or_accepted(
    client: FlaskClient, query: str, cookie: str | None, accept: str | None, expected: str
) -> None:
    if cookie:
        client.set_cookie("lang", cookie)
    headers = {"Accept-Language": accept} if accept else {}
    html = client.get(f"/{query}", headers=headers).get_data(as_text=True)
    assert f'<html lang="{expected}">' in html


def test_the_switch_keeps_the_language(client: FlaskClient) -> None:
    response = client.get("/?lang=de", headers={"Accept-Language": "en"})
    assert response.headers["Set-Cookie"].startswith("lang=de;")
    assert "SameSite=Strict" in response.headers["Set-Cookie"]
    again = client.get("/referee", headers={"Accept-Language": "en"})
    assert '<html lang="de">' in again.get_data(as_text=True)
    assert "Set-Cookie" not in again.headers


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_a_page_with_its_scripts_and_styles_weighs_at_most_60_kb(
    client: FlaskClient, page: str, lang: str
) -> None:
    html = client.get(f"{PAGES[page]}?lang={lang}").get_data()
    links = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
    for game in GAMES:  # what a phone loads for the game being played
        scripts = scripts_of(page, game)
        files = {link.decode() for link in links} | {f"/static/js/{s}" for s in scripts}
        sizes = {path: len(client.get(path, headers=GZIP).get_data()) for path in files}
        assert all(sizes.values()), sizes
        total = len(html) + sum(sizes.values())
        assert total <= PAGE_BUDGET, f"{page} ({lang}, {game}) weighs {total} bytes: {sizes}"


def test_a_browser_that_takes_gzip_gets_each_file_compressed_and_a_304_once_it_has_it(
    client: FlaskClient,
) -> None:
    for path in (p for p in STATIC.rglob("*") if p.is_file()):
        url = "/static/" + path.relative_to(STATIC).as_posix()
        plain = client.get(url)
        packed = client.get(url, headers=GZIP)
        assert "Content-Encoding" not in plain.headers
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert packed.mimetype == plain.mimetype
        assert gzip.decompress(packed.get_data()) == plain.get_data() == path.read_bytes()
        again = client.get(url, headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
        assert again.status_code == 304
    script = client.get("/static/js/common.js", headers=GZIP).get_data()
    assert len(script) < path_size("js/common.js") / 2


def path_size(name: str) -> int:
    return (STATIC / name).stat().st_size


GENERIC = (
    "seat",
    "table",
    "referee",
    "common",
    "choices",
    "card",
    "ice",
    "game",
    "words",
    "speech",
    "setting-up",
)
"""The pages' scripts every game shares: each game's own part is its module in ``js/games/``."""


@pytest.mark.parametrize("script", GENERIC)
def test_the_generic_pages_name_no_game(script: str) -> None:
    text = (STATIC / "js" / f"{script}.js").read_text(encoding="utf-8")
    named = [name for name in GAMES if name in text or name.replace("-", "_") in text]
    assert named == [], f"{script}.js names {named}: that belongs in js/games/<name>.js"


def test_each_game_has_its_module_with_its_board() -> None:
    modules = {p.stem for p in (STATIC / "js" / "games").glob("*.js")}
    assert set(GAMES) <= modules
    for name in GAMES:
        text = (STATIC / "js" / "games" / f"{name}.js").read_text(encoding="utf-8")
        assert re.search(r"export (\{ draw \}|function draw)", text), name


def test_every_static_file_is_served_and_none_from_outside(client: FlaskClient) -> None:
    for path in STATIC.rglob("*"):
        if path.is_file():
            url = "/static/" + path.relative_to(STATIC).as_posix()
            assert client.get(url).status_code == 200, url
    for escape in (
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/js/../../app.py",
        "/static/..%2fapp.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
    ):
        assert client.get(escape).status_code == 404, escape


def test_no_page_carries_a_token(client: FlaskClient, table: TableService, start: Start) -> None:
    seats = start()
    secrets = [table.referee_token, *(h["Authorization"].split()[1] for h in seats.values())]
    for path in PAGES.values():
        for headers in ({}, seats[1]):
            html = client.get(path, headers=headers).get_data(as_text=True)
            assert not [s for s in secrets if s in html]


# The catalogues


def placeholders(text: str | dict[str, str]) -> set[str]:
    """The placeholders of a text, of every plural form of one that has forms."""
    forms = [v for k, v in text.items() if k != "count"] if isinstance(text, dict) else [text]
    return {name for form in forms for name in re.findall(r"\{(\w+)\}", form)}


def test_the_catalogues_say_the_same_things() -> None:
    english, german = catalogue("en"), catalogue("de")
    fault_words = {k for k in german if k.startswith("fault:")}
    assert set(english) == set(german) - fault_words
    for key, text in english.items():
        assert placeholders(german[key]) == placeholders(text), key
    for key in fault_words:
        assert german[key] and not placeholders(german[key]), key


def keys_used(page: str | None = None) -> set[str]:
    """Every text key the templates and scripts (of one page, or of all) name literally."""
    found: set[str] = set()
    js = STATIC / "js"
    scripts = [js / s for s in scripts_of(page)] if page else js.rglob("*.js")
    templates = ("base.html", f"{page}.html") if page else ("*.html",)
    for path in [*scripts, *(p for name in templates for p in (WEB / "templates").glob(name))]:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\bt\(\s*"([^"]+)"', text))
        found |= set(re.findall(r"""\bt\[\s*["']([^"']+)["']\s*\]""", text))
    return found


def keys_built() -> set[str]:
    """The keys the scripts build from what the table sends: colours, faces, actions, stages."""
    keys = {f"count.{n}" for n in range(1, 11)} | {
        f"link.{s}" for s in ("connecting", "live", "lost")
    }
    keys |= {f"{page}.title" for page in PAGES} | {f"game.{name}" for name in GAMES}
    keys |= {f"stage.{s}" for s in ("play", "deflect", "count", "carry-out")}
    keys |= {f"space.{k}{m}" for k in ("plain", "lava", "ice", "move") for m in ("", ".mark")}
    keys |= {f"floe.{k}{m}" for k in ("plain", "cracked", "tub") for m in ("", ".mark")}
    keys |= {f"sensor.{k}.{s}" for k in ("thermometer", "scale") for s in ("fault", "absent")}
    keys |= {f"colour.{c}{m}" for c in COLOURS for m in ("", ".mark")}
    for name, engine in GAMES.items():
        record = GameRecord.start(name, {}, default_seats(4), bytes(32))
        view = engine.view(record.state, "public")
        faces = set(view.get("die") or [])
        faces |= {f for die in view.get("dice") or [] for f in die.get("faces") or []}
        if "board" in view and "colours" in view["board"]:
            faces |= {*view["board"]["colours"], "lifeguard"}
            keys |= {f"colour.{c}{m}" for c in view["board"]["colours"] for m in ("", ".mark")}
        keys |= {f"face.{f}{m}" for f in faces for m in ("", ".mark")}
        keys |= {f"do.{a.type}" for a in engine.ACTIONS} - {
            f"do.{t}" for t in HANDLED_ON_THE_SEAT_PAGE
        }
    keys |= {f"direction.{d}" for d in ("clockwise", "counterclockwise")}
    keys |= {f"daddy.must_roll.{r}" for r in (TURN_START, ON_CRACKED, ALL_ASIDE)}
    for name in ("cool-am-pool", "daddy-cool", "ice-trays"):
        module = importlib.import_module(f"companion.games.{name.replace('-', '_')}.odds")
        keys |= {f"odds.{name}.{key}" for key in module.KEYS}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_a_page_asks_for_is_in_the_catalogue(lang: str) -> None:
    texts = catalogue(lang)
    missing = sorted((keys_used() | keys_built()) - set(texts))
    assert missing == []


def test_the_german_catalogue_words_every_fault_a_sensor_reports() -> None:
    from companion.sensors import hx711, sources, w1

    reasons = [
        getattr(module, name).removeprefix("fault: ")
        for module in (w1, hx711, sources)
        for name in dir(module)
        if name.isupper()
        and isinstance(getattr(module, name), str)
        and (getattr(module, name).startswith("fault: ") or module is hx711)
    ]
    reasons = [r for r in reasons if ":" in r and " " in r]
    assert reasons
    german = catalogue("de")
    assert [r for r in reasons if f"fault:{r}" not in german] == []
