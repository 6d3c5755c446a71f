"""What the referee asks of the set-up, checked against the table: which step, for which
seats; and the set-up's refusals of a request (409), each in English and German."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import BadMessage, CompanionError
from companion.games.messages import REFEREE, Actor
from companion.games.sentence import Sentence
from companion.table.setting_up_shown import Step
from companion.table.setting_up_steps import Run
from companion.table.tokens import Forbidden

STEP_WORDS = {
    "identify": ("which probe and pad is whose", "welcher Fühler und welche Waage wem gehört"),
    "tare": ("the empty pads", "die leeren Waagen"),
    "weight": ("a known weight", "ein bekanntes Gewicht"),
    "cap": ("the empty caps", "die leeren Kappen"),
    "temperature": ("the probes in ice water", "die Fühler in Eiswasser"),
}


class SetUpBusy(CompanionError):
    """The set-up cannot do that now (409): a step is under way, or it is reading."""


class NothingToAccept(CompanionError):
    """No step has proposed a calibration to accept (409)."""


class NoSensors(CompanionError):
    """The table, or the seat, has no probe or no pad for the step (409)."""


@dataclass(frozen=True)
class Asked:
    """A step asked for, its fields checked for shape (:mod:`companion.web.inputs`): start it,
    or give the go for its stage, or weigh a further known weight."""

    step: Step
    seat: int | None = None
    grams: float | None = None
    reference_c: float | None = None


def referee(actor: Actor) -> Actor:
    """The referee, or :class:`Forbidden` for anyone else: only the referee sets up."""
    if actor != REFEREE:
        raise Forbidden(
            Sentence(
                "only the referee sets up the sensors",
                "nur die Spielleitung richtet die Fühler und Waagen ein",
            )
        )
    return actor


def seats_for(
    asked: Asked, seats: Sequence[int], probe_seats: Sequence[int], pad_seats: Sequence[int]
) -> tuple[int, ...]:
    """The seats a new run of the step asked for sets up: the one asked for, else every seat
    with what the step reads (``probe_seats``, ``pad_seats``); refused when the table has not
    got that seat (400), or the seat or the table has nothing for the step to read (409)."""
    have = {
        "identify": set(probe_seats) | set(pad_seats),
        "temperature": set(probe_seats),
    }.get(asked.step, set(pad_seats))
    if asked.seat is not None and asked.seat not in seats:
        raise BadMessage(
            Sentence(
                f"seat {asked.seat}: this table has seats {seats[0]} to {seats[-1]}",
                f"Platz {asked.seat}: dieser Tisch hat die Plätze {seats[0]} bis {seats[-1]}",
            )
        )
    if asked.step == "weight" and asked.seat is None:
        raise BadMessage(
            Sentence(
                "the weight step weighs on one pad: give its seat",
                "der Schritt mit dem Gewicht wiegt auf einer Waage: gib ihren Platz an",
            )
        )
    chosen = tuple(sorted(have)) if asked.seat is None else (asked.seat,)
    if not chosen or not have.issuperset(chosen):
        pad = asked.step not in ("identify", "temperature")
        where = (
            ("this table", "dieser Tisch")
            if asked.seat is None
            else (
                f"seat {asked.seat}",
                f"Platz {asked.seat}",
            )
        )
        raise NoSensors(
            Sentence(
                f"{where[0]} has no {'pad' if pad else 'probe'} to set up",
                f"{where[1]} hat {'keine Waage' if pad else 'keinen Fühler'} zum Einrichten",
            )
        )
    return chosen


def check_go(run: Run, asked: Asked) -> None:
    """Refuse a request to a run under way that is not the go for its stage (or, once the
    weight step has proposed, a further known weight): :class:`SetUpBusy`."""
    if run.phase == "measuring":
        raise SetUpBusy(
            Sentence(
                "the table is reading the sensors: wait until it is done, or abort",
                "der Tisch liest gerade die Fühler und Waagen: warte, bis er fertig ist, "
                "oder brich ab",
            )
        )
    other_seat = asked.seat is not None and run.seats != (asked.seat,)
    other_water = asked.reference_c not in (None, run.reference_c)
    if asked.step != run.step or other_seat or other_water:
        en, de = STEP_WORDS[run.step]
        raise SetUpBusy(
            Sentence(
                f"the set-up's step “{en}” is under way: finish it or abort it first",
                f"der Schritt „{de}“ läuft gerade: erst beenden oder abbrechen",
            )
        )
    if run.phase == "proposed" and (run.step != "weight" or asked.grams is None):
        raise SetUpBusy(
            Sentence(
                "the step is done: accept what it found, or abort it",
                "der Schritt ist fertig: übernimm, was er fand, oder brich ab",
            )
        )
