"""What a game of Daddy Cool asks of the table: the your-turn cue, and the winner's cue.

It plays without ice cubes or counts, so nothing stands at the table between its events.
"""

from companion.games.daddy_cool import messages as m
from companion.games.effects import TableFacts, no_defaults, nothing_standing, turns_and_end
from companion.games.sentence import Sentence
from companion.games.start_options import Option

effects = turns_and_end(m.TurnStarted, m.Won, winner="seat")
standing = nothing_standing
table_defaults = no_defaults


def start_options(facts: TableFacts) -> list[Option]:
    """Whether the path grows as the cubs go: off is the game for the youngest players."""
    return [
        Option(
            "lengthen_path",
            "boolean",
            True,
            Sentence(
                "Lengthen the path as the cubs go (off for the youngest players)",
                "Den Weg verlängern, wenn die Kleinen vorankommen (aus für die Jüngsten)",
            ),
        )
    ]
