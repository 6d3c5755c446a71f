"""Actions and events round-trip through JSON, and malformed JSON is refused with BadMessage."""

from __future__ import annotations

import dataclasses
import inspect
import json
import types
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import BadMessage
from companion.games.cool_runnings import messages as crm
from companion.games.deck import Drew, Shuffled
from companion.games.dice import Rolled
from companion.games.messages import REFEREE, TABLE, Actor, dataclass, from_json, message, to_json


@message("test-optional")
@dataclass(frozen=True)
class Optional_:
    """A test-only message with an optional field and a default."""

    seat: int | None
    note: str = "none"


CR_CLASSES: tuple[type, ...] = tuple(
    cls
    for _, cls in inspect.getmembers(crm, inspect.isclass)
    if cls.__module__ == crm.__name__ and hasattr(cls, "type")
)
EVENT_CLASSES = tuple(c for c in CR_CLASSES if c not in crm.ACTIONS)
ALL_CLASSES = (*CR_CLASSES, Shuffled, Drew, Rolled)

ACTORS = st.one_of(st.integers(min_value=1, max_value=6), st.sampled_from([REFEREE, TABLE]))


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type: ``Actor`` fields get seats and the two non-seat actors."""
    if hint == Actor:
        return ACTORS
    if typing.get_origin(hint) is tuple:
        return st.lists(_strategy(typing.get_args(hint)[0]), max_size=6).map(tuple)
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        return st.one_of(*(_strategy(arg) for arg in typing.get_args(hint)))
    simple: dict[Any, st.SearchStrategy[Any]] = {
        int: st.integers(min_value=-(2**40), max_value=2**40),
        str: st.text(max_size=12),
        bool: st.booleans(),
        float: st.floats(allow_nan=False, allow_infinity=False),
        type(None): st.none(),
    }
    return simple[hint]


def messages_of(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = {f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls)}
    return st.builds(cls, **fields)


ANY_ACTION = st.one_of(*(messages_of(c) for c in crm.ACTIONS))
ANY_MESSAGE = st.one_of(*(messages_of(c) for c in ALL_CLASSES))

EXAMPLES = [
    crm.PlayAttack(by=1, card=17, target=3),
    crm.PlayMove(by=2, card=0, piece=2),
    crm.Deflect(by=3, card=59, target=1),
    crm.TakeHit(by=2),
    crm.TakeHit(by=REFEREE),
    crm.CountFinished(by=TABLE),
    crm.CountFinished(by=REFEREE),
    crm.AttackDone(by=4),
    crm.WrongGuess(by=REFEREE),
    crm.Melted(by=REFEREE, seat=3),
    crm.Melted(by=3, seat=3),
    crm.TrackBuilt(parts=("C", "A", "E", "B", "D"), spaces=38),
    crm.TrackBuilt(parts=(), spaces=3),
    crm.TurnStarted(seat=1, turn=7),
    crm.Attacked(by=1, card=4, attack="polish", target=2, deflected=False),
    crm.Attacked(by=2, card=5, attack="polish", target=3, deflected=True),
    crm.Hit(seat=2, attack="hot-breath", carrier=1, source="lava", ten_count=True),
    crm.CountStarted(seat=2, counts=10, pace_s=0.8),
    crm.CountEnded(seat=2, by=TABLE),
    crm.GuessedWrong(seat=1, round=2),
    crm.AttackEnded(seat=1, attack="water-bath", cancelled=True),
    crm.MovePlayed(by=1, card=9, piece=1, steps=-3),
    crm.Moved(piece=1, start=4, end=6, cause="movement-space"),
    crm.LavaRevealed(seat=3, card=12, attack="squeeze", carrier=1),
    crm.CubeMelted(seat=2, by=REFEREE),
    crm.TurnEnded(seat=4),
    crm.Won(seat=2, how="last-cube"),
    Shuffled(pile="discard", cards=(3, 1, 2)),
    Drew(to="hand:1", cards=(5, 6, 7, 8)),
    Rolled(dice=(0, 2), faces=("floe", "")),
]


def test_the_cool_runnings_module_defines_eight_actions_and_fourteen_events() -> None:
    assert len(crm.ACTIONS) == 8
    assert set(crm.ACTIONS) <= set(CR_CLASSES)
    assert len(EVENT_CLASSES) == 14


def test_every_message_class_has_an_example() -> None:
    assert {type(m) for m in EXAMPLES} == set(ALL_CLASSES)


@pytest.mark.parametrize("msg", EXAMPLES, ids=lambda m: f"{m.type}-{m!r}"[:60])
def test_example_round_trips_through_json_text(msg: Any) -> None:
    data = to_json(msg)
    assert data["type"] == msg.type
    assert from_json(json.loads(json.dumps(data))) == msg


def test_to_json_writes_tuples_as_lists_and_the_type_first() -> None:
    data = to_json(crm.TrackBuilt(parts=("C", "A", "E"), spaces=23))
    assert data == {"type": "track-built", "parts": ["C", "A", "E"], "spaces": 23}
    assert next(iter(data)) == "type"


def test_from_json_makes_tuples_from_lists() -> None:
    msg = from_json({"type": "shuffled", "pile": "draw", "cards": [2, 0, 1]})
    assert msg == Shuffled("draw", (2, 0, 1))
    assert isinstance(msg.cards, tuple)


def test_actor_field_takes_a_seat_or_a_non_seat_actor() -> None:
    assert from_json({"type": "take-hit", "by": 3}) == crm.TakeHit(by=3)
    assert from_json({"type": "take-hit", "by": "referee"}) == crm.TakeHit(by=REFEREE)
    assert from_json({"type": "count-finished", "by": "table"}) == crm.CountFinished(by=TABLE)


def test_a_float_field_takes_a_whole_number_as_a_float() -> None:
    msg = from_json({"type": "count-started", "seat": 1, "counts": 10, "pace_s": 1})
    assert msg.pace_s == 1.0
    assert type(msg.pace_s) is float


def test_an_optional_field_takes_null_and_a_default_may_be_left_out() -> None:
    assert from_json({"type": "test-optional", "seat": None}) == Optional_(None)
    assert from_json({"type": "test-optional", "seat": 2, "note": "x"}) == Optional_(2, "x")
    with pytest.raises(BadMessage, match="missing field 'seat'"):
        from_json({"type": "test-optional"})


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"type": "play-dead", "by": 1}, 'unknown message type "play-dead"'),
        ({"by": 1}, "unknown message type null"),
        ({"type": 7, "by": 1}, "unknown message type 7"),
        ({"type": "play-attack", "by": 1, "card": 2}, "play-attack: missing field 'target'"),
        (
            {"type": "play-attack", "by": 1, "card": 2, "target": 3, "force": 9},
            "play-attack: unexpected field 'force'",
        ),
        ({"type": "play-attack", "by": True, "card": 2, "target": 3}, "play-attack.by: true"),
        ({"type": "play-attack", "by": 1, "card": "2", "target": 3}, 'play-attack.card: "2"'),
        ({"type": "play-attack", "by": 1, "card": 2.0, "target": 3}, "play-attack.card: 2.0"),
        ({"type": "play-attack", "by": "referee", "card": 2, "target": 3}, "play-attack.by"),
        ({"type": "play-attack", "by": None, "card": 2, "target": 3}, "play-attack.by: null"),
        ({"type": "take-hit", "by": False}, "take-hit.by: false"),
        ({"type": "take-hit", "by": "2"}, 'take-hit.by: "2" is not a whole number, "referee" or'),
        ({"type": "daddy-roll", "by": "nobody"}, 'daddy-roll.by: "nobody" is not a whole number'),
        ({"type": "take-hit", "by": 1.5}, "take-hit.by: 1.5"),
        ({"type": "melted", "by": 1, "seat": "1"}, 'melted.seat: "1"'),
        (
            {
                "type": "attacked",
                "by": 1,
                "card": 2,
                "attack": "polish",
                "target": 3,
                "deflected": 1,
            },
            "attacked.deflected: 1",
        ),
        (
            {"type": "track-built", "parts": "ABC", "spaces": 3},
            "track-built.parts: expected a list",
        ),
        ({"type": "track-built", "parts": ["A", 2], "spaces": 3}, r"track-built.parts\[1\]: 2"),
        ({"type": "count-started", "seat": 1, "counts": 10, "pace_s": True}, "pace_s: true"),
        ({"type": "count-started", "seat": 1, "counts": 10, "pace_s": "0.8"}, 'pace_s: "0.8"'),
    ],
)
def test_from_json_refuses_malformed_messages(data: dict[str, Any], why: str) -> None:
    with pytest.raises(BadMessage, match=why):
        from_json(data)


@pytest.mark.parametrize("data", [None, [], ["play-attack", 1, 2, 3], "take-hit", 3, True])
def test_from_json_refuses_anything_but_an_object(data: Any) -> None:
    with pytest.raises(BadMessage, match="a message must be a JSON object"):
        from_json(data)


def test_bad_message_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        from_json({"type": "take-hit"})


def test_allowed_restricts_the_types_accepted() -> None:
    won = to_json(crm.Won(seat=1, how="finish"))
    assert from_json(won, allowed=EVENT_CLASSES) == crm.Won(seat=1, how="finish")
    with pytest.raises(BadMessage, match='unknown message type "won"'):
        from_json(won, allowed=crm.ACTIONS)
    take_hit = to_json(crm.TakeHit(by=2))
    assert from_json(take_hit, allowed=crm.ACTIONS) == crm.TakeHit(by=2)
    with pytest.raises(BadMessage, match='unknown message type "take-hit"'):
        from_json(take_hit, allowed=[crm.PlayMove])
    with pytest.raises(BadMessage):
        from_json(take_hit, allowed=[])


def test_allowed_accepts_a_one_shot_iterable() -> None:
    data = to_json(crm.TakeHit(by=1))
    assert from_json(data, allowed=iter(crm.ACTIONS)) == crm.TakeHit(by=1)


def test_registering_another_class_under_a_taken_name_is_refused() -> None:
    with pytest.raises(TypeError, match="already"):

        @message("take-hit")
        @dataclass(frozen=True)
        class Impostor:
            by: int


def test_registering_a_non_dataclass_is_refused() -> None:
    class Plain:
        pass

    with pytest.raises(TypeError, match="must be a dataclass"):
        message("test-plain")(Plain)


@given(ANY_ACTION)
def test_every_generated_action_round_trips_through_json_text(action: Any) -> None:
    text = json.dumps(to_json(action))
    back = from_json(json.loads(text), allowed=crm.ACTIONS)
    assert back == action
    assert type(back) is type(action)


@given(ANY_MESSAGE)
def test_every_generated_message_round_trips(msg: Any) -> None:
    assert from_json(to_json(msg)) == msg


@given(ANY_ACTION, st.text(min_size=1, max_size=8))
def test_a_generated_action_with_an_extra_field_is_refused(action: Any, extra: str) -> None:
    data = to_json(action)
    if extra in data:
        extra = extra + "_extra"
    data[extra] = 1
    with pytest.raises(BadMessage, match="unexpected field"):
        from_json(data)
