"""The OpenAPI 3.1 document of the API, served at ``/api/openapi.json``.

It names every route, who may call it (a bearer token, or nobody), every status it answers and
the shape of every body; the tests check each answer they get against it. The status and every
game's actions are derived from their classes (:mod:`companion.table.status`, each game's
messages) and closed, so a field added there is described here and a field added elsewhere
fails the tests; views are described loosely (each game shows its own board), the error shape
exactly.

>>> doc = document()
>>> doc["openapi"], doc["paths"]["/api/status"]["get"]["security"]
('3.1.0', [])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from flask import Blueprint

from companion.config import COLOURS
from companion.games import GAMES
from companion.games.messages import one_of, schema_of
from companion.games.record import TakeBack
from companion.table.curves import CAPACITY, INTERVAL_S
from companion.table.history import MOST_COUNTED, MOST_PAGES, PAGE_SIZE
from companion.table.setting_up_shown import MOST_GRAMS, STEPS, Calibrating
from companion.table.status import Status

Schema = dict[str, Any]


ACTIONS = (*(action for e in GAMES.values() for action in e.ACTIONS), TakeBack)
AFTER: Schema = {
    "type": "integer",
    "minimum": 0,
    "description": "The number of actions the game had when the action was offered.",
}


def offered(action: Schema) -> Schema:
    """An action's schema with its ``after`` stamp, which it must carry."""
    properties = {**action["properties"], "after": AFTER}
    return {**action, "properties": properties, "required": [*action["required"], "after"]}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [{"type": "null"}, schema]}


ERROR_DETAIL: Schema = {
    "type": "object",
    "required": ["code", "message"],
    "additionalProperties": False,
    "properties": {
        "code": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
        "message": {"type": "string", "minLength": 1},
    },
}
"""What every error says: a short code for programs, a sentence for people."""

