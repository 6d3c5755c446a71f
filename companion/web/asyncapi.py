"""The AsyncAPI 2.6 document of what a table publishes over MQTT, served beside the OpenAPI one
at ``/api/asyncapi.json``. The payloads' schemas come from their classes (:mod:`.payloads`) and
the status's from the OpenAPI document's, so the two never disagree; the tests check every
message a table publishes against this document.

>>> doc = document()
>>> sorted(doc["channels"])[:2]
['companion/{table}/availability', 'companion/{table}/event']
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.games.messages import schema_of
from companion.mqtt.discovery import PRESSES
from companion.mqtt.payloads import OFFLINE, ONLINE, PREFIX, SeatReading, TableStatus
from companion.table.happenings import KINDS
from companion.web.openapi import SCHEMAS

Schema = dict[str, Any]

FACTS: dict[str, dict[str, Schema]] = {
    "game-started": {"seats": {"type": "array", "items": {"type": "integer", "minimum": 1}}},
    "turn": {"seat": {"type": "integer", "minimum": 1}},
    "attack": {"seat": {"type": "integer", "minimum": 1}, "attack": {"type": "string"}},
    "count-started": {"seat": {"type": "integer", "minimum": 1}, "of": {"type": "integer"}},
    "count-finished": {"seat": {"type": "integer", "minimum": 1}, "completed": {"type": "boolean"}},
    "weigh-in": {"seat": {"type": "integer", "minimum": 1}, "grams": {"type": "number"}},
    "melted": {"seat": {"type": "integer", "minimum": 1}},
    "game-over": {"winner": {"type": ["integer", "null"], "minimum": 1}},
    "button": {"seat": {"type": "integer", "minimum": 1}, "press": {"enum": sorted(PRESSES)}},
}
"""Each kind of event's own facts, beside ``n``, ``kind`` and ``time``."""
DESCRIPTIONS = {
    "game-started": "The referee started a game for these seats.",
    "turn": "A seat's turn began (a new game's first turn too).",
    "attack": "An attack of this kind was carried out on the seat's cube.",
    "count-started": "A ten-count began for the seat: `of` counts.",
    "count-finished": "The seat's count ended: played to its end, or stopped (`completed` false).",
    "weigh-in": "The seat's cap settled on its pad: the ice it weighed.",
    "melted": "The table calls the seat's cube gone (the seat or the referee confirms it).",
    "game-over": "The rules ended the game; `winner` is null for a tie.",
    "button": "The seat's button was pressed (`short`) or held (`long`).",
}


COMPONENTS = ("sensor", "binary_sensor", "device_automation")
DEVICE: Schema = {
    "type": "object",
    "required": ["identifiers", "name", "manufacturer", "model", "configuration_url"],
}
DISCOVERY: Schema = {
    "oneOf": [
        {
            "type": "object",
            "required": ["name", "unique_id", "state_topic", "availability_topic", "device"],
            "properties": {"device": DEVICE, "value_template": {"type": "string"}},
        },
        {
            "type": "object",
            "required": ["automation_type", "topic", "payload", "type", "subtype", "device"],
            "properties": {"automation_type": {"const": "trigger"}, "device": DEVICE},
        },
    ]
}
"""Home Assistant's discovery payloads, as far as the table relies on them."""


def event_schema(kind: str) -> Schema:
    facts = FACTS[kind]
    return {
        "title": f"{kind} event",
        "description": DESCRIPTIONS[kind],
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "description": "The happening's number."},
            "kind": {"const": kind},
            "time": {"type": "number", "description": "Unix seconds: a label, not an interval."},
            **facts,
        },
        "required": ["n", "kind", "time", *facts],
        "additionalProperties": False,
    }


def _status_schemas() -> dict[str, Schema]:
    """The OpenAPI document's schemas, with ``status`` of :class:`TableStatus` its Status."""
    table = schema_of(TableStatus)
    table["properties"]["status"] = {"$ref": "#/components/schemas/Status"}
    return {**SCHEMAS, "TableStatus": table, "SeatReading": schema_of(SeatReading)}


@cache
def document() -> dict[str, Any]:
    """The document (built once; the caller must not change it)."""
    assert set(FACTS) == set(KINDS), "every happening is documented"
    table = {
        "table": {"description": "The table's id: [mqtt] table.", "schema": {"type": "string"}}
    }
    seat = {**table, "seat": {"description": "A seat's number.", "schema": {"type": "integer"}}}

    def channel(description: str, message: Schema, params: Schema, retained: bool) -> Schema:
        bindings = {"mqtt": {"qos": 0, "retain": retained, "bindingVersion": "0.1.0"}}
        return {
            "description": description,
            "parameters": params,
            "subscribe": {"message": message, "bindings": bindings},
        }

    return {
        "asyncapi": "2.6.0",
        "info": {
            "title": "companion table over MQTT",
            "version": "1",
            "description": (
                "What a table with [mqtt] publishes. It only publishes: no game action is "
                "taken over MQTT, and no payload holds a token, a hand, the draw pile's order "
                "or the game's seed. Home Assistant's discovery configs are published too "
                "(retained, under the discovery prefix), and resent when Home Assistant "
                "publishes `online` on `<prefix>/status`."
            ),
        },
        "defaultContentType": "application/json",
        "channels": {
            f"{PREFIX}/{{table}}/availability": channel(
                "Retained; `online` while the table is connected, `offline` (its last will) "
                "once it stopped or its connection died.",
                {"contentType": "text/plain", "payload": {"enum": [ONLINE, OFFLINE]}},
                table,
                True,
            ),
            f"{PREFIX}/{{table}}/status": channel(
                "Retained; the public status, at most once a second and at once on a new "
                "game, turn or end.",
                {"payload": {"$ref": "#/components/schemas/TableStatus"}},
                table,
                True,
            ),
            f"{PREFIX}/{{table}}/seat/{{seat}}": channel(
                "Retained; a seat's ice, countdown, air and sensors, when they change (at "
                "most once a second).",
                {"payload": {"$ref": "#/components/schemas/SeatReading"}},
                seat,
                True,
            ),
            f"{PREFIX}/{{table}}/seat/{{seat}}/button": channel(
                "Not retained; the seat's button: `short` (pressed) or `long` (held), Home "
                "Assistant's device triggers.",
                {"contentType": "text/plain", "payload": {"enum": sorted(PRESSES)}},
                seat,
                False,
            ),
            f"{PREFIX}/{{table}}/event": channel(
                "Not retained; what just happened at the table, in order (`n`).",
                {"payload": {"oneOf": [event_schema(kind) for kind in KINDS]}},
                table,
                False,
            ),
            "homeassistant/{component}/companion_{table}/{object}/config": channel(
                "Retained; Home Assistant's MQTT discovery of the table's entities and device "
                "triggers (under [mqtt] discovery_prefix, `homeassistant` by default), in Home "
                "Assistant's own format.",
                {"payload": DISCOVERY},
                {
                    **table,
                    "component": {"schema": {"enum": sorted(COMPONENTS)}},
                    "object": {"schema": {"type": "string"}},
                },
                True,
            ),
        },
        "components": {"schemas": _status_schemas()},
    }
