"""The Ice Trays views: the whole board for everyone, and a seat's legal actions as JSON that
POSTs back unchanged."""

from __future__ import annotations

import json

from gameplay import assert_view_actions_apply
from trays_tables import JONATHAN, JULIA, LAUREN, position, rng

from companion.games.ice_trays import GAME as ice_trays
from companion.games.ice_trays.engine import apply, legal_actions
from companion.games.ice_trays.messages import ACTIONS
from companion.games.ice_trays.views import view
from companion.games.messages import REFEREE, from_json
from companion.games.selfplay import play_one


def test_the_seat_views_legal_actions_round_trip_through_json_and_apply_unchanged() -> None:
    for state in (
        position(),
        position({4: 0}, face="orange"),
        position({2: 0}, berries=(), face="yellow"),
        position(cubes={JONATHAN: 2, JULIA: 1}, face="steal"),
        position({1: 0}, face="wild"),
    ):
        shown = view(state, LAUREN)["legal_actions"]
        assert shown
        for raw in shown:
            action = from_json(json.loads(json.dumps(raw)), ACTIONS)
            assert action in legal_actions(state, LAUREN)
            apply(state, action, rng())


def test_legal_actions_in_views_apply_over_a_whole_game() -> None:
    played = play_one("ice-trays", seed=2, number=0)
    for state in played.states[:-1]:
        assert_view_actions_apply(ice_trays, state, state.turn_seat)


def test_a_seat_sees_the_sow_choices_with_tray_and_direction() -> None:
    mine = view(position(face="blue"), LAUREN)
    assert mine["viewer"] == LAUREN and mine["face"] == "blue" and mine["phase"] == "choose"
    assert {"type": "trays-sow", "by": LAUREN, "tray": 1, "direction": "counterclockwise"} in mine[
        "legal_actions"
    ]
    assert view(position(face="blue"), JONATHAN)["legal_actions"] == []


def test_the_ring_lists_cups_and_trays_clockwise_from_cup_1() -> None:
    state = position({1: 0, 8: 5}, berries=(1, 3), cubes={LAUREN: 2}, blueberries={JULIA: 1})
    ring = view(state, "public")["ring"]
    assert [p.get("cup") or p.get("tray") for p in ring] == [1, 1, 2, 2, 3, 4, 3, 5, 6, 4, 7, 8]
    assert [p["place"] for p in ring[:4]] == ["cup", "tray", "tray", "cup"]
    assert ring[0] == {"place": "cup", "cup": 1, "seat": LAUREN, "cubes": 2, "blueberries": 0}
    assert ring[6] == {"place": "cup", "cup": 3, "seat": JULIA, "cubes": 0, "blueberries": 1}
    assert ring[9] == {"place": "cup", "cup": 4, "seat": None, "cubes": 0, "blueberries": 0}
    assert ring[1] == {"place": "tray", "tray": 1, "colour": "blue", "cubes": 0, "side": 1}
    assert ring[11] == {"place": "tray", "tray": 8, "colour": "orange", "cubes": 5, "side": 4}


def test_the_view_shows_blueberries_per_side_the_cups_and_the_die() -> None:
    seen = view(position(berries=(1, 3), cubes={LAUREN: 2}, blueberries={LAUREN: 1}), "public")
    assert [s["blueberry"] for s in seen["sides"]] == [True, False, True, False]
    assert seen["sides"][1]["trays"] == [3, 4]
    assert seen["seats"][0] == {
        "seat": LAUREN,
        "name": "Lauren",
        "colour": "blue",
        "cup": 1,
        "cubes": 2,
        "blueberries": 1,
        "points": 4,
        "points_from": [
            {"what": "cubes", "count": 2, "points": 2, "each": 1},
            {"what": "blueberries", "count": 1, "points": 2, "each": 2},
        ],
    }
    assert seen["capacity"] == 5
    assert seen["die"] == ["blue", "orange", "pink", "yellow", "wild", "steal"]
    assert seen["face"] is None and seen["outcome"] is None
    assert "legal_actions" not in seen and seen["viewer"] == "public"


def test_the_referee_sees_everything_and_has_no_moves() -> None:
    seen = view(position(face="blue"), REFEREE)
    assert seen["viewer"] == REFEREE and seen["legal_actions"] == []
    assert seen["turn_seat"] == LAUREN and seen["commitment"]


def test_a_finished_games_view_carries_the_outcome() -> None:
    played = play_one("ice-trays", seed=4, number=0)
    seen = view(played.record.state, "public")
    assert seen["phase"] == "over"
    assert seen["outcome"] is not None
    assert seen["outcome"] == played.record.outcome_json()
    assert json.loads(json.dumps(seen)) == seen