SCHEMAS: dict[str, Schema] = {
    "Error": {
        "description": "Every error: a short code for programs, a sentence for people.",
        "type": "object",
        "required": ["error"],
        "additionalProperties": False,
        "properties": {"error": ERROR_DETAIL},
    },
    "View": {
        "description": (
            "A game as one viewer may see it. Every game adds its own board, and the dice "
            "games each seat's score so far (points_from: ScorePart); a seat's view of Cool "
            "Runnings adds its own hand, and no view shows another seat's hand or the order "
            "of a draw pile."
        ),
        "type": "object",
        "required": ["game", "phase", "turn_seat", "commitment", "seats", "viewer"],
        "properties": {
            "game": {"enum": sorted(GAMES)},
            "phase": {"type": "string"},
            "turn_seat": {"type": ["integer", "null"]},
            "commitment": ref("Commitment"),
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "name", "colour"],
                    "properties": {
                        "seat": ref("SeatNumber"),
                        "name": {"type": "string"},
                        "colour": {"type": "string"},
                    },
                },
            },
            "viewer": {"oneOf": [ref("SeatNumber"), {"enum": ["referee", "public"]}]},
            "changes": {
                "type": "integer",
                "minimum": 0,
                "description": (
                    "The game's count of changes the view is of (a seat's or the referee's): "
                    "a page holding it needs no new view for a status of the same count."
                ),
            },
            "legal_actions": {"type": "array", "items": ref("OfferedAction")},
            "odds": nullable(ref("Odds")),
            "outcome": {
                "description": (
                    "The dice games' views: the outcome once the game is over, else null."
                ),
                **nullable(ref("Outcome")),
            },
            "take_back": {
                "description": (
                    "The referee's view only: the take-back to post to /api/actions, which "
                    "takes back the last action that stands, and that action in words (en, de); "
                    "null when nothing stands or the game is over."
                ),
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["action", "en", "de"],
                        "additionalProperties": False,
                        "properties": {
                            "action": ref("OfferedAction"),
                            "en": {"type": "string"},
                            "de": {"type": "string"},
                        },
                    },
                ],
            },
        },
    },
    "ViewerView": {
        "description": "A seat's or the referee's view, with the actions it may take now.",
        "allOf": [ref("View"), {"required": ["legal_actions"]}],
    },
    "Odds": {
        "description": (
            "The dice games' exact odds of the roll the seat on turn is about to make, each "
            "rounded to 3 decimals; null when no roll is pending, and in the view of a seat "
            "whose roll it is not. Each game's odds module documents its keys: Cool am Pool "
            "lifeguard, colour (per colour) and reach (per colour, the best chance of ending "
            "the turn with at_least dice of it and a lounger worth that many the lifeguard "
            "leaves open); Daddy Cool no-floe, must-roll-again, may-stop "
            "and tub (with at_least, the floes to the tub), which add up to 1, and cub-stays; "
            "Ice Trays one entry per face of the die (colour, wild, steal), which add up to 1, "
            "and no-move (the share of those faces that allow no move)."
        ),
        "type": "object",
        "required": ["dice_in_hand", "chances"],
        "additionalProperties": False,
        "properties": {
            "dice_in_hand": {"type": "integer", "minimum": 1},
            "chances": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["key", "p"],
                    "additionalProperties": False,
                    "properties": {
                        "key": {"enum": sorted({k for e in GAMES.values() for k in e.ODDS})},
                        "p": {"type": "number", "minimum": 0, "maximum": 1},
                        "colour": {"type": "string"},
                        "at_least": {"type": "integer", "minimum": 1},
                    },
                },
            },
        },
    },
    "Action": {
        "description": (
            "One of every game's actions, told apart by its type, as the log keeps it; or the "
            "referee's take-back of the last action that stands."
        ),
        **one_of(ACTIONS),
    },
    "OfferedAction": {
        "description": (
            "One entry of a view's legal_actions, posted back unchanged to take it: an action "
            "with `after`, the number of changes the game had when it was offered (its actions "
            "and the referee's take-backs). Posted again, "
            "or after the game moved on, it is not taken twice: the very action that moved the "
            "game is answered as the first time, any other is refused 409 with the view now."
        ),
        "oneOf": [offered(branch) for branch in one_of(ACTIONS)["oneOf"]],
    },
    "StaleAction": {
        "description": "An action offered before the game moved on: not taken; the view now.",
        "type": "object",
        "required": ["error", "view"],
        "additionalProperties": False,
        "properties": {
            "error": ERROR_DETAIL,
            "view": ref("ViewerView"),
        },
    },
    "StartGame": {
        "type": "object",
        "required": ["game"],
        "additionalProperties": False,
        "properties": {
            "game": {"enum": sorted(GAMES)},
            "seats": {
                "description": "The seats that play; without it, every seat of the table.",
                "type": "array",
                "items": {
                    "oneOf": [
                        ref("SeatNumber"),
                        {
                            "type": "object",
                            "required": ["seat"],
                            "additionalProperties": False,
                            "properties": {
                                "seat": ref("SeatNumber"),
                                "name": {
                                    "type": "string",
                                    "minLength": 1,
                                    "maxLength": 40,
                                    "description": (
                                        "Shown on every phone, so it holds no control "
                                        "character, line break or invisible format character "
                                        "(the bidirectional controls U+202A..U+202E and "
                                        "U+2066..U+2069 among them; the zero-width joiner and "
                                        "non-joiner are allowed): 400 bad-options otherwise."
                                    ),
                                },
                                "colour": {
                                    "description": "One of the table's colours (see /api/setup).",
                                    "enum": list(COLOURS),
                                },
                            },
                        },
                    ]
                },
            },
            "options": {"type": "object", "description": "The game's options (its data files)."},
            "seeds": {
                "description": "Seeds the players typed, mixed into the device's secret seed.",
                "type": "array",
                "items": {"type": "string"},
            },
            "replace": {
                "description": "Start even though a game is being played: that game ends unfinished"
                " (without it, 409).",
                "type": "boolean",
            },
        },
    },
    "EndGame": {
        "description": "Nothing: the body may be left out, or be an empty object.",
        "type": "object",
        "maxProperties": 0,
    },
    "Started": {
        "type": "object",
        "required": ["view", "seat_claims"],
        "properties": {
            "view": ref("View"),
            "seat_claims": {
                "description": (
                    "Each seat's one-time claim, by seat number: the phone that posts it to "
                    "/api/claim is given the seat's token. Never a token."
                ),
                "type": "object",
                "propertyNames": {"pattern": "^[1-6]$"},
                "additionalProperties": ref("Claim"),
            },
        },
    },
    "Claim": {"type": "string", "pattern": "^[A-Za-z0-9_-]{22,}$"},
    "ClaimSeat": {
        "description": "The claim of a seat's link (its fragment after `claim=`).",
        "type": "object",
        "required": ["claim"],
        "additionalProperties": False,
        "properties": {"claim": ref("Claim")},
    },
    "Claimed": {
        "description": (
            "The seat and its token, given once: the token acts as the seat (Bearer) until "
            "the referee gives the seat a new code."
        ),
        "type": "object",
        "required": ["seat", "token"],
        "additionalProperties": False,
        "properties": {
            "seat": ref("SeatNumber"),
            "token": {"type": "string", "minLength": 22},
        },
    },
    "NewClaim": {
        "description": "The seat to give a new code.",
        "type": "object",
        "required": ["seat"],
        "additionalProperties": False,
        "properties": {"seat": ref("SeatNumber")},
    },
    "Export": {
        "description": (
            "A game's log. The seed, the set-up and the events (every shuffle, draw and roll) "
            "only once the game is over, by its rules or by the referee; `companion verify` "
            "checks them against the commitment."
        ),
        "type": "object",
        "required": [
            *("format", "version", "game", "rules", "options", "seats", "commitment"),
            *("outcome", "ended", "seed", "setup", "log"),
        ],
        "properties": {
            "format": {"const": "companion-game"},
            "version": {"const": 1},
            "game": {"enum": sorted(GAMES)},
            "rules": {
                "type": "integer",
                "minimum": 1,
                "description": (
                    "The edition of the game's rules it was played under (1 where an export "
                    "says none): `companion verify` checks only an export of its own edition."
                ),
            },
            "options": {"type": "object"},
            "seats": {"type": "array", "items": {"type": "object", "required": ["seat"]}},
            "commitment": ref("Commitment"),
            "outcome": nullable(ref("Outcome")),
            "ended": {
                "type": "boolean",
                "description": "The referee ended the game early; its outcome is then null.",
            },
            "seed": nullable(
                {
                    "type": "object",
                    "required": ["device", "players"],
                    "properties": {
                        "device": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                        "players": {"type": "array", "items": {"type": "string"}},
                    },
                }
            ),
            "setup": {"type": ["array", "null"], "items": {"type": "object"}},
            "log": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["action"],
                    "properties": {
                        "action": ref("Action"),
                        "events": {"type": "array", "items": {"type": "object"}},
                    },
                },
            },
        },
    },
    "Words": {
        "description": "A text in each language the pages speak.",
        "type": "object",
        "required": ["en", "de"],
        "additionalProperties": False,
        "properties": {"en": {"type": "string"}, "de": {"type": "string"}},
    },
    "StartOption": {
        "description": (
            "One option of a game's start. choice: one of its choices' values; number: from "
            "min to max in steps; boolean; order: a list of its choices' values in the order "
            "wanted (empty: the table draws one)."
        ),
        "type": "object",
        "required": ["name", "type", "default", "label", "hint"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "description": "Its key in the start's options."},
            "type": {"enum": ["choice", "number", "boolean", "order"]},
            "default": {},
            "label": ref("Words"),
            "hint": nullable(ref("Words")),
            "choices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["value", "label"],
                    "additionalProperties": False,
                    "properties": {"value": {}, "label": ref("Words")},
                },
            },
            "min": {"type": "number"},
            "max": {"type": "number"},
            "step": {"type": "number", "exclusiveMinimum": 0},
        },
    },
    "Setup": {
        "description": (
            "What a game can be started with: the referee's form is filled from it; and which "
            "companion is running."
        ),
        "type": "object",
        "required": ["games", "seats", "colours", "version"],
        "additionalProperties": False,
        "properties": {
            "games": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "title", "seats", "ice", "options"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"enum": sorted(GAMES)},
                        "title": {"type": "string"},
                        "seats": {
                            "description": "How many seats may play it.",
                            "type": "object",
                            "required": ["min", "max"],
                            "additionalProperties": False,
                            "properties": {"min": ref("SeatNumber"), "max": ref("SeatNumber")},
                        },
                        "ice": {
                            "description": "Whether its seats play with real ice cubes.",
                            "type": "boolean",
                        },
                        "options": {
                            "description": (
                                "What it is started with besides its seats, for the "
                                "referee's form; each option's default is the table's "
                                "suggestion now (Cool Runnings: the parts for the air)."
                            ),
                            "type": "array",
                            "items": ref("StartOption"),
                        },
                    },
                },
            },
            "seats": {
                "description": "The table's seats as its config names them.",
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "name", "colour"],
                    "additionalProperties": False,
                    "properties": {
                        "seat": ref("SeatNumber"),
                        "name": {"type": "string"},
                        "colour": {"enum": list(COLOURS)},
                    },
                },
            },
            "colours": {
                "description": "The cap colours a seat may have, in the order seats take them.",
                "type": "array",
                "items": {"enum": list(COLOURS)},
            },
            "version": {
                "description": (
                    "The companion running: its package's version, and the commit it was "
                    "installed from (the checkout's, or the one companion install-service "
                    "recorded), left out when it cannot be known."
                ),
                "type": "object",
                "required": ["package"],
                "additionalProperties": False,
                "properties": {
                    "package": {"type": "string"},
                    "commit": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                },
            },
        },
    },
    "Join": {
        "description": (
            "The current game's seats: each one's join link and its QR code while no phone "
            "holds the seat, neither once one does."
        ),
        "type": "object",
        "required": ["seats"],
        "additionalProperties": False,
        "properties": {"seats": {"type": "array", "items": ref("SeatLink")}},
    },
    "Hotspot": {
        "type": "object",
        "required": ["ssid", "password", "qr_svg", "table_url", "table_qr_svg"],
        "additionalProperties": False,
        "properties": {
            "ssid": {"description": "The table's own Wi-Fi network.", "type": "string"},
            "password": {"description": "Its WPA2 password.", "type": "string"},
            "qr_svg": {
                "description": "The network's QR code (WIFI:T:WPA;...), inline SVG.",
                "type": "string",
            },
            "table_url": {"description": "The table page on that network.", "type": "string"},
            "table_qr_svg": {"description": "Its QR code, inline SVG.", "type": "string"},
        },
    },
    "RefereeCode": {
        "type": "object",
        "required": ["link", "qr_svg"],
        "additionalProperties": False,
        "properties": {
            "link": {
                "description": "The referee's page with the referee's token in the fragment.",
                "type": "string",
            },
            "qr_svg": {"description": "The link's QR code, inline SVG.", "type": "string"},
        },
    },
    "SeatLink": {
        "type": "object",
        "required": ["seat", "name", "colour", "joined"],
        "additionalProperties": False,
        "properties": {
            "seat": ref("SeatNumber"),
            "name": {"type": "string"},
            "colour": {"type": "string"},
            "joined": {
                "description": "A phone claimed the seat and holds it: no link, no code.",
                "type": "boolean",
            },
            "url": {
                "description": (
                    "The seat's page with the seat's one-time claim in the fragment, which a "
                    "browser never sends to a server (a link preview claims nothing)."
                ),
                "type": "string",
                "pattern": "^https?://[^#]+/seat#claim=[A-Za-z0-9_-]{22,}$",
            },
            "svg": {
                "description": (
                    "The url's QR code as inline SVG: no XML declaration, a viewBox "
                    "and no size (CSS sizes it), black modules on a white quiet zone."
                ),
                "type": "string",
                "pattern": "^<svg ",
            },
        },
        "dependentRequired": {"url": ["svg"], "svg": ["url"]},
    },
    "Curves": {
        "description": (
            "Every seat's melt curve since the game started (since the table started, without a "
            f"game): a point every {INTERVAL_S:g} table seconds at most and at most {CAPACITY} a "
            "seat; a longer game keeps every other point, at twice the interval."
        ),
        "type": "object",
        "required": ["start", "seats"],
        "additionalProperties": False,
        "properties": {
            "start": {"type": "number", "description": "Unix seconds at t_s = 0."},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "points"],
                    "additionalProperties": False,
                    "properties": {
                        "seat": ref("SeatNumber"),
                        "points": {
                            "description": (
                                "[t_s, grams, sigma_g], oldest first: table seconds since the "
                                "start (a faster simulated table counts faster), the estimate "
                                "of the cube and its uncertainty."
                            ),
                            "type": "array",
                            "maxItems": CAPACITY,
                            "items": {
                                "type": "array",
                                "prefixItems": [
                                    {"type": "number", "minimum": 0},
                                    {"type": "number"},
                                    {"type": "number", "minimum": 0},
                                ],
                                "minItems": 3,
                                "items": False,
                            },
                        },
                    },
                },
            },
        },
    },
    "StatusEvent": {
        "description": (
            "One event of the stream, its fields as named by server-sent events (OpenAPI 3.1 "
            "has no word for a stream; tools read a stream's schema as each event's, as 3.2's "
            "itemSchema): the status's number, the event's name and the status as JSON text; "
            "or a beat."
        ),
        "oneOf": [
            {
                "type": "object",
                "required": ["id", "event", "data"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[0-9]+$"},
                    "event": {"const": "status"},
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": ref("Status"),
                    },
                },
            },
            {
                "description": (
                    "A heartbeat while nothing changes (every 15 s, with no id): a page that "
                    "hears neither a status nor a beat for longer opens the stream again."
                ),
                "type": "object",
                "required": ["event"],
                "properties": {"event": {"const": "beat"}, "data": {"const": ""}},
            },
        ],
    },
    "SeatNumber": {"type": "integer", "minimum": 1, "maximum": 6},
    "Outcome": {
        "description": (
            "How a game ended by its rules: the winner (null: a tie its rules leave), how, each "
            "seat's score where the game keeps one (Daddy Cool: where each cub stands on the "
            "path), the counts a game names besides (Ice Trays' cubes), seat by seat; and in "
            "the dice games the ranking, first to last: each seat's place (seats the rules "
            "cannot tell apart share one), its points (null in Daddy Cool, which counts none) "
            "and the parts they came from (Cool am Pool: lounger, foreign-towel, chips; Ice "
            "Trays: cubes, blueberries; Daddy Cool: to-tub, the floes left to the tub); and "
            "each set of seats level on points with the count that was to tell them apart "
            "(bathers, cubes)."
        ),
        "type": "object",
        "required": ["winner", "how"],
        "properties": {
            "winner": nullable(ref("SeatNumber")),
            "how": {"type": "string"},
            "scores": ref("PerSeat"),
            "ranking": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["place", "seat", "points", "parts"],
                    "additionalProperties": False,
                    "properties": {
                        "place": {"type": "integer", "minimum": 1},
                        "seat": ref("SeatNumber"),
                        "points": {"type": ["integer", "null"], "minimum": 0},
                        "parts": {"type": "array", "items": ref("ScorePart")},
                    },
                },
            },
            "tie_breaks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["by", "points", "counts"],
                    "additionalProperties": False,
                    "properties": {
                        "by": {"type": "string"},
                        "points": {"type": "integer", "minimum": 0},
                        "counts": ref("PerSeat"),
                    },
                },
            },
        },
        "additionalProperties": ref("PerSeat"),
    },
    "ScorePart": {
        "description": (
            "Some of a seat's score: count things of one kind (what), each worth each, making "
            "points; a game without points gives the count alone. The dice games' views carry "
            "each seat's parts so far as points_from."
        ),
        "type": "object",
        "required": ["what", "count"],
        "additionalProperties": False,
        "properties": {
            "what": {"type": "string"},
            "count": {"type": "integer", "minimum": 0},
            "points": {"type": "integer", "minimum": 0},
            "each": {"type": "integer", "minimum": 1},
        },
    },
    "PerSeat": {
        "description": "A count for each seat, by seat number.",
        "type": "object",
        "propertyNames": {"pattern": "^[1-6]$"},
        "additionalProperties": {"type": "integer"},
    },
    "FinishedGame": {
        "description": (
            "A finished game as the history tells it: its seats as they were named, the "
            "winner and how (both null when the referee ended it early, the winner null too "
            "when a tie is left), each seat's score where the game keeps one, when it started "
            "and ended (Unix seconds), its actions and minutes, and where its export is (the "
            "seed revealed, for companion verify)."
        ),
        "type": "object",
        "required": [
            *("id", "game", "seats", "winner", "how", "scores", "started_at", "ended_at"),
            *("actions", "minutes", "ended_early", "export"),
        ],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "game": {"enum": sorted(GAMES)},
            "seats": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["seat", "name", "colour"],
                    "additionalProperties": False,
                    "properties": {
                        "seat": ref("SeatNumber"),
                        "name": {"type": "string"},
                        "colour": {"type": "string"},
                    },
                },
            },
            "winner": nullable(ref("SeatNumber")),
            "how": {"type": ["string", "null"]},
            "scores": nullable(ref("PerSeat")),
            "started_at": {"type": "number"},
            "ended_at": {"type": "number"},
            "actions": {"type": "integer", "minimum": 0},
            "minutes": {"type": "number", "minimum": 0},
            "ended_early": {"type": "boolean"},
            "export": {"type": "string", "pattern": "^/api/export\\?game=[0-9]+$"},
        },
    },
    "History": {
        "description": f"A page of the finished games, newest first, {PAGE_SIZE} to a page.",
        "type": "object",
        "required": ["page", "per_page", "next", "games"],
        "additionalProperties": False,
        "properties": {
            "page": {"type": "integer", "minimum": 1, "maximum": MOST_PAGES},
            "per_page": {"const": PAGE_SIZE},
            "next": {
                "description": "The next page's number; null on the last page.",
                "type": ["integer", "null"],
            },
            "games": {"type": "array", "maxItems": PAGE_SIZE, "items": ref("FinishedGame")},
        },
    },
    "Tally": {
        "type": "object",
        "required": ["played", "won"],
        "additionalProperties": False,
        "properties": {
            "played": {"type": "integer", "minimum": 1},
            "won": {"type": "integer", "minimum": 0},
        },
    },
    "Standings": {
        "description": (
            "Per player, the finished games played and won since a time, in all and by game. "
            "A player is the name typed at the start, its case, spaces and Unicode form aside, "
            "shown as it was typed last; most wins first, then most games played. At most the "
            f"newest {MOST_COUNTED} games are counted (counted says how many were)."
        ),
        "type": "object",
        "required": ["since", "counted", "players"],
        "additionalProperties": False,
        "properties": {
            "since": {
                "description": "Unix seconds; null when no game was ever started.",
                "type": ["number", "null"],
            },
            "counted": {"type": "integer", "minimum": 0, "maximum": MOST_COUNTED},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "played", "won", "games"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string"},
                        "played": {"type": "integer", "minimum": 1},
                        "won": {"type": "integer", "minimum": 0},
                        "games": {
                            "description": "By game: the games played and won.",
                            "type": "object",
                            "propertyNames": {"enum": sorted(GAMES)},
                            "additionalProperties": ref("Tally"),
                        },
                    },
                },
            },
        },
    },
    "Verdict": {
        "description": (
            "What companion verify says of an export: whether every shuffle, draw and roll "
            "matches its seed and actions, each check made, and the first mismatch (null when "
            "there is none); in the language of the request."
        ),
        "type": "object",
        "required": ["ok", "lines", "mismatch"],
        "additionalProperties": False,
        "properties": {
            "ok": {"type": "boolean"},
            "lines": {"type": "array", "items": {"type": "string"}},
            "mismatch": {"type": ["string", "null"]},
        },
    },
    "Commitment": {
        "description": "sha256 of the game's secret seed, shown before the first card or die.",
        "type": "string",
        "pattern": "^[0-9a-f]{64}$",
    },
}


