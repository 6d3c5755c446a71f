"""Actions and events: small frozen dataclasses that round-trip through JSON.

A class becomes a message with :func:`message`, which gives it a ``type`` name used in JSON.
:func:`from_json` checks every field against its type hint, so a request from a phone or a
hand-edited export is refused with a clear sentence instead of reaching an engine malformed.

>>> @message("example-nudge")
... @dataclass(frozen=True)
... class Nudge:
...     by: int
...     steps: tuple[int, ...] = ()
>>> to_json(Nudge(by=2, steps=(1, 3)))
{'type': 'example-nudge', 'by': 2, 'steps': [1, 3]}
>>> from_json({'type': 'example-nudge', 'by': 2, 'steps': [1, 3]})
Nudge(by=2, steps=(1, 3))

:func:`schema_of` gives the JSON Schema of what :func:`from_json` accepts, for documents such
as the API's; :func:`one_of` the schema of any message of a list, such as a game's actions:

>>> schema_of(Nudge)["required"], schema_of(Nudge)["properties"]["steps"]
(['type', 'by'], {'type': 'array', 'items': {'type': 'integer'}})
>>> [s["properties"]["type"] for s in one_of([Nudge])["oneOf"]]
[{'const': 'example-nudge'}]
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from companion.errors import BadMessage

__all__ = [
    "REFEREE",
    "TABLE",
    "Actor",
    "dataclass",
    "from_json",
    "message",
    "one_of",
    "registered",
    "schema_of",
    "to_json",
]

REFEREE = "referee"
TABLE = "table"


@dataclass(frozen=True)
class OnlyNames:
    """A mark on an ``int | str`` field: the only strings it takes (:func:`from_json` refuses
    any other, and :func:`schema_of` lists these)."""

    names: tuple[str, ...]


Actor = Annotated[int | str, OnlyNames((REFEREE, TABLE))]
"""Who acts: a seat number, or one of the two non-seat actors above. The text of a number
(``"2"``) is neither: a message holding it is malformed, not the act of someone else."""

_REGISTRY: dict[str, type] = {}
_HINTS: dict[type, dict[str, Any]] = {}
_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}
C = TypeVar("C", bound=type)


def message(kind: str) -> Callable[[C], C]:
    """Register a frozen dataclass as a message named ``kind`` in JSON."""

    def register(cls: C) -> C:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        if kind in _REGISTRY and _REGISTRY[kind].__qualname__ != cls.__qualname__:
            raise TypeError(f"message type {kind!r} is already {_REGISTRY[kind].__name__}")
        cls.type = kind  # type: ignore[attr-defined]
        _REGISTRY[kind] = cls
        return cls

    return register


def to_json(msg: Any) -> dict[str, Any]:
    """The JSON object of a message: its ``type`` and its fields, tuples as lists."""
    out: dict[str, Any] = {"type": msg.type}
    for field in _fields(type(msg)):
        out[field.name] = _plain(getattr(msg, field.name))
    return out


def from_json(data: Any, allowed: Iterable[type] | None = None) -> Any:
    """The message a JSON object describes; :class:`BadMessage` says what is wrong with it."""
    if not isinstance(data, Mapping):
        raise BadMessage("a message must be a JSON object")
    kind = data.get("type")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None or (allowed is not None and cls not in tuple(allowed)):
        raise BadMessage(f"unknown message type {_shown(kind)}")
    hints = _hints(cls)
    fields = {f.name: f for f in _fields(cls)}
    extra = sorted(set(data) - set(fields) - {"type"})
    if extra:
        raise BadMessage(f"{kind}: unexpected field {extra[0]!r}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in data:
            if (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            ):
                raise BadMessage(f"{kind}: missing field {name!r}")
            continue
        values[name] = _convert(data[name], hints[name], f"{kind}.{name}")
    return cls(**values)


def registered() -> Mapping[str, type]:
    """Every message class by its ``type`` name."""
    return types.MappingProxyType(_REGISTRY)


Ref = Callable[[type], dict[str, Any]]
"""How a schema names a nested dataclass: a ``$ref`` into a document's components, say."""


