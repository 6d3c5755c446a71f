"""The cue child as the table waits for it: a slow start is waited for, not given up."""

from __future__ import annotations

import threading

import pytest
from waiting import wait_until

from companion.config import default_config
from companion.table import cue_player
from companion.table.clock import TableClock
from companion.table.count import CountKeeper
from companion.table.cue_player import CuePlayer, cue_settings
from companion.table.happenings import Happenings


def test_a_cue_player_slower_than_the_start_wait_still_brings_the_cues(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under emulation the child took 4.6 s against a 5 s wait and the table said "cues: off"
    for good. Here the wait is nothing, so every start is too slow: the table says the cues are
    starting, and has them as soon as the child answers."""
    monkeypatch.setattr(cue_player, "START_S", 0.0)
    clock = TableClock()
    lock = threading.RLock()
    keeper = CountKeeper(clock, lock, lambda: None, lambda count: True)
    settings = cue_settings(default_config(), simulate=True)
    player = CuePlayer(settings, clock, lock, keeper, Happenings())
    try:
        player.start()
        with lock:
            assert player.ok or player.note.startswith("cues: starting"), player.note
        wait_until(lambda: player.ok, 60, what=lambda: f"the cues started: {player.note}")
        assert player.ok and player.note.startswith("cues: buzzer, LEDs and buttons on mock pins")
    finally:
        player.close()
