"""The refusals every game words alike, in both languages (see :mod:`.sentence`).

>>> not_your_turn("Karen", "Tom").de
'Karen ist am Zug, nicht Tom.'
"""

from __future__ import annotations

from companion.games.sentence import Sentence

NOT_NOW = Sentence("That action is not allowed now.", "Das geht jetzt nicht.")
OVER = Sentence("The game is over.", "Das Spiel ist vorbei.")


def no_seat(seat: object) -> Sentence:
    return Sentence(
        f"There is no seat {seat} at this table.", f"Diesen Platz {seat} gibt es nicht."
    )


def not_an_actor(actor: object, *, table: bool = True) -> Sentence:
    """An actor that is neither a seat nor the referee (nor, where it acts, the table)."""
    if table:
        return Sentence(
            f"{actor!r} is not a seat, the referee or the table.",
            f"{actor!r} ist kein Platz, nicht die Spielleitung und nicht der Tisch.",
        )
    return Sentence(
        f"{actor!r} is not a seat or the referee.",
        f"{actor!r} ist kein Platz und nicht die Spielleitung.",
    )


def not_your_turn(turn: str, actor: str) -> Sentence:
    """``turn`` is the name of the seat whose turn it is, ``actor`` the one who tried."""
    return Sentence(f"It is {turn}'s turn, not {actor}'s.", f"{turn} ist am Zug, nicht {actor}.")
