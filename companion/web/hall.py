"""The hall's web page: every table of a room on one screen (``companion hall``).

The same conventions as the table's pages: a thin Flask app, JSON answers and errors, a stream
of server-sent events. ``/api/tables?name=`` answers the tables ordered by name (those whose
name holds ``name``); ``/api/stream?name=`` sends them all as ``event: tables``, then each table
that changes as ``event: table``. A table's card links to its own page (the address it publishes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.mqtt.room import Room
from companion.web.pages import page

HEARTBEAT_S = 15.0
"""A comment line this often keeps a quiet stream's connection open through proxies."""
NAME_CHARACTERS = 40


def create_hall_app(room: Room, broker: str, heartbeat_s: float = HEARTBEAT_S) -> Flask:
    """The hall's app over ``room``; ``broker`` is named on the page."""
    app = Flask(__name__)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    def wanted() -> str:
        return request.args.get("name", "")[:NAME_CHARACTERS]

    @app.get("/")
    def hall() -> Response:
        return page("hall", broker=broker)

    @app.get("/api/tables")
    def tables() -> Response:
        return jsonify({"tables": [c.to_json() for c in room.cards(wanted())]})

    @app.get("/api/stream")
    def stream() -> Response:
        name = wanted()

        def events() -> Iterator[str]:
            seen = room.changes
            yield _event("tables", {"tables": [c.to_json() for c in room.cards(name)]})
            while True:
                latest = room.wait(seen, heartbeat_s)
                if latest == seen:
                    yield ": still here\n\n"
                    continue
                for card in room.cards(name):
                    if card.changed > seen:
                        yield _event("table", card.to_json())
                seen = latest

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(events(), mimetype="text/event-stream", headers=headers)

    @app.errorhandler(HTTPException)
    def refused(error: HTTPException) -> tuple[Response, int]:
        code = (error.name or "error").lower().replace(" ", "-")
        body = {"error": {"code": code, "message": error.description or error.name}}
        return jsonify(body), error.code or 400

    return app


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