def derived(*roots: type) -> dict[str, Schema]:
    """The schemas of these dataclasses and of every dataclass their fields hold, each one a
    component named after its class."""
    found: dict[str, Schema] = {}
    todo = list(roots)

    def named(cls: type) -> Schema:
        todo.append(cls)
        return ref(cls.__name__)

    while todo:
        cls = todo.pop()
        if cls.__name__ not in found:
            found[cls.__name__] = schema_of(cls, ref=named)
    return found


STATUS = derived(Status)
STATUS["GameSummary"]["properties"]["view"] = ref("View")  # each game's view is its own
STATUS["GameSummary"]["properties"]["outcome"] = nullable(ref("Outcome"))
SCHEMAS.update(STATUS)
SCHEMAS.update(derived(Calibrating))
SCHEMAS["CalibrationStep"] = {
    "description": (
        "Start a set-up step (for one seat, or without `seat` every seat with what it reads; "
        "the weight step weighs on one pad, so it needs `seat`); or, sent again for the step "
        "under way, the go for its stage: the person at the table has done what the stage "
        "asks, and the table reads. Once the weight step has proposed, `grams` weighs a "
        "further known weight (what stands on the pad in all). `grams` is for the weight step "
        "only, `reference_c` (the ice water's true temperature, 0 by default) for the "
        "temperature step only."
    ),
    "type": "object",
    "required": ["step"],
    "additionalProperties": False,
    "properties": {
        "step": {"enum": list(STEPS)},
        "seat": ref("SeatNumber"),
        "grams": {"type": "number", "exclusiveMinimum": 0, "maximum": MOST_GRAMS},
        "reference_c": {"type": "number", "minimum": -20, "maximum": 60},
    },
}


