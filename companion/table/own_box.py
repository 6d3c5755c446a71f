"""The table's own box: the data files its config names for each game (``[games.<game>]``),
read and checked at start, as the options every game of that kind starts with.

A family whose deck pairs its attacks otherwise, or whose track parts are laid out otherwise,
keeps its own files beside the table config, where a ``git pull`` of the project never reaches
them. Each is checked by the game's own reader, so a mistake names the file and its line; a game
or a file the game does not take names the config's line. The files' contents travel in each
game's options, so an export replays without them.

>>> from companion.config import parse_config
>>> own_options(parse_config("table.toml", ""))
{}
"""

from __future__ import annotations

from typing import Any

from companion.config import TableConfig
from companion.errors import DataFileError
from companion.games import GAMES


def own_options(config: TableConfig) -> dict[str, dict[str, Any]]:
    """Each game's options from the config's files, by the game's name; a
    :class:`DataFileError` for the first file, game or key that is wrong."""
    where = config.path or "the table config"
    options: dict[str, dict[str, Any]] = {}
    for file in config.game_files:
        engine = GAMES.get(file.game)
        if engine is None:
            raise DataFileError(
                where,
                file.line,
                f"[games.{file.game}]: no game is called {file.game!r}; the games are "
                f"{', '.join(GAMES)}",
            )
        read = engine.DATA_FILES.get(file.key)
        if read is None:
            raise DataFileError(
                where,
                file.line,
                f"[games.{file.game}] takes the files {', '.join(engine.DATA_FILES)}, "
                f"not {file.key!r}",
            )
        options.setdefault(file.game, {}).update(read(file.path))
    return options
