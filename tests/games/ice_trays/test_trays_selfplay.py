"""Ice Trays under self-play, export and ``companion verify``, and told in words."""

from __future__ import annotations

import copy
import json

import pytest
from trays_tables import JONATHAN, JULIA, LAUREN, position, rng, rolling

from companion.games import GAMES
from companion.games.ice_trays import messages as m
from companion.games.ice_trays.engine import apply
from companion.games.ice_trays.ring import CLOCKWISE, COUNTERCLOCKWISE
from companion.games.ice_trays.words import narrate
from companion.games.selfplay import play_one, selfplay
from companion.games.verify import verify


@pytest.fixture(scope="module")
def export() -> dict:
    return play_one("ice-trays", seed=1, number=0).record.export()


def test_ice_trays_is_registered_under_its_name() -> None:
    assert GAMES["ice-trays"].TITLE == "Ice Trays"
    assert list(GAMES["ice-trays"].SEATS) == [2, 3, 4]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_thirty_self_played_games_finish_without_a_violation(seats: int) -> None:
    report = selfplay("ice-trays", games=30, seed=1, seats=seats)
    assert report["finished"] == 30
    assert report["invariant_violations"] == 0, report["violation_examples"]
    assert report["endings"] == {"points": 30}
    assert sum(report["wins_by_seat"].values()) + report["ties"] == 30


def test_the_same_seed_plays_the_same_games() -> None:
    assert selfplay("ice-trays", games=5, seed=7) == selfplay("ice-trays", games=5, seed=7)


def test_a_finished_games_export_verifies(export: dict) -> None:
    verdict = verify(json.loads(json.dumps(export)))
    assert verdict.ok, verdict.mismatch
    rolls = sum(1 for e in export["log"] for ev in e["events"] if ev["type"] == "rolled")
    assert f"0 shuffles, {rolls} rolls and 0 draws match the seed" in verdict.lines
    assert export["options"]["board"]["capacity"] == 5


def test_a_changed_face_in_a_rolled_event_is_caught(export: dict) -> None:
    tampered = copy.deepcopy(export)
    number, entry = next(
        (i, e)
        for i, e in enumerate(tampered["log"], start=1)
        if e["action"]["type"] == "trays-roll"
    )
    shown = entry["events"][0]["faces"][0]
    entry["events"][0]["faces"][0] = "steal" if shown != "steal" else "blue"
    verdict = verify(tampered)
    assert not verdict.ok
    assert verdict.mismatch.startswith(f"action {number} (trays-roll by 1), event 1 (a roll): ")
    assert "faces[0]" in verdict.mismatch


def test_a_changed_sowing_direction_is_caught(export: dict) -> None:
    tampered = copy.deepcopy(export)
    entry = next(e for e in tampered["log"] if e["action"]["type"] == "trays-sow")
    flip = {CLOCKWISE: COUNTERCLOCKWISE, COUNTERCLOCKWISE: CLOCKWISE}
    entry["action"]["direction"] = flip[entry["action"]["direction"]]
    assert not verify(tampered).ok


def test_a_board_changed_in_the_export_is_caught(export: dict) -> None:
    tampered = copy.deepcopy(export)
    tampered["options"]["board"]["capacity"] = 9
    verdict = verify(tampered)
    assert not verdict.ok and "setup, event 1" in verdict.mismatch


# Told in words


def test_the_narration_tells_laurens_example_as_a_player_would() -> None:
    state, _ = apply(position(face="blue"), m.Sow(LAUREN, 1, COUNTERCLOCKWISE), rng())
    events = [m.Sowed(LAUREN, 1, COUNTERCLOCKWISE, ("cup 1", "tray 8", "tray 7"))]
    assert [line.en for line in narrate(events, state)] == [
        "Lauren sows the 3 cubes of blue tray 1 counterclockwise (to the right): "
        "Lauren's cup, orange tray 8, pink tray 7."
    ]


def test_the_narration_names_the_roller_even_when_the_turn_ends_at_once() -> None:
    state = position({1: 0, 5: 0}, berries=(2,), turn=JULIA, face=None)
    after, events = apply(rolling(state, "blue"), m.Roll(JULIA), rng())
    assert [line.en for line in narrate(events, after)[:2]] == [
        "Julia rolls blue.",
        "Nothing to do: neither blue tray has a cube or its blueberry. Julia's turn ends.",
    ]
    turn = narrate(events, after)[2]
    assert (turn.en, turn.de) == ("Turn 2: Lauren.", "Zug 2: Lauren.")
    assert turn.board.startswith("(Lauren 0) blue 0, yellow 3 ")


def test_the_narration_of_bonus_last_cubes_steal_and_the_end() -> None:
    state = position(turn=JONATHAN)
    assert [line.en for line in narrate([m.BlueberryTaken(JONATHAN, 4, 2)], state)] == [
        "The orange tray 4 is empty: Jonathan takes the blueberry of side 2 (2 points)."
    ]
    assert [line.en for line in narrate([m.LastCubesTaken(JULIA, 6, 3)], state)] == [
        "Last Cubes: Julia puts all 3 cubes of yellow tray 6 straight into Julia's cup."
    ]
    assert [line.en for line in narrate([m.Stole(LAUREN, JONATHAN)], state)] == [
        "Lauren steals a cube from Jonathan's cup."
    ]
    over = position(cubes={LAUREN: 10, JONATHAN: 12}, blueberries={LAUREN: 1})
    assert [
        line.en for line in narrate([m.GameOver((12, 12, 0), (10, 12, 0), JONATHAN)], over)
    ] == [
        "The board is empty. Lauren 12 points (10 cubes, 1 blueberry), Jonathan 12 points "
        "(12 cubes, 0 blueberries), Julia 0 points (0 cubes, 0 blueberries). A tie on 12 "
        "points: Jonathan has more cubes and wins!"
    ]


def test_a_whole_narrated_game_reads_roll_by_roll() -> None:
    lines: list[str] = []
    played = play_one(
        "ice-trays", seed=3, on_events=lambda ev, st: lines.extend(s.en for s in narrate(ev, st))
    )
    rolls = sum(1 for a, _ in played.record.log if isinstance(a, m.Roll))
    assert sum(1 for line in lines if " rolls " in line) == rolls
    assert lines[0].startswith("The board is set: 3 cubes in each of the 8 trays")
    assert lines[-1].startswith("The board is empty.")
    assert not any("None" in line or "{" in line for line in lines)
