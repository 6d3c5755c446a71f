"""Seats taken as their phones take them: a new game's claims posted for each seat's token."""

from __future__ import annotations

from typing import Any

from companion.table.service import TableService


def seated(table: TableService, started: dict[str, Any]) -> dict[str, str]:
    """Each seat's token by its number as text, from ``started`` (what starting a game
    answered): every seat's claim taken once, as its phone does."""
    return {
        seat: table.claim({"claim": claim})["token"]
        for seat, claim in started["seat_claims"].items()
    }
