"""The views of Cool am Pool: everything on the table is public; a seat's view adds its legal
actions (which POST back unchanged), and for the seat on turn the odds and what it can take."""

from __future__ import annotations

import json
import random

from gameplay import assert_view_actions_apply
from pool_tables import KAREN, MARY, TOM, act, fresh, spot, table

from companion.games.cool_am_pool import GAME as cool_am_pool
from companion.games.cool_am_pool import messages as m
from companion.games.cool_am_pool.engine import apply
from companion.games.cool_am_pool.state import FIVE_POINT, FOREIGN, OCCUPY, OWN
from companion.games.cool_am_pool.views import view
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, from_json
from companion.games.selfplay import play_one


def round_trip(state, seat: int) -> None:
    """Every legal action of the seat's view, through JSON text and back, applies."""
    assert_view_actions_apply(cool_am_pool, state, seat)


def test_legal_actions_in_a_view_apply_unchanged_in_every_phase() -> None:
    round_trip(fresh(), KAREN)
    round_trip(table(), KAREN)
    round_trip(
        table(hand=["red", "red", "lifeguard", "blue", "blue", "green"], chips={KAREN: 1}), KAREN
    )
    round_trip(table(aside=["red", "red"]), KAREN)
    round_trip(table(aside=["red", "red", "red"], phase="occupy"), KAREN)


def test_legal_actions_of_whole_games_round_trip_through_json() -> None:
    played = play_one("cool-am-pool", seed=2, number=0)
    for state in played.states[:: max(1, len(played.states) // 40)]:
        for s in state.seats:
            for raw in view(state, s.seat)["legal_actions"]:
                assert from_json(json.loads(json.dumps(raw)), m.ACTIONS).by == s.seat


def test_a_seat_view_shows_the_set_aside_action_by_die_numbers() -> None:
    state = table(hand=["red", "lifeguard", "blue", "blue", "green", "green"])
    actions = view(state, KAREN)["legal_actions"]
    assert {"type": "pool-set-aside", "by": KAREN, "dice": [2, 3]} in actions
    assert {"type": "pool-spend-chip", "by": KAREN} not in actions


def test_the_public_view_shows_the_board_dice_lifeguard_and_supplies() -> None:
    state = table(
        towels={"red 2a": TOM},
        bathers={"red 2a": KAREN},
        chips={KAREN: 3},
        lifeguard="green",
        aside=["red", "red", "lifeguard"],
        hand=["blue", "green", "yellow"],
    )
    seen = view(state, "public")
    assert seen["viewer"] == "public" and "legal_actions" not in seen
    assert seen["game"] == "cool-am-pool" and seen["phase"] == "choose"
    red = next(s for s in seen["board"]["loungers"] if s["label"] == "red 2a")
    assert red == {
        "id": spot(state, "red 2a"),
        "label": "red 2a",
        "colour": "red",
        "row": 2,
        "towel": TOM,
        "bather": KAREN,
    }
    assert (
        seen["board"]["loungers"][0]["colour"] is None and seen["board"]["loungers"][0]["row"] == 5
    )
    assert seen["lifeguard"]["space"] == "green"
    assert seen["lifeguard"]["closes"] == {"column": "green"}
    assert seen["dice"][0] == {"die": 0, "showing": "red", "aside": True}
    assert seen["dice"][5] == {"die": 5, "showing": "yellow", "aside": False}
    assert seen["result"] == {"red": 2}
    karen = seen["seats"][0]
    assert karen["chips"] == 3 and karen["bathers_in_supply"] == 4
    assert seen["pool_chips"] == 13
    assert seen["board"]["without_bather"] == 23
    assert seen["outcome"] is None


def test_a_row_space_of_the_lifeguard_closes_a_row() -> None:
    assert view(table(lifeguard="3"), "public")["lifeguard"]["closes"] == {"row": 3}


def test_the_view_says_what_the_lifeguard_closes_in_both_languages() -> None:
    """The pages show these words as they are: the German colour is declined ("die rote
    Spalte"), and a row has no article in English ("row 3")."""
    seen = view(table(lifeguard="3"), "public")["lifeguard"]
    assert seen["closes_words"] == {"en": "row 3", "de": "die Reihe 3"}
    seen = view(table(lifeguard="red"), "public")["lifeguard"]
    assert seen["closes_words"] == {"en": "the red column", "de": "die rote Spalte"}


def test_right_after_a_roll_the_view_shows_the_lifeguard_where_its_faces_sent_it() -> None:
    state = table(lifeguard="purple")
    state, _ = act(state, m.Roll(KAREN), "lifeguard red red lifeguard blue green")
    for viewer in (KAREN, TOM, REFEREE, "public"):
        seen = view(state, viewer)["lifeguard"]
        assert seen["position"] == 6 and seen["space"] == "3", viewer
        assert seen["closes"] == {"row": 3}
        assert seen["closes_words"] == {"en": "row 3", "de": "die Reihe 3"}


def test_the_seat_on_turn_sees_what_its_dice_would_take_now() -> None:
    state = table(aside=["red", "red", "red"], towels={"red 3a": TOM}, lifeguard="2")
    mine = view(state, KAREN)
    on_toms = {
        "lounger": spot(state, "red 3a"),
        "label": "red 3a",
        "how": "foreign",
        "other": TOM,
        "chips": min(2, 4 - state.chips[KAREN], state.pool),
        "points": 1,
    }
    assert on_toms in mine["can_take"]
    assert all(t["label"].startswith("red 3") for t in mine["can_take"])
    assert view(state, TOM)["can_take"] is None


def test_the_referee_sees_the_table_and_has_no_actions() -> None:
    seen = view(table(), REFEREE)
    assert seen["viewer"] == REFEREE and seen["legal_actions"] == []
    assert seen["board"] == view(table(), "public")["board"]


def test_during_setup_the_view_counts_the_towels_still_to_lay() -> None:
    state = fresh()
    state, _ = apply(state, m.PlaceTowel(KAREN, spot(state, "red 2a")), FairRandom(bytes(32)))
    seats = view(state, MARY)["seats"]
    assert [s["towels_to_lay"] for s in seats] == [7, 8, 8]
    assert view(state, MARY)["legal_actions"] == []


def test_each_lounger_offered_says_whom_it_concerns_the_chips_it_brings_and_its_worth() -> None:
    """Taking it then does what the offer said: the chips come, and the lounger is worth its
    points to the taker."""

    seen: set[str] = set()
    for seed in range(30):
        rnd, rng = random.Random(seed), FairRandom(seed.to_bytes(32, "big"))
        state, _ = cool_am_pool.new_game({}, table().seats, rng)
        for _ in range(400):
            if cool_am_pool.outcome(state) is not None:
                break
            seat = state.turn_seat
            offers = view(state, seat).get("can_take") if state.phase == OCCUPY else None
            for offer in offers or []:
                seen.add(offer["how"])
                number = offer["lounger"]
                after, _ = apply(state, m.Occupy(seat, number), FairRandom(bytes(32)))
                if offer["how"] in (OWN, FIVE_POINT):
                    assert offer["other"] is None
                else:
                    assert offer["other"] not in (None, seat)
                assert after.chips[seat] - state.chips[seat] == offer["chips"]
                if offer["how"] != FOREIGN:
                    assert offer["chips"] == 0
                towel, bather = after.towels[number], after.bathers[number]
                worth = state.loungers[number].row if towel == bather == seat else 1
                assert bather == seat and worth == offer["points"]
            state, _ = apply(state, cool_am_pool.random_action(state, rnd), rng)
    assert {OWN, FOREIGN} <= seen, seen
