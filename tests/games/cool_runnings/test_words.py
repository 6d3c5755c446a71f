"""Which of Cool Runnings' sentences the table page says aloud: the calls a player would make."""

from __future__ import annotations

from gameplay import KAREN, MARY, TOM, TableBuilder

from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import apply
from companion.games.cool_runnings.state import State
from companion.games.cool_runnings.words import narrate
from companion.games.fair import FairRandom
from companion.games.messages import TABLE


def card_of(state: State, seat: int, notation: str) -> int:
    return next(c for c in state.hand(seat) if state.card(c).notation() == notation)


def aloud(events: list[object], state: State) -> list[str]:
    return [line.en for line in narrate(events, state) if line.aloud]


def test_an_attack_is_said_aloud_as_it_is_played_deflected_and_carried_out(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["water-bath +4"]})
    state, ev = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "water-bath +3"), TOM), rng)
    assert aloud(ev, state) == ["Karen plays Water bath on Tom."]
    state, ev = apply(state, m.Deflect(TOM, card_of(state, TOM, "water-bath +4"), MARY), rng)
    assert aloud(ev, state) == ["Tom deflects the Water bath to Mary."]
    state, ev = apply(state, m.TakeHit(MARY), rng)
    assert aloud(ev, state) == ["Mary is hit by the Water bath: Tom carries it out."]
    state, ev = apply(state, m.AttackDone(TOM), rng)
    assert aloud(ev, state) == [], "the turn is said by the page, from the turn's seat"


def test_a_hit_counted_to_ten_leaves_the_voice_to_the_count(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(hands={KAREN: ["squeeze +2"]})
    state, _ = apply(state, m.PlayAttack(KAREN, card_of(state, KAREN, "squeeze +2"), TOM), rng)
    state, ev = apply(state, m.TakeHit(TOM), rng)
    assert narrate(ev, state)[0].en.startswith("Tom is hit by the Squeeze")
    assert aloud(ev, state) == []
    state, ev = apply(state, m.CountFinished(TABLE), rng)
    assert aloud(ev, state) == []


def test_lava_is_said_aloud_unless_its_attack_is_counted(
    table: TableBuilder, rng: FairRandom
) -> None:
    state = table(track=". L .", hands={KAREN: ["polish +2"]}, draw=["water-bath +1"])
    state, ev = apply(state, m.PlayMove(KAREN, card_of(state, KAREN, "polish +2"), KAREN), rng)
    said = narrate(ev, state)
    assert [line.de for line in said if line.aloud] == [
        "Lava! Die oberste Karte zeigt „Wasserbad“: Tom greift Karen an.",
        "Der Angriff „Wasserbad“ der Lava trifft Karen: Tom führt ihn aus.",
    ]
    counted = table(track=". L .", hands={KAREN: ["polish +2"]}, draw=["hot-breath +1"])
    counted, ev = apply(
        counted, m.PlayMove(KAREN, card_of(counted, KAREN, "polish +2"), KAREN), rng
    )
    assert aloud(ev, counted) == []


def test_a_melted_cube_and_the_winner_are_said_aloud(table: TableBuilder, rng: FairRandom) -> None:
    state = table()
    state, ev = apply(state, m.Melted(TOM, TOM), rng)
    assert aloud(ev, state) == ["Tom's ice cube has melted: Tom is out."]
    state, ev = apply(state, m.Melted(MARY, MARY), rng)
    assert aloud(ev, state) == [
        "Mary's ice cube has melted: Mary is out.",
        "Karen has the last ice cube standing and wins!",
    ]
