"""hypothesis over everything that reads text or bytes a person or a device wrote.

The table config, the games' data files (and the options that carry them in a start request or
an export), a recording for ``companion melt replay``, a line from the sensor pod and an export
for ``companion verify``: each gets arbitrary input, and input one mistake away from valid (a
value of the wrong kind, a line cut, dropped or doubled, a field changed). Whatever comes, the
reader either accepts it or raises its own clear error (a ``CompanionError`` or the pod's
``BadLine``, a ``ValueError``) with a message: never another exception, which the command line
would show as a traceback and the API as a 503.
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.config import parse_config
from companion.errors import (
    BadOptions,
    CompanionError,
    DataFileError,
    ExportError,
    ReplayError,
)
from companion.games import GAMES, engine
from companion.games.cool_am_pool.board import load_board as load_pool
from companion.games.cool_runnings.cards import load_deck
from companion.games.cool_runnings.track import load_track
from companion.games.daddy_cool.board import load_board as load_daddy
from companion.games.ice_trays.board import load_board as load_trays
from companion.games.selfplay import play_one
from companion.games.verify import verify
from companion.melt.replay import parse as parse_recording
from companion.melt.replay import replay
from companion.sensors.pod_protocol import BadLine, encode, parse, seal, unseal

DATA = Path(__file__).resolve().parents[2] / "companion" / "games" / "data"
QUICK = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOML_VALUES = (
    "0", "-1", "1", "13", "99999999999999999999", "1e400", "-1e400", "nan", "inf", "0.0",
    "1.5", "-0.5", "true", "false", '""', '"x"', '"blue"', '"w1"', '"pod"', '"sim"', '"../x"',
    "[]", "[1, 2]", '["a"]', "[[1]]", "{}", "{ a = 1 }", "1979-05-27", "07:32:00",
    '"""\n"""', '"""\nx y z\n"""', '"\\u0000"', "[1, \"a\"]", '"\U0001f9ca"', "9" * 5000,
)  # fmt: skip
"""Values a hand-edited file may hold where another was meant."""

CONFIG = """\
[sensors]
thermometers = "w1"
w1_root = "/sys/bus/w1/devices"
scales = "hx711"
resolution = 11
hx711_gain = 128

[pins]
hx711_clock = 27
hx711_data = [22, 23]
seat_leds = [9, 25]
seat_buttons = [2, 3]
buzzer = 18
buzzer_kind = "tonal"

[cues]
pace_s = 0.8

[filters]
scale = [{median = {window_size = 5, send_every = 1}}]

[[seat]]
name = "Karen"
colour = "blue"
thermometer = "28-0316a2794aff"

