"""``companion hall``: one page for a room of tables, from what they publish to a broker.

It subscribes to the broker (never publishes, never acts) and serves the hall's page
(:mod:`companion.web.hall`) for the room's screen: every table with its game, whose turn, a
running count, each seat's ice and the winner, ordered and filterable by name.
"""

from __future__ import annotations

import argparse
import logging
import signal
from pathlib import Path
from typing import Any

from companion.cli.arguments import host, number_in
from companion.errors import CompanionError
from companion.mqtt.hall import BrokerAddress, Hall
from companion.mqtt.room import Room
from companion.web.hall import create_hall_app

DEFAULT_PORT = 8100


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "hall",
        help="one page for a room of tables, from the MQTT broker they publish to",
        description=(
            "Show every table that publishes to an MQTT broker on one page: its game, whose "
            "turn, a running count, each seat's ice and the winner. It only subscribes."
        ),
    )
    p.add_argument("--broker", required=True, metavar="HOST", help="the MQTT broker's host")
    p.add_argument(
        "--port",
        type=number_in(int, 1, 65535, "port"),
        default=None,
        help="the broker's port (default: 1883, or 8883 with --ca-file)",
    )
    p.add_argument("--username", default="", help="the broker's user for the hall")
    p.add_argument(
        "--password-file", type=Path, default=None, help="a file whose first line is the password"
    )
    p.add_argument("--ca-file", type=Path, default=None, help="TLS: the broker's CA certificate")
    p.add_argument("--host", type=host, default="0.0.0.0", help="the address the page listens on")
    p.add_argument(
        "--http-port",
        type=number_in(int, 1, 65535, "http-port"),
        default=DEFAULT_PORT,
        help=f"the page's port (default: {DEFAULT_PORT})",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.cli.run import _shut_down, _Stopped, make_server
    from companion.network.addresses import lan_address

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)
    password = ""
    if args.password_file is not None:
        try:
            password = (args.password_file.read_text(encoding="utf-8").splitlines() or [""])[0]
        except OSError as exc:
            raise CompanionError(f"cannot read {args.password_file}: {exc.strerror}") from None
    port = args.port or (8883 if args.ca_file else 1883)
    room = Room()
    broker = BrokerAddress(args.broker, port, args.username, password, args.ca_file)
    hall = Hall(broker, room)
    app = create_hall_app(room, f"{args.broker}:{port}")
    try:
        server = make_server(app, args.host, args.http_port)
    except (OSError, ValueError) as exc:  # waitress: ValueError for a name that resolves to none
        raise CompanionError(
            f"cannot listen on {args.host}:{args.http_port}: "
            f"{getattr(exc, 'strerror', None) or 'no address of this machine has that name'}"
        ) from None
    hall.start()
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    print(f"companion: the hall of {args.broker}:{port} at http://{host}:{args.http_port}/")
    signal.signal(signal.SIGTERM, _shut_down)
    signal.signal(signal.SIGINT, _shut_down)
    try:
        server.run()
    except _Stopped:
        pass
    finally:
        hall.close()
        server.close()
    return 0
