"""The export format and ``companion verify``: an honest game passes, any tampering is named.

A finished game's export reveals the seed and every shuffle, draw and roll; verify replays it
from the seed and the actions and names the first difference. An unfinished game's export keeps
the card order secret and cannot be verified yet.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest

import companion.games
from companion.errors import BadOptions, ExportError, IllegalAction
from companion.games import engine
from companion.games.dice import Dice, Rolled
from companion.games.effects import Effect, GameOver, TableFacts, no_defaults
from companion.games.fair import FairRandom, commitment_of, mix_seed
from companion.games.messages import Actor, message
from companion.games.outcome import Outcome
from companion.games.record import FORMAT, VERSION, GameRecord
from companion.games.seats import SeatInfo, default_seats
from companion.games.selfplay import game_secret, play_one
from companion.games.start_options import Option, no_options
from companion.games.verify import Verdict, verify

Export = dict[str, Any]
EDITION_1 = "edition-1-export.json"
"""A Cool am Pool game the companion of edition 1 exported and verified as honest."""

SEED = 1
"""The self-play seed of the game most tests tamper with (133 actions, a mid-game reshuffle)."""


@cache
def _finished_text(seed: int) -> str:
    return json.dumps(play_one("cool-runnings", seed, 0).record.export())


def finished_export(seed: int = SEED) -> Export:
    """A fresh copy of the export of a finished self-played game of Cool Runnings."""
    return json.loads(_finished_text(seed))


@pytest.fixture
def export() -> Export:
    return finished_export()


def mismatch_of(data: Export) -> str:
    """The mismatch verify names; the test fails if verify accepts the export."""
    verdict = verify(data)
    assert not verdict.ok, f"verify accepted a tampered export: {verdict.lines}"
    assert verdict.mismatch is not None
    return verdict.mismatch


def brief(entry: Mapping[str, Any]) -> str:
    """How verify names a log entry's action: ``(play-move by 1)``."""
    return f"({entry['action']['type']} by {entry['action']['by']})"


def entries_with_event(data: Export, kind: str) -> list[tuple[int, int]]:
    """(log index, event index) of every event of type ``kind`` in the log."""
    return [
        (i, j)
        for i, entry in enumerate(data["log"])
        for j, event in enumerate(entry["events"])
        if event["type"] == kind
    ]


def setup_index(data: Export, kind: str) -> int:
    return next(j for j, event in enumerate(data["setup"]) if event["type"] == kind)


def first_move_before_any_melt(data: Export) -> int:
    """The index of the first play-move taken while every seat was still in the game."""
    for i, entry in enumerate(data["log"]):
        if entry["action"]["type"] == "melted":
            break
        if entry["action"]["type"] == "play-move":
            return i
    raise AssertionError("the game has no play-move before the first melt")


def hand_before(data: Export, seat: int, index: int) -> set[int]:
    """The cards ``seat`` holds before log entry ``index`` (no cube has melted before it)."""
    held: set[int] = set()
    events = [*data["setup"]]
    for entry in data["log"][:index]:
        action = entry["action"]
        if action.get("by") == seat and "card" in action:
            events.append({"type": "played", "card": action["card"]})
        events += entry["events"]
    for event in events:
        if event["type"] == "drew" and event["to"] == f"hand:{seat}":
            held |= set(event["cards"])
        elif event["type"] == "played":
            held.discard(event["card"])
    return held


def count_events(data: Export, kind: str) -> int:
    in_log = sum(1 for entry in data["log"] for e in entry["events"] if e["type"] == kind)
    return in_log + sum(1 for e in data["setup"] if e["type"] == kind)


def play_to_end(record: GameRecord, seed: int = 0) -> GameRecord:
    rnd = random.Random(seed)
    while not record.over:
        assert len(record.log) < 5000, "the game does not end"
        record.act(record.engine.random_action(record.state, rnd))
    return record


# An honest game passes


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_an_honest_self_played_game_verifies(seed: int) -> None:
    data = finished_export(seed)
    verdict = verify(data)
    assert verdict.ok
    assert verdict.mismatch is None
    assert data["outcome"] is not None


