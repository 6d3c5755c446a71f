"""Cool Runnings data: cards, the deck and track files, hot days, laying parts, and options."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.errors import BadOptions, DataFileError
from companion.games.cool_runnings.cards import (
    MOVE_RANGE,
    Card,
    attacks,
    deck_from_notation,
    default_deck,
    load_deck,
    parse_card,
)
from companion.games.cool_runnings.state import Options, options_from_json, options_to_json
from companion.games.cool_runnings.track import (
    ICE,
    LAVA,
    MOVE,
    PLAIN,
    Space,
    TrackData,
    build_track,
    choose_parts,
    default_track,
    load_track,
    parse_spaces,
    recommended_parts,
)
from companion.games.fair import FairRandom

TEN_COUNTS = {"polish", "squeeze", "hot-breath"}
ATTACK_KEYS = {
    "polish",
    "squeeze",
    "hot-breath",
    "cold-shower",
    "guessing-game",
    "thawing-salt",
    "water-bath",
}
PARTS = ["A", "B", "C", "D", "E"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def rng(seed: int = 0) -> FairRandom:
    return FairRandom(seed.to_bytes(32, "big"))


def deck_file(*entries: str) -> str:
    """A deck file whose ``cards = \"\"\"`` is on line 3, so entry ``i`` is on line ``4 + i``."""
    return '# my own box\n\ncards = """\n' + "\n".join(entries) + '\n"""\n'


GOOD_TRACK = """\
# my track
[parts]
A = ". . L"
B = ". I ."
C = "+1 . ."
D = ". -1 ."

[goal]
spaces = ". ."

[hot-days]
five_parts_up_to_c = 20
four_parts_up_to_c = 22.5
"""


# The attacks


def test_the_attacks_file_has_the_seven_attacks() -> None:
    assert set(attacks()) == ATTACK_KEYS
    assert all(key == attack.key for key, attack in attacks().items())


def test_every_attack_has_english_and_german_names_and_instructions() -> None:
    for attack in attacks().values():
        for text in (attack.en, attack.de, attack.instruction_en, attack.instruction_de):
            assert text.strip(), attack.key
        assert attack.en != attack.de
    assert attacks()["polish"].en == "Polish"
    assert attacks()["polish"].de == "Aufpolieren"
    assert attacks()["hot-breath"].de == "Heißer Atem"
    assert attacks()["water-bath"].en == "Water bath"


def test_exactly_polish_squeeze_and_hot_breath_are_ten_counts() -> None:
    assert {key for key, attack in attacks().items() if attack.ten_count} == TEN_COUNTS


