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

Every line and mismatch is written in English and in German (:class:`Verdict.said`): the
command line prints the English, a page shows the verdict in its own language.
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
from companion.games.sentence import Sentence, said_of

KINDS = (("shuffled", "shuffle"), ("rolled", "roll"), ("drew", "draw"))
NOUNS_DE = {
    "event": ("Ereignis", "Ereignisse"),
    "action": ("Zug", "Züge"),
    "shuffle": ("Mischen", "Mischen"),
    "roll": ("Wurf", "Würfe"),
    "draw": ("gezogene Karte", "gezogene Karten"),
}
"""The German of what a verdict counts, for one and for many."""
ALWAYS_SAID = {"winner", "how"}
"""What every export's outcome says. An export made before outcomes ranked their seats says
less than its replay does: what it says is checked, and nothing it says may go unreplayed."""


@dataclass
class Verdict:
    """What was checked (``lines``), and the first mismatch if there is one; in English, and in
    German where the check wrote it (``lines_de``, ``mismatch_de``).

    >>> Verdict(["a"], "b").said("de")
    {'ok': False, 'lines': ['a'], 'mismatch': 'b'}
    """

    lines: list[str] = field(default_factory=list)
    mismatch: str | None = None
    lines_de: list[str] = field(default_factory=list)
    mismatch_de: str | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def checked(self, line: Sentence) -> None:
        """Add a line that was checked."""
        self.lines.append(line.en)
        self.lines_de.append(line.de)

    def differs(self, mismatch: Sentence) -> None:
        """Name the first mismatch."""
        self.mismatch, self.mismatch_de = mismatch.en, mismatch.de

    def said(self, lang: str) -> dict[str, Any]:
        """``{"ok", "lines", "mismatch"}`` in ``lang`` (English where no German was written)."""
        german = lang == "de" and len(self.lines_de) == len(self.lines)
        mismatch = self.mismatch_de if lang == "de" and self.mismatch_de else self.mismatch
        return {
            "ok": self.ok,
            "lines": list(self.lines_de if german else self.lines),
            "mismatch": mismatch,
        }


def verify(export: Any) -> Verdict:
    """Check an export; :class:`ExportError` when it is not an export of a game that is over."""
    _check_shape(export)
    verdict = Verdict()
    try:
        secret = bytes.fromhex(export["seed"]["device"])
        seed = mix_seed(secret, export["seed"]["players"])
    except (ValueError, TypeError) as exc:
        verdict.differs(
            Sentence(
                f"seed: not a valid seed ({exc})", f"Startwert: kein gültiger Startwert ({exc})"
            )
        )
        return verdict
    found, shown = commitment_of(seed)[:16], export["commitment"][:16]
    if commitment_of(seed) != export["commitment"]:
        verdict.differs(
            Sentence(
                f"seed: sha256 of the seed is {found}..., "
                f"but the commitment shown before the game was {shown}...",
                f"Startwert: SHA-256 des Startwerts ist {found}..., "
                f"aber der vor dem Spiel gezeigte Fingerabdruck war {shown}...",
            )
        )
        return verdict
    verdict.checked(
        Sentence(
            f"commitment {shown}... matches sha256 of the seed",
            f"Fingerabdruck {shown}... passt zu SHA-256 des Startwerts",
        )
    )
    try:
        eng = engine(export["game"])
        seats = seats_from_json(export["seats"], eng.SEATS)
        rng = FairRandom(seed)
        state, setup = eng.new_game(export["options"], seats, rng)
    except BadOptions as exc:
        verdict.differs(Sentence.join(": ", Sentence("setup", "Aufbau"), _said(exc)))
        return verdict
    counts: Counter[str] = Counter()
    if not _same(verdict, Sentence("setup", "Aufbau"), setup, export.get("setup"), counts):
        return verdict
    n = _count(len(setup), "event")
    verdict.checked(Sentence(f"setup replayed: {n.en}", f"Aufbau nachgespielt: {n.de}"))
    before: list[Any] = []  # the state before each standing action, which a take-back restores
    for number, entry in enumerate(export["log"], start=1):
        where = Sentence.join(
            " ", Sentence(f"action {number}", f"Zug {number}"), _brief(entry["action"])
        )
        try:
            action = from_json(entry["action"], (*eng.ACTIONS, TakeBack))
            if isinstance(action, TakeBack):
                state, events = _taken_back(eng, state, before, action), list[Any]()
                counts["take-back"] += 1
            else:
                before.append(state)
                state, events = eng.apply(state, action, rng)
        except (BadMessage, IllegalAction) as exc:
            verdict.differs(Sentence.join(": ", where, _said(exc)))
            return verdict
        if not _same(verdict, where, events, entry.get("events"), counts):
            return verdict
    back = counts["take-back"]
    taken = len(export["log"]) - back
    n = _count(taken, "action")
    verdict.checked(
        Sentence(
            f"{n.en} replayed, each one legal when it was taken",
            f"{n.de} nachgespielt, jeder erlaubt, als er gemacht wurde",
        )
    )
    if back:
        n = _count(back, "action")
        verdict.checked(
            Sentence(
                f"{n.en} taken back by the referee, each the last one standing, "
                "and what followed replayed from the state before it",
                f"{n.de} von der Spielleitung zurückgenommen, jeder der letzte, der stand, "
                "und was folgte vom Stand davor aus nachgespielt",
            )
        )
    t = [_count(counts[kind], noun) for kind, noun in KINDS]
    verdict.checked(
        Sentence(
            f"{t[0].en}, {t[1].en} and {t[2].en} match the seed",
            f"{t[0].de}, {t[1].de} und {t[2].de} passen zum Startwert",
        )
    )
    replayed = as_json(eng.outcome(state))
    mismatch = _end_mismatch(export, replayed, seats)
    if mismatch is not None:
        verdict.differs(mismatch)
        return verdict
    if export.get("ended") is True:
        n = _count(taken - back, "action")
        dative = n.de.replace("Züge", "Zügen")
        verdict.checked(
            Sentence(
                f"ended by the referee after {n.en}",
                f"von der Spielleitung nach {dative} beendet",
            )
        )
    else:
        words = _outcome_words(replayed, seats)
        verdict.checked(Sentence(f"outcome matches: {words.en}", f"Ergebnis stimmt: {words.de}"))
    return verdict