def test_verify_lines_name_commitment_actions_shuffles_draws_and_outcome(export: Export) -> None:
    verdict = verify(export)
    assert verdict.lines == [
        f"commitment {export['commitment'][:16]}... matches sha256 of the seed",
        f"setup replayed: {len(export['setup'])} events",
        f"{len(export['log'])} actions replayed, each one legal when it was taken",
        f"{count_events(export, 'shuffled')} shuffles, 0 rolls and "
        f"{count_events(export, 'drew')} draws match the seed",
        f"outcome matches: Seat {export['outcome']['winner']} won ({export['outcome']['how']})",
    ]
    assert count_events(export, "shuffled") >= 2, "the game should include a reshuffle"
    assert count_events(export, "drew") > 10


def test_the_commitment_is_sha256_of_the_revealed_seed(export: Export) -> None:
    seed = mix_seed(bytes.fromhex(export["seed"]["device"]), export["seed"]["players"])
    assert export["commitment"] == commitment_of(seed)
    assert export["seed"]["device"] == game_secret(SEED, 0).hex()


def test_a_finished_export_carries_format_version_events_and_the_deck() -> None:
    data = finished_export()
    assert data["format"] == FORMAT == "companion-game"
    assert data["version"] == VERSION == 1
    assert data["game"] == "cool-runnings"
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3, 4]
    assert len(data["options"]["deck"]) == 60
    assert data["setup"][0]["type"] == "track-built"
    assert all(isinstance(entry["events"], list) and entry["events"] for entry in data["log"])


def test_verify_does_not_change_the_export(export: Export) -> None:
    before = copy.deepcopy(export)
    verify(export)
    assert export == before


def test_a_game_with_player_seeds_verifies() -> None:
    record = GameRecord.start(
        "cool-runnings", {}, default_seats(3), bytes(range(32)), ("alice", "4711")
    )
    data = play_to_end(record).export()
    assert data["seed"]["players"] == ["alice", "4711"]
    assert data["commitment"] != commitment_of(bytes(range(32)))
    assert verify(data).ok


# Tampering with the seed or the commitment


def test_a_device_seed_changed_by_one_hex_digit_is_caught(export: Export) -> None:
    device = export["seed"]["device"]
    export["seed"]["device"] = ("1" if device[0] != "1" else "2") + device[1:]
    mismatch = mismatch_of(export)
    assert mismatch.startswith("seed: sha256 of the seed is ")
    assert export["commitment"][:16] in mismatch


def test_a_changed_commitment_is_caught(export: Export) -> None:
    real = export["commitment"]
    export["commitment"] = commitment_of(bytes(32))
    mismatch = mismatch_of(export)
    assert mismatch.startswith("seed:")
    assert real[:16] in mismatch
    assert export["commitment"][:16] in mismatch


def test_a_new_seed_with_a_matching_commitment_fails_on_the_card_order(export: Export) -> None:
    """Whoever swaps the seed and recomputes the commitment cannot reproduce the shuffles."""
    other = bytes(range(32))
    export["seed"]["device"] = other.hex()
    export["commitment"] = commitment_of(other)
    mismatch = mismatch_of(export)
    assert mismatch.startswith("setup, event 1 (track-built)") or mismatch.startswith(
        "setup, event 2 (a shuffle)"
    )


def test_a_device_seed_that_is_not_hex_or_not_32_bytes_is_a_mismatch(export: Export) -> None:
    export["seed"]["device"] = "zz" + export["seed"]["device"][2:]
    assert mismatch_of(export).startswith("seed: not a valid seed")
    export["seed"]["device"] = "abcd"
    assert "32 bytes" in mismatch_of(export)


@pytest.mark.parametrize(
    ("typed", "tampered"),
    [
        (["alice", "4711"], ["alice", "4712"]),
        (["alice", "4711"], ["4711", "alice"]),
        (["alice", "4711"], ["alice"]),
        (["alice", "4711"], []),
        (["ab", "c"], ["a", "bc"]),
    ],
)
def test_a_changed_player_seed_list_is_caught(typed: list[str], tampered: list[str]) -> None:
    record = GameRecord.start("cool-runnings", {}, default_seats(2), bytes(range(32)), typed)
    data = play_to_end(record).export()
    assert verify(data).ok
    data["seed"]["players"] = tampered
    assert mismatch_of(data).startswith("seed: sha256 of the seed is ")


