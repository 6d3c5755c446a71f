"""The exception hierarchy every part of companion shares.

Each error carries a sentence a person can act on; the command line prints it on one line.
"""


class CompanionError(Exception):
    """Base of every error companion raises on purpose."""


class DataFileError(CompanionError):
    """A data or config file is wrong: the message names the file, the line and the fix.

    >>> str(DataFileError("deck.toml", 12, "unknown attack 'polsh'"))
    "deck.toml:12: unknown attack 'polsh'"
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


class IllegalAction(CompanionError, ValueError):
    """An action the rules do not allow now, explained in words a player understands."""


class BadMessage(CompanionError, ValueError):
    """A JSON action or event that does not have the shape of one."""


class ExportError(CompanionError):
    """An export file that cannot be read as an export at all (not a failed verification)."""


class BadOptions(CompanionError, ValueError):
    """Game options or seats that no game can start with."""


class ReplayError(DataFileError):
    """A table recording (``companion melt replay``) that cannot be replayed: file, line, what.

    >>> str(ReplayError("table.csv", 7, "unknown kind 'weight'"))
    "table.csv:7: unknown kind 'weight'"
    """