[[seat]]
name = "Tom"
colour = "yellow"
thermometer = "28-0416b1a0c3ff"
"""

LOADERS: dict[str, Callable[[Path], object]] = {
    "cool-runnings-deck.toml": load_deck,
    "cool-runnings-track.toml": load_track,
    "cool-am-pool.toml": load_pool,
    "ice-trays.toml": load_trays,
    "daddy-cool.toml": load_daddy,
}


def mistaken(text: str) -> st.SearchStrategy[str]:
    """``text`` with one to three mistakes of the kinds a hand edit makes."""

    @st.composite
    def edit(draw: st.DrawFn, lines: list[str]) -> list[str]:
        lines = list(lines)
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        kind = draw(st.sampled_from(("value", "word", "drop", "double", "cut", "insert")))
        line = lines[at] if lines else ""
        if kind == "value" and "=" in line:
            key = line.split("=", 1)[0]
            lines[at] = f"{key}= {draw(st.sampled_from(TOML_VALUES))}"
        elif kind == "word" and line.split():
            words = line.split()
            i = draw(st.integers(0, len(words) - 1))
            words[i] = draw(st.sampled_from((*TOML_VALUES, "-0", "+99", "x", "", "#", "=", "C")))
            lines[at] = " ".join(words)
        elif kind == "drop" and lines:
            del lines[at]
        elif kind == "double" and lines:
            lines.insert(at, line)
        elif kind == "cut":
            lines[at:] = [line[: draw(st.integers(0, len(line)))]] if lines else []
        else:
            lines.insert(at, draw(st.text(max_size=30).filter(lambda s: "\n" not in s)))
        return lines

    @st.composite
    def edits(draw: st.DrawFn) -> str:
        lines = text.splitlines()
        for _ in range(draw(st.integers(1, 3))):
            lines = draw(edit(lines))
        return "\n".join(lines) + "\n"

    return edits()


def clear(error: Exception) -> None:
    """A refusal a person can read: a message of words, the file and line where it has one."""
    assert str(error).strip(), f"{type(error).__name__} without a message"


# -- the table config ---------------------------------------------------------------------


def config_holds(text: str) -> None:
    try:
        parse_config("table.toml", text)
    except DataFileError as exc:
        clear(exc)
        assert str(exc).startswith("table.toml"), str(exc)


@QUICK
@given(st.text())
def test_any_text_as_a_config_is_read_or_refused_clearly(text: str) -> None:
    config_holds(text)


@QUICK
@given(mistaken(CONFIG))
def test_a_config_with_mistakes_is_read_or_refused_clearly(text: str) -> None:
    config_holds(text)


@pytest.mark.long
@LONG
@given(mistaken(CONFIG))
def test_a_config_with_mistakes_is_read_or_refused_clearly_at_length(text: str) -> None:
    config_holds(text)


# -- the games' data files ------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def data_holds(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        LOADERS[name](path)
    except DataFileError as exc:
        clear(exc)
        assert str(exc).startswith(str(path)), str(exc)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_any_text_as_a_data_file_is_read_or_refused_clearly(folder: Path, name: str) -> None:
    @QUICK
    @given(st.text())
    def check(text: str) -> None:
        data_holds(folder, name, text)

    check()


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_data_file_with_mistakes_is_read_or_refused_clearly(folder: Path, name: str) -> None:
    @QUICK
    @given(mistaken((DATA / name).read_text(encoding="utf-8")))
    def check(text: str) -> None:
        data_holds(folder, name, text)

    check()


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_data_file_with_mistakes_is_refused_clearly_at_length(folder: Path, name: str) -> None:
    @LONG
    @given(mistaken((DATA / name).read_text(encoding="utf-8")))
    def check(text: str) -> None:
        data_holds(folder, name, text)

    check()


def test_a_number_too_long_for_python_is_refused_clearly(folder: Path) -> None:
    with pytest.raises(DataFileError, match=r"table\.toml: not valid TOML: a number far too long"):
        parse_config("table.toml", "[cues]\npace_s = " + "9" * 5000)
    path = folder / "long.toml"
    path.write_text("five_point = " + "9" * 5000, encoding="utf-8")
    with pytest.raises(DataFileError, match="far too long"):
        load_pool(path)


@pytest.mark.parametrize("count", ["9" * 5000, "\u00b2", "1000"])
def test_a_count_no_deck_holds_is_refused_clearly(folder: Path, count: str) -> None:
    path = folder / "deck.toml"
    path.write_text(f'cards = """\npolish +1 {count}\n"""\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="at most 999"):
        load_deck(path)


@pytest.mark.parametrize("move", ["+" + "9" * 5000, "+\u00b2", "-\u0663"])
def test_a_movement_space_of_no_number_is_refused_clearly(folder: Path, move: str) -> None:
    text = (DATA / "cool-runnings-track.toml").read_text(encoding="utf-8")
    path = folder / "track.toml"
    path.write_text(text.replace("+2", move, 1), encoding="utf-8")
    with pytest.raises(DataFileError, match="unknown space"):
        load_track(path)


def test_a_data_file_that_is_not_utf8_is_refused_clearly(folder: Path) -> None:
    path = folder / "latin1.toml"
    path.write_bytes(b'cards = "polish +1 \xe9"\n')
    with pytest.raises(DataFileError, match="UTF-8"):
        load_deck(path)


# -- a recording for `companion melt replay` ------------------------------------------------

RECORDING = """\
t_s,seat,kind,value
0,,air_c,24
0,1,start_g,6
0,2,start_g,6.5
60,1,attack,squeeze
120,2,air_c,26.5
300,1,weigh_in_g,5.1
400,2,attack,guessing-game
900,2,weigh_in_g,4.2
1800,1,melted,
"""
CSV_WORDS = (
    "0", "-1", "1e308", "-1e308", "1e-300", "nan", "inf", "", "x", "3", "99999999999", "0.0",
    "start_g", "air_c", "weigh_in_g", "attack", "melted", "squeeze", "water-bath", '"', ",",
    "thawing-salt", "1e400", "6", "-0", "2e5", "1e10", "-1e10", "1000", "-1000", "125", "-55",
    "1e-300", "1e-7", "0.001",
)  # fmt: skip


@st.composite
def recordings(draw: st.DrawFn) -> str:
    """The sample recording with lines changed field by field, dropped, doubled or added."""
    lines = RECORDING.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        fields = lines[at].split(",")
        kind = draw(st.sampled_from(("field", "drop", "double", "add", "text")))
        if kind == "field":
            fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(CSV_WORDS))
            lines[at] = ",".join(fields)
        elif kind == "drop":
            del lines[at]
            lines = lines or [""]
        elif kind == "double":
            lines.insert(at, lines[at])
        elif kind == "add":
            row = [draw(st.sampled_from(CSV_WORDS)) for _ in range(draw(st.integers(1, 5)))]
            lines.insert(at, ",".join(row))
        else:
            lines[at] = draw(st.text(max_size=40))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("0,1,start_g,1e308", "start_g 1e308 is not from -1000 to 1000"),
        ("1e308,1,air_c,20", "t_s 1e308 is not from -1e+10 to 1e+10"),
        ("0,,air_c,1e308", "air_c 1e308 is not from -55 to 125"),
        ("0,1,weigh_in_g,-1e308", "weigh_in_g -1e308 is not from -1000 to 1000"),
    ],
)
def test_a_recording_beyond_the_physics_is_refused_clearly(line: str, what: str) -> None:
    text = "t_s,seat,kind,value\n0,1,start_g,6\n" + line + "\n"
    with pytest.raises(ReplayError, match=re.escape(f"table.csv:3: {what}")):
        parse_recording(text, "table.csv")


def test_air_a_hair_above_freezing_melts_a_cube_never() -> None:
    text = "t_s,seat,kind,value\n0,,air_c,1e-300\n0,1,start_g,1000\n60,1,attack,squeeze\n"
    lines = [line.to_json() for line in replay(parse_recording(text))]
    assert [line["eta_s"] for line in lines] == [None, None]


def recording_holds(text: str) -> None:
    try:
        lines = list(replay(parse_recording(text, "table.csv")))
    except ReplayError as exc:
        clear(exc)
        assert str(exc).startswith("table.csv"), str(exc)
        return
    for line in lines:
        json.dumps(line.to_json(), allow_nan=False)


@QUICK
@given(st.text())
def test_any_text_as_a_recording_is_replayed_or_refused_clearly(text: str) -> None:
    recording_holds(text)


@QUICK
@given(recordings())
def test_a_recording_with_mistakes_is_replayed_or_refused_clearly(text: str) -> None:
    recording_holds(text)


@pytest.mark.long
@LONG
@given(recordings())
def test_a_recording_with_mistakes_is_replayed_or_refused_clearly_at_length(text: str) -> None:
    recording_holds(text)


# -- a line from the sensor pod -------------------------------------------------------------

POD_LINES = (
    "hello 0 12 protocol=1 firmware=1.0 probes=2 pads=2",
    "probes 7 120034 28-0316a2794aff=23125 28-0416b1a0c3ff=!crc",
    "pads 8 120100 1=-20412 2=!saturated",
    "ack 9 120200 3 resolution=11",
    "nak 10 120300 4 unknown",
    "pong 11 120400 5",
)
POD_WORDS = (
    "", "0", "-1", "65535", "65536", "99999999999999999999", "!", "!crc", "!X", "=", "1=",
    "=1", "a=b", "28-0316a2794aff=1", "x", "hello", "probes", "pads", "ack", "\u00e9", "\t",
)  # fmt: skip


@st.composite
def near_lines(draw: st.DrawFn) -> bytes:
    """A pod's line with a word changed, dropped or added, sealed again so its checksum holds
    (or now and then not), with or without its line end."""
    words = draw(st.sampled_from(POD_LINES)).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(words)))
        kind = draw(st.sampled_from(("change", "drop", "add")))
        if kind == "change" and at < len(words):
            words[at] = draw(st.sampled_from(POD_WORDS) | st.text(max_size=8))
        elif kind == "drop" and at < len(words) and len(words) > 1:
            del words[at]
        else:
            words.insert(at, draw(st.sampled_from(POD_WORDS)))
    body = " ".join(words)
    try:
        line = seal(body)
    except UnicodeEncodeError:
        line = body + "*0000"
    if not draw(st.integers(0, 9)):
        line = line[:-1] + "0"
    end = draw(st.sampled_from(("", "\n", "\r\n")))
    return (line + end).encode("utf-8")


def pod_line_holds(line: bytes) -> None:
    for reader in (unseal, parse):
        try:
            reader(line)
        except BadLine as exc:
            clear(exc)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return
    for reader in (unseal, parse):
        try:
            reader(text)
        except BadLine as exc:
            clear(exc)


@QUICK
@given(st.binary(max_size=600))
def test_any_bytes_from_the_pod_are_read_or_refused_clearly(line: bytes) -> None:
    pod_line_holds(line)


@QUICK
@given(near_lines())
def test_a_pod_line_one_word_wrong_is_read_or_refused_clearly(line: bytes) -> None:
    pod_line_holds(line)


@pytest.mark.long
@LONG
@given(near_lines())
def test_a_pod_line_one_word_wrong_is_refused_clearly_at_length(line: bytes) -> None:
    pod_line_holds(line)


@pytest.mark.parametrize("line", ["pads 1 2 1=\u00e9*0000", "\u00e9" * 600, "x" * 600 + "*0000"])
def test_a_pod_line_given_as_text_is_held_to_ascii_and_length(line: str) -> None:
    with pytest.raises(BadLine, match=r"not ASCII|longer than"):
        unseal(line)


def test_the_near_lines_start_from_lines_the_host_reads() -> None:
    for line in POD_LINES:
        kind, *words = line.split(" ")
        assert parse(encode(kind, *words)).kind == kind


# -- an export for `companion verify` -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [("[" * 100_000 + "]" * 100_000, "nested too deeply"), ("9" * 5000, "not an export")],
)
def test_an_export_no_reader_can_hold_is_refused_by_the_command(
    folder: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    path = folder / "export.json"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and said in err


@cache
def finished(game: str) -> dict[str, Any]:
    """A finished game's export, played by the random players from a fixed seed."""
    export = play_one(game, seed=3).record.export()
    assert export["seed"] is not None and verify(export).ok
    return export


def paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every value in a JSON value."""
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*here, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*here, i))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
ODD_VALUES = st.sampled_from(
    (None, True, 0, -1, 1, 7, 2**70, 1.5, "", "x", "00" * 32, [], [None], {}, {"type": "x"})
)


@st.composite
def mutated_exports(draw: st.DrawFn) -> dict[str, Any]:
    """A finished export of some game with one value replaced by another, or taken out."""
    export = copy.deepcopy(finished(draw(st.sampled_from(sorted(GAMES)))))
    where = draw(st.sampled_from([p for p in paths(export) if p]))
    parent = export
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    if isinstance(parent, dict) and draw(st.integers(0, 4)) == 0:
        del parent[last]
    else:
        old = parent[last]
        near = st.just(old + 1) if type(old) is int else st.nothing()
        parent[last] = copy.deepcopy(draw(ODD_VALUES | JSON | near))
    return export


@st.composite
def mutated_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A game's options as an export or a start request carries them (its deck, track or
    board), with one or two values replaced."""
    game = draw(st.sampled_from(sorted(GAMES)))
    eng = engine(game)
    options = copy.deepcopy(eng.options_to_json(eng.options_from_json(None)))
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from([p for p in paths(options) if p]))
        parent = options
        for key in where[:-1]:
            parent = parent[key]
        parent[where[-1]] = copy.deepcopy(draw(ODD_VALUES | JSON | st.sampled_from(NOTATIONS)))
    return game, options


