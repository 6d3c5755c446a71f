"""The table's own box: a table config names its own data files for a game (``[games.<game>]``),
kept beside the config where an update of the project never reaches them. They are checked at
start (a mistake names the file and its line, or the config's line), every game of that kind
starts with them, and its export carries them, so it replays and verifies without them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from commandline import run

from companion.config import default_config, load_config
from companion.errors import DataFileError
from companion.games import GAMES
from companion.games.messages import REFEREE
from companion.games.verify import verify
from companion.table.own_box import own_options
from companion.table.service import TableService

BUNDLED = resources.files("companion.games") / "data"
BUNDLED_FILES = {
    ("cool-runnings", "deck"): "cool-runnings-deck.toml",
    ("cool-runnings", "track"): "cool-runnings-track.toml",
    ("cool-am-pool", "board"): "cool-am-pool.toml",
    ("ice-trays", "board"): "ice-trays.toml",
    ("daddy-cool", "board"): "daddy-cool.toml",
}


def own_deck(folder: Path) -> Path:
    """The bundled deck with every polish card turned into a squeeze: a box of its own."""
    text = (BUNDLED / "cool-runnings-deck.toml").read_text(encoding="utf-8")
    deck = folder / "our-deck.toml"
    deck.write_text(text.replace("\npolish ", "\nsqueeze "), encoding="utf-8")
    return deck


def test_every_file_a_game_takes_reads_the_bundled_data_as_its_own_defaults() -> None:
    """Each game says which files it takes; read from the bundled copies they give exactly the
    options the game starts with by default."""
    assert {(name, key) for name, e in GAMES.items() for key in e.DATA_FILES} == set(BUNDLED_FILES)
    for (name, key), file in BUNDLED_FILES.items():
        engine = GAMES[name]
        with resources.as_file(BUNDLED / file) as path:
            read = engine.DATA_FILES[key](path)
        defaults = engine.options_to_json(engine.options_from_json({}))
        assert read == {k: defaults[k] for k in read}, (name, key)


def test_a_game_at_a_table_with_its_own_deck_deals_from_it_and_its_export_verifies(
    tmp_path: Path,
) -> None:
    own_deck(tmp_path)
    config_file = tmp_path / "table.toml"
    config_file.write_text('[games.cool-runnings]\ndeck = "our-deck.toml"\n', encoding="utf-8")
    table = TableService(
        load_config(config_file), tmp_path / "state", simulate=True, with_cues=False
    )
    table.start()
    try:
        table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2]})
        table.end_game(REFEREE)
        export = table.export(REFEREE)
    finally:
        table.close()
    deck = export["options"]["deck"]
    assert not any(card.startswith("polish") for card in deck)
    assert any(card.startswith("squeeze") for card in deck)
    assert verify(export).ok


@pytest.mark.parametrize(
    ("games", "line", "words"),
    [
        ('[games.cool-runnings]\ndeck = "missing.toml"\n', 2, "is not a file"),
        ('[games.cool-runing]\ndeck = "our-deck.toml"\n', 2, "no game is called 'cool-runing'"),
        ('[games.cool-runnings]\nboard = "our-deck.toml"\n', 2, "takes the files deck, track"),
        ("[games.cool-runnings]\ndeck = 3\n", 2, "must be a file's path"),
    ],
)
def test_a_wrong_game_file_in_the_config_names_the_config_s_line(
    tmp_path: Path, games: str, line: int, words: str
) -> None:
    own_deck(tmp_path)
    config_file = tmp_path / "table.toml"
    config_file.write_text(games, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        own_options(load_config(config_file))
    assert (caught.value.path, caught.value.line) == (str(config_file), line)
    assert words in caught.value.message


def test_a_mistake_in_the_table_s_own_file_names_that_file_and_its_line(tmp_path: Path) -> None:
    deck = own_deck(tmp_path)
    lines = deck.read_text(encoding="utf-8").splitlines()
    wrong = next(i for i, text in enumerate(lines) if text.startswith("squeeze"))
    lines[wrong] = lines[wrong].replace("squeeze", "squeze")
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config_file = tmp_path / "table.toml"
    config_file.write_text('[games.cool-runnings]\ndeck = "our-deck.toml"\n', encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        own_options(load_config(config_file))
    assert (Path(caught.value.path).name, caught.value.line) == ("our-deck.toml", wrong + 1)


def test_companion_run_stops_on_a_wrong_own_file_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file = tmp_path / "table.toml"
    config_file.write_text('[games.daddy-cool]\ndice = "ours.toml"\n', encoding="utf-8")
    (tmp_path / "ours.toml").write_text("", encoding="utf-8")
    argv = ["run", "--config", str(config_file), "--simulate", "--no-cues", "--port", "1"]
    code, out, err = run([*argv, "--state-dir", str(tmp_path / "state")], capsys)
    assert code == 2 and out == ""
    assert f"{config_file}:2: [games.daddy-cool] takes the files board, not 'dice'" in err
    assert len(err.strip().splitlines()) == 1


def test_a_table_without_its_own_files_starts_every_game_as_bundled() -> None:
    assert own_options(default_config()) == {}


def test_the_start_form_recommends_the_track_by_the_table_s_own_hot_days_and_given_air(
    tmp_path: Path,
) -> None:
    """Ruling 13 on the table's own track: its thresholds, at the air the table was given."""
    text = (BUNDLED / "cool-runnings-track.toml").read_text(encoding="utf-8")
    assert "five_parts_up_to_c = 24" in text
    (tmp_path / "our-track.toml").write_text(
        text.replace("five_parts_up_to_c = 24", "five_parts_up_to_c = 27"), encoding="utf-8"
    )
    config_file = tmp_path / "table.toml"
    config_file.write_text(
        '[sensors]\nthermometers = "none"\nscales = "none"\nair_c = 26\n'
        '[games.cool-runnings]\ntrack = "our-track.toml"\n',
        encoding="utf-8",
    )
    table = TableService(load_config(config_file), tmp_path / "state", with_cues=False)
    table.start()
    try:
        game = next(g for g in table.setup()["games"] if g["name"] == "cool-runnings")
    finally:
        table.close()
    parts = next(o for o in game["options"] if o["name"] == "parts")
    assert parts["default"] == 5, "26 C is not a hot day on this table's track"
    assert "26.0" in parts["hint"]["en"]