def test_player_seeds_added_to_a_game_without_any_are_caught(export: Export) -> None:
    assert export["seed"]["players"] == []
    export["seed"]["players"] = ["karen"]
    assert mismatch_of(export).startswith("seed:")


def test_a_player_seed_that_is_not_a_string_is_refused_not_a_crash(export: Export) -> None:
    export["seed"]["players"] = [4711]
    try:
        verdict = verify(export)
    except ExportError as exc:
        assert "players" in str(exc) or "seed" in str(exc)
    else:
        assert verdict.mismatch is not None
        assert verdict.mismatch.startswith("seed")


# Tampering with the actions


def test_a_play_move_with_another_piece_is_caught(export: Export) -> None:
    i = first_move_before_any_melt(export)
    action = export["log"][i]["action"]
    action["piece"] = next(s for s in (1, 2, 3, 4) if s != action["piece"])
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {i + 1} {brief(export['log'][i])}, event 1 (move-played)")


def test_a_play_move_with_another_card_from_the_same_hand_is_caught(export: Export) -> None:
    i = first_move_before_any_melt(export)
    action = export["log"][i]["action"]
    held = hand_before(export, action["by"], i)
    assert action["card"] in held and len(held) == 4
    action["card"] = min(held - {action["card"]})
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {i + 1} {brief(export['log'][i])}, event 1 (move-played)")
    assert mismatch.endswith(f"but the seed and the actions give {action['card']}")


def test_a_play_move_with_a_card_the_seat_does_not_hold_is_caught(export: Export) -> None:
    i = first_move_before_any_melt(export)
    action = export["log"][i]["action"]
    held = hand_before(export, action["by"], i)
    action["card"] = min(set(range(60)) - held)
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {i + 1} {brief(export['log'][i])}: ")
    assert "does not hold that card" in mismatch


