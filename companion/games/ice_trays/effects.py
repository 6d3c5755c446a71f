"""What a game of Ice Trays asks of the table: the your-turn cue, and the winner's cue.

It plays without ice cubes or counts, so nothing stands at the table between its events.
"""

from companion.games.effects import no_defaults, nothing_standing, turns_and_end
from companion.games.ice_trays import messages as m
from companion.games.start_options import no_options

effects = turns_and_end(m.TurnStarted, m.GameOver, winner="winner")
standing = nothing_standing
table_defaults = no_defaults
start_options = no_options