NOTATIONS = ("polish +9", "polish +1 2", "+\u00b2", "9" * 5000, ". L I +2", "L" * 300, "blue")


def options_hold(game: str, options: dict[str, Any]) -> None:
    try:
        engine(game).options_from_json(options)
    except BadOptions as exc:
        clear(exc)


@QUICK
@given(mutated_options())
def test_a_games_options_with_a_value_changed_are_taken_or_refused_clearly(
    changed: tuple[str, dict[str, Any]],
) -> None:
    options_hold(*changed)


@pytest.mark.long
@LONG
@given(mutated_options())
def test_a_games_options_with_a_value_changed_are_refused_clearly_at_length(
    changed: tuple[str, dict[str, Any]],
) -> None:
    options_hold(*changed)


def export_holds(export: Any) -> None:
    try:
        verdict = verify(export)
    except ExportError as exc:
        clear(exc)
        return
    assert verdict.ok or (verdict.mismatch or "").strip()
    json.dumps({"checked": verdict.lines, "mismatch": verdict.mismatch})


@QUICK
@given(JSON)
def test_any_json_as_an_export_is_verified_or_refused_clearly(export: Any) -> None:
    export_holds(export)


@settings(QUICK, max_examples=50)
@given(mutated_exports())
def test_an_export_with_one_field_changed_is_verified_or_refused_clearly(export: Any) -> None:
    export_holds(export)


