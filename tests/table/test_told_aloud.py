"""The status tells which of the last things that happened are worth saying aloud, as the game's
narrator marked them: the table page speaks those, and only those."""

from __future__ import annotations

from companion.games.messages import REFEREE
from companion.table.service import TableService


def test_an_attack_played_is_told_aloud_and_the_set_up_is_not(table: TableService) -> None:
    table.start_game(REFEREE, {"game": "cool-runnings", "seats": [1, 2], "options": {}})
    told = table.status()["game"]["told"]
    assert told and not any(line["aloud"] for line in told)
    attack = next(a for a in table.view(1)["legal_actions"] if a["type"] == "play-attack")
    table.act(1, attack)
    game = table.status()["game"]
    aloud = [line for line in game["told"] if line["aloud"]]
    assert [line["change"] for line in aloud] == [game["changes"]]
    assert " plays " in aloud[0]["en"] and " spielt " in aloud[0]["de"]
    table.act(REFEREE, table.view(REFEREE)["take_back"]["action"])
    game = table.status()["game"]
    last = [line for line in game["told"] if line["change"] == game["changes"]]
    assert last and not any(line["aloud"] for line in last), "a take-back is not called out"