def schema_of(cls: type, ref: Ref | None = None) -> dict[str, Any]:
    r"""The JSON Schema (2020-12) of a message: exactly what :func:`from_json` accepts, but for a
    number like ``1.0`` where a whole number is due, which JSON Schema counts as an integer.

    Any other dataclass of such fields gets the schema of its JSON too (the table's status):
    its fields may also be dataclasses (inline, or as ``ref(cls)`` says), ``Literal``\ s,
    ``dict[str, ...]`` and ``Any``, and ``Annotated[T, {...}]`` adds the dict's keywords to
    ``T``'s schema. Every object is closed: a field it does not name is refused.
    """
    kind = getattr(cls, "type", None)
    message = isinstance(kind, str) and _REGISTRY.get(kind) is cls
    if not message and not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a message: give it @message(...)")
    hints = typing.get_type_hints(cls, include_extras=True)
    properties: dict[str, Any] = {"type": {"const": kind}} if message else {}
    required = ["type"] if message else []
    for field in _fields(cls):
        properties[field.name] = _schema(hints[field.name], ref)
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            required.append(field.name)
    schema: dict[str, Any] = {"title": cls.__name__}
    if not message and cls.__doc__ and not cls.__doc__.startswith(f"{cls.__name__}("):
        schema["description"] = " ".join(cls.__doc__.split())
    return {
        **schema,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def one_of(classes: Iterable[type]) -> dict[str, Any]:
    """The JSON Schema of any one of these messages (their ``type`` tells them apart)."""
    return {"oneOf": [schema_of(cls) for cls in classes]}


_JSON_TYPES = {int: "integer", str: "string", bool: "boolean", float: "number"}


def _schema(hint: Any, ref: Ref | None = None) -> dict[str, Any]:
    """The schema of a field's type hint, as :func:`_convert` checks it."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        extra = {
            k: v for meta in hint.__metadata__ if isinstance(meta, dict) for k, v in meta.items()
        }
        only = [meta for meta in hint.__metadata__ if isinstance(meta, OnlyNames)]
        if only:
            options = [
                {"enum": list(only[0].names)} if option is str else _schema(option, ref)
                for option in typing.get_args(args[0])
            ]
            return {"anyOf": options, **extra}
        return {**_schema(args[0], ref), **extra}
    if origin in (typing.Union, types.UnionType):
        options = [_schema(option, ref) for option in args]
        if all(list(option) == ["type"] and isinstance(option["type"], str) for option in options):
            return {"type": [option["type"] for option in options]}
        return {"anyOf": options}
    if origin is tuple:
        return {"type": "array", "items": _schema(args[0], ref)}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (dict, Mapping):
        values = _schema(args[1], ref) if args else {}
        return {"type": "object", **({"additionalProperties": values} if values else {})}
    if hint is Any:
        return {}
    if hint is type(None):
        return {"type": "null"}
    if hint in _JSON_TYPES:
        return {"type": _JSON_TYPES[hint]}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return ref(hint) if ref is not None else schema_of(hint)
    raise TypeError(f"no JSON Schema for a field of type {hint!r}")


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    if cls not in _FIELDS:
        _FIELDS[cls] = dataclasses.fields(cls)
    return _FIELDS[cls]


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, include_extras=True)
    return _HINTS[cls]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _convert(value: Any, hint: Any, where: str) -> Any:
    """``value`` checked against ``hint``; tuples come from JSON lists."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        value = _convert(value, typing.get_args(hint)[0], where)
        for meta in hint.__metadata__:
            if isinstance(meta, OnlyNames) and isinstance(value, str) and value not in meta.names:
                names = " or ".join(_shown(name) for name in meta.names)
                raise BadMessage(f"{where}: {_shown(value)} is not a whole number, {names}")
        return value
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _convert(value, option, where)
            except BadMessage:
                continue
        raise BadMessage(f"{where}: {_shown(value)} is not {_describe(hint)}")
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, list | tuple):
            raise BadMessage(f"{where}: expected a list, not {_shown(value)}")
        return tuple(_convert(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if hint is type(None):
        if value is None:
            return None
    elif hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif hint in (int, str, bool) and type(value) is hint:
        return value
    raise BadMessage(f"{where}: {_shown(value)} is not {_describe(hint)}")


def _describe(hint: Any) -> str:
    names = {int: "a whole number", str: "a string", bool: "true or false", float: "a number"}
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_describe(h) for h in typing.get_args(hint))
    if hint is type(None):
        return "null"
    return names.get(hint, "a list" if typing.get_origin(hint) is tuple else str(hint))


def _shown(value: Any) -> str:
    """A value as the JSON it came in, short: what a player or a program sent, not Python's repr.

    >>> _shown(True), _shown(None), _shown("1"), len(_shown(list(range(40))))
    ('true', 'null', '"1"', 80)
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
