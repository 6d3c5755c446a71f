"""The JSON API: one thin route per thing the table does, each a call of the table service.

The routes read the token and the body (see :mod:`companion.web.inputs`), ask the table, and
answer what it says; refusals are raised by the table and answered by
:mod:`companion.web.errors`. Nothing here knows a game's rules or the table's insides. Each
route is declared with its description (:func:`companion.web.openapi.route`): the API document's
paths are made of them. The table each app answers for is its :class:`Serving`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.errors import BadMessage
from companion.games.messages import Actor
from companion.games.verify import verify
from companion.host.version import this_one
from companion.network.hotspot import Hotspot, NoHotspot, wifi_text
from companion.table.history import EVENING_S, MOST_PAGES
from companion.table.service import TableService
from companion.web.asyncapi import document as mqtt_document
from companion.web.inputs import bearer_token, json_object, last_event_id, moment, whole_number
from companion.web.join import join_base, qr_svg, seat_link
from companion.web.jsontext import SnapshotText
from companion.web.language import of_request
from companion.web.openapi import (
    BODY_ERRORS,
    PUBLIC,
    STORING,
    TOKEN,
    document,
    error_ref,
    operation,
    query,
    ref,
    route,
)
from companion.web.stream import STREAMS, EventStream, Streams, WaitressClient

API = Blueprint("api", __name__, url_prefix="/api")


@dataclass
class Serving:
    """What an app's API answers from: the table ``service``; the stream's heartbeat every
    ``heartbeat_s``; the table's own address (``public_url``) the links lead to; its own Wi-Fi
    network, when it made one; how long an export to check may be (else as any body); the
    streams open (at most :data:`STREAMS` by default, the oldest ends first) and the status's
    text, made once a status."""

    service: TableService
    heartbeat_s: float
    public_url: str | None = None
    hotspot: Hotspot | None = None
    max_export_bytes: int | None = None
    streams: Streams = field(default_factory=lambda: Streams(STREAMS))
    texts: SnapshotText = field(default_factory=SnapshotText)


def serving() -> Serving:
    """The table the app of this request answers for."""
    found: Serving = current_app.extensions["companion"]
    return found


def table() -> TableService:
    return serving().service


def actor() -> Actor:
    return table().actor_of(bearer_token(request.headers.get("Authorization")))


def base() -> str:
    """Where a phone reaches the table: its own address (:func:`.join.join_base`)."""
    return join_base(request.host_url, serving().public_url)


@route(
    API,
    "GET",
    "/status",
    operation(
        "The public table: game, seats, ice, air and sensors.",
        ("The status now.", ref("Status")),
        {},
        security=PUBLIC,
    ),
)
def status() -> Response:
    here = serving()
    return Response(here.texts.of(here.service.status()), mimetype="application/json")


@route(
    API,
    "GET",
    "/stream",
    {
        "summary": "The status as server-sent events, a new one on every change.",
        "description": (
            "On connecting, the latest status (or, with Last-Event-ID, the latest "
            "one newer than that id); then each new one as `id: N`, "
            "`event: status`, `data: <Status as JSON>`. While nothing changes, a "
            "`: ping` comment every 15 seconds. At most 16 streams are open at "
            "once and one per `device`: a new one ends the device's old one, or "
            "else the oldest; a stream also ends when its client has not received "
            "what it was sent a heartbeat ago. An ended stream is simply opened "
            "again (EventSource does it by itself)."
        ),
        "security": PUBLIC,
        "parameters": [
            {
                "name": "Last-Event-ID",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
            },
            {
                "name": "device",
                "in": "query",
                "required": False,
                "description": (
                    "The page's own name for itself, kept by the page across "
                    "reloads; its new stream ends its old one: 8 to 64 letters, "
                    "digits, - or _ (the pages send 32 hex digits). Any other text "
                    "counts as none."
                ),
                "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
            },
        ],
        "responses": {
            "200": {
                "description": "The stream; its events' data are Status objects.",
                "content": {"text/event-stream": {"schema": ref("StatusEvent")}},
            },
            "503": error_ref("TableError"),
        },
    },
)
def stream() -> Response:
    here = serving()
    seen = last_event_id(request.headers.get("Last-Event-ID"))
    client = WaitressClient.of(request.environ)
    place = here.streams.admit(request.args.get("device"), here.service.subscribe(seen), client)
    body = EventStream(place, here.heartbeat_s, texts=here.texts, client=client)
    response = Response(body, mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"
    return response


@route(
    API,
    "GET",
    "/setup",
    operation(
        "What a game can be started with: games with their options, seats, colours.",
        ("The choices.", ref("Setup")),
        {},
        security=PUBLIC,
    ),
)
def setup() -> Response:
    return jsonify({**table().setup(), "version": this_one()})


@route(
    API,
    "GET",
    "/join",
    operation(
        "Each seat's join link and its QR code (the referee).",
        ("The current game's seats.", ref("Join")),
        {"401": "Unauthorized", "403": "Forbidden", "404": "NoGame"},
        security=TOKEN,
    ),
)
def join() -> Response:
    return jsonify({"seats": [seat_link(s, base()) for s in table().seat_links(actor())]})


@route(
    API,
    "POST",
    "/join",
    operation(
        "Give a seat a new join code (the referee): its phone is signed out at once "
        "and its old code is spent (a lost phone, a player who swaps).",
        ("The seat with its new link and QR code.", ref("SeatLink")),
        {**BODY_ERRORS, "403": "Forbidden", "404": "NoGame", **STORING},
        security=TOKEN,
        body=ref("NewClaim"),
    ),
)
def renew_claim() -> Response:
    who = actor()
    return jsonify(seat_link(table().renew_claim(who, json_body()), base()))


@route(
    API,
    "GET",
    "/hotspot",
    operation(
        "The table's own Wi-Fi network, with [network] hotspot: its name, password "
        "and QR code, and the table page's address on it with its QR code (the "
        "table page shows both: a phone scans the network, then its seat).",
        ("The network and the table's address.", ref("Hotspot")),
        {"404": "NoHotspot"},
        security=PUBLIC,
    ),
)
def network() -> Response:
    hotspot = serving().hotspot
    if hotspot is None:
        raise NoHotspot("this table made no Wi-Fi network of its own")
    page = f"{base()}/"
    return jsonify(
        {
            "ssid": hotspot.ssid,
            "password": hotspot.password,
            "qr_svg": qr_svg(wifi_text(hotspot.ssid, hotspot.password)),
            "table_url": page,
            "table_qr_svg": qr_svg(page),
        }
    )


@route(
    API,
    "GET",
    "/referee-code",
    operation(
        "The referee's page as a link and a QR code, for 30 s after seat 1's "
        "button was held down for 3 s (the table page shows it; being at the "
        "table is the authority).",
        ("The referee's link and its QR code.", ref("RefereeCode")),
        {"404": "NoRefereeCode"},
        security=PUBLIC,
    ),
)
def referee_code() -> Response:
    link = f"{base()}/referee#{table().referee_code()}"
    return jsonify({"link": link, "qr_svg": qr_svg(link)})


@route(
    API,
    "POST",
    "/claim",
    operation(
        "Take a seat with its link's one-time claim (the seat's page does).",
        ("The seat and its token.", ref("Claimed")),
        {
            "400": "BadRequest",
            "404": "UnknownClaim",
            "410": "ClaimUsed",
            "413": "TooLarge",
            **STORING,
        },
        security=PUBLIC,
        body=ref("ClaimSeat"),
    ),
)
def claim() -> Response:
    return jsonify(table().claim(json_body()))


@route(
    API,
    "GET",
    "/curves",
    operation(
        "Every seat's melt curve since the game started.",
        ("The curves.", ref("Curves")),
        {},
        security=PUBLIC,
    ),
)
def curves() -> Response:
    return jsonify(table().curves())


@route(
    API,
    "GET",
    "/openapi.json",
    operation(
        "This document.",
        ("The OpenAPI document.", {"type": "object", "required": ["openapi"]}),
        {},
        security=PUBLIC,
    ),
)
def openapi() -> Response:
    return jsonify(document())


@route(
    API,
    "GET",
    "/asyncapi.json",
    operation(
        "What a table with [mqtt] publishes to its broker: the AsyncAPI document.",
        ("The AsyncAPI document.", {"type": "object", "required": ["asyncapi"]}),
        {},
        security=PUBLIC,
    ),
)
def asyncapi() -> Response:
    return jsonify(mqtt_document())


@route(
    API,
    "POST",
    "/games",
    operation(
        "Start a game (the referee).",
        ("The game's public view and each seat's one-time claim.", ref("Started")),
        {**BODY_ERRORS, "403": "Forbidden", "409": "IllegalAction", **STORING},
        security=TOKEN,
        body=ref("StartGame"),
        ok_status="201",
    ),
)
def start_game() -> Response:
    who = actor()
    response = jsonify(table().start_game(who, json_body()))
    response.status_code = 201
    return response


@route(
    API,
    "POST",
    "/games/end",
    operation(
        "End the game before its rules do (the referee); no action is taken after.",
        ("The export, with the seed and every event, and `ended` true.", ref("Export")),
        {
            **BODY_ERRORS,
            "403": "Forbidden",
            "404": "NoGame",
            "409": "IllegalAction",
            **STORING,
        },
        security=TOKEN,
        body=ref("EndGame"),
        body_required=False,
    ),
)
def end_game() -> Response:
    who = actor()
    unknown = sorted(json_body(optional=True))
    if unknown:
        raise BadMessage(f"unknown field {unknown[0]!r}: ending a game takes no fields")
    return jsonify(table().end_game(who))


@route(
    API,
    "GET",
    "/view",
    operation(
        "The game as the token's holder may see it, with its legal actions.",
        ("The view.", ref("ViewerView")),
        {"401": "Unauthorized", "404": "NoGame"},
        security=TOKEN,
    ),
)
def view() -> Response:
    return jsonify(table().view(actor()))


@route(
    API,
    "POST",
    "/actions",
    operation(
        "Take one of the view's legal actions, sent back unchanged.",
        ("The actor's view after the action, which is stored.", ref("ViewerView")),
        {
            **BODY_ERRORS,
            "403": "Forbidden",
            "404": "NoGame",
            "409": "IllegalOrStale",
            **STORING,
        },
        security=TOKEN,
        body=ref("OfferedAction"),
    ),
)
def act() -> Response:
    who = actor()
    return jsonify(table().act(who, json_body()))


@route(
    API,
    "GET",
    "/export",
    operation(
        "The game's log: the referee's at any time, anyone's once it is over; with "
        "?game=N, finished game N's (the history's export links), for anyone.",
        ("The export.", ref("Export")),
        {
            "400": "BadQuery",
            "401": "Unauthorized",
            "403": "Forbidden",
            "404": "NoExport",
        },
        security=[{}, *TOKEN],
        parameters=[
            query(
                "game",
                "A finished game's number, as the history gives it.",
                {"type": "string", "pattern": "^[0-9]+$"},
            )
        ],
    ),
)
def export() -> Response:
    """The game's export; with ``?game=N``, finished game N's, for anyone."""
    game = whole_number(request.args.get("game"), "game")
    if game is not None:
        return jsonify(table().history.export(game))
    header = request.headers.get("Authorization")
    who: Actor | None = None if header is None else actor()
    return jsonify(table().export(who))


@route(
    API,
    "GET",
    "/history",
    operation(
        "The finished games, newest first: who played, who won and how, the "
        "scores, when and how long, whether the referee ended it early.",
        ("A page of the history.", ref("History")),
        {"400": "BadQuery"},
        security=PUBLIC,
        parameters=[
            query(
                "page",
                f"The page, from 1 (the newest games) to {MOST_PAGES}; 1 by default.",
                {"type": "string", "pattern": "^[0-9]+$"},
            )
        ],
    ),
)
def history() -> Response:
    """The finished games, newest first, a page at a time, each with its export's link."""
    page = whole_number(request.args.get("page"), "page", MOST_PAGES) or 1
    found = table().history.page(page)
    games = [{**game, "export": f"/api/export?game={game['id']}"} for game in found["games"]]
    return jsonify({**found, "games": games})


