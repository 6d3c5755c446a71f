"""``companion run``: the daemon. It reads the table, referees the game and serves the phones.

With no config on a machine that is not a Raspberry Pi it runs the built-in simulated 4-seat
table and says so. It prints the address the phones open, the referee's token and what it found,
then serves until stopped (Ctrl-C, or SIGTERM from systemd). Under systemd it says READY once it
serves, pings the watchdog from the sensor loop (a hung loop is restarted) and keeps a STATUS.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from waitress.wasyncore import ExitNow

from companion.cli.arguments import add_table_options, host, number_in, table_config
from companion.config import ROOM_AIR_C, TableConfig
from companion.errors import CompanionError
from companion.host import journal
from companion.host.statedir import secure
from companion.network import hotspot
from companion.network.addresses import DEFAULT_PORT, lan_address, local_url
from companion.network.hotspot import Hotspot
from companion.table.notify import Notifier, watchdog_interval
from companion.table.service import TableService
from companion.web.app import MAX_EXPORT_BYTES, create_app
from companion.web.join import qr_text
from companion.web.server import create as create_server
from companion.web.server_clock import monotonic_connections
from companion.web.serving import guard

if TYPE_CHECKING:  # paho is loaded only by a table that publishes
    from companion.mqtt.publisher import Publisher

log = logging.getLogger(__name__)

THREADS = 32
"""Waitress's worker threads: each open stream holds one, so room for a table of phones."""
STREAMS = THREADS // 2
"""Open streams at most: the other workers always answer the API and the pages."""
CONNECTIONS = 200
IDLE_S = 20
"""A connection silent this long is closed: a half-sent request cannot hold a place for long
(the stream's heartbeat, every 15 s, keeps a phone's own connection open)."""
CLEANUP_S = 1
"""Waitress's clean-up pass, which also drops half-sent requests (``companion.web.serving``)."""
MAX_REQUEST_BYTES = MAX_EXPORT_BYTES
"""Waitress refuses a declared body over this at once, instead of waiting for it to arrive:
the longest, an export to check; the API's own limit for any other body (a JSON 413) is lower."""
MAX_HEADER_BYTES = 16384
"""Waitress refuses a request whose headers are longer (431); a phone's are well under 2 KB."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run the table: sensors, referee, cues and the web page for the phones",
        description="Run the table: sensors, referee, cues and the web page for the phones.",
    )
    add_table_options(p)
    p.add_argument(
        "--host", type=host, default="0.0.0.0", help="the address to listen on (default: all)"
    )
    p.add_argument(
        "--port",
        type=number_in(int, 1, 65535, "port"),
        default=DEFAULT_PORT,
        help=f"the port (default: {DEFAULT_PORT})",
    )
    p.add_argument(
        "--speed",
        type=number_in(float, 0.1, 1000, "speed"),
        default=1.0,
        help="run a simulated table this many times faster (its game timers too)",
    )
    p.add_argument("--seed", type=int, default=None, help="the simulated table's seed")
    p.add_argument(
        "--no-sensors",
        action="store_true",
        help=(
            "a table without probes or pads, whatever the config says: phones only (or a Pi with "
            "the buzzer, LEDs and buttons); each seat says when its cube has melted"
        ),
    )
    p.add_argument(
        "--air-c",
        type=number_in(float, *ROOM_AIR_C, "air"),
        metavar="C",
        help=(
            "the room's air in degrees Celsius, where no probe reads: a seat without a pad then "
            "shows a countdown from the air alone, marked as such"
        ),
    )
    p.add_argument("--no-cues", action="store_true", help="leave the buzzer and the LEDs alone")
    p.add_argument(
        "--fresh",
        action="store_true",
        help=(
            "if the game database (STATE_DIR/companion.db) is broken, move it aside as "
            "companion.db.broken-<UTC time> and begin a new one (without this, a broken "
            "database stops the start with one line saying what is wrong)"
        ),
    )
    p.set_defaults(run=run)


STOP_REQUESTS_S = 2.0
"""How long a stopping daemon waits for the requests it is answering."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""systemd's stop and Ctrl-C: either closes the table in order."""


