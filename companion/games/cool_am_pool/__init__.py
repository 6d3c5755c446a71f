"""Cool am Pool (Piatnik 2016): the dice game of towels on sun loungers, refereed by the device.

Its parts have the shape every game shares (:mod:`companion.games.face`): ``new_game``,
``legal_actions``, ``apply``, ``view`` and ``outcome``, with actions and events that
round-trip through JSON. The views show the exact odds of the push-your-luck choice of the
seat on turn (:mod:`.odds`).
"""

from companion.games.face import Game, face

GAME: Game = face(__name__, dealt="dice", uses_ice=False)
