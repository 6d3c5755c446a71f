"""Who is asking: the referee's token and one token per seat, compared in constant time.

Tokens travel as ``Authorization: Bearer <token>``, never in cookies, so no other site can make
a phone act at the table. Each is 256 bits from :mod:`secrets`, and so is each seat's one-time
claim (:mod:`.seat_keys`). The referee's is kept in ``STATE_DIR/referee-token`` (mode 0600) and
survives restarts; a seat's is made when a phone claims the seat and kept with the game in the
database, so a phone keeps its seat after a power cut.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from companion.games.messages import REFEREE, Actor
from companion.statedir import FILE_MODE, private_dir
from companion.table.seat_keys import SeatKeys

REFEREE_TOKEN_FILE = "referee-token"
TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe (it travels in a QR code's link)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def referee_token(state_dir: Path) -> str:
    """The referee's token from its file, made (mode 0600) when there is none yet."""
    path = state_dir / REFEREE_TOKEN_FILE
    try:
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 22:
            return token
    except (OSError, UnicodeDecodeError):
        pass
    token = new_token()
    private_dir(state_dir)
    temporary = path.with_suffix(".new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        os.fchmod(f.fileno(), FILE_MODE)  # one left by a crash keeps its mode otherwise
        f.write(token + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)
    return token


def actor_of(token: str, referee: str, seats: SeatKeys | None) -> Actor | None:
    """The referee or the seat that holds ``token``, or ``None``; every token is compared,
    always, so the time taken says nothing about which one nearly matched."""
    seat = seats.seat_of(token) if seats is not None else None
    if hmac.compare_digest(token.encode(), referee.encode()):
        return REFEREE
    return seat
