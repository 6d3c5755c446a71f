"""A stream storm against a table on 127.0.0.1, in a process of its own so that its sockets do
not slow the clients that measure the table: ``python -m bench.storm --port P --seconds S``.

Over ``S`` seconds it opens ``--abandoned`` streams that it reads until they are answered and
then never again, and ``--unread`` streams it never reads (half of them with a device name made
up for each, half with none), and keeps ``--tricklers`` requests half-sent, a header line every
``--every`` seconds on each, opening a new one for each the table drops. Every connection is
held until the end. It prints one JSON line twice a second, ``{"held": N}`` (its streams the
table still holds open), and last ``{"done": {...}}`` with what it did.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import struct
import sys
import threading
import time
from collections.abc import Sequence

TIMEOUT_S = 10.0
TCP_ESTABLISHED = 1


def stream_request(device: str | None) -> bytes:
    path = "/api/stream" + (f"?device={device}" if device else "")
    return f"GET {path} HTTP/1.1\r\nHost: table\r\n\r\n".encode()


def established(sock: socket.socket) -> bool:
    """Whether the far end still holds this connection open."""
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    except OSError:
        return False
    return bool(struct.unpack("B", info[:1])[0] == TCP_ESTABLISHED)


class Storm:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.streams: list[socket.socket] = []
        self.trickles: list[socket.socket] = []
        self.unanswered = 0
        self.trickle_opens = 0
        self.trickles_dropped = 0
        self.rnd = random.Random(29)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.args.port), timeout=TIMEOUT_S)

    def device(self) -> str | None:
        """Half come with a name of their own (a hostile page makes one up), half with none."""
        if self.rnd.random() < 0.5:
            return None
        return "".join(self.rnd.choices("0123456789abcdef", k=32))

    def open_streams(self) -> None:
        kinds = ["abandoned"] * self.args.abandoned + ["unread"] * self.args.unread
        self.rnd.shuffle(kinds)
        began = time.monotonic()
        for i, kind in enumerate(kinds):
            if self.stop.wait(
                max(0.0, began + i * self.args.seconds / len(kinds) - time.monotonic())
            ):
                return
            sock = self.connect()
            with self.lock:
                self.streams.append(sock)
            sock.sendall(stream_request(self.device()))
            if kind == "abandoned":  # read until it is answered, then never again
                received = b""
                try:
                    while b"\r\n\r\n" not in received:
                        chunk = sock.recv(4096)
                        if not chunk:
                            break
                        received += chunk
                except OSError:
                    pass
                if not received.startswith(b"HTTP/1.1 200"):
                    self.unanswered += 1

    def trickle(self) -> None:
        """A header line on one half-sent request after another, evenly spread."""
        line = 0
        began = time.monotonic()
        while not self.stop.is_set():
            ramp = 1 + int((time.monotonic() - began) * 30)
            while len(self.trickles) < min(self.args.tricklers, ramp) and (
                self.trickle_opens < self.args.trickle_opens
            ):
                sock = self.connect()
                sock.sendall(b"GET /api/status HTTP/1.1\r\nHost: table\r\n")
                self.trickle_opens += 1
                self.trickles.append(sock)
            line += 1
            kept = []
            pause = self.args.every / max(len(self.trickles), 1)
            for i, sock in enumerate(self.trickles):
                try:
                    sock.sendall(f"X-Line-{line}: a\r\n".encode())
                    kept.append(sock)
                except OSError:  # the table dropped it
                    sock.close()
                    self.trickles_dropped += 1
                if self.stop.wait(pause):
                    kept += self.trickles[i + 1 :]
                    break
            self.trickles = kept
            if not self.trickles:
                self.stop.wait(self.args.every)

    def held(self) -> int:
        with self.lock:
            streams = list(self.streams)
        return sum(1 for sock in streams if established(sock))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.storm")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--abandoned", type=int, default=300)
    parser.add_argument("--unread", type=int, default=100)
    parser.add_argument("--tricklers", type=int, default=150)
    parser.add_argument("--trickle-opens", type=int, default=1500)
    parser.add_argument("--every", type=float, default=2.0)
    storm = Storm(parser.parse_args(argv))
    threads = [threading.Thread(target=storm.open_streams), threading.Thread(target=storm.trickle)]
    for thread in threads:
        thread.start()
    ends = time.monotonic() + storm.args.seconds
    while time.monotonic() < ends:
        time.sleep(0.5)
        print(json.dumps({"held": storm.held()}), flush=True)
    storm.stop.set()
    for thread in threads:
        thread.join(TIMEOUT_S * 2)
    done = {
        "streams": len(storm.streams),
        "unanswered": storm.unanswered,
        "trickle_opens": storm.trickle_opens,
        "trickles_dropped": storm.trickles_dropped,
    }
    print(json.dumps({"done": done}), flush=True)
    for sock in storm.streams + storm.trickles:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
