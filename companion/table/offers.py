"""The actions a view offers, each stamped with the game's count, so a repeated tap is one action.

Every entry of a view's ``legal_actions`` carries ``"after": N``, the number of changes the game
had when the view was made: its actions and the referee's take-backs, so the count never
comes back to a value it had, as the number of actions does after a take-back. Posted back
unchanged it is taken once: posted again (a double tap, a phone retrying after a lost answer)
or after the game moved on, its ``after`` is no longer the game's count, and it is answered
as the first time when it is the very action that moved the count, else refused as
:class:`Stale` with the view as it is now.

>>> stamped({"legal_actions": [{"type": "daddy-roll", "by": 1}]}, 4)["legal_actions"]
[{'type': 'daddy-roll', 'by': 1, 'after': 4}]
>>> offer({"type": "daddy-roll", "by": 1, "after": 4})
(4, {'type': 'daddy-roll', 'by': 1})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadMessage, IllegalAction
from companion.games.messages import Actor
from companion.games.sentence import Sentence

AFTER = "after"
MISSING = (
    'an action must carry "after", the number of changes the game had when it was offered: '
    "post one of the view's legal_actions unchanged"
)


class Stale(IllegalAction):
    """An action offered before the game moved on (409): it is not taken, and ``view`` is the
    game as the actor sees it now."""

    def __init__(self, message: Sentence, view: dict[str, Any]) -> None:
        super().__init__(message)
        self.view = view


def stamped(view: dict[str, Any], count: int) -> dict[str, Any]:
    """``view`` as of the game's change ``count``, each of its legal actions stamped with it: a
    page that holds it knows a status of that change asks for no new view."""
    if "legal_actions" not in view:
        return {**view, "changes": count}
    actions = [{**a, AFTER: count} for a in view["legal_actions"]]
    return {**view, "changes": count, "legal_actions": actions}


def offer(body: Any) -> tuple[int, dict[str, Any]]:
    """A posted action's ``after`` and the action itself; :class:`BadMessage` without it."""
    if not isinstance(body, Mapping):
        raise BadMessage("the body must be a JSON object")
    if AFTER not in body:
        raise BadMessage(MISSING)
    after = body[AFTER]
    if type(after) is not int or after < 0:
        raise BadMessage(f'"after" must be a whole number of changes, not {after!r}')
    return after, {k: v for k, v in body.items() if k != AFTER}


class Answers:
    """The answers given to the game's last actions, so an action posted again (a double tap, a
    retry after a lost answer, even after the game moved on) gets the same answer again."""

    KEPT = 256
    """The most answers kept: a whole evening's game, and a bound on a long one's memory."""

    def __init__(self) -> None:
        self._given: dict[tuple[Actor, int], tuple[dict[str, Any], dict[str, Any]]] = {}

    def keep(self, actor: Actor, after: int, action: dict[str, Any], view: dict[str, Any]) -> None:
        self._given[(actor, after)] = (action, view)
        if len(self._given) > self.KEPT:
            del self._given[next(iter(self._given))]

    def repeated(self, actor: Actor, after: int, action: dict[str, Any]) -> dict[str, Any] | None:
        """The answer ``actor`` got when it took this very action at ``after``, if it did."""
        given = self._given.get((actor, after))
        return given[1] if given is not None and given[0] == action else None

    def forget(self) -> None:
        """A new game: no answer of the last one counts."""
        self._given.clear()


def moved_on(count: int, after: int) -> Sentence:
    """Why an action offered at ``after`` is refused when the game has made ``count`` changes."""
    if after > count:
        return Sentence(
            f"this action was offered at change {after}, but the game has made only {count}",
            f"dieser Zug wurde bei Änderung {after} angeboten, das Spiel hat aber erst {count}",
        )
    moved = count - after
    return Sentence(
        f"the game moved on while you chose ({moved} change{'s' if moved != 1 else ''} since): "
        "here is where it stands now",
        f"das Spiel ging weiter, während du gewählt hast ({moved} "
        f"{'Änderungen' if moved != 1 else 'Änderung'} seitdem): so steht es jetzt",
    )
