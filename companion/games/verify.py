"""``companion verify``: replay an exported game and check every shuffle, roll and draw.

The check needs nothing but the export: the seed must hash to the commitment shown before the
first card, and replaying the actions from that seed must give exactly the recorded events. The
first difference is named, so a changed seed, action, roll or card order cannot pass.

An action the referee took back stays in the log, followed by the take-back: the replay takes
it as it was (its roll or card checked too), then returns to the state before it, and the game
goes on from there, as the table did; a take-back the table could not have made is a mismatch.

A game the referee ended early has no outcome: its replay must reach no outcome either, and the
verdict says after how many actions it was ended. An export that reveals its seed must be over
one way or the other, so taking away or adding the ``"ended"`` mark shows as a mismatch too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadMessage, BadOptions, ExportError, IllegalAction
from companion.games import engine
from companion.games.fair import FairRandom, commitment_of, mix_seed
from companion.games.messages import REFEREE, from_json, to_json
from companion.games.outcome import as_json
from companion.games.record import FORMAT, VERSION, TakeBack
from companion.games.seats import seats_from_json

KINDS = (("shuffled", "shuffle"), ("rolled", "roll"), ("drew", "draw"))
ALWAYS_SAID = {"winner", "how"}
"""What every export's outcome says. An export made before outcomes ranked their seats says
less than its replay does: what it says is checked, and nothing it says may go unreplayed."""


@dataclass
class Verdict:
    """What was checked (``lines``), and the first mismatch if there is one."""

    lines: list[str] = field(default_factory=list)
    mismatch: str | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None


def verify(export: Any) -> Verdict:
    """Check an export; :class:`ExportError` when it is not an export of a game that is over."""
    _check_shape(export)
    verdict = Verdict()
    try:
        secret = bytes.fromhex(export["seed"]["device"])
        seed = mix_seed(secret, export["seed"]["players"])
    except (ValueError, TypeError) as exc:
        verdict.mismatch = f"seed: not a valid seed ({exc})"
        return verdict
    if commitment_of(seed) != export["commitment"]:
        verdict.mismatch = (
            f"seed: sha256 of the seed is {commitment_of(seed)[:16]}..., "
            f"but the commitment shown before the game was {export['commitment'][:16]}..."
        )
        return verdict
    verdict.lines.append(f"commitment {export['commitment'][:16]}... matches sha256 of the seed")
    try:
        eng = engine(export["game"])
        seats = seats_from_json(export["seats"], eng.SEATS)
        rng = FairRandom(seed)
        state, setup = eng.new_game(export["options"], seats, rng)
    except BadOptions as exc:
        verdict.mismatch = f"setup: {exc}"
        return verdict
    counts: Counter[str] = Counter()
    if not _same(verdict, "setup", setup, export.get("setup"), counts):
        return verdict
    verdict.lines.append(f"setup replayed: {_count(len(setup), 'event')}")
    before: list[Any] = []  # the state before each standing action, which a take-back restores
    for number, entry in enumerate(export["log"], start=1):
        where = f"action {number} {_brief(entry['action'])}"
        try:
            action = from_json(entry["action"], (*eng.ACTIONS, TakeBack))
            if isinstance(action, TakeBack):
                state, events = _taken_back(eng, state, before, action), list[Any]()
                counts["take-back"] += 1
            else:
                before.append(state)
                state, events = eng.apply(state, action, rng)
        except (BadMessage, IllegalAction) as exc:
            verdict.mismatch = f"{where}: {exc}"
            return verdict
        if not _same(verdict, where, events, entry.get("events"), counts):
            return verdict
    back = counts["take-back"]
    taken = len(export["log"]) - back
    verdict.lines.append(f"{_count(taken, 'action')} replayed, each one legal when it was taken")
    if back:
        verdict.lines.append(
            f"{_count(back, 'action')} taken back by the referee, each the last one standing, "
            "and what followed replayed from the state before it"
        )
    tally = [_count(counts[kind], noun) for kind, noun in KINDS]
    verdict.lines.append(f"{tally[0]}, {tally[1]} and {tally[2]} match the seed")
    replayed = as_json(eng.outcome(state))
    verdict.mismatch = _end_mismatch(export, replayed, seats)
    if verdict.mismatch is not None:
        return verdict
    if export.get("ended") is True:
        verdict.lines.append(f"ended by the referee after {_count(taken - back, 'action')}")
    else:
        verdict.lines.append(f"outcome matches: {_outcome_words(replayed, seats)}")
    return verdict


def _taken_back(eng: Any, state: Any, before: list[Any], action: TakeBack) -> Any:
    """The state a take-back returns to; ``IllegalAction`` where the table could not take one."""
    if action.by != REFEREE:
        raise IllegalAction("only the referee takes an action back")
    if eng.outcome(state) is not None:
        raise IllegalAction("the game was already over: nothing can be taken back")
    if not before:
        raise IllegalAction("no action stood that could be taken back")
    return before.pop()


def _end_mismatch(export: Mapping[str, Any], replayed: Any, seats: Any) -> str | None:
    """How the export's end (its outcome, or the referee's end) differs from the replay's."""
    said = export.get("outcome")
    if export.get("ended") is True:
        if said is not None:
            return f"ended: the export says the referee ended the game, yet also {_short(said)}"
        if replayed is not None:
            return (
                "outcome: the export says the referee ended the game, "
                f"the replay says {_outcome_words(replayed, seats)}"
            )
        return None
    if isinstance(replayed, dict) and isinstance(said, dict) and said.keys() >= ALWAYS_SAID:
        replayed = {key: value for key, value in replayed.items() if key in said}
    if replayed != said:
        words, found = _outcome_words(said, seats), _outcome_words(replayed, seats)
        if words == found:
            words, found = _short(said), _short(replayed)
        return f"outcome: the export says {words}, the replay says {found}"
    if replayed is None:
        return "ended: the game is not over and the referee did not end it, yet its seed is shown"
    return None


