"""What the table does about a game's effects: counts, weigh-ins, melt and cues.

The games say what their events ask of the table in the words of :mod:`companion.games.effects`;
this is the one place those words are carried out, by their class. Effects are carried out in
the order the game's actions were answered, under the table's lock, never under the lock that
answers take.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.effects import (
    AskWeighIn,
    CubeOut,
    Effect,
    EndCount,
    GameOver,
    Melt,
    StartCount,
    TurnCue,
)
from companion.table.count import CountKeeper
from companion.table.cubes import Cubes, Estimated
from companion.table.cue_player import CuePlayer
from companion.table.happenings import Happenings, Kind
from companion.table.stored import MeltInput


@dataclass(frozen=True)
class NewGame:
    """The table's own step before a game's first effects: game ``game_id`` starts
    (``announce``: the game-start cue for its seats), or is restored after a restart with the
    melt ``inputs`` it had stored (``None`` for a new game)."""

    game_id: int
    seats: tuple[int, ...]
    announce: bool
    inputs: tuple[MeltInput, ...] | None = None


@dataclass(frozen=True)
class GameEnded:
    """The table's own step when the referee ends a game: its count stops."""


@dataclass(frozen=True)
class TakenBack:
    """The table's own step when the referee takes an action back: any count stops (the
    game's standing count, if the state taken back to has one, follows and starts afresh)."""


Step = Effect | NewGame | GameEnded | TakenBack
"""What the table carries out: a game's effect, or one of its own steps."""


class Reactions:
    """Carries out effects on the table's cubes, its count and its cues."""

    def __init__(
        self, cubes: Cubes, keeper: CountKeeper, cues: CuePlayer, happenings: Happenings
    ) -> None:
        self.cubes = cubes
        self.keeper = keeper
        self.cues = cues
        self.happenings = happenings

    def carry_out(self, effect: Step) -> None:
        match effect:
            case NewGame(game_id, seats, announce, inputs):
                self.end_count()  # no count, no cubes, and new curves, until the game says
                if inputs is None:
                    self.cubes.new_game(game_id)
                else:
                    self.cubes.rebuild(game_id, inputs)
                if announce:
                    self.cues.cue("game-start", self._at_table(list(seats)))
                    self._note("game-started", seats=list(seats))
            case GameEnded():
                self.end_count()
                self.cubes.game_over()
            case TakenBack():
                self.end_count()
                self.cubes.asking = True
            case CubeOut(seat):
                self.cubes.cube_out(seat)
                self.ask_weigh_in(seat)
            case AskWeighIn(seat):
                self.ask_weigh_in(seat)
            case Melt(seat, kind):
                self._note("attack", seat=seat, attack=kind)
                if self.cubes.melt(seat, kind):
                    self.ask_weigh_in(seat)
            case StartCount():
                self.end_count()
                self.keeper.start(effect, cued=self.cues.count(effect.seat, effect.pace_s))
                self._note("count-started", seat=effect.seat, of=effect.counts)
            case EndCount():
                self.end_count()
            case TurnCue(seat):
                self.cues.cue("your-turn", self._at_table([seat]))
            case GameOver(winner):
                self.cubes.game_over()
                self._note("game-over", winner=winner)
                self.cues.cue("winner", self._at_table([] if winner is None else [winner]))

    def end_count(self) -> None:
        """End the running count, if any, on the buzzer too."""
        count = self.keeper.cancel()
        if count is not None:
            self._note("count-finished", seat=count.seat, completed=False)
            if count.cued:
                self.cues.cancel()

    def ask_weigh_in(self, seat: int) -> None:
        if self.cubes.ask_weigh_in(seat):
            self.cues.cue("weigh-in", [seat])

    def estimated(self, found: Estimated) -> None:
        """What a pass's estimates ask: a seat whose cube seems gone should confirm it (or the
        referee); a seat whose estimate grew too unsure is asked to weigh in."""
        for seat in found.melted:
            self._note("melted", seat=seat)
            self.cues.cue("melt-warning", [seat])
        for seat in found.unsure:
            self.ask_weigh_in(seat)

    def _note(self, kind: Kind, **fields: Any) -> None:
        self.happenings.note(kind, self.cubes.clock.wall(), **fields)

    def _at_table(self, seats: list[int]) -> list[int]:
        return [s for s in seats if s in self.cubes.stations]
