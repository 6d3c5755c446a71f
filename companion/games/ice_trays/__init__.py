"""Ice Trays (the ice-tray sowing game): roll the colour die, sow a tray's cubes around the
board into your own cup, snag blueberries, steal cubes, refereed by the device.

Its parts have the shape every game shares (:mod:`companion.games.face`): ``new_game``,
``legal_actions``, ``apply``, ``view`` and ``outcome``, with actions and events that
round-trip through JSON.
"""

from companion.games.face import Game, face

GAME: Game = face(__name__, dealt="dice", uses_ice=False)
