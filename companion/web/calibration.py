"""The referee's set-up of the sensors over the API: ``/api/calibration`` and its accept and
abort, each a call of the table's set-up (:mod:`companion.table.setting_up`), the referee's
only. As on every route, the token is read first (401), then the body as JSON (400, 413), then
whether the token may do it (403), and then the body's fields (400, :mod:`.inputs`)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from companion.errors import BadMessage
from companion.games.sentence import Sentence
from companion.table.setting_up_asked import referee
from companion.web.api import API, actor, json_body, table
from companion.web.inputs import set_up_step
from companion.web.openapi import BODY_ERRORS, TOKEN, operation, ref, route


@route(
    API,
    "GET",
    "/calibration",
    operation(
        "The referee's set-up of the sensors: the step under way, what it asks of "
        "the person at the table, what it read and made of it, why it was refused, "
        "and what it would write to calibration.toml.",
        ("The set-up now.", ref("Calibrating")),
        {"401": "Unauthorized", "403": "Forbidden"},
        security=TOKEN,
    ),
)
def calibration() -> Response:
    return jsonify(table().setting_up.shown(actor()).to_json())


@route(
    API,
    "POST",
    "/calibration",
    operation(
        "Start a set-up step (the referee), or give the go for its stage; the "
        "table reads for the stage's seconds (poll the GET), then proposes or "
        "refuses. The steps are companion calibrate's, with its checks.",
        ("The set-up now.", ref("Calibrating")),
        {**BODY_ERRORS, "403": "Forbidden", "409": "SetUpConflict"},
        security=TOKEN,
        body=ref("CalibrationStep"),
    ),
)
def calibration_step() -> Response:
    who = actor()
    body = json_body()
    referee(who)
    return jsonify(table().setting_up.begin(who, set_up_step(body)).to_json())


@route(
    API,
    "POST",
    "/calibration/accept",
    operation(
        "Write what the step proposed to calibration.toml (the referee), as "
        "companion calibrate writes it, the previous one kept as calibration.toml.bak; "
        "the table uses it from its next pass. A file another program changed "
        "meanwhile is not overwritten: the step is refused (changed).",
        ("The set-up, written (or refused).", ref("Calibrating")),
        {**BODY_ERRORS, "403": "Forbidden", "409": "SetUpConflict"},
        security=TOKEN,
        body=ref("EndGame"),
        body_required=False,
    ),
)
def calibration_accept() -> Response:
    who = actor()
    body = json_body(optional=True)
    referee(who)
    no_fields(body, "accepting")
    return jsonify(table().setting_up.accept(who).to_json())


@route(
    API,
    "POST",
    "/calibration/abort",
    operation(
        "End the step under way, or put away the last one's words (the referee): "
        "nothing is written, and a simulated table is put back as it was.",
        ("The set-up, idle.", ref("Calibrating")),
        {**BODY_ERRORS, "403": "Forbidden"},
        security=TOKEN,
        body=ref("EndGame"),
        body_required=False,
    ),
)
def calibration_abort() -> Response:
    who = actor()
    body = json_body(optional=True)
    referee(who)
    no_fields(body, "aborting")
    return jsonify(table().setting_up.abort(who).to_json())


def no_fields(body: dict[str, Any], doing: str) -> None:
    """Refuse a body with fields where none is taken (400)."""
    if body:
        name = sorted(body)[0]
        raise BadMessage(
            Sentence(
                f"unknown field {name!r}: {doing} takes no fields",
                f"unbekanntes Feld {name!r}: das nimmt keine Felder",
            )
        )
