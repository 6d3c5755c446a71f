"""Seat 1's held button shows the referee's page on the table page for 30 s, and then not."""

from __future__ import annotations

import time

import pytest
from flask.testing import FlaskClient

from companion.cues.process import Held
from companion.table import cue_player
from companion.table.service import TableService


def _published(table: TableService) -> dict:
    with table._table:
        table._pass()
    return table.status()


def test_a_held_seat_1_button_shows_the_referee_s_code_for_a_while(
    table: TableService, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Being at the table is the authority, as a router's WPS button: a phone scans the code
    off the table page instead of someone typing the token (the Pi has no screen)."""
    monkeypatch.setattr(cue_player, "REFEREE_CODE_S", 0.5)
    assert client.get("/api/referee-code").status_code == 404
    assert _published(table)["referee_code"] is False
    table._cues.heard(Held(2))  # another seat's hold is nobody's authority
    assert client.get("/api/referee-code").status_code == 404
    table._cues.heard(Held(1))  # as the cue child sends it, from the mock pins' hold
    assert _published(table)["referee_code"] is True
    shown = client.get("/api/referee-code").get_json()
    assert shown["link"].endswith(f"/referee#{table.referee_token}")
    assert shown["qr_svg"].startswith("<svg")
    time.sleep(0.6)
    assert _published(table)["referee_code"] is False
    gone = client.get("/api/referee-code")
    assert gone.status_code == 404 and gone.get_json()["error"]["code"] == "no-referee-code"
