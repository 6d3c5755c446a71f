"""What a game of Cool am Pool asks of the table: the your-turn cue, and the winner's cue.

It plays without ice cubes or counts, so nothing stands at the table between its events.
"""

from companion.games.cool_am_pool import messages as m
from companion.games.effects import no_defaults, no_hints, nothing_standing, turns_and_end

effects = turns_and_end(m.TurnStarted, m.GameOver, winner="winner")
standing = nothing_standing
table_defaults = no_defaults
setup_hints = no_hints
