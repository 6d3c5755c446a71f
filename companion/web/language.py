"""The pages' languages: one catalogue of texts per language, and which one a phone gets.

Every word a page shows comes from ``catalogue/<lang>.json``: the templates take the page's
headings from it, and the scripts get the whole catalogue inline. A phone gets the language it
asks for with ``?lang=``, else the one it chose before (a cookie, set by the switch), else the
best match of its ``Accept-Language``, else English.

>>> choose(None, None, "de-AT,de;q=0.9,en;q=0.5")
'de'
>>> choose("en", "de", "de")
'en'
>>> choose("xx", None, None)
'en'
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

LANGUAGES = ("en", "de")
DEFAULT = "en"
COOKIE = "lang"
FOLDER = Path(__file__).parent / "catalogue"


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The texts of ``lang``: a flat object of keys to texts with ``{name}`` placeholders; a
    text that says a number of things is an object of its plural forms (``{"one": ..., "other":
    ...}``, and ``"count"``: the placeholder that holds the number, when it is not ``n``), of
    which the page's ``t()`` picks one (``static/js/common.js``)."""
    return dict(json.loads((FOLDER / f"{lang}.json").read_text(encoding="utf-8")))


def of_request(asked: str | None = None) -> str:
    """The language of the request being answered: ``asked``, else its ``?lang=``, cookie or
    ``Accept-Language`` (a page's scripts send the page's own)."""
    return choose(
        asked or request.args.get("lang"),
        request.cookies.get(COOKIE),
        request.headers.get("Accept-Language"),
    )


def choose(asked: str | None, kept: str | None, accept_language: str | None) -> str:
    """The language a page is shown in: asked for, kept from before, accepted, or English."""
    for lang in (asked, kept):
        if lang in LANGUAGES:
            return lang
    accepted = parse_accept_header(accept_language or "", LanguageAccept)
    return accepted.best_match(LANGUAGES, default=DEFAULT) or DEFAULT
