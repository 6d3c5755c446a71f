"""The phone pages: the table view, a seat's view and the referee's view.

Each page is a small template with its texts in the chosen language and a plain JavaScript
module that draws it from the API. No page carries a secret: a seat's or the referee's token
arrives in the address's fragment (never sent to the server), and the scripts send it back only
as ``Authorization: Bearer``.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from companion.web.language import COOKIE, LANGUAGES, catalogue, choose

PAGES = {"table": "/", "seat": "/seat", "referee": "/referee"}

PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
}
"""Scripts and styles from this server only, nothing inline that runs; nothing leaves the table."""

YEAR_S = 365 * 24 * 3600


def blueprint() -> Blueprint:
    """The routes of the three pages."""
    pages = Blueprint("pages", __name__)

    def page(name: str) -> Response:
        asked = request.args.get("lang")
        lang = choose(asked, request.cookies.get(COOKIE), request.headers.get("Accept-Language"))
        texts = catalogue(lang)
        body = render_template(
            f"{name}.html",
            page=name,
            lang=lang,
            languages=LANGUAGES,
            t=texts,
            catalogue=texts,
        )
        response = Response(body, mimetype="text/html")
        response.headers.update(PAGE_HEADERS)
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        if asked in LANGUAGES:
            response.set_cookie(COOKIE, lang, max_age=YEAR_S, samesite="Strict")
        return response

    for name, path in PAGES.items():
        pages.add_url_rule(
            path, name, lambda name=name: page(name), provide_automatic_options=False
        )
    return pages