ERRORS = {
    "BadRequest": "The body is not JSON, not an object, or not a message the table takes.",
    "Unauthorized": "No token, a token nobody holds, or an Authorization that is not Bearer.",
    "Forbidden": "The token may not do this: another seat's action, or the referee's.",
    "NoGame": "There is no game yet.",
    "UnknownClaim": "No seat of the current game has this claim (no-game: no game yet).",
    "ClaimUsed": (
        "The claim was used already, or the referee gave the seat a new code: the referee "
        "gives the seat a new one."
    ),
    "NoHotspot": "The table made no Wi-Fi network of its own ([network] hotspot is off).",
    "NoRefereeCode": (
        "No button held down shows the referee's code now: hold seat 1's button for 3 s."
    ),
    "IllegalAction": "The rules do not allow this now; the message is the rules' reason.",
    "SetUpConflict": (
        "The set-up cannot take this now: set-up-busy (another step is under way, or the table "
        "is reading the sensors: finish or abort it first), no-sensors (the table, or the seat, "
        "has no probe or no pad for the step), nothing-to-accept (no step has proposed "
        "anything to write)."
    ),
    "NoExport": (
        "There is no game yet (no-game); with ?game=N, no finished game has that number "
        "(unknown-game: a game being played, or one that never finished, keeps its seed)."
    ),
    "BadQuery": "A query parameter is not what it must be (bad-message, saying what it must be).",
    "NotAnExport": (
        "The body is not JSON, not an object, or not the export of a finished game "
        "(not-an-export, saying what is missing)."
    ),
    "TooLarge": "The body is larger than the table accepts.",
    "HeadersTooLarge": "The headers are larger than the server reads (on any path).",
    "NotFound": "Nothing is at this path.",
    "MethodNotAllowed": "The path does not take this method; the Allow header says which do.",
    "TableError": "The table could not do this (it is stopping, or its disk failed); try again.",
    "InsufficientStorage": (
        "The state directory refused the write (code disk-full: its disk is full; "
        "state-read-only: it cannot be written, or the kernel remounted its disk read-only). "
        "Nothing was changed; the message names the directory and the fix, and the same "
        "request succeeds once the disk is mended, or, when the table started on a disk that "
        "refused writes (the status's read_only says why), once it is mended and the table "
        "restarted."
    ),
}


