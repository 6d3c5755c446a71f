"""The odds of the colour die: each face's chance from the die in the data, and the chance that
the roll allows no move, checked against the engine's own rolls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gameplay import PROPERTIES, Played, first_seat_option, played_games
from hypothesis import given, settings
from hypothesis import strategies as st
from trays_tables import JONATHAN, JULIA, LAUREN, position, rng, rolling

from companion.games.ice_trays import GAME as ice_trays
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.board import STEAL, WILD, board_to_json, default_board
from companion.games.ice_trays.engine import apply
from companion.games.ice_trays.odds import KEYS, NO_MOVE, face_chances, no_move_chance, odds_json
from companion.games.ice_trays.state import ROLL, State
from companion.games.ice_trays.views import view
from companion.games.messages import REFEREE

COLOURS = ("blue", "orange", "pink", "yellow")


def own_die(*faces: str) -> dict[str, Any]:
    """Options for the bundled board with a die of these faces."""
    return {"board": board_to_json(default_board()) | {"faces": list(faces)}}


def split(odds: dict[str, Any]) -> list[dict[str, Any]]:
    """The chances of the die's faces: every entry but no-move."""
    assert {c["key"] for c in odds["chances"]} <= set(KEYS)
    return [c for c in odds["chances"] if c["key"] != NO_MOVE]


def test_the_bundled_die_shows_each_of_its_six_faces_once_in_six_rolls() -> None:
    odds = odds_json(position())
    assert odds is not None and odds["dice_in_hand"] == 1
    assert split(odds) == [
        *({"key": "colour", "p": 0.167, "colour": colour} for colour in COLOURS),
        {"key": "wild", "p": 0.167},
        {"key": "steal", "p": 0.167},
    ]
    assert sum(face_chances(default_board().faces).values()) == 1


def test_a_face_written_twice_on_the_die_is_twice_as_likely() -> None:
    faces = ("blue", "blue", "orange", "pink", "yellow", "wild", "steal", "steal")
    state = position(options=own_die(*faces))
    assert face_chances(faces)["blue"] == Fraction(1, 4)
    chances = {c.get("colour", c["key"]): c["p"] for c in split(odds_json(state))}
    assert chances == {
        "blue": 0.25,
        "orange": 0.125,
        "pink": 0.125,
        "yellow": 0.125,
        WILD: 0.125,
        STEAL: 0.25,
    }


def stuck_by_rolling(state: State) -> Fraction:
    """The chance of no move as the engine plays it: roll each face, see whether the turn ends
    at once."""
    chance = Fraction(0)
    for face, p in face_chances(state.board.faces).items():
        _, events = apply(rolling(state, face), m.Roll(state.turn_seat), rng())
        if any(isinstance(e, m.NothingToDo) for e in events):
            chance += p
    return chance


def test_no_move_is_the_chance_that_the_roll_ends_the_turn_at_once() -> None:
    # At the start no cup holds a cube: Steal is the only face that allows no move.
    assert no_move_chance(position()) == Fraction(1, 6) == stuck_by_rolling(position())
    # Yellow trays 2 and 6 empty, their blueberries gone, and a cube to steal.
    stuck = position({2: 0, 6: 0}, berries=(2, 4), cubes={JONATHAN: 1})
    assert no_move_chance(stuck) == Fraction(1, 6) == stuck_by_rolling(stuck)
    # One cube left on the board and nothing to steal: only blue and Wild move.
    last = position([1, 0, 0, 0, 0, 0, 0, 0], berries=())
    assert no_move_chance(last) == Fraction(4, 6) == stuck_by_rolling(last)
    assert odds_json(last)["chances"][-1] == {"key": "no-move", "p": 0.667}  # type: ignore[index]


def test_the_faces_add_up_to_one_roll_and_no_move_is_a_share_of_them() -> None:
    """The faces' lines add up to 100 %; the no-move line is the faces that allow no move
    added up, a part of that 100 %, not another outcome beside the faces."""
    for state in (position(), position([1, 0, 0, 0, 0, 0, 0, 0], berries=())):
        odds = odds_json(state)
        assert odds is not None
        faces = face_chances(state.board.faces)
        assert sum(faces.values()) == 1
        assert abs(sum(c["p"] for c in split(odds)) - 1) <= 0.0005 * len(faces)
        stuck = [
            face
            for face in faces
            if any(
                isinstance(e, m.NothingToDo)
                for e in apply(rolling(state, face), m.Roll(state.turn_seat), rng())[1]
            )
        ]
        assert stuck and no_move_chance(state) == sum(faces[face] for face in stuck) < 1
        assert odds["chances"][-1]["p"] == round(float(no_move_chance(state)), 3)


def test_the_odds_are_public_but_not_another_seats_and_gone_once_rolled() -> None:
    state = position()
    odds = view(state, LAUREN)["odds"]
    assert odds is not None
    assert view(state, "public")["odds"] == odds and view(state, REFEREE)["odds"] == odds
    assert view(state, JULIA)["odds"] is None
    rolled = position(face="blue")
    for viewer in (LAUREN, JULIA, REFEREE, "public"):
        assert view(rolled, viewer)["odds"] is None


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from((*COLOURS, WILD, STEAL)), max_size=8))
def test_any_die_splits_its_roll_into_faces_that_add_up_to_one(extra: list[str]) -> None:
    faces = (*COLOURS, *extra)
    chances = face_chances(faces)
    assert sum(chances.values()) == 1
    assert all(chances[face] == Fraction(faces.count(face), len(faces)) for face in faces)
    odds = odds_json(position(options=own_die(*faces)))
    assert odds is not None
    shown = split(odds)
    assert all(0 <= c["p"] <= 1 for c in odds["chances"])
    assert abs(sum(c["p"] for c in shown) - 1) <= 0.0005 * len(shown)


@PROPERTIES
@given(played_games(ice_trays, options=first_seat_option, max_actions=200))
def test_over_whole_games_there_are_odds_exactly_before_each_roll(game: Played) -> None:
    for state in game.states:
        odds = odds_json(state)
        if state.phase != ROLL:
            assert odds is None
            continue
        assert odds is not None and 0 <= no_move_chance(state) <= 1
        assert odds["chances"][-1] == {"key": NO_MOVE, "p": round(float(no_move_chance(state)), 3)}
        assert split(odds) == split(odds_json(game.states[0]))  # the die never changes
