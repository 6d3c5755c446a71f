"""Ruling 12 and the views: no viewer sees another seat's hand or the order of the draw pile."""

from __future__ import annotations

from gameplay import KAREN, MARY, TOM, TableBuilder, assert_view_actions_apply

from companion.games.cool_runnings import GAME as cool_runnings
from companion.games.cool_runnings import messages as m
from companion.games.cool_runnings.engine import apply
from companion.games.cool_runnings.views import view
from companion.games.deck import DRAW
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE
from companion.games.selfplay import play_one


def card_ids_in(data: dict) -> set[int]:
    """Every card id a view shows anywhere (hand, discard top, chain, revealed)."""
    found: set[int] = set()

    def walk(node: object, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif key in ("id", "card") and isinstance(node, int):
            found.add(node)

    walk(data)
    return found


def test_a_seat_sees_its_own_hand_and_its_legal_actions(table: TableBuilder) -> None:
    state = table(hands={KAREN: ["water-bath +3", "polish -2"], TOM: ["squeeze +1"]})
    mine = view(state, KAREN)
    assert [(c["attack"], c["move"]) for c in mine["hand"]] == [("water-bath", 3), ("polish", -2)]
    assert mine["hand"][0]["name"] == "Water bath" and mine["hand"][0]["name_de"] == "Wasserbad"
    assert {
        "type": "play-attack",
        "by": KAREN,
        "card": mine["hand"][0]["id"],
        "target": TOM,
    } in mine["legal_actions"]


def test_legal_actions_in_a_view_apply_unchanged(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["water-bath +3"]})
    # two targets to attack, three pieces to move, and Karen's own melt-out
    assert assert_view_actions_apply(cool_runnings, state, KAREN) == 2 + 3 + 1


def test_ruling_12_no_view_shows_another_seats_hand_or_the_draw_order(table: TableBuilder) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["squeeze +1", "polish +2"]})
    secret_toms = set(state.hand(TOM))
    draw = set(state.deck.pile(DRAW))
    for viewer in (KAREN, MARY, REFEREE, "public"):
        shown = card_ids_in(view(state, viewer))
        assert not shown & secret_toms, viewer
        assert not shown & draw, viewer
        if isinstance(viewer, int):
            assert [c["id"] for c in view(state, viewer)["hand"]] == list(state.hand(viewer))
        else:
            assert "hand" not in view(state, viewer)
    assert card_ids_in(view(state, TOM)) >= secret_toms


def test_the_public_and_the_referee_see_hand_sizes_and_pile_sizes_only(table: TableBuilder) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["squeeze +1", "polish +2"]})
    for viewer in ("public", REFEREE):
        seen = view(state, viewer)
        assert "hand" not in seen
        assert [s["hand_size"] for s in seen["seats"]] == [1, 2, 0]
        assert seen["draw_pile"] == len(state.deck.pile(DRAW))
        assert seen["commitment"] == state.commitment
    assert "legal_actions" not in view(state, "public")
    assert view(state, REFEREE)["legal_actions"][0]["by"] == REFEREE


def test_ruling_12_over_whole_games_no_view_ever_leaks_a_secret_card() -> None:
    """Ruling 12 over random play: at every step, each viewer sees only public cards and its own."""
    played = play_one("cool-runnings", seed=5, number=0)
    for state in played.states[:: max(1, len(played.states) // 60)]:
        public_cards = {state.deck.pile("discard")[0]} if state.deck.pile("discard") else set()
        if state.pending:
            public_cards |= {card for _, card, _ in state.pending.chain}
            public_cards |= (
                {state.pending.revealed} if state.pending.revealed is not None else set()
            )
        for viewer in (*state.positions, REFEREE, "public"):
            allowed = public_cards | (set(state.hand(viewer)) if isinstance(viewer, int) else set())
            assert card_ids_in(view(state, viewer)) <= allowed


def test_the_attack_in_progress_is_public(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["water-bath +3"], TOM: ["water-bath +4"]})
    state, _ = apply(state, m.PlayAttack(KAREN, state.hand(KAREN)[0], TOM), rng)
    state, _ = apply(state, m.Deflect(TOM, state.hand(TOM)[0], MARY), rng)
    attack = view(state, "public")["attack"]
    assert attack["name"] == "Water bath" and attack["stage"] == "deflect"
    assert [(link["by"], link["target"]) for link in attack["chain"]] == [(KAREN, TOM), (TOM, MARY)]
    assert (attack["target"], attack["carrier"]) == (MARY, TOM)
    assert "Dunk" in attack["instruction"]


def test_the_count_in_progress_is_shown_with_its_pace(table: TableBuilder, rng: FairRandom) -> None:
    state = table(hands={KAREN: ["hot-breath +3"]})
    state, _ = apply(state, m.PlayAttack(KAREN, state.hand(KAREN)[0], TOM), rng)
    assert view(state, "public")["count"] is None
    state, _ = apply(state, m.TakeHit(TOM), rng)
    assert view(state, "public")["count"] == {"seat": TOM, "counts": 10, "pace_s": 0.8}
