"""Home Assistant's MQTT discovery of a table: one device, its sensors and its seats' buttons.

Home Assistant reads a retained config under ``<prefix>/<component>/companion_<table>/<object>/
config`` for each entity and then follows the table's own topics (:mod:`.payloads`): per seat
the ice (g), the countdown (a duration), the air (C), probe and pad problems; per table the
game, whose turn it is, and whether a count runs; each seat's button as a device trigger (a
short and a long press). Every entity goes unavailable with the table's ``availability``.

>>> configs = discovery("t3", "Table 3", (1, 2), "http://10.0.0.5:8000/", sensors=True)
>>> sorted({topic.split("/")[1] for topic, _ in configs})
['binary_sensor', 'device_automation', 'sensor']
>>> dict(configs)["homeassistant/sensor/companion_t3/seat1_ice/config"]["unit_of_measurement"]
'g'
"""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.mqtt.payloads import OFFLINE, ONLINE, root

Config = tuple[str, dict[str, Any]]
"""A discovery topic and its payload."""
PRESSES = {"short": "button_short_press", "long": "button_long_press"}
"""A seat button's presses (as the ``button`` event names them) and Home Assistant's types."""


def discovery(
    table: str,
    name: str,
    seats: tuple[int, ...],
    address: str,
    *,
    sensors: bool,
    prefix: str = "homeassistant",
) -> list[Config]:
    """Every discovery config of a table with these ``seats`` (``sensors``: it has probes and
    pads, so their problems are entities too)."""
    base = root(table)
    node = f"companion_{table}"
    device = {
        "identifiers": [node],
        "name": name,
        "manufacturer": "companion",
        "model": "ice-cube table referee",
        "sw_version": __version__,
        "configuration_url": address,
    }
    shared = {
        "availability_topic": f"{base}availability",
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "device": device,
    }
    configs: list[Config] = []

    def entity(component: str, object_id: str, title: str, **fields: Any) -> None:
        payload = {"name": title, "unique_id": f"{node}_{object_id}", **shared, **fields}
        configs.append((f"{prefix}/{component}/{node}/{object_id}/config", payload))

    status = f"{base}status"
    entity("sensor", "game", "Game", state_topic=status, value_template=_or_none("game"))
    entity("sensor", "turn", "Turn", state_topic=status, value_template=_or_none("turn"))
    entity(
        "binary_sensor",
        "count",
        "Ten-count",
        state_topic=status,
        value_template="{{ 'ON' if value_json.status.count else 'OFF' }}",
        icon="mdi:timer-sand",
    )
    for seat in seats:
        topic = f"{base}seat/{seat}"
        entity(
            "sensor",
            f"seat{seat}_ice",
            f"Seat {seat} ice",
            state_topic=topic,
            value_template=_number("grams"),
            unit_of_measurement="g",
            device_class="weight",
            state_class="measurement",
            suggested_display_precision=1,
        )
        entity(
            "sensor",
            f"seat{seat}_countdown",
            f"Seat {seat} melted in",
            state_topic=topic,
            value_template=_number("eta_s"),
            unit_of_measurement="s",
            device_class="duration",
        )
        entity(
            "sensor",
            f"seat{seat}_air",
            f"Seat {seat} air",
            state_topic=topic,
            value_template=_number("air_c"),
            unit_of_measurement="°C",
            device_class="temperature",
            state_class="measurement",
        )
        if sensors:
            for part, title in (("thermometer", "probe"), ("scale", "pad")):
                entity(
                    "binary_sensor",
                    f"seat{seat}_{title}",
                    f"Seat {seat} {title} problem",
                    state_topic=topic,
                    value_template=f"{{{{ 'OFF' if value_json.{part} == 'ok' else 'ON' }}}}",
                    device_class="problem",
                    entity_category="diagnostic",
                )
        for press, kind in PRESSES.items():
            configs.append(
                (
                    f"{prefix}/device_automation/{node}/seat{seat}_{press}/config",
                    {
                        "automation_type": "trigger",
                        "topic": f"{base}seat/{seat}/button",
                        "payload": press,
                        "type": kind,
                        "subtype": f"button_{seat}",
                        "device": device,
                    },
                )
            )
    return configs


def _or_none(key: str) -> str:
    return f"{{{{ value_json.{key} or 'none' }}}}"


def _number(key: str) -> str:
    """A number of the seat's payload; a null renders ``None``, which Home Assistant's MQTT
    sensor takes as unknown (no cube, no probe)."""
    return f"{{{{ value_json.{key} }}}}"
