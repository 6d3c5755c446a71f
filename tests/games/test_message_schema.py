"""The JSON Schema of every message says what ``from_json`` accepts: the JSON of any message
validates against its schema, and a JSON object the schema refuses, ``from_json`` refuses too
(and the other way round)."""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion.errors import BadMessage
from companion.games import GAMES
from companion.games.messages import (
    Actor,
    dataclass,
    from_json,
    message,
    one_of,
    registered,
    schema_of,
    to_json,
)

KINDS = dict(sorted(registered().items()))
MESSAGES = list(KINDS.values())
IDS = list(KINDS)
CHECKED = settings(max_examples=40, deadline=None)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any JSON value, but a number with no fraction written as a float (``1.0``): JSON Schema
counts that as an integer, ``from_json`` does not."""


def values(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type hint, of every kind ``from_json`` accepts."""
    if hint == Actor:
        return st.integers(-3, 9) | st.sampled_from(["referee", "table"])
    origin = typing.get_origin(hint)
    if origin in (typing.Union, type(int | None)):
        return st.one_of([values(option) for option in typing.get_args(hint)])
    if origin is tuple:
        return st.lists(values(typing.get_args(hint)[0]), max_size=4).map(tuple)
    simple: dict[Any, st.SearchStrategy[Any]] = {
        int: st.integers(-(2**40), 2**40),
        str: st.text(max_size=8),
        bool: st.booleans(),
        float: st.floats(allow_nan=False, allow_infinity=False),
        type(None): st.none(),
    }
    return simple[hint]


@functools.cache
def instances(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return st.builds(cls, **{f.name: values(hints[f.name]) for f in dataclasses.fields(cls)})


def accepted(data: Any, cls: type) -> bool:
    try:
        from_json(data, [cls])
    except BadMessage:
        return False
    return True


@st.composite
def changed(draw: st.DrawFn, cls: type) -> dict[str, Any]:
    """The JSON of a message, then one change of the kinds a phone or a hand-edit makes."""
    data = to_json(draw(instances(cls)))
    keys = sorted(data)
    how = draw(st.sampled_from(["drop", "add", "replace", "retype", "none"]))
    if how == "drop":
        data.pop(draw(st.sampled_from(keys)))
    elif how == "add":
        data[draw(st.text(max_size=6))] = draw(JSON)
    elif how == "replace":
        data[draw(st.sampled_from(keys))] = draw(JSON)
    elif how == "retype":
        data["type"] = draw(st.sampled_from(IDS) | JSON)
    return data


@functools.cache
def validator(cls: type) -> Draft202012Validator:
    """The validator of a message's schema, built once: each example of a property asks it."""
    return Draft202012Validator(schema_of(cls))


@pytest.mark.parametrize("cls", MESSAGES, ids=IDS)
def test_every_schema_is_a_valid_2020_12_schema(cls: type) -> None:
    Draft202012Validator.check_schema(schema_of(cls))


@pytest.mark.parametrize("cls", MESSAGES, ids=IDS)
@CHECKED
@given(data=st.data())
def test_the_json_of_any_message_validates_against_its_schema(
    cls: type, data: st.DataObject
) -> None:
    msg = data.draw(instances(cls))
    validator(cls).validate(to_json(msg))
    assert from_json(to_json(msg), [cls]) == msg


@pytest.mark.parametrize("cls", MESSAGES, ids=IDS)
@CHECKED
@given(data=st.data())
def test_from_json_refuses_exactly_what_the_schema_refuses(cls: type, data: st.DataObject) -> None:
    raw = data.draw(changed(cls))
    valid = validator(cls).is_valid(raw)
    assert accepted(raw, cls) == valid, raw


def test_a_whole_number_written_as_a_float_is_the_one_known_gap() -> None:
    from companion.games.deck import Drew

    raw = {"type": "drew", "to": "hand:1", "cards": [1.0]}
    assert Draft202012Validator(schema_of(Drew)).is_valid(raw) and not accepted(raw, Drew)


@message("test-schema-defaults")
@dataclass(frozen=True)
class Note:
    """A test-only message with a default, a union and a list of optional seats."""

    by: Actor
    seats: tuple[int | None, ...]
    text: str = ""
    level: float | None = None


def test_fields_with_defaults_are_optional_and_unions_list_their_types() -> None:
    schema = schema_of(Note)
    assert schema["required"] == ["type", "by", "seats"]
    assert schema["additionalProperties"] is False
    assert schema["properties"] == {
        "type": {"const": "test-schema-defaults"},
        "by": {"anyOf": [{"type": "integer"}, {"enum": ["referee", "table"]}]},
        "seats": {"type": "array", "items": {"type": ["integer", "null"]}},
        "text": {"type": "string"},
        "level": {"type": ["number", "null"]},
    }


def test_a_class_that_is_no_dataclass_has_no_schema() -> None:
    class Plain:
        by: int

    with pytest.raises(TypeError, match="Plain is not a message"):
        schema_of(Plain)


@dataclass(frozen=True)
class Part:
    """A part of a plain record."""

    grams: float


@dataclass(frozen=True)
class Record:
    seat: Annotated[int, {"minimum": 1}]
    kind: Literal["a", "b"]
    part: Part | None
    parts: tuple[Part, ...]
    extra: dict[str, Any]
    anything: Any


def test_a_plain_dataclass_has_the_schema_of_its_json_closed_and_nested() -> None:
    schema = schema_of(Record)
    assert "type" not in schema["properties"] and schema["additionalProperties"] is False
    assert schema["required"] == ["seat", "kind", "part", "parts", "extra", "anything"]
    part = schema["properties"]["parts"]["items"]
    assert part["description"] == "A part of a plain record." and part["required"] == ["grams"]
    named = schema_of(Record, ref=lambda cls: {"$ref": f"#/{cls.__name__}"})
    assert named["properties"]["part"] == {"anyOf": [{"$ref": "#/Part"}, {"type": "null"}]}
    check = Draft202012Validator(schema)
    good = {"seat": 1, "kind": "a", "part": None, "parts": [{"grams": 1.5}], "extra": {}}
    assert check.is_valid({**good, "anything": [1]})
    for bad in (
        {**good, "anything": 1, "seat": 0},
        {**good, "anything": 1, "kind": "c"},
        {**good, "anything": 1, "parts": [{"grams": 1, "more": 2}]},
        {**good, "anything": 1, "other": 2},
        good,
    ):
        assert not check.is_valid(bad), bad


@pytest.mark.parametrize("name", sorted(GAMES))
@CHECKED
@given(data=st.data())
def test_a_games_actions_schema_takes_its_actions_and_nothing_else(
    name: str, data: st.DataObject
) -> None:
    engine = GAMES[name]
    kind = data.draw(st.sampled_from(IDS))
    example = to_json(data.draw(instances(KINDS[kind])))
    valid = Draft202012Validator(one_of(engine.ACTIONS)).is_valid(example)
    assert valid == (KINDS[kind] in engine.ACTIONS), kind
