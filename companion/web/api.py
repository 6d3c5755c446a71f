"""The JSON API: one thin route per thing the table does, each a call of the table service.

The routes read the token and the body (see :mod:`companion.web.inputs`), ask the table, and
answer what it says; refusals are raised by the table and answered by
:mod:`companion.web.errors`. Nothing here knows a game's rules or the table's insides.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.errors import BadMessage
from companion.games.messages import Actor
from companion.games.verify import verify
from companion.host.version import this_one
from companion.network.hotspot import Hotspot, NoHotspot, wifi_text
from companion.table.history import MOST_PAGES
from companion.table.service import TableService
from companion.web.asyncapi import document as mqtt_document
from companion.web.calibration import add_routes as add_calibration
from companion.web.inputs import bearer_token, json_object, last_event_id, moment, whole_number
from companion.web.join import join_base, qr_svg, seat_link
from companion.web.jsontext import SnapshotText
from companion.web.language import of_request
from companion.web.openapi import document
from companion.web.stream import STREAMS, EventStream, Streams, WaitressClient


def blueprint(
    service: TableService,
    heartbeat_s: float,
    public_url: str | None = None,
    streams: int = STREAMS,
    hotspot: Hotspot | None = None,
    max_export_bytes: int | None = None,
) -> Blueprint:
    """The ``/api`` routes over ``service``; the stream sends a heartbeat every ``heartbeat_s``;
    the seats' join links lead to ``public_url`` when the referee asks on the loopback; at most
    ``streams`` streams are open at once (the oldest ends first); an export to check may be as
    long as ``max_export_bytes`` (else as any body)."""
    api = Blueprint("api", __name__, url_prefix="/api")
    route = {"provide_automatic_options": False}
    texts = SnapshotText()
    open_streams = Streams(streams)

    def actor() -> Actor:
        return service.actor_of(bearer_token(request.headers.get("Authorization")))

    @api.get("/status", **route)
    def status() -> Response:
        return Response(texts.of(service.status()), mimetype="application/json")

    @api.get("/stream", **route)
    def stream() -> Response:
        seen = last_event_id(request.headers.get("Last-Event-ID"))
        client = WaitressClient.of(request.environ)
        place = open_streams.admit(request.args.get("device"), service.subscribe(seen), client)
        body = EventStream(place, heartbeat_s, texts=texts, client=client)
        response = Response(body, mimetype="text/event-stream")
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @api.get("/setup", **route)
    def setup() -> Response:
        return jsonify({**service.setup(), "version": this_one()})

    @api.get("/join", **route)
    def join() -> Response:
        base = join_base(request.host_url, public_url)
        return jsonify({"seats": [seat_link(s, base) for s in service.seat_links(actor())]})

    @api.post("/join", **route)
    def renew_claim() -> Response:
        who = actor()
        entry = service.renew_claim(who, json_body())
        return jsonify(seat_link(entry, join_base(request.host_url, public_url)))

    @api.get("/hotspot", **route)
    def network() -> Response:
        if hotspot is None:
            raise NoHotspot("this table made no Wi-Fi network of its own")
        table = f"{join_base(request.host_url, public_url)}/"
        return jsonify(
            {
                "ssid": hotspot.ssid,
                "password": hotspot.password,
                "qr_svg": qr_svg(wifi_text(hotspot.ssid, hotspot.password)),
                "table_url": table,
                "table_qr_svg": qr_svg(table),
            }
        )

    @api.get("/referee-code", **route)
    def referee_code() -> Response:
        link = f"{join_base(request.host_url, public_url)}/referee#{service.referee_code()}"
        return jsonify({"link": link, "qr_svg": qr_svg(link)})

    @api.post("/claim", **route)
    def claim() -> Response:
        return jsonify(service.claim(json_body()))

    @api.get("/curves", **route)
    def curves() -> Response:
        return jsonify(service.curves())

    @api.get("/openapi.json", **route)
    def openapi() -> Response:
        return jsonify(document())

    @api.get("/asyncapi.json", **route)
    def asyncapi() -> Response:
        return jsonify(mqtt_document())

    @api.post("/games", **route)
    def start_game() -> Response:
        who = actor()
        answer = service.start_game(who, json_body())
        response = jsonify(answer)
        response.status_code = 201
        return response

    @api.post("/games/end", **route)
    def end_game() -> Response:
        who = actor()
        unknown = sorted(json_body(optional=True))
        if unknown:
            raise BadMessage(f"unknown field {unknown[0]!r}: ending a game takes no fields")
        return jsonify(service.end_game(who))

    @api.get("/view", **route)
    def view() -> Response:
        return jsonify(service.view(actor()))

    @api.post("/actions", **route)
    def act() -> Response:
        who = actor()
        return jsonify(service.act(who, json_body()))

    @api.get("/export", **route)
    def export() -> Response:
        """The game's export; with ``?game=N``, finished game N's, for anyone."""
        game = whole_number(request.args.get("game"), "game")
        if game is not None:
            return jsonify(service.history.export(game))
        header = request.headers.get("Authorization")
        who: Actor | None = None if header is None else actor()
        return jsonify(service.export(who))

    @api.get("/history", **route)
    def history() -> Response:
        """The finished games, newest first, a page at a time, each with its export's link."""
        page = whole_number(request.args.get("page"), "page", MOST_PAGES) or 1
        found = service.history.page(page)
        games = [{**game, "export": f"/api/export?game={game['id']}"} for game in found["games"]]
        return jsonify({**found, "games": games})

    @api.get("/standings", **route)
    def standings() -> Response:
        """Per player, the games played and won since ``?since=`` (default: this evening)."""
        return jsonify(service.history.standings(moment(request.args.get("since"))))

    @api.post("/verify", **route)
    def check_export() -> Response:
        """The verdict of ``companion verify`` on the export posted, in the request's language."""
        if max_export_bytes is not None:
            request.max_content_length = max_export_bytes
        return jsonify(verify(json_body()).said(of_request()))

    add_calibration(api, service, actor, json_body)
    return api


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
