"""The views of Daddy Cool: everything is public; the seat whose turn it is gets its actions, as
JSON that applies unchanged, and the odds of its choice."""

from __future__ import annotations

import json

from daddy_table import KAREN, MARY, TOM, roll, stop, table
from gameplay import assert_view_actions_apply

from companion.games.daddy_cool import GAME as daddy_cool
from companion.games.daddy_cool import messages as m
from companion.games.daddy_cool.engine import apply
from companion.games.daddy_cool.state import OVER
from companion.games.daddy_cool.views import view
from companion.games.fair import FairRandom
from companion.games.messages import REFEREE, from_json
from companion.games.selfplay import play_one


def test_legal_actions_in_a_view_round_trip_through_json_and_apply_unchanged(
    rng: FairRandom,
) -> None:
    state, _ = roll(table(), "F-F-F-")
    for viewer in (KAREN, REFEREE):
        shown = view(state, viewer)["legal_actions"]
        assert {a["type"] for a in shown} == {"daddy-roll", "daddy-stop"}
        for raw in shown:
            action = from_json(json.loads(json.dumps(raw)), m.ACTIONS)
            assert action.by == viewer
            apply(state, action, rng)


def test_over_whole_games_every_listed_action_applies_from_its_json() -> None:
    played = play_one("daddy-cool", seed=4, number=0)
    running = [s for s in played.states if s.phase != OVER]
    tried = sum(assert_view_actions_apply(daddy_cool, s, s.turn_seat) for s in running)
    assert tried > len(running)  # some choices offered both rolling on and stopping


def test_the_public_view_shows_the_path_daddy_cool_the_cubs_and_the_dice() -> None:
    state, _ = roll(table(cubs={TOM: 2}), "F-F-F-")
    seen = view(state, "public")
    assert seen["viewer"] == "public" and "legal_actions" not in seen
    assert seen["path_notation"] == ". . . . . C . . . . . C . . . T"
    assert [f["kind"] for f in seen["path"]][5:7] == ["cracked", "plain"]
    assert seen["path"][-1] == {"position": 16, "floe": 15, "kind": "tub"}
    assert seen["box"] == []
    assert seen["daddy_cool"] == 3
    assert [(s["name"], s["position"], s["to_tub"]) for s in seen["seats"]] == [
        ("Karen", 0, 16),
        ("Tom", 2, 14),
        ("Mary", 0, 16),
    ]
    assert [d["showing"] for d in seen["dice"]] == ["floe", "blank"] * 3
    assert [d["aside"] for d in seen["dice"]] == [True, False] * 3
    assert seen["dice"][0]["faces"] == ["floe"] * 3 + ["blank"] * 3
    assert (seen["turn_seat"], seen["phase"], seen["gain"]) == (KAREN, "choose", 3)
    assert seen["must_roll"] == [] and seen["lengthen_path"] is True
    json.dumps(seen)


def test_a_forced_roll_is_shown_with_its_reasons() -> None:
    state, _ = roll(table(), "FFFFFF")
    assert view(state, MARY)["must_roll"] == ["cracked-floe", "all-dice-aside"]
    assert view(table(), MARY)["must_roll"] == ["turn-start"]


def test_the_box_is_shown_once_the_path_gets_longer() -> None:
    state, _ = roll(table(turn=TOM, cubs={KAREN: 9, TOM: 5, MARY: 8}), "FF----")
    state, _ = stop(state)
    seen = view(state, "public")
    assert seen["box"] == [{"floe": 0, "kind": "plain"}]
    assert seen["path_notation"] == ". . . . . C . . . C . . . . T"
    assert [s["position"] for s in seen["seats"]] == [3, 1, 2]


def test_other_seats_see_everything_but_no_actions_and_no_odds() -> None:
    state, _ = roll(table(), "F-F-F-")
    toms = view(state, TOM)
    assert toms["viewer"] == TOM and toms["legal_actions"] == [] and toms["odds"] is None
    public = view(state, "public")
    assert public["odds"] is not None
    assert {k: v for k, v in toms.items() if k not in ("viewer", "legal_actions", "odds")} == {
        k: v for k, v in public.items() if k not in ("viewer", "odds")
    }


def test_a_finished_game_shows_the_winner_and_no_odds() -> None:
    state, _ = roll(table(cubs={KAREN: 15}), "F-----")
    for viewer in (KAREN, REFEREE):
        seen = view(state, viewer)
        assert seen["winner"] == KAREN and seen["phase"] == "over"
        assert seen["legal_actions"] == [] and seen["odds"] is None
        assert seen["gain"] is None
