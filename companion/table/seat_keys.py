"""Who holds each seat of a game: the one-time claim its join link carries, and the token of the
phone that claimed it.

A game starts with a claim for each seat and no seat tokens. The phone that posts a seat's claim
is given a new token for the seat, once: the claim is spent, so a photographed code, a second
phone or a link opened again gets nothing. The referee may give a seat a new claim (a lost
phone, a child who swaps): the phone that held the seat is signed out at once, its token gone,
and the old claim is spent. So no seat's token ever leaves the table but to the phone that sits
there; the referee holds claims, never tokens.

>>> keys = SeatKeys.new({1: "c1", 2: "c2"})
>>> keys.claimed_seat("c2")
2
>>> keys.taken(2, "t2"); keys.tokens, keys.seat_of("t2")
({2: 't2'}, 2)
>>> keys.claimed_seat("c2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
companion.table.seat_keys.ClaimUsed: this seat's code has been used already ...
>>> keys.renewed(2, "c2b"); keys.tokens, keys.joined()
({}, frozenset())
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadMessage, CompanionError
from companion.games.seats import SeatInfo
from companion.games.sentence import Sentence
from companion.table.stored import StoredClaim


class UnknownClaim(CompanionError):
    """A claim that is no seat's of the current game (404)."""


class ClaimUsed(CompanionError):
    """A claim of the current game that was used or replaced (410)."""


@dataclass
class SeatKeys:
    """A game's seat claims and tokens; changed only after the store has the change."""

    claims: dict[int, str]
    """The claim each seat's link carries now, while no phone has used it."""
    tokens: dict[int, str] = field(default_factory=dict)
    """The token of the phone that holds each seat."""
    used: list[str] = field(default_factory=list)
    """Every claim of the game that was used or replaced: posting one again answers 410."""

    @classmethod
    def new(cls, claims: Mapping[int, str]) -> SeatKeys:
        return cls(dict(claims))

    @classmethod
    def stored(cls, legacy: Mapping[str, str], rows: Iterable[StoredClaim]) -> SeatKeys:
        """The keys as the store holds them: each seat's latest claim decides (claimed: its
        token holds the seat; else it is open); ``legacy`` tokens, of a game stored before
        claims, hold the seats that have no claim."""
        keys = cls({}, {int(seat): token for seat, token in legacy.items()})
        for row in rows:
            keys._drop(row.seat)
            if row.token is None:
                keys.claims[row.seat] = row.claim
            else:
                keys.used.append(row.claim)
                keys.tokens[row.seat] = row.token
        return keys

    def claimed_seat(self, claim: str) -> int:
        """The seat whose open claim this is; :class:`ClaimUsed` for a claim that was used or
        replaced, :class:`UnknownClaim` for any other."""
        seat = _holder(claim, self.claims)
        if seat is not None:
            return seat
        if _holder(claim, dict(enumerate(self.used))) is not None:
            raise ClaimUsed(
                Sentence(
                    "this seat's code has been used already (by this phone or another): "
                    "ask the referee for a new code for your seat",
                    "der Code dieses Platzes wurde schon benutzt (von diesem Handy oder einem "
                    "anderen): bitte die Spielleitung um einen neuen Code für deinen Platz",
                )
            )
        raise UnknownClaim(
            Sentence(
                "this code is no seat's of the current game: scan your seat's code",
                "dieser Code gehört zu keinem Platz des laufenden Spiels: scanne den Code "
                "deines Platzes",
            )
        )

    def seat_of(self, token: str) -> int | None:
        """The seat whose phone holds ``token``."""
        return _holder(token, self.tokens)

    def taken(self, seat: int, token: str) -> None:
        """A phone claimed ``seat``'s open claim and was given ``token``."""
        self.used.append(self.claims.pop(seat))
        self.tokens[seat] = token

    def renewed(self, seat: int, claim: str) -> None:
        """The referee gave ``seat`` a new claim: its old claim spent, its phone signed out."""
        self._drop(seat)
        self.claims[seat] = claim

    def joined(self) -> frozenset[int]:
        """The seats a phone holds."""
        return frozenset(self.tokens)

    def _drop(self, seat: int) -> None:
        old = self.claims.pop(seat, None)
        if old is not None:
            self.used.append(old)
        self.tokens.pop(seat, None)


def links(keys: SeatKeys, seats: Sequence[SeatInfo]) -> list[dict[str, Any]]:
    """Each seat of a game, whether a phone holds it, and its open claim (``None`` once used)."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "colour": s.colour,
            "joined": s.seat in keys.tokens,
            "claim": keys.claims.get(s.seat),
        }
        for s in seats
    ]


def claim_in(body: Any) -> str:
    """The claim of a ``{"claim": "..."}`` body."""
    if not isinstance(body, Mapping) or set(body) != {"claim"}:
        raise BadMessage('the body must be {"claim": "<the code of your seat\'s link>"}')
    claim = body["claim"]
    if not isinstance(claim, str) or not claim:
        raise BadMessage('"claim" must be the text of your seat\'s link')
    return claim


def seat_in(body: Any, seats: Sequence[int]) -> int:
    """The seat of a ``{"seat": n}`` body, one of ``seats``."""
    if not isinstance(body, Mapping) or set(body) != {"seat"}:
        raise BadMessage('the body must be {"seat": <the seat\'s number>}')
    seat = body["seat"]
    if type(seat) is not int:
        raise BadMessage(f'"seat" must be a seat of the game: one of {list(seats)}')
    if seat not in seats:
        raise BadMessage(not_playing(seat, seats))
    return seat


def not_playing(seat: int, seats: Sequence[int]) -> Sentence:
    """Why seat ``seat`` is refused in a game of ``seats`` (a page of the last game asked).

    >>> not_playing(4, [1, 2]).de
    'Platz 4 spielt in diesem Spiel nicht mit: es hat die Plätze 1, 2'
    """
    listed = ", ".join(str(s) for s in seats)
    return Sentence(
        f"seat {seat} does not play in this game: its seats are {listed}",
        f"Platz {seat} spielt in diesem Spiel nicht mit: es hat die Plätze {listed}",
    )


def _holder(secret: str, held: Mapping[int, str]) -> int | None:
    """The key under which ``secret`` is held. Every one is compared, always, so the time taken
    says nothing about which one nearly matched."""
    found = None
    given = secret.encode()
    for key, value in held.items():
        if hmac.compare_digest(given, value.encode()):
            found = key
    return found
