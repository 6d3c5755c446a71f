"""Every error the API answers, in one JSON shape: ``{"error": {"code", "message"}}``.

What a request got wrong maps to a 4xx status by the error's class; the message is the sentence
the table or the engine wrote, in the request's language where it was written in two
(:mod:`companion.games.sentence`), so a player reads why an action was refused; an action offered
before the game moved on is refused 409 with the view as it is now, besides. A write the state
directory refused is answered 507 (its disk is full, or it is read-only) or 503 (another fault
of its disk), naming the directory and the fix; nothing was changed, and the same request
succeeds once the disk is mended. Anything else is the table's own failure: it is logged and
answered 503, never a 500 and never an HTML page.

>>> error_body("illegal-action", "It is seat 2's turn.")
{'error': {'code': 'illegal-action', 'message': "It is seat 2's turn."}}
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Response, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.errors import BadMessage, BadOptions, CompanionError, ExportError, IllegalAction
from companion.games.sentence import told
from companion.network.hotspot import NoHotspot
from companion.table.cue_player import CodeHidden
from companion.table.disk import DiskFull, ReadOnly, StoreError
from companion.table.history import UnknownGame
from companion.table.offers import Stale
from companion.table.seat_keys import ClaimUsed, UnknownClaim
from companion.table.session import NoGame
from companion.table.setting_up_asked import NoSensors, NothingToAccept, SetUpBusy
from companion.table.tokens import Forbidden, Unauthorized
from companion.web.language import of_request

log = logging.getLogger(__name__)

TABLE_FAILED = "The table could not do that; try again in a moment."
"""The answer to an error nobody foresaw (503); the log holds the details."""


class ApiError(Exception):
    """A request the web refuses before the table sees it: its status, code and sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (NoGame, 404, "no-game"),
    (UnknownGame, 404, "unknown-game"),
    (UnknownClaim, 404, "unknown-claim"),
    (ClaimUsed, 410, "claim-used"),
    (CodeHidden, 404, "no-referee-code"),
    (NoHotspot, 404, "no-hotspot"),
    (IllegalAction, 409, "illegal-action"),
    (BadMessage, 400, "bad-message"),
    (BadOptions, 400, "bad-options"),
    (ExportError, 400, "not-an-export"),
    (SetUpBusy, 409, "set-up-busy"),
    (NothingToAccept, 409, "nothing-to-accept"),
    (NoSensors, 409, "no-sensors"),
)
"""The table's refusals, first match wins: (class, status, code)."""

STORAGE: tuple[tuple[type[StoreError], int, str], ...] = (
    (DiskFull, 507, "disk-full"),
    (ReadOnly, 507, "state-read-only"),
    (StoreError, 503, "disk-error"),
)
"""Writes the state directory refused, first match wins: logged, as the owner must act."""

HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "too-large",
}


LONGEST_MESSAGE = 400
"""The most characters an error's message has: what it repeats of a request is cut to fit."""


def cut(text: str, limit: int) -> str:
    """What an answer repeats of a request, at most ``limit`` characters.

    >>> cut("PROPFIND", 24), cut("X" * 30, 10)
    ('PROPFIND', 'XXXXXXXXX…')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_body(code: str, message: str) -> dict[str, Any]:
    """The one shape of every error answer."""
    return {"error": {"code": code, "message": cut(message, LONGEST_MESSAGE)}}


def error_response(status: int, code: str, message: str) -> Response:
    """An error answer; a 401 also names the scheme that would do (RFC 6750)."""
    response = jsonify(error_body(code, message))
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="companion"'
    return response


def handle(exc: Exception) -> Response:
    """Turn any exception raised while answering a request into a JSON error answer."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, exc.code, exc.message)
    lang = of_request()
    if isinstance(exc, Stale):
        body = error_body("stale-action", _sentence(told(exc, lang)))
        response = jsonify({**body, "view": exc.view})
        response.status_code = 409
        return response
    for kind, status, code in REFUSALS:
        if isinstance(exc, kind):
            return error_response(status, code, _sentence(told(exc, lang)))
    for kind, status, code in STORAGE:
        if isinstance(exc, kind):
            log.warning("%s %s: %s", request.method, request.path, exc)
            return error_response(status, code, _sentence(told(exc, lang)))
    if isinstance(exc, HTTPException) and exc.code is not None and exc.code < 500:
        return _http_error(exc)
    if isinstance(exc, CompanionError):
        log.warning("%s %s: %s", request.method, request.path, exc)
        return error_response(503, "table-error", _sentence(told(exc, lang)))
    log.error("%s %s failed", request.method, request.path, exc_info=exc)
    return error_response(503, "table-error", TABLE_FAILED)


def _http_error(exc: HTTPException) -> Response:
    status = exc.code or 400
    code = HTTP_CODES.get(status, f"http-{status}")
    if status == 404:
        message = "Nothing is here; the API is described at /api/openapi.json."
    elif isinstance(exc, MethodNotAllowed):
        allowed = sorted(set(exc.valid_methods or ()) - {"HEAD"})
        message = f"{cut(request.method, 24)} is not allowed here; use {' or '.join(allowed)}."
    elif status == 413:
        limit = request.max_content_length
        message = f"The request is larger than the {limit} bytes the table accepts."
    else:
        message = f"{exc.name}."
    response = error_response(status, code, message)
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response


def _sentence(text: str) -> str:
    """A message as a sentence: capitalised, with a full stop.

    >>> _sentence("only the referee starts a game")
    'Only the referee starts a game.'
    >>> _sentence("It is seat 2's turn!")
    "It is seat 2's turn!"
    """
    text = text.strip() or "That cannot be done"
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