def test_an_action_removed_from_the_middle_is_caught(export: Export) -> None:
    log = export["log"]
    k = next(
        k
        for k in range(len(log) // 2, len(log) - 1)
        if log[k]["action"]["type"] == "play-move"
        and log[k + 1]["action"]["type"] in ("play-move", "play-attack")
        and log[k + 1]["action"]["by"] != log[k]["action"]["by"]
    )
    removed = log.pop(k)
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {k + 1} {brief(log[k])}: ")
    assert f"It is Seat {removed['action']['by']}'s turn" in mismatch


def test_an_action_of_an_unknown_type_is_caught(export: Export) -> None:
    export["log"][3]["action"] = {"type": "cheat", "by": 1}
    assert mismatch_of(export) == 'action 4 (cheat by 1): unknown message type "cheat"'


def test_an_action_with_a_malformed_field_is_caught(export: Export) -> None:
    i = first_move_before_any_melt(export)
    export["log"][i]["action"]["piece"] = "2"
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {i + 1} (play-move by ")
    assert "play-move.piece" in mismatch


def test_an_action_appended_after_the_end_is_caught(export: Export) -> None:
    export["log"].append({"action": {"type": "melted", "by": "referee", "seat": 1}, "events": []})
    n = len(export["log"])
    assert mismatch_of(export) == f"action {n} (melted by referee): The game is over."


def test_a_verdict_with_a_mismatch_claims_no_check_it_did_not_finish(export: Export) -> None:
    export["log"][5]["events"][0]["type"] = "forged"
    verdict = verify(export)
    assert not verdict.ok
    assert verdict.lines == [
        f"commitment {export['commitment'][:16]}... matches sha256 of the seed",
        f"setup replayed: {len(export['setup'])} events",
    ]


# Tampering with the shuffles, draws and the track (this game's roll)


def test_two_cards_swapped_in_the_setup_shuffle_are_caught(export: Export) -> None:
    j = setup_index(export, "shuffled")
    cards = export["setup"][j]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    mismatch = mismatch_of(export)
    assert mismatch == (
        f"setup, event {j + 1} (a shuffle): cards[0] is {cards[0]} in the export, "
        f"but the seed and the actions give {cards[1]}"
    )


def test_two_cards_swapped_in_a_reshuffle_during_the_game_are_caught(export: Export) -> None:
    reshuffles = entries_with_event(export, "shuffled")
    assert reshuffles, "the game should include a reshuffle of the discard pile"
    i, j = reshuffles[0]
    cards = export["log"][i]["events"][j]["cards"]
    cards[0], cards[-1] = cards[-1], cards[0]
    mismatch = mismatch_of(export)
    assert mismatch.startswith(
        f"action {i + 1} {brief(export['log'][i])}, event {j + 1} (a shuffle)"
    )


def test_a_changed_card_in_a_setup_deal_is_caught(export: Export) -> None:
    j = setup_index(export, "drew")
    export["setup"][j]["cards"][0] = (export["setup"][j]["cards"][0] + 1) % 60
    assert mismatch_of(export).startswith(f"setup, event {j + 1} (a draw)")


def test_a_changed_draw_during_the_game_is_caught(export: Export) -> None:
    i, j = entries_with_event(export, "drew")[0]
    drew = export["log"][i]["events"][j]
    drew["cards"][0] = (drew["cards"][0] + 1) % 60
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action {i + 1} {brief(export['log'][i])}, event {j + 1} (a draw)")


def test_a_draw_given_to_another_hand_is_caught(export: Export) -> None:
    i, j = entries_with_event(export, "drew")[2]
    drew = export["log"][i]["events"][j]
    drew["to"] = "hand:1" if drew["to"] != "hand:1" else "hand:2"
    assert mismatch_of(export).startswith(f"action {i + 1} {brief(export['log'][i])}, event")


def test_a_changed_track_layout_is_caught(export: Export) -> None:
    built = export["setup"][0]
    assert built["type"] == "track-built"
    built["parts"] = list(reversed(built["parts"]))
    mismatch = mismatch_of(export)
    assert mismatch.startswith("setup, event 1 (track-built): parts[0] is ")


def test_a_track_layout_forced_through_the_options_is_caught(export: Export) -> None:
    """Naming the parts' order in the options replaces the random layout: it shows."""
    export["options"]["part_order"] = sorted(export["setup"][0]["parts"])
    assert export["options"]["part_order"] != export["setup"][0]["parts"]
    assert mismatch_of(export).startswith("setup, event 1 (track-built)")


# Tampering with the outcome, the length of the log and the events


def test_a_changed_score_that_leaves_the_winner_is_named_by_the_scores() -> None:
    export = play_one("daddy-cool", 1, 0).record.export()
    loser = next(s for s in export["outcome"]["scores"] if int(s) != export["outcome"]["winner"])
    export["outcome"]["scores"][loser] += 1
    mismatch = verify(export).mismatch
    assert mismatch is not None and mismatch.startswith("outcome: the export says {")
    assert f'"{loser}": {export["outcome"]["scores"][loser]}' in mismatch


def test_an_export_made_before_outcomes_ranked_the_seats_still_verifies() -> None:
    export = play_one("ice-trays", 1, 0).record.export()
    for newer in ("ranking", "tie_breaks"):
        del export["outcome"][newer]
    assert verify(export).ok


@pytest.mark.parametrize("game", ["cool-runnings", "cool-am-pool", "ice-trays", "daddy-cool"])
def test_an_export_says_the_edition_of_the_rules_it_was_played_under(game: str) -> None:
    export = play_one(game, 1, 0).record.export()
    assert export["rules"] == engine(game).RULES
    assert verify(export).ok


def test_an_export_made_before_exports_said_their_edition_is_of_the_first() -> None:
    export = play_one("ice-trays", 1, 0).record.export()
    del export["rules"]
    assert verify(export).ok


def test_an_honest_pool_export_of_the_first_edition_is_said_to_be_of_it_not_changed() -> None:
    """Made by the companion before the lifeguard moved with the roll: its replay under today's
    rules differs, and the verdict says why rather than calling it changed."""
    made = json.loads(Path(__file__).with_name("cool_am_pool").joinpath(EDITION_1).read_text())
    assert "rules" not in made
    with pytest.raises(ExportError, match=r"older edition of its rules \(1\) .* \(2\)"):
        verify(made)


def test_an_edition_changed_in_an_export_is_not_checked_under_another() -> None:
    export = play_one("cool-am-pool", 1, 0).record.export()
    export["rules"] = 3
    with pytest.raises(ExportError, match="newer edition"):
        verify(export)
    export["rules"] = "2"
    with pytest.raises(ExportError, match="whole number"):
        verify(export)


def test_a_changed_place_or_breakdown_in_the_ranking_is_caught() -> None:
    export = play_one("cool-am-pool", 1, 0).record.export()
    export["outcome"]["ranking"][-1]["place"] = 1
    assert mismatch_of(export).startswith("outcome: the export says {")
    export = play_one("cool-am-pool", 1, 0).record.export()
    export["outcome"]["ranking"][0]["parts"][0]["count"] += 1
    assert mismatch_of(export).startswith("outcome: the export says {")


def test_a_changed_winner_is_caught(export: Export) -> None:
    real = export["outcome"]["winner"]
    export["outcome"]["winner"] = 1 if real != 1 else 2
    mismatch = mismatch_of(export)
    assert mismatch.startswith("outcome: the export says ")
    assert f"the replay says Seat {real} won" in mismatch


def test_a_changed_way_of_winning_is_caught(export: Export) -> None:
    export["outcome"]["how"] = "finish" if export["outcome"]["how"] != "finish" else "last-cube"
    assert mismatch_of(export).startswith("outcome:")


def test_a_truncated_log_is_caught_by_the_outcome(export: Export) -> None:
    export["log"].pop()
    mismatch = mismatch_of(export)
    assert mismatch.startswith("outcome: the export says Seat ")
    assert mismatch.endswith("the replay says the game is not over")


def test_an_entry_without_its_events_is_caught(export: Export) -> None:
    del export["log"][10]["events"]
    assert mismatch_of(export) == f"action 11 {brief(export['log'][10])}: the events are missing"


def test_a_setup_without_its_events_is_caught(export: Export) -> None:
    export["setup"] = None
    assert mismatch_of(export) == "setup: the events are missing"


def test_an_event_deleted_from_an_entry_is_caught(export: Export) -> None:
    entry = export["log"][0]
    removed = entry["events"].pop()
    mismatch = mismatch_of(export)
    where = f"action 1 {brief(entry)}, event {len(entry['events']) + 1}"
    assert mismatch.startswith(where)
    assert "the export lacks an event" in mismatch
    assert removed["type"] in mismatch


def test_every_event_deleted_from_an_entry_is_caught(export: Export) -> None:
    export["log"][0]["events"] = []
    assert mismatch_of(export).startswith(f"action 1 {brief(export['log'][0])}, event 1")


def test_an_extra_event_in_an_entry_is_caught(export: Export) -> None:
    entry = export["log"][0]
    entry["events"].append({"type": "drew", "to": "hand:1", "cards": [0]})
    mismatch = mismatch_of(export)
    assert mismatch.startswith(f"action 1 {brief(entry)}, event {len(entry['events'])} (a draw)")
    assert "the export has an event the replay does not" in mismatch


def test_an_extra_event_with_a_list_as_its_type_is_a_mismatch_not_a_crash(
    export: Export,
) -> None:
    export["log"][0]["events"].append({"type": ["drew"]})
    assert mismatch_of(export).startswith("action 1 ")


def test_a_deck_option_that_is_not_a_list_is_a_mismatch_not_a_crash(export: Export) -> None:
    export["options"]["deck"] = 5
    assert mismatch_of(export).startswith("setup: ")


def test_options_no_game_can_start_with_are_a_setup_mismatch(export: Export) -> None:
    export["options"]["first_seat"] = 9
    assert mismatch_of(export) == "setup: first_seat 9 is not one of the seats [1, 2, 3, 4]"


def test_an_unknown_game_is_a_setup_mismatch(export: Export) -> None:
    export["game"] = "chess"
    assert mismatch_of(export).startswith("setup: unknown game 'chess'")


# A game that is not over


@pytest.fixture
def unfinished() -> GameRecord:
    record = GameRecord.start("cool-runnings", {}, default_seats(3), bytes(range(32)))
    rnd = random.Random(5)
    for _ in range(12):
        record.act(record.engine.random_action(record.state, rnd))
    assert not record.over
    return record


def test_an_unfinished_export_hides_the_seed_and_the_events(unfinished: GameRecord) -> None:
    data = unfinished.export()
    assert data["outcome"] is None
    assert data["seed"] is None
    assert data["setup"] is None
    assert len(data["log"]) == 12
    assert all(set(entry) == {"action"} for entry in data["log"])
    assert data["commitment"] == unfinished.commitment


def test_an_unfinished_export_holds_no_card_order(unfinished: GameRecord) -> None:
    text = json.dumps(unfinished.export())
    for secret in ('"shuffled"', '"drew"', '"cards"', '"events"', '"track-built"'):
        assert secret not in text
    assert unfinished.device_secret.hex() not in text
    draw_pile = unfinished.state.deck.pile("draw")
    assert json.dumps(list(draw_pile[:6]))[1:-1] not in text


def test_a_game_with_no_action_yet_exports_only_the_commitment() -> None:
    record = GameRecord.start("cool-runnings", {}, default_seats(2), bytes(range(32)))
    data = record.export()
    assert data["log"] == []
    assert data["seed"] is None and data["setup"] is None and data["outcome"] is None
    assert data["commitment"] == commitment_of(bytes(range(32)))
    assert '"shuffled"' not in json.dumps(data)


def test_the_commitment_before_the_end_is_the_one_verified_after_it(
    unfinished: GameRecord,
) -> None:
    early = unfinished.export()
    late = play_to_end(unfinished, seed=9).export()
    assert late["commitment"] == early["commitment"]
    assert [e["action"] for e in late["log"][:12]] == [e["action"] for e in early["log"]]
    assert late["seed"] is not None
    assert verify(late).ok


def test_verify_refuses_an_unfinished_export(unfinished: GameRecord) -> None:
    with pytest.raises(ExportError, match="its seed is still secret"):
        verify(unfinished.export())


# Not an export at all


def _without(key: str) -> Export:
    data = finished_export()
    del data[key]
    return data


def _with(path: Sequence[Any], value: Any) -> Export:
    data = finished_export()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "words"),
    [
        pytest.param([1, 2], "not a companion game export", id="a-list"),
        pytest.param("companion-game", "not a companion game export", id="a-string"),
        pytest.param(None, "not a companion game export", id="null"),
        pytest.param({}, "not a companion game export", id="empty-object"),
        pytest.param(_with(["format"], "other-game"), "not a companion game", id="wrong-format"),
        pytest.param(_without("format"), "not a companion game", id="no-format"),
        pytest.param(_with(["version"], 2), "version 2 is not 1", id="version-2"),
        pytest.param(_with(["version"], "1"), "version '1' is not 1", id="version-text"),
        pytest.param(_without("version"), "version None", id="no-version"),
        pytest.param(_without("log"), "'log' is missing", id="no-log"),
        pytest.param(_with(["log"], {}), "'log' is missing or not a list", id="log-object"),
        pytest.param(_with(["log", 3], {"events": []}), "log entry 4 has no action", id="entry"),
        pytest.param(_with(["log", 0], "play"), "log entry 1 has no action", id="entry-text"),
        pytest.param(_with(["seed"], {"players": []}), "'device' (hex)", id="no-device"),
        pytest.param(_with(["seed", "device"], 7), "'device' (hex)", id="device-number"),
        pytest.param(_with(["seed", "players"], "x"), "'players' (a list", id="players-text"),
        pytest.param(_with(["seed"], "abc"), "'seed' must hold", id="seed-text"),
        pytest.param(_without("seed"), "the export has no seed", id="no-seed"),
        pytest.param(_without("game"), "'game' is missing", id="no-game"),
        pytest.param(_with(["options"], []), "'options' is missing", id="options-list"),
        pytest.param(_with(["seats"], None), "'seats' is missing", id="no-seats"),
        pytest.param(_with(["commitment"], 5), "'commitment' is missing", id="commitment-num"),
    ],
)
def test_what_is_not_an_export_raises_export_error(data: Any, words: str) -> None:
    with pytest.raises(ExportError) as caught:
        verify(data)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_version_of_true_is_not_version_one() -> None:
    with pytest.raises(ExportError, match="version"):
        verify(_with(["version"], True))