def _same(
    verdict: Verdict, where: str, got: list[Any], recorded: Any, counts: Counter[str]
) -> bool:
    replayed = [to_json(e) for e in got]
    if not isinstance(recorded, list):
        verdict.mismatch = f"{where}: the events are missing"
        return False
    for i in range(max(len(replayed), len(recorded))):
        want = recorded[i] if i < len(recorded) else None
        have = replayed[i] if i < len(replayed) else None
        if want != have:
            shown = have or want
            kind = shown.get("type") if isinstance(shown, dict) else None
            what = f"{where}, event {i + 1} ({_kind_words(kind)})"
            verdict.mismatch = f"{what}: {_difference(want, have)}"
            return False
        assert have is not None, "an event the export and the replay share"
        counts[have["type"]] += 1
    return True


def _check_shape(export: Any) -> None:
    if not isinstance(export, Mapping) or export.get("format") != FORMAT:
        raise ExportError(f'not a companion game export (no "format": "{FORMAT}")')
    if type(export.get("version")) is not int or export.get("version") != VERSION:
        raise ExportError(f"export version {export.get('version')!r} is not {VERSION}")
    if not isinstance(export.get("ended", False), bool):
        raise ExportError("the export's 'ended' must be true or false")
    if export.get("seed") is None:
        if export.get("outcome") is not None or export.get("ended") is True:
            raise ExportError("the export has no seed, so nothing can be checked against it")
        raise ExportError(
            "this game is not over, so its seed is still secret: export it again when it is"
        )
    needed = {"game": str, "options": dict, "seats": list, "commitment": str, "log": list}
    for key, kind in needed.items():
        if not isinstance(export.get(key), kind):
            raise ExportError(f"the export's {key!r} is missing or not a {kind.__name__}")
    seed = export["seed"]
    if (
        not isinstance(seed, Mapping)
        or not isinstance(seed.get("device"), str)
        or not isinstance(seed.get("players"), list)
        or not all(isinstance(p, str) for p in seed["players"])
    ):
        raise ExportError(
            "the export's 'seed' must hold 'device' (hex) and 'players' (a list of strings)"
        )
    for number, entry in enumerate(export["log"], start=1):
        if not isinstance(entry, Mapping) or "action" not in entry:
            raise ExportError(f"log entry {number} has no action")


def _kind_words(kind: Any) -> str:
    if not isinstance(kind, str):
        return "an event"
    return {"shuffled": "a shuffle", "rolled": "a roll", "drew": "a draw"}.get(kind, kind)


def _brief(action: Any) -> str:
    if isinstance(action, Mapping):
        return f"({action.get('type')} by {action.get('by')})"
    return "(not an action)"


def _difference(recorded: Any, replayed: Any) -> str:
    """The first place where a recorded event differs from the replayed one, in a short line.

    >>> _difference({"type": "drew", "cards": [4, 17]}, {"type": "drew", "cards": [4, 8]})
    'cards[1] is 17 in the export, but the seed and the actions give 8'
    """
    if recorded is None:
        return f"the export lacks an event; the replay gives {_short(replayed)}"
    if replayed is None:
        return f"the export has an event the replay does not: {_short(recorded)}"
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(k for k in recorded if k not in replayed)]:
            mine, theirs = recorded.get(key), replayed.get(key)
            where = key
            if isinstance(mine, list) and isinstance(theirs, list):
                j = next(
                    (j for j, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), None
                )
                if j is not None:
                    where, mine, theirs = f"{key}[{j}]", mine[j], theirs[j]
            if mine != theirs:
                return (
                    f"{where} is {_short(mine)} in the export, "
                    f"but the seed and the actions give {_short(theirs)}"
                )
    return f"the export says {_short(recorded)}, the seed and the actions give {_short(replayed)}"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _outcome_words(outcome: Any, seats: Any) -> str:
    if outcome is None:
        return "the game is not over"
    if not isinstance(outcome, dict):
        return _short(outcome)
    names = {s.seat: s.name for s in seats}
    winner = outcome.get("winner")
    who = names.get(winner, winner) if isinstance(winner, int | str | None) else _short(winner)
    return f"{who} won ({outcome.get('how')})"
