"""What the API reads from a request: the bearer token, the JSON body, the stream's last id,
and the numbers and times of a query.

Each is checked here, before the table sees it, so the table gets only text it can compare and
JSON it can store: a token of the characters RFC 6750 allows; a body that is strict UTF-8 JSON,
a single object, nested at most a few levels, no object naming a key twice, its numbers finite
and within what JavaScript counts exactly (I-JSON, RFC 7493), its strings free of lone
surrogates.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Any

from companion.errors import BadMessage
from companion.games.sentence import Sentence
from companion.table.setting_up_asked import Asked
from companion.table.setting_up_shown import MOST_GRAMS, STEPS
from companion.web.errors import ApiError

BEARER = re.compile(r"Bearer +([A-Za-z0-9\-._~+/]{1,256}=*) *", re.IGNORECASE)
MAX_DEPTH = 16
MAX_INT = 2**53 - 1
EVENT_ID = re.compile(r"[0-9]{1,15}")
WHOLE = re.compile(r"[0-9]{1,16}")


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization`` header; ``None`` when there is none.

    A header of another scheme, or a token with characters no token has, is refused (401);
    a token anywhere else (a cookie, the query string) is never looked at.

    >>> bearer_token("Bearer abc-DEF_123")
    'abc-DEF_123'
    >>> bearer_token(None) is None
    True
    """
    if header is None:
        return None
    match = BEARER.fullmatch(header)
    if match is None:
        raise ApiError(
            401, "unauthorized", "Send your token as an Authorization header: Bearer <token>."
        )
    return match.group(1)


def json_object(data: bytes) -> dict[str, Any]:
    """The request's body as a JSON object, or a 400 that says what is wrong with it.

    >>> json_object(b'{"type": "roll", "by": 1}')
    {'type': 'roll', 'by': 1}
    >>> json_object(b'[1]')
    Traceback (most recent call last):
    companion.web.errors.ApiError: The body must be a JSON object.

    A key given twice is refused, not settled by the last one: two readers of such a body
    (a proxy, a log, the table) could each see a different action.

    >>> json_object(b'{"by": 1, "by": "referee"}')
    Traceback (most recent call last):
    companion.web.errors.ApiError: The body gives the key "by" twice: send each key once.
    """
    try:
        value = json.loads(
            data.decode("utf-8"), parse_constant=_no_constant, object_pairs_hook=_unique_keys
        )
    except UnicodeDecodeError:
        raise ApiError(400, "bad-json", "The body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400,
            "bad-json",
            f"The body is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}.",
        ) from None
    except RecursionError:
        raise ApiError(
            400, "bad-json", f"The body is nested deeper than {MAX_DEPTH} levels."
        ) from None
    except ValueError:  # a number of more digits than Python reads
        raise ApiError(400, "bad-json", "A number in the body is too long.") from None
    if not isinstance(value, dict):
        raise ApiError(400, "bad-message", "The body must be a JSON object.")
    _check(value, 1)
    return value


def last_event_id(header: str | None) -> int | None:
    """The ``Last-Event-ID`` a reconnecting stream sends; ``None`` when absent or not ours.

    >>> last_event_id("41"), last_event_id("forty-one"), last_event_id(None)
    (41, None, None)
    """
    if header is None or EVENT_ID.fullmatch(header.strip()) is None:
        return None
    return int(header)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the body, refused when it names a key twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            shown = json.dumps(key)
            shown = shown if len(shown) <= 42 else shown[:39] + '..."'
            raise ApiError(
                400, "bad-json", f"The body gives the key {shown} twice: send each key once."
            )
        found[key] = value
    return found


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON knows")