# Dice: a tiny honest die-rolling race, for the rolls no real game records yet

RACE = "test-dice-race"
FACES = ("1", "2", "3", "4", "5", "6")


@message("test-roll")
@dataclass(frozen=True)
class Roll:
    """The seat whose turn it is rolls the die."""

    by: int


@message("test-race-started")
@dataclass(frozen=True)
class RaceStarted:
    goal: int
    first: int


@message("test-advanced")
@dataclass(frozen=True)
class Advanced:
    seat: int
    start: int
    end: int


@message("test-race-won")
@dataclass(frozen=True)
class RaceWon:
    seat: int


@dataclass(frozen=True)
class RaceState:
    seats: tuple[SeatInfo, ...]
    goal: int
    positions: tuple[int, ...]
    turn: int
    winner: int | None
    rng_counter: int


class DiceRace:
    """Seats take turns rolling one six-sided die; the first to reach the goal wins."""

    NAME = RACE
    TITLE = "Dice race"
    SEATS = range(2, 5)
    RULES = 1
    ACTIONS = (Roll,)
    ODDS = ()
    DEALT = "dice"
    USES_ICE = False
    DATA_FILES: ClassVar[dict[str, Any]] = {}

    def options_from_json(self, raw: Mapping[str, Any] | None) -> int:
        raw = dict(raw or {})
        goal = raw.pop("goal", 12)
        if raw:
            raise BadOptions(f"unknown option {sorted(raw)[0]!r}")
        if not isinstance(goal, int) or isinstance(goal, bool) or not 1 <= goal <= 100:
            raise BadOptions(f"goal must be 1 to 100, not {goal!r}")
        return goal

    def options_to_json(self, options: int) -> dict[str, Any]:
        return {"goal": options}

    def new_game(
        self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo], rng: FairRandom
    ) -> tuple[RaceState, list[Any]]:
        goal = self.options_from_json(options)
        if len(seats) not in self.SEATS:
            raise BadOptions(f"the race is for 2 to 4 seats, not {len(seats)}")
        r = rng.at(0)
        first = r.below(len(seats))
        state = RaceState(tuple(seats), goal, (0,) * len(seats), first, None, r.counter)
        return state, [RaceStarted(goal, seats[first].seat)]

    def _seat(self, state: RaceState) -> int:
        return state.seats[state.turn].seat

    def legal_actions(self, state: RaceState, actor: Actor) -> list[Roll]:
        if state.winner is None and actor == self._seat(state):
            return [Roll(self._seat(state))]
        return []

    def apply(self, state: RaceState, action: Any, rng: FairRandom) -> tuple[RaceState, list[Any]]:
        if state.winner is not None:
            raise IllegalAction("The race is over.")
        if not isinstance(action, Roll) or action.by != self._seat(state):
            raise IllegalAction(f"It is seat {self._seat(state)}'s roll.")
        r = rng.at(state.rng_counter)
        _, rolled = Dice.of(FACES, count=1).roll(r)
        start = state.positions[state.turn]
        end = min(state.goal, start + int(rolled.faces[0]))
        events: list[Any] = [rolled, Advanced(action.by, start, end)]
        positions = (*state.positions[: state.turn], end, *state.positions[state.turn + 1 :])
        winner = action.by if end == state.goal else None
        if winner is not None:
            events.append(RaceWon(winner))
        turn = (state.turn + 1) % len(state.seats)
        return replace(
            state, positions=positions, turn=turn, winner=winner, rng_counter=r.counter
        ), events

    def view(self, state: RaceState, viewer: Actor) -> dict[str, Any]:
        return {
            "positions": {
                str(s.seat): p for s, p in zip(state.seats, state.positions, strict=True)
            },
            "turn_seat": self._seat(state),
            "winner": state.winner,
        }

    def outcome(self, state: RaceState) -> Outcome | None:
        return None if state.winner is None else Outcome(state.winner, "finish")

    def invariants(self, state: RaceState) -> list[str]:
        wrong = [
            f"position {p} is off the board" for p in state.positions if not 0 <= p <= state.goal
        ]
        if (state.winner is not None) != (state.goal in state.positions):
            wrong.append("a winner exactly when a piece reached the goal")
        return wrong

    def random_action(self, state: RaceState, rnd: random.Random) -> Roll:
        return Roll(self._seat(state))

    def describe(self, event: Any, state: RaceState) -> str | None:
        match event:
            case Rolled(_, faces):
                return f"The die shows {faces[0]}."
            case Advanced(seat, start, end):
                return f"Seat {seat} moves from {start} to {end}."
            case RaceWon(seat):
                return f"Seat {seat} wins the race!"
        return None

    def narrate(self, events: list[Any], state: RaceState) -> list[str]:
        return [line for event in events if (line := self.describe(event, state))]

    def effects(self, events: Iterable[Any], state: RaceState) -> list[Effect]:
        return [GameOver(e.seat) for e in events if isinstance(e, RaceWon)]

    def standing(self, state: RaceState) -> list[Effect]:
        return []

    def table_defaults(self, facts: TableFacts) -> dict[str, Any]:
        return no_defaults(facts)

    def start_options(self, facts: TableFacts) -> list[Option]:
        return no_options(facts)


