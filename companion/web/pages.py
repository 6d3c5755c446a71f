"""The phone pages: the table view, a seat's view and the referee's view.

Each page is a small template with its texts in the chosen language and a plain JavaScript
module that draws it from the API. No page carries a secret: a seat's or the referee's token
arrives in the address's fragment (never sent to the server), and the scripts send it back only
as ``Authorization: Bearer``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request

from companion.games import GAMES
from companion.web.language import COOKIE, LANGUAGES, catalogue, of_request

PAGES = {"table": "/", "seat": "/seat", "referee": "/referee"}
SUMMARIES = {
    "table": "The table view: the board, the turn, the count and every seat's ice.",
    "seat": (
        "A seat's view; its claim comes in the address's fragment (`#claim=`), and the page "
        "posts it to /api/claim for the seat's token."
    ),
    "referee": "The referee's view: start a game, the seats' codes, the controls.",
}
"""What each page is, as the API document describes it beside the routes."""

PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
}
"""Scripts and styles from this server only, nothing inline that runs; nothing leaves the table."""

YEAR_S = 365 * 24 * 3600
WEB = Path(__file__).parent
LITERAL_KEY = re.compile(r"""\bt(?:\(\s*"([^"]+)"|\[\s*["']([^"']+)["']\s*\])""")
"""``t("seat.hand")`` in a script, ``t["seat.hand"]`` in a template."""
BUILT_KEY = re.compile(r"`([a-z_]+[.:][a-z_.:-]*)\$\{")
"""The fixed start of a key a script builds: ``t(`colour.${name}`)``."""
IMPORT = re.compile(r'(?:from|import\() ?"(\.\.?/[\w/-]+\.js)"')
"""A module a script imports, by its path from the script's own folder."""
GAME_LOADER = "game.js"
"""The module that loads a game's own module, ``games/<name>.js``, when it is played."""


@cache
def scripts_of(page: str, game: str | None = None) -> frozenset[str]:
    """A page's module and every module it imports, by path under ``static/js``: with the
    game's own modules, of ``game`` only when given, else of every game."""
    found: set[str] = set()
    waiting = [f"{page}.js"]
    while waiting:
        script = waiting.pop()
        if script in found:
            continue
        found.add(script)
        text = (WEB / "static" / "js" / script).read_text("utf-8")
        here = posixpath.dirname(script)
        waiting += [posixpath.normpath(posixpath.join(here, m)) for m in IMPORT.findall(text)]
        if script == GAME_LOADER:
            waiting += [f"games/{name}.js" for name in GAMES if game in (None, name)]
    return frozenset(found)


@cache
def texts_for(page: str, lang: str) -> dict[str, Any]:
    """The part of the catalogue a page's template and scripts name, so a phone loads no
    words it never shows: the literal keys, and every key starting as one the scripts build."""
    sources = [WEB / "templates" / name for name in ("base.html", f"{page}.html")]
    sources += [WEB / "static" / "js" / script for script in scripts_of(page)]
    literal: set[str] = set()
    starts: set[str] = set()
    for source in sources:
        text = source.read_text("utf-8")
        literal |= {a or b for a, b in LITERAL_KEY.findall(text)}
        starts |= set(BUILT_KEY.findall(text))
    literal |= {f"{name}.title" for name in PAGES}
    return {
        key: text
        for key, text in catalogue(lang).items()
        if key in literal or key.startswith(tuple(starts))
    }


def blueprint(
    read_only: Callable[[], str | None] = lambda: None, own_network: bool = False
) -> Blueprint:
    """The routes of the three pages; ``read_only`` says why the table stores nothing (shown at
    the top of every page), or ``None``; ``own_network``: the table made its own Wi-Fi, whose
    code the table page then asks for (and only then)."""
    pages = Blueprint("pages", __name__)
    for name, path in PAGES.items():
        pages.add_url_rule(
            path,
            name,
            lambda name=name: page(name, read_only=read_only(), own_network=own_network),
            provide_automatic_options=False,
        )
    return pages


def page(name: str, **shown: Any) -> Response:
    """Page ``name`` (its template ``<name>.html``) in the request's language, with what else
    its template shows; a language asked for in the address is kept in a cookie."""
    asked = request.args.get("lang")
    lang = of_request()
    texts = texts_for(name, lang)
    body = render_template(
        f"{name}.html",
        page=name,
        lang=lang,
        languages=LANGUAGES,
        t=texts,
        catalogue=texts,
        **{"read_only": None, **shown},
    )
    response = Response(body, mimetype="text/html")
    response.headers.update(PAGE_HEADERS)
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    if asked in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=YEAR_S, samesite="Strict")
    return response
