"""What the secrecy tests look for in anything public: a hand, the draw order, a seed, a token."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def walk(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON value, depth first."""
    yield key, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)


def cards_in(value: Any) -> set[int]:
    """The ids of every card face shown anywhere in a JSON value."""
    return {
        v["id"]
        for _, v in walk(value)
        if isinstance(v, dict) and {"id", "attack", "move"} <= set(v)
    }


def assert_public(value: Any, tokens: list[str]) -> None:
    """No hand, the draw pile only as a size, no seed, no token."""
    for key, item in walk(value):
        assert key != "hand", "a hand in public"
        assert key not in ("seed", "device_secret", "seat_tokens"), key
        if key is not None and "draw" in key and key != "draw_pile":
            assert not isinstance(item, list | dict), f"{key} shows more than a size"
        if key == "draw_pile":
            assert type(item) is int
    text = json.dumps(value)
    assert not [t for t in tokens if t in text], "a token in public"
