"""The JSON API: one thin route per thing the table does, each a call of the table service.

The routes read the token and the body (see :mod:`companion.web.inputs`), ask the table, and
answer what it says; refusals are raised by the table and answered by
:mod:`companion.web.errors`. Nothing here knows a game's rules or the table's insides.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.games.messages import Actor
from companion.table.service import TableService
from companion.web.inputs import bearer_token, json_object, last_event_id
from companion.web.jsontext import SnapshotText
from companion.web.openapi import document
from companion.web.stream import EventStream


def blueprint(service: TableService, heartbeat_s: float) -> Blueprint:
    """The ``/api`` routes over ``service``; the stream sends a heartbeat every ``heartbeat_s``."""
    api = Blueprint("api", __name__, url_prefix="/api")
    route = {"provide_automatic_options": False}
    texts = SnapshotText()

    def actor() -> Actor:
        return service.actor_of(bearer_token(request.headers.get("Authorization")))

    @api.get("/status", **route)
    def status() -> Response:
        return Response(texts.of(service.status()), mimetype="application/json")

    @api.get("/stream", **route)
    def stream() -> Response:
        seen = last_event_id(request.headers.get("Last-Event-ID"))
        body = EventStream(service.subscribe(seen), heartbeat_s, texts=texts)
        response = Response(body, mimetype="text/event-stream")
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @api.get("/openapi.json", **route)
    def openapi() -> Response:
        return jsonify(document())

    @api.post("/games", **route)
    def start_game() -> Response:
        who = actor()
        answer = service.start_game(who, json_body())
        response = jsonify(answer)
        response.status_code = 201
        return response

    @api.get("/view", **route)
    def view() -> Response:
        return jsonify(service.view(actor()))

    @api.post("/actions", **route)
    def act() -> Response:
        who = actor()
        return jsonify(service.act(who, json_body()))

    @api.get("/export", **route)
    def export() -> Response:
        header = request.headers.get("Authorization")
        who: Actor | None = None if header is None else actor()
        return jsonify(service.export(who))

    return api


def json_body() -> dict[str, Any]:
    """The request's JSON object. A body without a length (chunked) is cut off at the limit
    rather than refused, so one that reaches the limit is taken to be over it."""
    data = request.get_data(cache=False)
    limit = request.max_content_length
    if limit is not None and request.content_length is None and len(data) >= limit:
        raise RequestEntityTooLarge()
    return json_object(data)