# Cards


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("water-bath +3", Card("water-bath", 3)),
        ("polish -3", Card("polish", -3)),
        ("squeeze +4", Card("squeeze", 4)),
        ("hot-breath 2", Card("hot-breath", 2)),
        ("  cold-shower   -1 ", Card("cold-shower", -1)),
    ],
)
def test_parse_card_reads_the_notation(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("polsh +1", "unknown attack 'polsh'"),
        ("polish +0", r"must be -3..-1 or \+1..\+4"),
        ("polish +5", r"must be -3..-1 or \+1..\+4"),
        ("polish -4", r"must be -3..-1 or \+1..\+4"),
        ("polish one", "must be a number"),
        ("polish", "a card is 'attack move'"),
        ("polish +1 2", "a card is 'attack move'"),
        ("", "a card is 'attack move'"),
    ],
)
def test_parse_card_refuses_bad_notation(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_card(text)


def test_card_notation_round_trips() -> None:
    for card in set(default_deck()):
        assert parse_card(card.notation()) == card
    assert Card("polish", 3).notation() == "polish +3"
    assert Card("squeeze", -2).notation() == "squeeze -2"


# The bundled deck


def test_the_bundled_deck_has_60_cards() -> None:
    assert len(default_deck()) == 60
    assert load_deck() == default_deck()


def test_the_bundled_deck_uses_all_seven_attacks() -> None:
    assert {card.attack for card in default_deck()} == ATTACK_KEYS


def test_the_bundled_deck_moves_run_from_minus_3_to_plus_4_without_0() -> None:
    moves = {card.move for card in default_deck()}
    assert moves <= {-3, -2, -1, 1, 2, 3, 4}
    assert min(moves) == -3
    assert max(moves) == 4
    assert set(MOVE_RANGE) - {0} == {-3, -2, -1, 1, 2, 3, 4}


def test_the_bundled_deck_counts_each_line() -> None:
    counts = Counter(card.notation() for card in default_deck())
    assert counts["polish +1"] == 2
    assert counts["water-bath +4"] == 2
    assert counts["squeeze -3"] == 1
    assert sum(counts.values()) == 60


def test_a_deck_file_keeps_order_and_counts(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", deck_file("polish +1 2", "# comment", "", "squeeze -3 1"))
    assert load_deck(path) == (Card("polish", 1), Card("polish", 1), Card("squeeze", -3))
    assert load_deck(str(path)) == load_deck(path)


@pytest.mark.parametrize(
    ("entries", "line", "why"),
    [
        (["polish +1 2", "squeeze -1 3", "# fine", "polsh +2 1"], 7, "unknown attack 'polsh'"),
        (["polish +1 2", "squeeze 0 3"], 5, r"must be -3..-1 or \+1..\+4"),
        (["polish +5 1"], 4, r"must be -3..-1 or \+1..\+4"),
        (["polish -4 1"], 4, r"must be -3..-1 or \+1..\+4"),
        (["polish +1 2", "", "squeeze +1 0"], 6, "the count '0' must be a whole number"),
        (["polish +1 -2"], 4, "the count '-2' must be a whole number"),
        (["polish +1 2", "squeeze +1 x"], 5, "x"),
        (["polish +1"], 4, "a card is 'attack move'"),
        (["polish +1 2 3"], 4, "a card is 'attack move'"),
    ],
)
def test_a_deck_file_error_names_the_file_and_the_entry_line(
    tmp_path: Path, entries: list[str], line: int, why: str
) -> None:
    path = write(tmp_path, "deck.toml", deck_file(*entries))
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert info.value.path == str(path)
    assert info.value.message == str(info.value).removeprefix(f"{path}:{line}: ")
    assert re.search(why, info.value.message)


def test_a_count_that_is_not_a_number_is_explained_in_words(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", deck_file("squeeze +1 x"))
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert info.value.message.startswith("the count 'x' must be a whole number of at least 1")


def test_a_deck_file_with_an_unknown_key_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", deck_file("polish +1 2") + "\nshuffle = true\n")
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert info.value.line == 7
    assert str(info.value).startswith(f"{path}:7: unknown key 'shuffle'")


def test_a_deck_file_with_an_unknown_table_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", deck_file("polish +1 2") + "\n[meta]\nby = 'me'\n")
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value).startswith(f"{path}:7: unknown key 'meta'")


def test_a_single_line_cards_string_reports_the_key_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", '# mine\ncards = "polsh +1 2"\n')
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert info.value.line == 2


def test_an_empty_deck_file_is_refused_at_the_cards_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", deck_file("# nothing yet"))
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value) == f"{path}:3: the deck has no cards"


def test_a_deck_file_without_cards_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", "# empty\n")
    with pytest.raises(DataFileError, match="missing key 'cards'"):
        load_deck(path)


def test_a_deck_file_whose_cards_are_not_text_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", "# x\ncards = 60\n")
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value) == f"{path}:2: cards must be text in quotes, not 60"


def test_a_deck_file_that_is_not_toml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deck.toml", '# x\n\ncards = """\npolish +1 2\n')
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value).startswith(f"{path}:")
    assert "not valid TOML" in str(info.value)


def test_a_missing_deck_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value).startswith(f"{path}: cannot be read")