@pytest.fixture
def race_export(monkeypatch: pytest.MonkeyPatch) -> Export:
    """A finished race of three seats, registered as a game only for the test."""
    monkeypatch.setitem(companion.games.GAMES, RACE, DiceRace())  # type: ignore[arg-type]
    record = GameRecord.start(RACE, {"goal": 12}, default_seats(3), bytes(range(1, 33)))
    rnd = random.Random(0)
    while not record.over:
        assert len(record.log) < 200
        assert record.engine.invariants(record.state) == []
        record.act(record.engine.random_action(record.state, rnd))
    return record.export()


def test_the_toy_race_has_every_member_of_the_engine_protocol() -> None:
    members = {n for n in vars(companion.games.Engine) if not n.startswith("_")}
    members |= set(companion.games.Engine.__annotations__)
    assert {"NAME", "SEATS", "ACTIONS", "new_game", "apply", "outcome"} <= members
    race = DiceRace()
    assert [m for m in sorted(members) if not hasattr(race, m)] == []


def test_the_toy_race_rolls_fairly_and_replays(race_export: Export) -> None:
    rolls = [e for entry in race_export["log"] for e in entry["events"] if e["type"] == "rolled"]
    assert len(rolls) == len(race_export["log"]) >= 6
    assert all(r["dice"] == [0] and r["faces"][0] in FACES for r in rolls)
    assert len({r["faces"][0] for r in rolls}) > 1, "a die that always shows one face"
    verdict = verify(race_export)
    assert verdict.ok, verdict.mismatch
    assert f"0 shuffles, {len(rolls)} rolls and 0 draws match the seed" in verdict.lines