def error_ref(name: str) -> Schema:
    return {"$ref": f"#/components/responses/{name}"}


def _json(description: str, schema: Schema) -> Schema:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def operation(
    summary: str,
    ok: tuple[str, Schema],
    errors: dict[str, str],
    *,
    security: list[dict[str, list[str]]],
    body: Schema | None = None,
    body_required: bool = True,
    ok_status: str = "200",
    parameters: list[Schema] | None = None,
) -> Schema:
    operation: Schema = {
        "summary": summary,
        "security": security,
        **({"parameters": parameters} if parameters else {}),
        "responses": {
            ok_status: _json(*ok),
            **{status: error_ref(name) for status, name in errors.items()},
            "503": error_ref("TableError"),
        },
    }
    if body is not None:
        operation["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": body}},
        }
    return operation


def page_operation(summary: str) -> Schema:
    """A phone page: HTML in the language asked for (``?lang=``, else the kept one, else the
    browser's); asking for one keeps it in the ``lang`` cookie."""
    return {
        "get": {
            "summary": summary,
            "security": PUBLIC,
            "parameters": [
                {
                    "name": "lang",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "en or de; any other value is ignored.",
                }
            ],
            "responses": {
                "200": {
                    "description": "The page.",
                    "content": {"text/html": {"schema": {"type": "string"}}},
                },
                "503": error_ref("TableError"),
            },
        }
    }