def test_a_deck_file_in_another_encoding_is_named(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_bytes(b'# H\xe4nde\ncards = """\npolish +1 2\n"""\n')
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    assert str(info.value) == f"{path}: is not UTF-8 text"


def test_deck_from_notation_reads_one_card_per_entry() -> None:
    assert deck_from_notation(["polish +1", "squeeze -2"]) == (
        Card("polish", 1),
        Card("squeeze", -2),
    )
    assert deck_from_notation(()) == ()


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        (["polish +1", 3], "deck card 2 must be a string"),
        (["polish +1", "squeeze +1", "polsh +1"], "deck card 3: unknown attack 'polsh'"),
        (["polish +9"], "deck card 1: the move"),
        ([None], "deck card 1 must be a string"),
    ],
)
def test_deck_from_notation_refuses_bad_cards(entries: list[Any], why: str) -> None:
    with pytest.raises(BadOptions, match=why):
        deck_from_notation(entries)


# Spaces


def test_parse_spaces_reads_every_symbol() -> None:
    assert parse_spaces(". L I +2 -1 l i") == (
        Space(PLAIN),
        Space(LAVA),
        Space(ICE),
        Space(MOVE, 2),
        Space(MOVE, -1),
        Space(LAVA),
        Space(ICE),
    )


def test_space_symbols_write_the_notation_back() -> None:
    text = ". . L . I +2 . -1"
    assert " ".join(space.symbol for space in parse_spaces(text)) == text
    assert " ".join(s.symbol for s in parse_spaces("  .\tl\n i  +3 ")) == ". L I +3"


@pytest.mark.parametrize("symbol", ["X", "+0", "-0", "2", "++1", "+", "-", "L2", "..", "+1.5"])
def test_parse_spaces_refuses_an_unknown_symbol_by_name(symbol: str) -> None:
    with pytest.raises(ValueError, match=f"unknown space {symbol!r}".replace("+", r"\+")):
        parse_spaces(f". . {symbol} .")


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_parse_spaces_refuses_a_part_without_spaces(text: str) -> None:
    with pytest.raises(ValueError, match="at least one space"):
        parse_spaces(text)


# The bundled track


def test_the_bundled_track_has_five_parts() -> None:
    track = default_track()
    assert sorted(track.parts) == PARTS
    assert load_track() == track


def test_the_bundled_track_has_about_36_spaces() -> None:
    track = default_track()
    per_part = {name: len(parse_spaces(text)) for name, text in track.parts.items()}
    total = sum(per_part.values()) + len(parse_spaces(track.goal))
    assert 30 <= total <= 42
    assert all(5 <= n <= 9 for n in per_part.values()), per_part
    assert len(build_track(track, PARTS)) == total


def test_the_bundled_parts_have_lava_and_ice() -> None:
    kinds = {s.kind for text in default_track().parts.values() for s in parse_spaces(text)}
    assert {PLAIN, LAVA, ICE, MOVE} <= kinds


def test_the_bundled_hot_day_thresholds_are_24_and_28() -> None:
    track = default_track()
    assert (track.five_parts_up_to_c, track.four_parts_up_to_c) == (24.0, 28.0)


# Ruling 13: hot days


@pytest.mark.parametrize(
    ("air_c", "parts"),
    [(-5.0, 5), (18.0, 5), (24.0, 5), (24.1, 4), (26.0, 4), (28.0, 4), (28.1, 3), (40.0, 3)],
)
def test_ruling_13_recommended_parts_follow_the_default_thresholds(
    air_c: float, parts: int
) -> None:
    assert recommended_parts(air_c) == parts
    assert recommended_parts(air_c, default_track()) == parts


def test_ruling_13_recommended_parts_follow_thresholds_from_a_track_file(tmp_path: Path) -> None:
    track = load_track(write(tmp_path, "track.toml", GOOD_TRACK))
    assert (track.five_parts_up_to_c, track.four_parts_up_to_c) == (20.0, 22.5)
    assert [recommended_parts(t, track) for t in (19.9, 20.0, 20.1, 22.5, 22.6, 24.0)] == [
        5,
        5,
        4,
        4,
        3,
        3,
    ]