def _taken_back(eng: Any, state: Any, before: list[Any], action: TakeBack) -> Any:
    """The state a take-back returns to; ``IllegalAction`` where the table could not take one."""
    if action.by != REFEREE:
        raise IllegalAction(
            Sentence(
                "only the referee takes an action back",
                "nur die Spielleitung nimmt einen Zug zurück",
            )
        )
    if eng.outcome(state) is not None:
        raise IllegalAction(
            Sentence(
                "the game was already over: nothing can be taken back",
                "das Spiel war schon vorbei: nichts kann zurückgenommen werden",
            )
        )
    if not before:
        raise IllegalAction(
            Sentence(
                "no action stood that could be taken back",
                "kein Zug stand, der zurückgenommen werden könnte",
            )
        )
    return before.pop()


def _end_mismatch(export: Mapping[str, Any], replayed: Any, seats: Any) -> Sentence | None:
    """How the export's end (its outcome, or the referee's end) differs from the replay's."""
    said = export.get("outcome")
    if export.get("ended") is True:
        if said is not None:
            return Sentence(
                f"ended: the export says the referee ended the game, yet also {_short(said)}",
                "beendet: laut Export hat die Spielleitung das Spiel beendet, und doch auch "
                f"{_short(said)}",
            )
        if replayed is not None:
            words = _outcome_words(replayed, seats)
            return Sentence(
                f"outcome: the export says the referee ended the game, the replay says {words.en}",
                "Ergebnis: laut Export hat die Spielleitung das Spiel beendet, "
                f"das Nachspielen ergibt: {words.de}",
            )
        return None
    if isinstance(replayed, dict) and isinstance(said, dict) and said.keys() >= ALWAYS_SAID:
        replayed = {key: value for key, value in replayed.items() if key in said}
    if replayed != said:
        words, found = _outcome_words(said, seats), _outcome_words(replayed, seats)
        if words == found:
            words = Sentence(_short(said), _short(said))
            found = Sentence(_short(replayed), _short(replayed))
        return Sentence(
            f"outcome: the export says {words.en}, the replay says {found.en}",
            f"Ergebnis: der Export sagt „{words.de}“, das Nachspielen ergibt „{found.de}“",
        )
    if replayed is None:
        return Sentence(
            "ended: the game is not over and the referee did not end it, yet its seed is shown",
            "beendet: das Spiel ist nicht vorbei und die Spielleitung hat es nicht beendet, "
            "doch sein Startwert wird gezeigt",
        )
    return None


