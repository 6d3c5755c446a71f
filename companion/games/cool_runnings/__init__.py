"""Cool Runnings (Ravensburger 2018): the ice-cube race, refereed by the device.

Its parts have the shape every game shares (:mod:`companion.games.face`): ``new_game``,
``legal_actions``, ``apply``, ``view`` and ``outcome``, with actions and events that
round-trip through JSON.
"""

from companion.games.face import Game, face

GAME: Game = face(__name__, dealt="cards", uses_ice=True)