def test_equal_thresholds_never_recommend_four_parts() -> None:
    track = TrackData(default_track().parts, ". .", 25.0, 25.0)
    assert [recommended_parts(t, track) for t in (25.0, 25.01)] == [5, 3]


# Track files


def test_a_track_file_is_read_with_its_parts_normalised(tmp_path: Path) -> None:
    text = GOOD_TRACK.replace('A = ". . L"', 'A = " .  .   L "')
    track = load_track(write(tmp_path, "track.toml", text))
    assert track.parts == {"A": ". . L", "B": ". I .", "C": "+1 . .", "D": ". -1 ."}
    assert track.goal == ". ."


@pytest.mark.parametrize(
    ("old", "new", "line", "why"),
    [
        ('C = "+1 . ."', 'C = "+1 . X"', 5, "parts.C: unknown space 'X'"),
        ('B = ". I ."', 'B = ". I +0"', 4, "parts.B: unknown space '+0'"),
        ('A = ". . L"', 'A = ""', 3, "parts.A: a part needs at least one space"),
        ('spaces = ". ."', 'spaces = ". ? ."', 9, "goal.spaces: unknown space '?'"),
        ('D = ". -1 ."', "D = 3", 6, "parts.D must be text in quotes, not 3"),
        (
            "four_parts_up_to_c = 22.5",
            "four_parts_up_to_c = 19.5",
            13,
            "must not be below five_parts_up_to_c",
        ),
        ("five_parts_up_to_c = 20", 'five_parts_up_to_c = "warm"', 12, "must be a number"),
        ("# my track", "colour = 'blue'", 1, "unknown key 'colour'"),
    ],
)
def test_a_track_file_error_names_the_file_and_the_line(
    tmp_path: Path, old: str, new: str, line: int, why: str
) -> None:
    assert old in GOOD_TRACK
    path = write(tmp_path, "track.toml", GOOD_TRACK.replace(old, new))
    with pytest.raises(DataFileError) as info:
        load_track(path)
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert why in info.value.message


def test_a_track_file_with_fewer_than_three_parts_is_refused(tmp_path: Path) -> None:
    text = GOOD_TRACK.replace('C = "+1 . ."\n', "").replace('D = ". -1 ."\n', "")
    path = write(tmp_path, "track.toml", text)
    with pytest.raises(DataFileError, match="the track needs at least 3 parts, not 2"):
        load_track(path)


def test_a_track_file_without_a_goal_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "track.toml", GOOD_TRACK.replace('spaces = ". ."', ""))
    with pytest.raises(DataFileError, match=r"missing key 'goal\.spaces'"):
        load_track(path)


def test_a_missing_track_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError, match="cannot be read") as info:
        load_track(path)
    assert info.value.path == str(path)


# Laying the parts


def test_choose_parts_keeps_a_given_order_and_draws_nothing() -> None:
    source = rng()
    assert choose_parts(PARTS, 3, source, ["C", "A", "E"]) == ("C", "A", "E")
    assert choose_parts(PARTS, 5, source, ("E", "D", "C", "B", "A")) == ("E", "D", "C", "B", "A")
    assert source.counter == 0


@pytest.mark.parametrize(
    ("count", "order", "why"),
    [
        (3, ["C", "A", "Z"], "there is no part 'Z'"),
        (3, ["C", "A", "C"], "a part can be laid only once"),
        (3, ["C", "A"], "part_order names 2 parts but parts is 3"),
        (4, ["A", "B", "C", "D", "E"], "part_order names 5 parts but parts is 4"),
        (3, ["a", "b", "c"], "there is no part 'a'"),
    ],
)
def test_choose_parts_refuses_a_bad_order(count: int, order: list[str], why: str) -> None:
    with pytest.raises(BadOptions, match=why):
        choose_parts(PARTS, count, rng(), order)


