"""The referee's set-up of the sensors over the API: ``/api/calibration`` and its accept and
abort, each a call of the table's set-up (:mod:`companion.table.setting_up`), the referee's
only. As on every route, the token is read first (401), then the body as JSON (400, 413), then
whether the token may do it (403), and then the body's fields (400, :mod:`.inputs`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify

from companion.errors import BadMessage
from companion.games.messages import Actor
from companion.games.sentence import Sentence
from companion.table.service import TableService
from companion.table.setting_up_asked import referee
from companion.web.inputs import set_up_step


def add_routes(
    api: Blueprint,
    service: TableService,
    actor: Callable[[], Actor],
    json_body: Callable[..., dict[str, Any]],
) -> None:
    """Add the set-up's routes to ``api`` (the ``/api`` blueprint)."""
    route: dict[str, Any] = {"provide_automatic_options": False}

    @api.get("/calibration", **route)
    def calibration() -> Response:
        return jsonify(service.setting_up.shown(actor()).to_json())

    @api.post("/calibration", **route)
    def calibration_step() -> Response:
        who = actor()
        body = json_body()
        referee(who)
        return jsonify(service.setting_up.begin(who, set_up_step(body)).to_json())

    @api.post("/calibration/accept", **route)
    def calibration_accept() -> Response:
        who = actor()
        body = json_body(optional=True)
        referee(who)
        no_fields(body, "accepting")
        return jsonify(service.setting_up.accept(who).to_json())

    @api.post("/calibration/abort", **route)
    def calibration_abort() -> Response:
        who = actor()
        body = json_body(optional=True)
        referee(who)
        no_fields(body, "aborting")
        return jsonify(service.setting_up.abort(who).to_json())


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
