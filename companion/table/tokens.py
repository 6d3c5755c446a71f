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
import re
import secrets
import stat
from pathlib import Path

from companion.errors import CompanionError
from companion.games.messages import REFEREE, Actor
from companion.games.sentence import Sentence
from companion.host.statedir import FILE_MODE, private_dir
from companion.table.seat_keys import SeatKeys

REFEREE_TOKEN_FILE = "referee-token"
TOKEN_BYTES = 32
LONGEST_TOKEN = 256
"""The longest token a request may carry (:mod:`companion.web.inputs`), and so the longest a
token file may hold."""
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{22,{LONGEST_TOKEN}}}")
"""A token as the table makes it (43 URL-safe characters) or a maker writes one: at least 128
bits, at most what a request may carry."""


class BadTokenFile(CompanionError):
    """The referee's token file holds something that is not a token: named, with the fix."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(
            f"{path} {what}: it holds the referee's token; delete it and a new one is made, or "
            f"write a token of 22 to {LONGEST_TOKEN} letters, digits, - and _"
        )


class Unauthorized(CompanionError):
    """No token, or a token nobody holds (401)."""


class Forbidden(CompanionError):
    """A token that may not do this (403): another seat's action, or the referee's."""


def referee_only(actor: Actor, en: str, de: str) -> None:
    """:class:`Forbidden`, saying why in ``en`` and ``de``, unless ``actor`` is the referee."""
    if actor != REFEREE:
        raise Forbidden(Sentence(en, de))


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe (it travels in a QR code's link)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def referee_token(state_dir: Path) -> str:
    """The referee's token from its file, made (mode 0600) when there is none yet, or an empty
    one (a full disk); :class:`BadTokenFile` for one that holds no token (written by hand)."""
    path = state_dir / REFEREE_TOKEN_FILE
    try:
        with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NONBLOCK)) as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise BadTokenFile(path, "is not a regular file")
            held = file.read(LONGEST_TOKEN + 2).strip()
    except FileNotFoundError:
        held = b""
    if held:
        if not TOKEN.fullmatch(held.decode("ascii", "replace")):
            raise BadTokenFile(path, "holds no token (or one too long to be sent)")
        return held.decode("ascii")
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