def test_a_changed_die_face_is_caught(race_export: Export) -> None:
    i = len(race_export["log"]) // 2
    rolled = race_export["log"][i]["events"][0]
    assert rolled["type"] == "rolled"
    rolled["faces"] = ["6" if rolled["faces"][0] != "6" else "1"]
    mismatch = mismatch_of(race_export)
    assert mismatch.startswith(f"action {i + 1} {brief(race_export['log'][i])}, event 1 (a roll)")


def test_a_changed_die_face_with_a_consistent_move_is_still_caught(race_export: Export) -> None:
    """Changing the roll and the move it caused together does not help: the seed decides."""
    entry = race_export["log"][0]
    rolled, advanced = entry["events"][0], entry["events"][1]
    face = int(rolled["faces"][0])
    new = 6 if face != 6 else 5
    rolled["faces"] = [str(new)]
    advanced["end"] = advanced["start"] + new
    assert mismatch_of(race_export).startswith(f"action 1 {brief(entry)}, event 1 (a roll)")


def test_a_roll_for_the_wrong_seat_is_caught(race_export: Export) -> None:
    entry = race_export["log"][1]
    entry["action"]["by"] = race_export["log"][0]["action"]["by"]
    mismatch = mismatch_of(race_export)
    assert mismatch.startswith(f"action 2 {brief(entry)}: It is seat ")


def test_the_race_export_outside_the_registry_is_a_setup_mismatch(
    race_export: Export, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(companion.games.GAMES, RACE)
    assert mismatch_of(race_export).startswith(f"setup: unknown game '{RACE}'")


def test_verdict_is_ok_only_without_a_mismatch() -> None:
    assert Verdict().ok
    assert not Verdict(mismatch="seed: no").ok