@pytest.mark.parametrize("count", [3, 4, 5])
def test_a_random_order_has_the_requested_number_of_distinct_parts(count: int) -> None:
    for seed in range(10):
        parts = choose_parts(PARTS, count, rng(seed))
        assert len(parts) == count
        assert len(set(parts)) == count
        assert set(parts) <= set(PARTS)


def test_a_random_order_comes_from_the_fair_random() -> None:
    source = rng(5)
    parts = choose_parts(PARTS, 5, source)
    assert source.counter > 0
    assert parts == choose_parts(PARTS, 5, rng(5))
    assert parts == choose_parts(list(reversed(PARTS)), 5, rng(5)), "names order must not matter"


def test_different_seeds_eventually_lay_different_orders() -> None:
    first = choose_parts(PARTS, 5, rng(0))
    assert any(choose_parts(PARTS, 5, rng(seed)) != first for seed in range(1, 30))
    assert len({choose_parts(PARTS, 3, rng(seed)) for seed in range(30)}) > 3


def test_choose_parts_refuses_more_parts_than_the_track_has() -> None:
    with pytest.raises(BadOptions):
        choose_parts(["A", "B", "C"], 5, rng())


def test_build_track_lays_the_parts_in_order_then_the_goal() -> None:
    data = TrackData({"A": ". L", "B": "I +1 .", "C": "-2"}, ". I", 24.0, 28.0)
    assert build_track(data, ["C", "A"]) == (
        Space(MOVE, -2),
        Space(PLAIN),
        Space(LAVA),
        Space(PLAIN),
        Space(ICE),
    )
    assert build_track(data, []) == (Space(PLAIN), Space(ICE))


def test_build_track_of_three_bundled_parts_is_shorter_than_five() -> None:
    track = default_track()
    three = build_track(track, choose_parts(PARTS, 3, rng()))
    five = build_track(track, choose_parts(PARTS, 5, rng()))
    assert len(three) < len(five)
    assert three[-3:] == five[-3:] == parse_spaces(track.goal)


# Options


def test_options_default_to_five_parts_the_bundled_deck_and_track() -> None:
    options = options_from_json(None)
    assert options == options_from_json({}) == Options()
    assert options.parts == 5
    assert options.part_order is None
    assert options.first_seat is None
    assert options.count_pace_s == 0.8
    assert options.deck == default_deck()
    assert options.track == default_track()


def test_options_to_json_is_plain_json_that_round_trips() -> None:
    options = options_from_json(
        {"parts": 3, "part_order": ["E", "A", "C"], "first_seat": 2, "count_pace_s": 1}
    )
    assert options.part_order == ("E", "A", "C")
    assert options.count_pace_s == 1.0
    data = json.loads(json.dumps(options_to_json(options)))
    assert data["parts"] == 3
    assert data["part_order"] == ["E", "A", "C"]
    assert data["first_seat"] == 2
    assert data["count_pace_s"] == 1.0
    assert len(data["deck"]) == 60
    assert data["track"]["parts"]["A"] == ". . L . I . +2"
    assert options_from_json(data) == options
    assert options_to_json(options_from_json(data)) == data


def test_default_options_round_trip() -> None:
    data = options_to_json(Options())
    assert data["part_order"] is None and data["first_seat"] is None
    assert options_from_json(json.loads(json.dumps(data))) == Options()


def test_a_custom_deck_travels_in_the_options_json() -> None:
    deck = ["polish +1", "squeeze -3", "water-bath +4"] * 4
    options = options_from_json({"deck": deck})
    assert options.deck == (Card("polish", 1), Card("squeeze", -3), Card("water-bath", 4)) * 4
    data = json.loads(json.dumps(options_to_json(options)))
    assert data["deck"] == deck
    assert options_from_json(data).deck == options.deck