def run(args: argparse.Namespace) -> int:
    handler = logging.StreamHandler()
    handler.setFormatter(journal.formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("waitress").setLevel(logging.WARNING)  # not every phone that leaves
    notifier = Notifier()
    table = open_table(args, tick=_watchdog(notifier))
    publisher = None
    if table.config.mqtt is not None:  # paho is loaded only by a table that publishes
        from companion.mqtt.publisher import publish

        try:
            publisher = publish(table.service, table.url)
        except CompanionError:
            table.service.close()
            raise
    # from here a stop closes the table in order, whenever it lands (systemd may stop the
    # daemon while it is still saying where it serves)
    found = {number: signal.signal(number, _shut_down) for number in STOP_SIGNALS}
    try:
        _announce(args, table, publisher)
        notifier.ready()
        notifier.status(f"serving at {table.url}")
        table.server.run()
    except _Stopped:
        pass
    finally:
        notifier.stopping()
        if publisher is not None:
            publisher.close()  # "offline" while the broker can still be told
        table.close()
        for number, was in found.items():  # as found: a stop ignored while closing is not
            signal.signal(number, was)  # left ignored for what runs after, or its children
    return 0


@dataclass
class OpenTable:
    """A table opened for ``companion run``: its service, its server (not yet serving) and the
    address its pages give the phones."""

    config: TableConfig
    simulate: bool
    service: TableService
    server: Any
    url: str

    def close(self) -> None:
        """Close the table, then the server, once its loop has stopped."""
        self.service.close()  # the streams end with it, so no phone holds the server open
        # the request threads finish before the server closes the trigger they wake its loop
        # with (else a late one writes to a closed pipe: waitress issue #468)
        self.server.task_dispatcher.shutdown(timeout=STOP_REQUESTS_S)
        self.server.close()


def open_table(args: argparse.Namespace, tick: Callable[[], object] | None = None) -> OpenTable:
    """Everything ``companion run`` does before it serves: the config, the state directory, the
    table (started: ``tick`` is pinged on every pass of its sensor loop), its Wi-Fi network and
    the server for its pages. A failure closes what had started."""
    config, simulate = table_config(args)
    if args.speed != 1.0 and not simulate:
        raise CompanionError(
            "--speed runs the simulated table faster: leave it out, or run the simulated table "
            "(--simulate, which make run starts)"
        )
    secure(args.state_dir)  # a folder or file left open to other users is closed, and logged
    service = TableService(
        config,
        args.state_dir,
        simulate=simulate,
        speed=args.speed,
        seed=args.seed,
        with_cues=not args.no_cues and (simulate or has_pins()),
        tick=tick,
        fresh=args.fresh,
    )
    try:
        service.start()
    except BaseException:
        service.close()  # what had started: the sensors' reader, the cues
        raise
    network = own_network(config, args.state_dir)
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    if network is not None and network.address and args.host in ("0.0.0.0", "::"):
        host = network.address  # the phones join the table's own network
    url = f"http://{host}:{args.port}/"
    try:
        app = create_app(
            service, public_url=url, streams=STREAMS, hotspot=network, names=config.network.names
        )
        server = make_server(app, args.host, args.port)
    except (OSError, ValueError) as exc:  # waitress: ValueError for a name that resolves to none
        service.close()
        why = getattr(exc, "strerror", None) or "no address of this machine has that name"
        raise CompanionError(f"cannot listen on {args.host}:{args.port}: {why}") from None
    return OpenTable(config, simulate, service, server, url)


def _announce(args: argparse.Namespace, table: OpenTable, publisher: Publisher | None) -> None:
    """Say which table serves where, the referee's token and page, and what was found."""
    config, service, url = table.config, table.service, table.url
    what = config.path or "the table"
    if not config.sensors.any and not service.cued:
        what = "the phones-only table" + (f" of {config.path}" if config.path else "")
    if table.simulate:
        what = "the simulated table" + (f" of {config.path}" if config.path else "")
    print(f"companion: serving {what} at {url}", flush=True)
    named = local_url(args.port) if args.host in ("0.0.0.0", "::") else None
    if named is not None:
        print(f"companion: also at {named} (its name on the network)", flush=True)
    print(f"companion: referee token {service.referee_token}", flush=True)
    referee_page = f"{url}referee#{service.referee_token}"
    print(f"companion: referee page {referee_page}", flush=True)
    if sys.stdout.isatty():  # a phone scans it off the screen; the journal gets the link alone
        print(qr_text(referee_page), end="", flush=True)
    for line in service.found:
        print(f"companion: {line}", flush=True)
    if publisher is not None:
        print(
            f"companion: publishing to mqtt://{publisher.broker.host} as {publisher.config.table}"
        )


def has_pins() -> bool:
    """Whether this machine has pins for the cues: a Raspberry Pi, or a pin factory named in
    ``GPIOZERO_PIN_FACTORY``. A laptop has none, and is not warned about it: its count is on
    the table page."""
    from companion.sensors.sources import on_raspberry_pi

    return on_raspberry_pi() or bool(os.environ.get("GPIOZERO_PIN_FACTORY"))


def make_server(app: Any, host: str, port: int) -> Any:
    """The server ``companion run`` serves ``app`` with, with its limits (port 0: a free one):
    a request it refuses itself is answered in JSON, as the app answers one; its connections
    are timed on the monotonic clock (a step of the Pi's wall clock neither keeps nor drops
    them) and guarded against trickling and idle ones (:mod:`companion.web.serving`)."""
    monotonic_connections()
    server = create_server(
        app,
        host=host,
        port=port,
        threads=THREADS,
        ident="companion",
        connection_limit=CONNECTIONS,
        channel_timeout=IDLE_S,
        cleanup_interval=CLEANUP_S,
        channel_request_lookahead=1,  # reads on during a stream, so a hang-up is seen
        max_request_body_size=MAX_REQUEST_BYTES,
        max_request_header_size=MAX_HEADER_BYTES,
    )
    guard(server)
    return server


class _Stopped(ExitNow):
    """SIGTERM (systemd) or Ctrl-C: leave the server's loop, then close everything in order.

    The signal may land while the loop runs a connection's handler, and the loop hands any
    other exception to that connection's error handler: it would be swallowed, the signals
    already ignored, and the daemon would never stop. The loop lets ``ExitNow`` through."""


def _shut_down(signum: int, frame: object) -> None:
    for number in STOP_SIGNALS:  # a second signal must not cut the closing short
        signal.signal(number, signal.SIG_IGN)
    raise _Stopped


def _watchdog(notifier: Notifier) -> Callable[[], object] | None:
    """A ping for the sensor loop to call on every pass, sent as often as systemd asks."""
    interval = watchdog_interval()
    if interval is None:
        return None
    last = [0.0]

    def ping() -> None:
        now = time.monotonic()
        if now - last[0] >= interval:
            last[0] = now
            notifier.watchdog()

    return ping


def own_network(config: TableConfig, state_dir: Path) -> Hotspot | None:
    """The table's own Wi-Fi network, with ``[network] hotspot``; a failure is a warning and
    the table serves whatever network it is on."""
    if not config.network.hotspot:
        return None
    try:
        network = hotspot.start(config.network.ssid, state_dir)
    except hotspot.HotspotFailed as exc:
        log.warning("hotspot: %s; the table serves the network it is on", exc)
        return None
    print(
        f"companion: hotspot: the Wi-Fi network {network.ssid!r} is up (its password is in "
        f"{state_dir / hotspot.PASSWORD_FILE}; the table page shows its QR code)",
        flush=True,
    )
    return network
