"""Events told in words a player reads: "Tom puts a bather on Mary's towel on blue 2b."

Every sentence is written in English and in German (:class:`~companion.games.sentence.Sentence`),
with the German words of the pages: colours, loungers, the lifeguard's column or row ("die rote
Spalte", "die Reihe 2").

>>> from companion.games.fair import FairRandom
>>> from companion.games.seats import SeatInfo
>>> from companion.games.cool_am_pool.engine import new_game
>>> seats = [SeatInfo(1, "Karen", "blue"), SeatInfo(2, "Tom", "yellow")]
>>> state, events = new_game({}, seats, FairRandom(bytes(32)))
>>> print(narrate(events, state)[0].en[:58])
Each player lays 12 towels on the loungers of rows 2 to 4,
>>> print(narrate(events, state)[0].de[:59])
Alle legen je 12 Handtücher auf die Liegen der Reihen 2 bis
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.board import (
    COLUMN,
    FIVE,
    LIFEGUARD,
    BoardData,
    Lounger,
    closed,
)
from companion.games.cool_am_pool.state import FIVE_POINT, FOREIGN, OWN, RECONQUER, State
from companion.games.dice import Rolled
from companion.games.sentence import COLOURS_DE, Sentence

NUMBERS = ["no", "one", "two", "three", "four", "five", "six"]
TIMES = ["keinmal", "einmal", "zweimal", "dreimal", "viermal", "fünfmal", "sechsmal"]
"""How often a face shows, in German: "zweimal rot"."""
ZAHLEN = ["keinen", "einen", "zwei", "drei", "vier", "fünf", "sechs"]
"""A number of dice (or lifeguards: der Würfel, der Bademeister) in the accusative."""
COLOURS_DE_BEFORE_NOUN = {
    "red": "rote",
    "yellow": "gelbe",
    "green": "grüne",
    "blue": "blaue",
    "purple": "lila",
    "orange": "orange",
    "pink": "pinke",
}
"""The colours in German before a noun, after the definite article in the nominative or
accusative singular: "die rote Spalte", "das rote Feld"; lila and orange stay as they are."""


def narrate(events: list[Any], state: State) -> list[Sentence]:
    """The sentences for a list of events; events a player need not hear are left out."""
    return [line for event in events if (line := describe(event, state))]


def colour_words(colour: str) -> Sentence:
    """A colour's name: "red", "rot".

    >>> colour_words("purple").de
    'lila'
    """
    return Sentence(colour, COLOURS_DE.get(colour, colour))


def lounger_words(spot: Lounger) -> Sentence:
    """A lounger's name: its label in English, "Liege rot 3a" or "5-Punkte-Liege a" in German
    (after an article: "auf der Liege rot 3a").

    >>> from companion.games.cool_am_pool.board import default_board, loungers
    >>> [lounger_words(s).de for s in loungers(default_board())][:3]
    ['5-Punkte-Liege a', '5-Punkte-Liege b', 'Liege rot 4']
    """
    if spot.colour is None:
        mark = spot.label.removeprefix(f"{FIVE}-point")
        return Sentence(spot.label, f"{FIVE}-Punkte-Liege{mark}")
    mark = spot.label.removeprefix(f"{spot.colour} {spot.row}")
    return Sentence(spot.label, f"Liege {colour_words(spot.colour).de} {spot.row}{mark}")


def dice_words(faces: Iterable[str], board: BoardData) -> Sentence:
    """Faces grouped by colour, the board's order, lifeguards last: "two red, one blue".

    >>> from companion.games.cool_am_pool.board import default_board
    >>> said = dice_words(["blue", "lifeguard", "red", "red"], default_board())
    >>> said.en
    'two red, one blue and one lifeguard'
    >>> said.de
    'zweimal rot, einmal blau und einmal Bademeister'
    """
    count = Counter(faces)
    shown = [f for f in board.colours if count[f]]
    en = [f"{NUMBERS[count[f]]} {f}" for f in shown]
    de = [f"{TIMES[count[f]]} {colour_words(f).de}" for f in shown]
    if count[LIFEGUARD]:
        en.append(_lifeguards(count[LIFEGUARD]).en)
        de.append(f"{TIMES[count[LIFEGUARD]]} Bademeister")
    if not en:
        return Sentence("no dice", "keine Würfel")
    return Sentence(_listed(en, "and"), _listed(de, "und"))


def _listed(parts: list[str], last: str) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {last} {parts[-1]}"


def _lifeguards(n: int) -> Sentence:
    """Lifeguard dice: "two lifeguards", "zwei Bademeister" (in the accusative)."""
    return Sentence(f"{NUMBERS[n]} lifeguard{'' if n == 1 else 's'}", f"{ZAHLEN[n]} Bademeister")


def coloured_de(article: str, noun: str, colour: str) -> str:
    """A German noun of a colour after its definite article (nominative or accusative): the
    colour declined before the noun, or, with no German word for it here, after the noun.

    >>> coloured_de("die", "Spalte", "red"), coloured_de("das", "Feld", "purple")
    ('die rote Spalte', 'das lila Feld')
    >>> coloured_de("die", "Spalte", "teal")
    'die Spalte teal'
    """
    before = COLOURS_DE_BEFORE_NOUN.get(colour)
    return f"{article} {before} {noun}" if before else f"{article} {noun} {colour}"


def closes(board: BoardData, position: int) -> Sentence:
    """What the lifeguard at ``position`` closes, in words: "the red column", "die rote Spalte";
    "row 4", "die Reihe 4".

    >>> from companion.games.cool_am_pool.board import default_board
    >>> [closes(default_board(), p).de for p in (0, 5)]
    ['die rote Spalte', 'die Reihe 4']
    >>> closes(default_board(), 5).en
    'row 4'
    """
    kind, what = closed(board, position)
    if kind == COLUMN:
        return Sentence(f"the {what} column", coloured_de("die", "Spalte", str(what)))
    return Sentence(f"row {what}", f"die Reihe {what}")


def _space(board: BoardData, position: int) -> Sentence:
    """A space of the lifeguard's track, after "to" or "auf": "the red space", "das rote Feld";
    "a 3", "eine 3"."""
    on = board.track[position]
    if on.isdigit():
        return Sentence(f"a {on}", f"eine {on}")
    return Sentence(f"the {on} space", coloured_de("das", "Feld", on))


def _spaces(steps: int) -> Sentence:
    return Sentence(
        f"{steps} {'space' if steps == 1 else 'spaces'}",
        f"{steps} {'Feld' if steps == 1 else 'Felder'}",
    )


def _towels_without(n: int) -> str:
    """In German: how many towels lie without a bather, with the verb."""
    return "1 Handtuch ist ohne Badegast" if n == 1 else f"{n} Handtücher sind ohne Badegast"


def describe(event: Any, state: State) -> Sentence | None:
    """One sentence for an event, or None for an event the narrator leaves out."""
    name, board = state.name, state.board

    def spot(number: int) -> Sentence:
        return lounger_words(state.loungers[number])

    match event:
        case m.SetupStarted(first, towels):
            return Sentence(
                f"Each player lays {towels} towels on the loungers of rows 2 to 4, one at a time, "
                f"{name(first)} first; the 5-point loungers stay free.",
                f"Alle legen je {towels} Handtücher auf die Liegen der Reihen 2 bis 4, eins nach "
                f"dem anderen, {name(first)} beginnt; die 5-Punkte-Liegen bleiben frei.",
            )
        case m.TowelPlaced(seat, lounger):
            where = spot(lounger)
            return Sentence(
                f"{name(seat)} lays a towel on {where.en}.",
                f"{name(seat)} legt ein Handtuch auf die {where.de}.",
            )
        case m.TurnStarted(seat, turn):
            chips, guard = state.chips[seat], closes(board, state.lifeguard)
            free = state.without_bather()
            return Sentence(
                f"Turn {turn}, {name(seat)} ({chips} chip{'' if chips == 1 else 's'}); "
                f"the lifeguard closes {guard.en}; {free} towels are without a bather.",
                f"Zug {turn}, {name(seat)} ({chips} Chip{'' if chips == 1 else 's'}); "
                f"der Bademeister sperrt {guard.de}; {_towels_without(free)}.",
            )
        case Rolled(dice, faces):
            who, what = name(state.turn_seat), dice_words(faces, board)
            if len(dice) > 1:
                return Sentence(
                    f"{who} rolls {len(dice)} dice: {what.en}.",
                    f"{who} würfelt mit {len(dice)} Würfeln: {what.de}.",
                )
            return Sentence(
                f"{who} rolls the last die: {what.en}.",
                f"{who} würfelt mit dem letzten Würfel: {what.de}.",
            )
        case m.ChipSpent(seat, chips):
            return Sentence(
                f"{name(seat)} throws a water ball into the pool ({chips} left): "
                "that roll does not count, the same dice are rolled again.",
                f"{name(seat)} wirft einen Wasserball in den Pool (noch {chips}): "
                "Dieser Wurf zählt nicht, dieselben Würfel werden noch einmal geworfen.",
            )
        case m.DiceSetAside(seat, _, colours, lifeguards):
            who = name(seat)
            if not colours:
                guards = _lifeguards(len(lifeguards))
                return Sentence(
                    f"No colour shows: {who} sets {guards.en} aside.",
                    f"Kein Würfel zeigt eine Farbe: {who} legt {guards.de} beiseite.",
                )
            what = dice_words(colours, board)
            if not lifeguards:
                return Sentence(f"{who} sets aside {what.en}.", f"{who} legt {what.de} beiseite.")
            guards = _lifeguards(len(lifeguards))
            return Sentence(
                f"{who} sets aside {what.en} (and {guards.en}).",
                f"{who} legt {what.de} beiseite (und {guards.de}).",
            )
        case m.LifeguardMoved(steps, _, end):
            walked, space, shut = _spaces(steps), _space(board, end), closes(board, end)
            return Sentence(
                f"The lifeguard walks {walked.en} clockwise to {space.en}: {shut.en} is closed.",
                f"Der Bademeister geht {walked.de} im Uhrzeigersinn auf {space.de}: "
                f"{_capital(shut.de)} ist gesperrt.",
            )
        case m.LifeguardReturned(steps, _, end):
            walked, space, shut = _spaces(steps), _space(board, end), closes(board, end)
            return Sentence(
                f"The lifeguard goes back {walked.en} to {space.en}: {shut.en} is closed.",
                f"Der Bademeister geht {walked.de} zurück auf {space.de}: "
                f"{_capital(shut.de)} ist gesperrt.",
            )
        case m.Stopped(seat, result, all_aside):
            who = name(seat)
            if result:
                have = dice_words(result, board)
            else:
                have = Sentence("no colour dice", "keinen Farbwürfel")
            if all_aside:
                return Sentence(
                    f"All six dice are aside: {who} has {have.en}.",
                    f"Alle sechs Würfel liegen beiseite: {who} hat {have.de}.",
                )
            return Sentence(f"{who} stops with {have.en}.", f"{who} hört auf und hat {have.de}.")
        case m.LoungerTaken(seat, lounger, how, other):
            return _taken(state, seat, state.loungers[lounger], how, other)
        case m.ChipsTaken(seat, got, chips):
            who = name(seat)
            if got == 0:
                return Sentence(
                    f"{who} already holds {chips} chips, the most allowed, and takes none.",
                    f"{who} hat schon {chips} Chips, mehr dürfen es nicht sein: {who} nimmt "
                    "keinen.",
                )
            s = "" if got == 1 else "s"
            return Sentence(
                f"{who} takes {got} water-ball chip{s} from the pool (now {chips}).",
                f"{who} nimmt {got} Wasserball-Chip{s} aus dem Pool (jetzt {chips}).",
            )
        case m.NoLounger(seat):
            guard = closes(board, state.lifeguard)
            return Sentence(
                f"{name(seat)}'s dice allow no lounger that is free to take "
                f"(the lifeguard closes {guard.en}): the turn ends.",
                f"Mit diesen Würfeln kann {name(seat)} keine Liege nehmen "
                f"(der Bademeister sperrt {guard.de}): Der Zug endet.",
            )
        case m.LastRound(free, last):
            return Sentence(
                f"Only {free} towels are without a bather: the round is completed, "
                f"{name(last)} plays last.",
                f"Nur noch {_towels_without(free)}: Die Runde wird zu Ende gespielt, "
                f"den letzten Zug macht {name(last)}.",
            )
        case m.GameOver(seats, scores, bathers, winner, tie_break):
            return _game_over(state, seats, scores, bathers, winner, tie_break)
    return None


def _capital(text: str) -> str:
    """A German sentence after a colon starts with a capital: "Die Reihe 3 ist gesperrt"."""
    return text[:1].upper() + text[1:]


def _taken(state: State, seat: int, spot: Lounger, how: str, other: int | None) -> Sentence:
    taker, where, row = state.name(seat), lounger_words(spot), spot.row
    if how == OWN:
        return Sentence(
            f"{taker} turns their towel on {where.en} over: secured for good ({row} points).",
            f"{taker} dreht das eigene Handtuch auf der {where.de} um: für immer gesichert "
            f"({row} Punkte).",
        )
    if how == FIVE_POINT:
        return Sentence(
            f"{taker} takes {where.en}, a lounger right by the pool, for good (5 points)!",
            f"{taker} nimmt die {where.de} direkt am Pool für immer (5 Punkte)!",
        )
    if other is None:
        by = Sentence("another player's", "von jemand anderem")
    else:
        by = Sentence(f"{state.name(other)}'s", f"von {state.name(other)}")
    if how == FOREIGN:
        return Sentence(
            f"{taker} puts a bather on {by.en} towel on {where.en}.",
            f"{taker} legt einen Badegast auf das Handtuch {by.de} auf der {where.de}.",
        )
    if how == RECONQUER:
        return Sentence(
            f"{taker} reconquers {where.en}: {by.en} bather goes home and "
            f"{taker}'s towel is turned over ({row} points).",
            f"{taker} erobert die {where.de} zurück: Der Badegast {by.de} geht heim und "
            f"das Handtuch von {taker} wird umgedreht ({row} Punkte).",
        )
    return Sentence(
        f"{taker} conquers {where.en} for good: {by.en} towel goes back, "
        f"{taker}'s own towel lies there bather side up ({row} points).",
        f"{taker} erobert die {where.de} für immer: Das Handtuch {by.de} geht zurück, "
        f"das eigene Handtuch von {taker} liegt dort mit dem Badegast nach oben ({row} Punkte).",
    )


def _game_over(
    state: State,
    seats: tuple[int, ...],
    scores: tuple[int, ...],
    bathers: tuple[int, ...],
    winner: int | None,
    tie_break: bool,
) -> Sentence:
    name = state.name
    table = ", ".join(f"{name(s)} {p}" for s, p in zip(seats, scores, strict=True))
    line = Sentence(
        f"The game is over. Points: {table}.", f"Das Spiel ist vorbei. Punkte: {table}."
    )
    if winner is None:
        end = Sentence(
            "Still tied after counting bathers: nobody wins alone.",
            "Auch nach dem Zählen der Badegäste steht es unentschieden: Niemand gewinnt allein.",
        )
    elif tie_break:
        count = dict(zip(seats, bathers, strict=True))[winner]
        end = Sentence(
            f"A tie on points: {name(winner)} has more bathers ({count}) and wins!",
            f"Gleich viele Punkte: {name(winner)} hat mehr Badegäste ({count}) und gewinnt!",
        )
    else:
        end = Sentence(f"{name(winner)} wins!", f"{name(winner)} gewinnt!")
    return Sentence.join(" ", line, end)