@pytest.mark.long
@LONG
@given(mutated_exports())
def test_an_export_with_one_field_changed_is_refused_clearly_at_length(export: Any) -> None:
    export_holds(export)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_changed_roll_or_draw_is_never_verified(game: str) -> None:
    export = copy.deepcopy(finished(game))
    events = export["setup"] + [e for entry in export["log"] for e in entry["events"]]
    random = [e for e in events if e["type"] in ("shuffled", "rolled", "drew")]
    faces = {face for e in random for face in e.get("faces", [])}
    changed = random[-1]
    key = "faces" if "faces" in changed else "cards"
    changed[key][0] = next(f for f in sorted(faces) if f != changed[key][0]) if faces else -1
    assert not verify(export).ok


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda e: e.pop("outcome"), "outcome: the export says the game is not over"),
        (lambda e: e.pop("setup"), "setup: the events are missing"),
        (lambda e: e.update(outcome={"winner": [1], "how": "x"}), "outcome: the export says"),
    ],
)
def test_an_export_missing_its_end_or_with_an_odd_winner_is_a_mismatch(
    change: Callable[[dict[str, Any]], object], said: str
) -> None:
    export = copy.deepcopy(finished("cool-runnings"))
    change(export)
    verdict = verify(export)
    assert not verdict.ok and (verdict.mismatch or "").startswith(said), verdict.mismatch


def test_every_refusal_is_a_companion_error() -> None:
    assert issubclass(ReplayError, CompanionError)
    assert issubclass(ExportError, CompanionError)
    assert issubclass(BadLine, ValueError)
