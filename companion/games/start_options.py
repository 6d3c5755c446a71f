"""What a game is started with, described for the referee's form: each option's kind, its range
or choices, its default at this table now, and its words in both languages.

The form is built from these alone (``/api/setup``), so a game's options live with the game and
the referee's page names no game. What the form sends back is checked by the game's own
``options_from_json``, as for any other caller.

>>> laps = Option("laps", "number", 3, Sentence("Laps", "Runden"), low=1, high=9, step=1)
>>> laps.to_json()["type"], laps.to_json()["min"], laps.to_json()["label"]["de"]
('number', 1, 'Runden')
>>> Option("side", "choice", "left", Sentence("Side", "Seite"), choices=(
...     Choice("left", Sentence("left", "links")), Choice("right", Sentence("right", "rechts")),
... )).to_json()["choices"][1]
{'value': 'right', 'label': {'en': 'right', 'de': 'rechts'}}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.games.effects import TableFacts
from companion.games.sentence import Sentence

Kind = Literal["choice", "number", "boolean", "order"]
"""``choice``: one of ``choices``; ``number``: from ``low`` to ``high`` in ``step``s;
``boolean``: on or off; ``order``: some of ``choices`` in an order the referee types (empty:
the table draws one)."""


@dataclass(frozen=True)
class Choice:
    """One value a ``choice`` or ``order`` option may take, with its words."""

    value: Any
    label: Sentence

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label.to_json()}


@dataclass(frozen=True)
class Option:
    """One option of a game's start, as the referee's form asks it."""

    name: str
    kind: Kind
    default: Any
    label: Sentence
    hint: Sentence | None = None
    """What the table suggests and why (the air now, say), or how to fill it in."""
    choices: tuple[Choice, ...] = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "label": self.label.to_json(),
            "hint": self.hint.to_json() if self.hint else None,
        }
        if self.choices:
            out["choices"] = [c.to_json() for c in self.choices]
        if self.kind == "number":
            out |= {"min": self.low, "max": self.high, "step": self.step}
        return out


def no_options(facts: TableFacts) -> list[Option]:
    """A game started with its seats alone (and who begins, which every game takes)."""
    return []
