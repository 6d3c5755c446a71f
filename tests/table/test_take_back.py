"""The referee takes back the last action, and the one before, while a game is played: the
randomness stays honest (an undone roll or draw comes back the same), a tap offered before
the take-back never lands after it, the take-back is stored before it is answered and lives
through a restart, a ten-count it undoes stops, and the export and `companion verify` show it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tabletime import HeldClock, held_table
from waiting import wait_until

from companion.errors import IllegalAction
from companion.games import GAMES
from companion.games.messages import REFEREE
from companion.games.verify import verify
from companion.table.offers import Stale
from companion.table.service import TableService
from companion.table.tokens import Forbidden

SEATS = [1, 2, 3]


def offered(table: TableService) -> list[tuple[Any, dict[str, Any]]]:
    """What the seats (and, where no seat may act, the referee) are offered now, but a cube's
    melted."""
    found = [
        (actor, a)
        for actor in (*SEATS, REFEREE)
        for a in table.view(actor)["legal_actions"]
        if a["type"] != "melted"
    ]
    seats = [(actor, a) for actor, a in found if actor != REFEREE]
    return seats or found


def take_back(table: TableService) -> dict[str, Any]:
    offer = table.view(REFEREE)["take_back"]
    assert offer is not None, "nothing offered to take back"
    return table.act(REFEREE, offer["action"])


def events_of_last(table: TableService) -> list[Any]:
    record = table.session.require().record
    return record.log[-1][1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_undone_roll_or_draw_comes_back_the_same(tmp_path: Path, name: str) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": name, "seats": SEATS})
        rnd = random.Random(name)
        redone = 0
        for _ in range(30):
            if table.status()["game"]["over"]:
                break
            actor, action = rnd.choice(offered(table))
            table.act(actor, action)
            first = events_of_last(table)
            if table.status()["game"]["over"]:
                break
            if rnd.random() < 0.5:
                seen = table.status()["game"]
                take_back(table)
                back = table.status()["game"]
                assert back["actions"] == seen["actions"] - 1
                assert back["changes"] == seen["changes"] + 1
                table.act(actor, {**action, "after": back["changes"]})
                assert events_of_last(table) == first, "the same action drew differently"
                redone += 1
        assert redone > 3
    finally:
        table.close()


def test_takes_back_one_action_then_the_one_before(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "daddy-cool", "seats": SEATS})
        rnd = random.Random(1)
        states = [table.session.require().record.state]
        for _ in range(6):
            table.act(*rnd.choice(offered(table)))
            states.append(table.session.require().record.state)
        for back in range(1, 4):
            take_back(table)
            assert table.session.require().record.state == states[-1 - back]
        assert table.status()["game"]["actions"] == 3
    finally:
        table.close()


def test_a_tap_offered_before_a_take_back_never_lands_after_it(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "daddy-cool", "seats": SEATS})
        turn = table.status()["game"]["turn_seat"]
        roll = table.view(turn)["legal_actions"][0]
        table.act(turn, roll)
        take_back(table)
        # the same tap, sent again by a phone that slept through the take-back: not applied
        with pytest.raises(Stale):
            table.act(turn, roll)
        assert table.status()["game"]["actions"] == 0
        # taken again, then the old view's tap comes late: still not a second roll
        table.act(turn, table.view(turn)["legal_actions"][0])
        with pytest.raises(Stale):
            table.act(turn, roll)
        assert table.status()["game"]["actions"] == 1
    finally:
        table.close()


def test_a_double_tap_on_take_back_takes_back_one_action(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "daddy-cool", "seats": SEATS})
        rnd = random.Random(2)
        for _ in range(3):
            table.act(*rnd.choice(offered(table)))
        offer = table.view(REFEREE)["take_back"]["action"]
        first = table.act(REFEREE, offer)
        assert table.act(REFEREE, offer) == first, "the second tap is not answered as the first"
        assert table.status()["game"]["actions"] == 2
    finally:
        table.close()


def test_only_the_referee_takes_back_and_only_what_stands(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "ice-trays", "seats": SEATS})
        assert table.view(REFEREE)["take_back"] is None
        assert "take_back" not in table.view(1)
        with pytest.raises(IllegalAction, match="No action has been taken yet"):
            table.act(REFEREE, {"type": "take-back", "by": "referee", "after": 0})
        turn = table.status()["game"]["turn_seat"]
        table.act(turn, table.view(turn)["legal_actions"][0])
        with pytest.raises(Forbidden):
            table.act(turn, {"type": "take-back", "by": "referee", "after": 1})
        with pytest.raises(IllegalAction, match="Only the referee"):
            table.act(turn, {"type": "take-back", "by": turn, "after": 1})
        assert table.status()["game"]["actions"] == 1
    finally:
        table.close()


def test_the_take_back_is_told_to_every_seat(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": SEATS})
        turn = table.status()["game"]["turn_seat"]
        table.act(turn, table.view(turn)["legal_actions"][0])
        what = table.view(REFEREE)["take_back"]
        said = table.status()["game"]["told"][-1]
        assert (what["en"], what["de"]) == (said["en"], said["de"])
        take_back(table)
        told = table.status()["game"]["told"][-1]
        assert told["en"] == f"The referee took back: {what['en']}"
        assert told["de"] == f"Die Spielleitung nahm zurück: {what['de']}"
        assert told["change"] == table.status()["game"]["changes"]
    finally:
        table.close()


def test_a_take_back_lives_through_a_restart(tmp_path: Path) -> None:
    table = held_table(tmp_path, HeldClock())
    table.start_game(REFEREE, {"game": "cool-am-pool", "seats": SEATS})
    rnd = random.Random(3)
    for _ in range(5):
        table.act(*rnd.choice(offered(table)))
    take_back(table)
    take_back(table)
    game, state = table.status()["game"], table.session.require().record.state
    table.close()
    again = held_table(tmp_path, HeldClock())
    try:
        assert again.status()["game"] == game
        assert again.session.require().record.state == state
        assert [e["action"]["type"] for e in again.export(REFEREE)["log"]][-2:] == ["take-back"] * 2
    finally:
        again.close()


def until_a_count(table: TableService) -> dict[str, Any]:
    """Attacks played and hits taken at random until a ten-count runs; the count."""
    rnd = random.Random(4)
    for _ in range(200):
        if table.status()["count"] is not None:
            return table.status()["count"]  # type: ignore[no-any-return]
        choices = offered(table)
        hits = [c for c in choices if c[1]["type"] in ("take-hit", "play-attack")]
        table.act(*rnd.choice(hits or choices))
    raise AssertionError("no ten-count started")


def test_taking_back_the_hit_stops_its_count_and_taking_back_its_end_starts_it_again(
    tmp_path: Path,
) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": SEATS})
        until_a_count(table)
        take_back(table)
        assert table.status()["count"] is None
        assert table.status()["game"]["phase"] != "count"
    finally:
        table.close()


COUNT_ENDED = {
    "referee": (
        "The referee stops the count for {name}.",
        "Die Spielleitung beendet das Zählen für {name}.",
    ),
    "table": ("The count for {name} is over.", "Das Zählen für {name} ist vorbei."),
}
"""What the take-back of a count's end offers, by who ended it, in either language."""
NAMES = {1: "Mia", 2: "Tom", 3: "Oma"}