def query(name: str, description: str, schema: Schema) -> Schema:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": schema,
    }


PUBLIC: list[dict[str, list[str]]] = []
TOKEN: list[dict[str, list[str]]] = [{"bearer": []}]
BODY_ERRORS = {"400": "BadRequest", "401": "Unauthorized", "413": "TooLarge"}
STORING = {"507": "InsufficientStorage"}
"""What a request that writes to the state directory may answer besides (503: another fault)."""


PATHS: dict[str, dict[str, Schema]] = {}
"""Every API route's description, by path and method, as the route declares it (:func:`route`)."""
View = TypeVar("View", bound=Callable[..., Any])


def route(
    blueprint: Blueprint, method: str, rule: str, described: Schema
) -> Callable[[View], View]:
    """Declare a route of ``blueprint`` and its description in one place: the document's paths
    are made of these (and of the pages'), so no route is written down twice.

    >>> from flask import Blueprint
    >>> here = Blueprint("here", __name__, url_prefix="/x")
    >>> @route(here, "GET", "/y", {"summary": "Why."})
    ... def y() -> str:
    ...     return "y"
    >>> PATHS.pop("/x/y")
    {'get': {'summary': 'Why.'}}
    """

    def declare(view: View) -> View:
        PATHS.setdefault(f"{blueprint.url_prefix or ''}{rule}", {})[method.lower()] = described
        blueprint.add_url_rule(
            rule, view.__name__, view, methods=[method], provide_automatic_options=False
        )
        return view

    return declare