@route(
    API,
    "GET",
    "/standings",
    operation(
        "Per player name, the games played and won, by game, since a time.",
        ("The standings.", ref("Standings")),
        {"400": "BadQuery"},
        security=PUBLIC,
        parameters=[
            query(
                "since",
                "Unix seconds, or an ISO 8601 date and time (the table's time zone "
                "where it names none); by default this evening: "
                f"{EVENING_S / 3600:g} hours before the latest game started. The "
                "games that started since count.",
                {"type": "string", "minLength": 1},
            )
        ],
    ),
)
def standings() -> Response:
    """Per player, the games played and won since ``?since=`` (default: this evening)."""
    return jsonify(table().history.standings(moment(request.args.get("since"))))


@route(
    API,
    "POST",
    "/verify",
    operation(
        "Check an export as companion verify does: the seed against the "
        "commitment, and every shuffle, draw and roll replayed.",
        ("The verdict, in the request's language.", ref("Verdict")),
        {"400": "NotAnExport", "413": "TooLarge"},
        security=PUBLIC,
        body={
            "description": "An export of a finished game, as /api/export gives it.",
            "type": "object",
        },
    ),
)
def check_export() -> Response:
    """The verdict of ``companion verify`` on the export posted, in the request's language."""
    most = serving().max_export_bytes
    if most is not None:
        request.max_content_length = most
    return jsonify(verify(json_body()).said(of_request()))


def json_body(optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (an empty one for no body at all, when ``optional``). A body
    without a length (chunked) is cut off at the limit rather than refused, so one that reaches
    the limit is taken to be over it."""
    data = request.get_data(cache=False)
    limit = request.max_content_length
    if limit is not None and request.content_length is None and len(data) >= limit:
        raise RequestEntityTooLarge()
    if optional and not data.strip():
        return {}
    return json_object(data)
