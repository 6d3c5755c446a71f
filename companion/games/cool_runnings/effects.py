"""What a game of Cool Runnings asks of the table: cubes, counts, weigh-ins and melt.

Every seat plays with a real ice cube, so a seat in the game has a cube out; a turn starts with a
weigh-in; a ten-count attack is counted out by the table, which ends it with ``count-finished``;
an attack carried out melts the cube as the melt model says that kind of attack does.

>>> from companion.games.cool_runnings import messages as m
>>> effects([m.TurnStarted(2, 5), m.CountStarted(3, 10, 0.8)], None)
... # doctest: +NORMALIZE_WHITESPACE
[TurnCue(seat=2), AskWeighIn(seat=2),
 StartCount(seat=3, pace_s=0.8, counts=10, then=CountFinished(by='table'))]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.config import COUNT_PACE_S
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.state import COUNT, OVER, TEN, State, track_from_json
from companion.games.cool_runnings.track import default_track, recommended_parts
from companion.games.effects import (
    AskWeighIn,
    CubeOut,
    Effect,
    EndCount,
    GameOver,
    Melt,
    StartCount,
    TableFacts,
    TurnCue,
)
from companion.games.messages import TABLE
from companion.games.sentence import Sentence
from companion.games.start_options import Choice, Option

GUESS = "guessing-game"
"""The melt model's name for one wrong guess: each is one more round on the cube."""


def effects(events: Iterable[Any], state: State | None) -> list[Effect]:
    """What the table does about these events, in order (the state they led to tells nothing
    more)."""
    out: list[Effect] = []
    for event in events:
        match event:
            case m.TurnStarted(seat=seat):
                out += [TurnCue(seat), AskWeighIn(seat)]
            case m.CountStarted(seat=seat, counts=counts, pace_s=pace_s):
                out.append(StartCount(seat, pace_s, counts, then=m.CountFinished(TABLE)))
            case m.CountEnded(seat=seat):
                out.append(EndCount(seat))
            case m.AttackEnded(seat=seat, attack=attack):
                out.append(Melt(seat, attack))
            case m.GuessedWrong(seat=seat):
                out.append(Melt(seat, GUESS))
            case m.Won(seat=seat):
                out.append(GameOver(seat))
    return out


def standing(state: State) -> list[Effect]:
    """While the game runs, every seat still in it has a cube out, and a count runs in its
    count phase (from its start again, after a restart)."""
    if state.phase == OVER:
        return []
    out: list[Effect] = [CubeOut(seat) for seat in state.positions]
    if state.phase == COUNT and state.pending is not None:
        pace_s = state.options.count_pace_s
        out.append(StartCount(state.pending.target, pace_s, TEN, then=m.CountFinished(TABLE)))
    return out


def table_defaults(facts: TableFacts) -> dict[str, Any]:
    """The table's own ten-count pace, unless the referee sets one."""
    return {"count_pace_s": facts.count_pace_s}


def start_options(facts: TableFacts) -> list[Option]:
    """The track's length (ruling 13: hot days, recommended from the air now), the parts' order,
    and the ten-count's pace (the table's own by default)."""
    track = track_from_json(facts.own["track"]) if "track" in facts.own else default_track()
    parts = track.parts
    recommended = 5 if facts.air_c is None else recommended_parts(facts.air_c, track)
    air = Sentence(
        "The air temperature is unknown: 5 parts recommended.",
        "Die Lufttemperatur ist unbekannt: 5 Teile empfohlen.",
    )
    if facts.air_c is not None:
        c = f"{facts.air_c:.1f}"
        air = Sentence(
            f"Air at the table {c} °C: {recommended} parts recommended.",
            f"Luft am Tisch {c.replace('.', ',')} °C: {recommended} Teile empfohlen.",
        )
    low, high = COUNT_PACE_S
    return [
        Option(
            "parts",
            "choice",
            recommended,
            Sentence("The track", "Die Strecke"),
            air,
            tuple(Choice(n, Sentence(f"{n} parts", f"{n} Teile")) for n in (3, 4, 5)),
        ),
        Option(
            "part_order",
            "order",
            [],
            Sentence("Parts in this order:", "Teile in dieser Reihenfolge:"),
            Sentence(
                f"Leave empty for a random track; the parts are {' '.join(parts)}.",
                f"Leer lassen für eine zufällige Strecke; die Teile heißen {' '.join(parts)}.",
            ),
            tuple(Choice(p, Sentence(p, p)) for p in parts),
        ),
        Option(
            "count_pace_s",
            "number",
            facts.count_pace_s,
            Sentence("Seconds a count:", "Sekunden je Zählschritt:"),
            low=low,
            high=high,
            step=0.1,
        ),
    ]