def _same(
    verdict: Verdict, where: Sentence, got: list[Any], recorded: Any, counts: Counter[str]
) -> bool:
    replayed = [to_json(e) for e in got]
    if not isinstance(recorded, list):
        verdict.differs(
            Sentence(f"{where.en}: the events are missing", f"{where.de}: die Ereignisse fehlen")
        )
        return False
    for i in range(max(len(replayed), len(recorded))):
        want = recorded[i] if i < len(recorded) else None
        have = replayed[i] if i < len(replayed) else None
        if want != have:
            shown = have or want
            kind = _kind_words(shown.get("type") if isinstance(shown, dict) else None)
            what = Sentence(
                f"{where.en}, event {i + 1} ({kind.en})",
                f"{where.de}, Ereignis {i + 1} ({kind.de})",
            )
            verdict.differs(Sentence.join(": ", what, _difference(want, have)))
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
    _check_rules(export)


def _check_rules(export: Mapping[str, Any]) -> None:
    """An export made under another edition of its game's rules replays differently, honest or
    not: it is not checked against this edition. One made before exports said their edition
    was made under the first."""
    try:
        eng = engine(export["game"])
    except BadOptions:
        return  # the replay names a game this companion does not have
    rules = export.get("rules", 1)
    if type(rules) is not int:
        raise ExportError("the export's 'rules' must be a whole number, the edition of its rules")
    if rules != eng.RULES:
        made = "an older" if rules < eng.RULES else "a newer"
        raise ExportError(
            f"this {eng.TITLE} game was played under {made} edition of its rules ({rules}) than "
            f"this companion referees ({eng.RULES}), so it cannot be replayed here to be checked: "
            f"check it with the companion that made it"
        )


def _kind_words(kind: Any) -> Sentence:
    if not isinstance(kind, str):
        return Sentence("an event", "ein Ereignis")
    words = {
        "shuffled": Sentence("a shuffle", "ein Mischen"),
        "rolled": Sentence("a roll", "ein Wurf"),
        "drew": Sentence("a draw", "ein Ziehen"),
    }
    return words.get(kind, Sentence(kind, kind))


def _brief(action: Any) -> Sentence:
    if isinstance(action, Mapping):
        what, by = action.get("type"), action.get("by")
        return Sentence(f"({what} by {by})", f"({what} von {by})")
    return Sentence("(not an action)", "(kein Zug)")


def _difference(recorded: Any, replayed: Any) -> Sentence:
    """The first place where a recorded event differs from the replayed one, in a short line.

    >>> _difference({"type": "drew", "cards": [4, 17]}, {"type": "drew", "cards": [4, 8]}).en
    'cards[1] is 17 in the export, but the seed and the actions give 8'
    """
    if recorded is None:
        return Sentence(
            f"the export lacks an event; the replay gives {_short(replayed)}",
            f"dem Export fehlt ein Ereignis; das Nachspielen ergibt {_short(replayed)}",
        )
    if replayed is None:
        return Sentence(
            f"the export has an event the replay does not: {_short(recorded)}",
            f"der Export hat ein Ereignis, das Nachspielen nicht: {_short(recorded)}",
        )
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
                return Sentence(
                    f"{where} is {_short(mine)} in the export, "
                    f"but the seed and the actions give {_short(theirs)}",
                    f"{where} ist {_short(mine)} im Export, "
                    f"aber Startwert und Züge ergeben {_short(theirs)}",
                )
    return Sentence(
        f"the export says {_short(recorded)}, the seed and the actions give {_short(replayed)}",
        f"der Export sagt {_short(recorded)}, Startwert und Züge ergeben {_short(replayed)}",
    )


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _count(n: int, noun: str) -> Sentence:
    one, many = NOUNS_DE[noun]
    return Sentence(f"{n} {noun}{'' if n == 1 else 's'}", f"{n} {one if n == 1 else many}")


def _said(exc: BaseException) -> Sentence:
    """What an exception says, in both languages where it was written in both."""
    said = said_of(exc)
    return said if isinstance(said, Sentence) else Sentence(said, said)


def _outcome_words(outcome: Any, seats: Any) -> Sentence:
    if outcome is None:
        return Sentence("the game is not over", "das Spiel ist nicht vorbei")
    if not isinstance(outcome, dict):
        return Sentence(_short(outcome), _short(outcome))
    names = {s.seat: s.name for s in seats}
    winner = outcome.get("winner")
    who = names.get(winner, winner) if isinstance(winner, int | str | None) else _short(winner)
    how = outcome.get("how")
    return Sentence(f"{who} won ({how})", f"{who} hat gewonnen ({how})")