def _check(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ApiError(400, "bad-json", f"The body is nested deeper than {MAX_DEPTH} levels.")
    if isinstance(value, str):
        _text(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ApiError(400, "bad-json", "A whole number in the body is beyond 2^53.")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ApiError(400, "bad-json", "A number in the body is too large.")
    elif isinstance(value, dict):
        for key, item in value.items():
            _text(key)
            _check(item, depth + 1)
    else:
        for item in value:
            _check(item, depth + 1)


def _text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "bad-json", "A text in the body holds a lone surrogate.") from None


def whole_number(text: str | None, name: str, most: int = MAX_INT) -> int | None:
    """A query's whole number from 1 to ``most`` (``?page=2``), ``None`` when it is not given;
    anything else is refused (400).

    >>> whole_number("2", "page"), whole_number(None, "page")
    (2, None)
    """
    if text is None:
        return None
    if WHOLE.fullmatch(text) is None or not 1 <= int(text) <= most:
        raise BadMessage(
            Sentence(
                f"?{name}= is a whole number from 1 to {most}",
                f"?{name}= ist eine ganze Zahl von 1 bis {most}",
            )
        )
    return int(text)


def moment(text: str | None, name: str = "since") -> float | None:
    """A query's moment in Unix seconds: a number of seconds, or an ISO 8601 date and time (the
    table's own time zone where it names none); ``None`` when it is not given; anything else is
    refused (400).

    >>> moment("1700000000"), moment("2023-11-14T22:13:20Z"), moment(None)
    (1700000000.0, 1700000000.0, None)
    """
    if text is None:
        return None
    seconds: float | None
    try:
        seconds = float(text)
    except ValueError:
        seconds = _iso_seconds(text)
    if seconds is None or not math.isfinite(seconds) or abs(seconds) > MAX_INT:
        raise BadMessage(
            Sentence(
                f"?{name}= is a time: Unix seconds, or a date and time like 2026-12-04T18:00",
                f"?{name}= ist eine Zeit: Unix-Sekunden, oder Datum und Uhrzeit wie "
                "2026-12-04T18:00",
            )
        )
    return seconds


def _iso_seconds(text: str) -> float | None:
    """An ISO 8601 date and time in Unix seconds, or ``None``; a ``+`` of its offset may come as
    a space, as a query writes it."""
    for written in (text, text.replace(" ", "+")):
        try:
            when = datetime.fromisoformat(written)
        except ValueError:
            continue
        return (when if when.tzinfo else when.astimezone()).timestamp()
    return None


SET_UP_FIELDS = ("step", "seat", "grams", "reference_c")


def set_up_step(body: dict[str, Any]) -> Asked:
    """A set-up request's fields (``POST /api/calibration``), each checked for its shape; the
    table checks the seat against its own. Anything else is refused (400).

    >>> set_up_step({"step": "weight", "seat": 2, "grams": 7.5})
    Asked(step='weight', seat=2, grams=7.5, reference_c=None)
    >>> set_up_step({"step": "tare", "grams": 7.5})
    Traceback (most recent call last):
    companion.errors.BadMessage: grams is for the weight step only
    """
    unknown = sorted(set(body) - set(SET_UP_FIELDS))
    if unknown:
        raise BadMessage(
            Sentence(
                f"unknown field {unknown[0]!r}: a set-up step takes {', '.join(SET_UP_FIELDS)}",
                f"unbekanntes Feld {unknown[0]!r}: ein Schritt des Einrichtens nimmt "
                f"{', '.join(SET_UP_FIELDS)}",
            )
        )
    step = body.get("step")
    if step not in STEPS:
        raise BadMessage(
            Sentence(
                f"step is one of {', '.join(STEPS)}",
                f"step ist einer von {', '.join(STEPS)}",
            )
        )
    seat = body.get("seat")
    if seat is not None and (type(seat) is not int or not 1 <= seat <= 6):
        raise BadMessage(
            Sentence("seat is a whole number from 1 to 6", "seat ist eine ganze Zahl von 1 bis 6")
        )
    grams = _number(body, "grams", step, "weight", (0.0, MOST_GRAMS), "grams")
    if grams is not None and grams <= 0:
        raise BadMessage(
            Sentence(
                f"grams is a known weight above 0 and at most {MOST_GRAMS:g} g, such as 7.5",
                f"grams ist ein bekanntes Gewicht über 0 und höchstens {MOST_GRAMS:g} g, etwa 7.5",
            )
        )
    reference = _number(body, "reference_c", step, "temperature", (-20.0, 60.0), "°C")
    return Asked(step, seat, grams, reference)


def _number(
    body: dict[str, Any],
    name: str,
    step: str,
    for_step: str,
    within: tuple[float, float],
    unit: str,
) -> float | None:
    """A number of the body for one step only, within its range; ``None`` when not given."""
    value = body.get(name)
    if value is None:
        return None
    if step != for_step:
        raise BadMessage(
            Sentence(
                f"{name} is for the {for_step} step only",
                f"{name} gehört nur zum Schritt {for_step}",
            )
        )
    low, high = within
    if type(value) not in (int, float) or not low <= value <= high:
        raise BadMessage(
            Sentence(
                f"{name} is a number from {low:g} to {high:g} {unit}",
                f"{name} ist eine Zahl von {low:g} bis {high:g} {unit}",
            )
        )
    return float(value)