def test_a_custom_track_travels_in_the_options_json() -> None:
    track = {
        "parts": {"X": ". L", "Y": "I .", "Z": "+1  ."},
        "goal": " . ",
        "five_parts_up_to_c": 20,
        "four_parts_up_to_c": 21,
    }
    options = options_from_json({"parts": 3, "track": track})
    assert options.track == TrackData({"X": ". L", "Y": "I .", "Z": "+1 ."}, ".", 20.0, 21.0)
    data = json.loads(json.dumps(options_to_json(options)))
    assert options_from_json(data) == options


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ({"colour": "blue"}, "unknown option 'colour'"),
        ({"parts": 2}, "parts must be 3, 4 or 5, not 2"),
        ({"parts": 6}, "parts must be 3, 4 or 5, not 6"),
        ({"parts": True}, "parts must be 3, 4 or 5, not True"),
        ({"parts": "5"}, "parts must be 3, 4 or 5, not '5'"),
        ({"parts": None}, "parts must be 3, 4 or 5"),
        ({"count_pace_s": 0.1}, "count_pace_s must be from 0.2 to 5 seconds, not 0.1"),
        ({"count_pace_s": 5.5}, "count_pace_s must be from 0.2 to 5 seconds"),
        ({"count_pace_s": True}, "count_pace_s must be from 0.2 to 5 seconds, not True"),
        ({"count_pace_s": "0.8"}, "count_pace_s must be from 0.2 to 5 seconds"),
        ({"count_pace_s": None}, "count_pace_s must be from 0.2 to 5 seconds"),
        ({"deck": ["polish +1", "polish +5"]}, "deck card 2"),
        ({"deck": ["polish +1", "polsh +1"]}, "deck card 2: unknown attack 'polsh'"),
        ({"deck": ["polish +1", 7]}, "deck card 2 must be a string"),
        ({"part_order": "CAE"}, "part_order must be a list of part names"),
        ({"part_order": ["C", 1, "E"]}, "part_order must be a list of part names"),
        ({"first_seat": True}, "first_seat must be a seat number"),
        ({"first_seat": "1"}, "first_seat must be a seat number"),
        ({"track": "bundled"}, "track must be an object"),
        ({"track": {"goal": "."}}, "track must be an object"),
        ({"track": {"parts": {"A": ". X"}, "goal": "."}}, "track: unknown space 'X'"),
        ({"track": {"parts": {"A": ". ."}, "goal": ""}}, "track: a part needs"),
        ({"track": {"parts": {"A": 3}, "goal": "."}}, "track:"),
        ({"track": {"parts": {"A": "."}}}, "track:"),
        (
            {"track": {"parts": {"A": "."}, "goal": ".", "five_parts_up_to_c": "hot"}},
            "track:",
        ),
    ],
)
def test_options_from_json_refuses_bad_options(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(BadOptions, match=why):
        options_from_json(raw)


def test_the_pace_bounds_are_inclusive() -> None:
    assert options_from_json({"count_pace_s": 0.2}).count_pace_s == 0.2
    assert options_from_json({"count_pace_s": 5}).count_pace_s == 5.0


def test_a_float_number_of_parts_is_refused_or_made_whole() -> None:
    try:
        options = options_from_json({"parts": 4.0})
    except BadOptions:
        return
    assert type(options.parts) is int


@pytest.mark.parametrize("deck", [5, None])
def test_a_deck_option_that_is_not_a_list_is_refused(deck: Any) -> None:
    with pytest.raises(BadOptions):
        options_from_json({"deck": deck})


def test_a_track_with_fewer_parts_than_asked_is_refused() -> None:
    with pytest.raises(BadOptions):
        options_from_json({"parts": 5, "track": {"parts": {"A": ". ."}, "goal": "."}})


def test_a_track_with_inverted_thresholds_is_refused() -> None:
    track = {
        "parts": {"A": ".", "B": ".", "C": "."},
        "goal": ".",
        "five_parts_up_to_c": 30,
        "four_parts_up_to_c": 20,
    }
    with pytest.raises(BadOptions):
        options_from_json({"parts": 3, "track": track})