@pytest.mark.parametrize("ended_by", sorted(COUNT_ENDED))
def test_the_take_back_of_a_finished_count_names_the_count_not_its_words(
    tmp_path: Path, ended_by: str
) -> None:
    """Ended by the referee's skip, or by the table's own timer once the count's time is up."""
    clock = HeldClock()
    table = held_table(tmp_path, clock)
    try:
        named = [{"seat": seat, "name": NAMES[seat]} for seat in SEATS]
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": named})
        count = until_a_count(table)
        actions = table.status()["game"]["actions"]
        if ended_by == "referee":
            finished = next(
                a for a in table.view(REFEREE)["legal_actions"] if a["type"] == "count-finished"
            )
            table.act(REFEREE, finished)
        else:
            clock.advance(count["of"] * count["pace_s"] + 10)
            wait_until(lambda: table.status()["count"] is None, what="the count's time up")
        assert table.status()["game"]["actions"] == actions + 1
        offer = table.view(REFEREE)["take_back"]
        said = [words.format(name=NAMES[count["seat"]]) for words in COUNT_ENDED[ended_by]]
        assert [offer["en"], offer["de"]] == said, offer
        assert "ice cubes!" not in offer["en"] and "Eiswürfel!" not in offer["de"]
        take_back(table)
        assert table.status()["count"] is not None, "the count taken back runs again"
    finally:
        table.close()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_export_records_every_take_back_and_verify_checks_it(tmp_path: Path, name: str) -> None:
    table = held_table(tmp_path, HeldClock())
    try:
        table.start_game(REFEREE, {"game": name, "seats": SEATS})
        rnd = random.Random(5)
        backs = 0
        for _ in range(400):
            if table.status()["game"]["over"]:
                break
            if table.status()["count"] is not None:
                table.act(REFEREE, table.view(REFEREE)["legal_actions"][0])
                continue
            table.act(*rnd.choice(offered(table)))
            if rnd.random() < 0.2 and not table.status()["game"]["over"]:
                take_back(table)
                backs += 1
        export = table.end_game(REFEREE) if not table.status()["game"]["over"] else None
        export = export or table.export(None)
        log = export["log"]
        assert sum(e["action"]["type"] == "take-back" for e in log) == backs > 0
        verdict = verify(export)
        assert verdict.ok, verdict.mismatch
        assert any("taken back by the referee" in line for line in verdict.lines)
        # a take-back removed from the export, or one added where nothing stood: found
        at = next(i for i, e in enumerate(log) if e["action"]["type"] == "take-back")
        cut = {**export, "log": log[:at] + log[at + 1 :]}
        assert not verify(cut).ok
        early = {**export, "log": [log[at], *log]}
        assert "no action stood" in (verify(early).mismatch or "")
    finally:
        table.close()
