"""Daddy Cool (Huch & friends 2004): the polar bear cubs' push-your-luck race to the wash tub.

Its parts have the shape every game shares (:mod:`companion.games.face`): ``new_game``,
``legal_actions``, ``apply``, ``view`` and ``outcome``, with actions and events that
round-trip through JSON.
"""

from companion.games.face import Game, face

GAME: Game = face(__name__, dealt="dice", uses_ice=False)