def paths() -> dict[str, Any]:
    """The document's paths: each API route's own description, then the pages'."""
    from companion.web import api, calibration  # noqa: F401  (their routes declare their paths)
    from companion.web.pages import PAGES, SUMMARIES

    return {
        **{path: dict(methods) for path, methods in PATHS.items()},
        **{path: page_operation(SUMMARIES[name]) for name, path in PAGES.items()},
    }


@cache
def document() -> dict[str, Any]:
    """The document (built once; the caller must not change it)."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "companion table",
            "version": "1",
            "description": (
                "The referee at the table: its status for everyone, a view and actions per "
                "seat, and the referee's controls. A seat's or the referee's token travels "
                "as `Authorization: Bearer <token>`, never in a cookie or the query string. "
                "Every answer is JSON except the stream and the three phone pages. Any other "
                "path answers 404 and any "
                "other method 405 (see components.responses), with the Error body. "
                "The HTTP server itself refuses some requests before any route sees them, on "
                "every path, with the Error body too, and closes the connection: 400 "
                "bad-request (a request line or header it cannot parse, a Content-Length that "
                "is not one number, broken chunking, a Transfer-Encoding other than chunked), "
                "413 too-large (a declared body over 256 KB: the API's own limit is 16 KB, "
                "256 KB for an export posted to /api/verify, answered with the same code) and "
                "431 headers-too-large (headers over 16 KB). A request for a name the table "
                "is not known by (its Host: any address, localhost, the machine's name and its "
                ".local name, the names in its config's [network] names) is refused 421 "
                "unknown-host on every path, so a page that points a name of its own at the "
                "table reads nothing."
            ),
        },
        "paths": paths(),
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "A seat's token (given by /api/claim to the phone that claimed the "
                        "seat), or the referee's token."
                    ),
                }
            },
            "schemas": SCHEMAS,
            "responses": {
                **{name: _json(text, ref("Error")) for name, text in ERRORS.items()},
                "IllegalOrStale": _json(
                    "The rules do not allow this now (the rules' reason), or it was offered before "
                    "the game moved on (stale-action, with the view now).",
                    {"oneOf": [ref("Error"), ref("StaleAction")]},
                ),
            },
        },
    }
