"""JSON text as the API writes it: compact, keys in the order the table wrote them, and no NaN.

JSON has no NaN or infinity, and a browser's ``JSON.parse`` refuses Python's ``NaN``; a number
that is not finite (a sensor gone silent, say) is written as ``null``.

>>> dumps({"air_c": float("nan"), "seats": [1, 2]})
'{"air_c":null,"seats":[1,2]}'
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any

from flask.json.provider import DefaultJSONProvider


def dumps(value: Any, **kwargs: Any) -> str:
    """``value`` as compact JSON text; a non-finite number becomes ``null``."""
    options = {"separators": (",", ":"), "ensure_ascii": False, **kwargs, "allow_nan": False}
    try:
        return json.dumps(value, **options)
    except ValueError:
        return json.dumps(_finite(value), **options)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class SnapshotText:
    """The JSON text of the latest snapshot, written once however many phones ask for it.

    The table publishes a new snapshot object on every change and hands the same one to every
    status request and every stream until the next, so the text is kept by identity.

    >>> texts, snapshot = SnapshotText(), {"game": None}
    >>> texts.of(snapshot) is texts.of(snapshot)
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[Any, str] | None = None

    def of(self, snapshot: Any) -> str:
        with self._lock:
            if self._last is not None and self._last[0] is snapshot:
                return self._last[1]
        text = dumps(snapshot)
        with self._lock:
            self._last = (snapshot, text)
        return text


class JsonText(DefaultJSONProvider):
    """Flask's JSON provider, writing as :func:`dumps` does."""

    sort_keys = False
    compact = True

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        return dumps(obj, **kwargs)
