"""The referee page says where the table's broker stands: unreachable since when, then
publishing once it comes; in English and German. A real ``companion run`` with ``[mqtt]``."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from brokered import needs_mosquitto
from browsing import needs_chromium, shot

from bench.broker import Broker, start_broker
from bench.daemon import free_port, start

pytestmark = [needs_chromium, needs_mosquitto]
SAYS = {
    "en-GB": ("MQTT broker 127.0.0.1:{port} unreachable since", "Publishing to the MQTT broker"),
    "de-DE": ("MQTT-Broker 127.0.0.1:{port} seit", "Sendet an den MQTT-Broker"),
}


@pytest.mark.parametrize("locale", sorted(SAYS))
def test_the_referee_page_says_the_broker_is_unreachable_then_that_it_publishes(
    tmp_path: Path, phone: Any, locale: str
) -> None:
    port = free_port()
    config = tmp_path / "table.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\ntable = "t9"\n')
    daemon = start(tmp_path / "state", "--config", str(config))
    late: Broker | None = None
    try:
        unreachable, publishing = SAYS[locale]
        page = phone(f"{daemon.url}/referee#{daemon.referee}", locale=locale)
        notice = page.locator("#broker")
        notice.filter(has_text=unreachable.format(port=port)).wait_for(timeout=30000)
        since = daemon.call("GET", "/api/status").body["broker"]["since"]
        shown = datetime.datetime.fromtimestamp(since).strftime("%H:%M")
        assert shown in notice.inner_text()
        assert "fault" in (notice.get_attribute("class") or "")
        shot(page, f"referee-broker-{locale[:2]}")
        late = start_broker(tmp_path / "late", port=port)
        notice.filter(has_text=publishing).wait_for(timeout=60000)
        assert "fault" not in (notice.get_attribute("class") or "")
    finally:
        daemon.stop()
        if late is not None:
            late.stop()
