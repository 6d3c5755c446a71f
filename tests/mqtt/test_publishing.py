"""A table with ``[mqtt]`` publishing into a real Mosquitto: every topic, every payload as the
AsyncAPI document says, Home Assistant's discovery, and nothing secret through whole games."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from typing import Any

import pytest
from brokered import ADDRESS, Publishing, a_pace_a_look, needs_mosquitto
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from seating import play, seated
from secrecy import assert_public, cards_in
from tabletime import HeldClock
from waiting import wait_until

from bench.broker import Broker, Heard, Listener
from companion.games import GAMES
from companion.games.messages import REFEREE
from companion.melt import DEFAULT_CONFIG
from companion.mqtt.sending import PACE_S
from companion.web.asyncapi import document

pytestmark = needs_mosquitto

URI = "urn:companion:asyncapi"
REGISTRY = Registry().with_resource(URI, Resource(contents=document(), specification=DRAFT202012))


def channel_of(topic: str) -> tuple[str, dict[str, Any]]:
    """The document's channel a topic is on (its parameters matched as one topic level)."""
    for name, channel in document()["channels"].items():
        pattern = re.sub(r"\\\{[a-z]+\\\}", "[^/]+", re.escape(name))
        if re.fullmatch(pattern, topic):
            return name, channel
    raise AssertionError(f"{topic} is on no channel of the document")


def retained(topic: str) -> bool:
    return bool(channel_of(topic)[1]["subscribe"]["bindings"]["mqtt"]["retain"])


def check_against_document(heard: Heard) -> None:
    """The message's payload is what its channel says."""
    name, channel = channel_of(heard.topic)
    operation = channel["subscribe"]
    pointer = f"/channels/{name.replace('/', '~1')}/subscribe/message/payload"
    if operation["message"].get("contentType") == "text/plain":
        payload: Any = heard.payload.decode()
    else:
        payload = json.loads(heard.payload)
    validator = Draft202012Validator({"$ref": f"{URI}#{pointer}"}, registry=REGISTRY)
    errors = [e.message for e in validator.iter_errors(payload)]
    assert not errors, (heard.topic, errors[:3])


def table_topics(listener: Listener) -> list[Heard]:
    return listener.messages("companion/")


def test_a_table_publishes_every_topic_and_every_payload_is_as_documented(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    table, _ = publishing(broker, monotonic=a_pace_a_look())
    listener.wait_for("companion/t1/availability", payload=b"online")
    started = table.start_game(REFEREE, {"game": "cool-runnings"})
    tokens = seated(table, started)
    turn = table.status()["game"]["turn_seat"]
    first = listener.wait_for("companion/t1/status", turn=f"Seat {turn}", game="Cool Runnings")
    rnd = random.Random(4)
    play(table, tokens, rnd, limit=30, prefer=("take-hit", "play-attack"), avoid=("melted",))
    play(table, tokens, rnd)  # and on to the end
    listener.wait_for("companion/t1/seat/4")
    winner = table.status()["game"]["outcome"]["winner"]
    listener.wait_for("companion/t1/status", winner=f"Seat {winner}")
    kinds = {"game-started", "turn", "attack", "count-started", "count-finished", "weigh-in"}
    kinds |= {"game-over"}

    def heard_kinds() -> set[str]:
        events = listener.messages("companion/t1/event")
        return {json.loads(h.payload)["kind"] for h in events}

    wait_until(lambda: heard_kinds() >= kinds, what=lambda: f"{kinds}; heard {heard_kinds()}")
    heard = table_topics(listener)
    for message in heard:
        check_against_document(message)
    topics = {h.topic for h in heard}
    assert {f"companion/t1/seat/{n}" for n in (1, 2, 3, 4)} <= topics
    status = json.loads([h for h in heard if h.topic == "companion/t1/status"][-1].payload)
    assert status["address"] == ADDRESS and status["game"] == "Cool Runnings"
    assert json.loads(first.payload)["status"]["game"]["turn_seat"] == turn
    assert status["status"]["game"]["outcome"]["winner"] == winner
    assert status["turn"] is None and status["winner"] == f"Seat {winner}"
    # a client that comes later gets the retained topics, and those only
    late = Listener(broker, "companion/#").start()
    wanted = {t for t in topics if retained(t)}

    def kept() -> set[str]:
        return {h.topic for h in late.messages() if h.retain}

    try:
        wait_until(lambda: kept() >= wanted, what=lambda: f"{wanted}, retained; heard {kept()}")
    finally:
        late.stop()
    assert kept() == wanted
    assert {"companion/t1/availability", "companion/t1/status"} <= kept()


def test_a_cube_the_table_calls_gone_is_an_event_and_its_seat_shows_it(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    table, _ = publishing(broker)
    seated(table, table.start_game(REFEREE, {"game": "cool-runnings"}))
    melted = json.loads(listener.wait_for("companion/t1/event", 120, kind="melted").payload)
    seat = listener.wait_for(f"companion/t1/seat/{melted['seat']}", 10, melted=True)
    reading = json.loads(seat.payload)
    assert reading["eta_s"] == 0
    # the table calls a cube gone when its median is; the grams are its mean, which the spread
    # lifts (0.79 g once, on a loaded machine): a gone cube lies within two sigma of them
    assert reading["grams"] - 2 * reading["sigma_g"] <= DEFAULT_CONFIG.gone_g, reading
    check_against_document(seat)


def moment(status: dict[str, Any]) -> Any:
    """A status's turn and whether its game is over: a new one goes out at once."""
    game = status["status"]["game"]
    return game and (game["turn_seat"], game["over"])


def test_the_status_goes_out_at_most_once_a_pace_but_at_once_on_a_new_turn(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    pace = HeldClock()  # the publisher's clock stands still: no pace passes while the game goes
    table, _ = publishing(broker, monotonic=pace.now)
    started = table.start_game(REFEREE, {"game": "daddy-cool"})
    play(table, seated(table, started), random.Random(4), limit=40)  # fresh dice: 4 turns or more

    def statuses() -> list[dict[str, Any]]:
        return [json.loads(h.payload) for h in listener.messages("companion/t1/status")]

    def turns() -> list[dict[str, Any]]:
        events = [json.loads(h.payload) for h in listener.messages("companion/t1/event")]
        return [e for e in events if e["kind"] == "turn"]

    def caught_up() -> bool:  # a count that ends may pass the turn on meanwhile
        heard, turned, now = statuses(), turns(), moment({"status": table.status()})
        return bool(heard and turned) and moment(heard[-1]) == now and turned[-1]["seat"] == now[0]

    wait_until(caught_up, what="the status and the event of the turn now")
    heard, turned = statuses(), turns()
    assert len(turned) >= 4
    again = [(a, b) for a, b in itertools.pairwise(heard) if moment(a) == moment(b)]
    assert not again, "two statuses of one turn within a pace"
    shown_turns = [s["status"]["game"]["turn_seat"] for s in heard if s["status"]["game"]]
    for turn in turned:  # every turn's status went out, though no pace passed
        assert turn["seat"] in shown_turns

    def a_pace_on() -> bool:
        """What the pace held back went out once it passed: a status of a turn already shown."""
        pace.advance(PACE_S)
        later = statuses()[len(heard) - 1 :]
        return any(moment(a) == moment(b) for a, b in itertools.pairwise(later))

    wait_until(a_pace_on, every_s=0.25, what="a status held back by its pace")


def test_home_assistant_discovery_names_one_device_and_comes_again_when_it_restarts(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    publishing(broker)
    listener.wait_for("companion/t1/availability", payload=b"online")
    time.sleep(0.5)
    late = Listener(broker, "homeassistant/#").start()  # Home Assistant, started later
    try:
        time.sleep(0.5)
        configs = {h.topic: json.loads(h.payload) for h in late.messages() if h.retain}
    finally:
        late.stop()
    for message in listener.messages("homeassistant/"):
        check_against_document(message)
    assert set(configs) == {h.topic for h in listener.messages("homeassistant/")}
    kinds = {topic.split("/")[1] for topic in configs}
    assert kinds == {"sensor", "binary_sensor", "device_automation"}
    devices = {json.dumps(c["device"], sort_keys=True) for c in configs.values()}
    assert len(devices) == 1 and json.loads(devices.pop())["configuration_url"] == ADDRESS
    entities = [c for c in configs.values() if "unique_id" in c]
    assert len({c["unique_id"] for c in entities}) == len(entities) == 3 + 4 * 5
    ice = configs["homeassistant/sensor/companion_t1/seat2_ice/config"]
    assert (ice["unit_of_measurement"], ice["device_class"]) == ("g", "weight")
    countdown = configs["homeassistant/sensor/companion_t1/seat2_countdown/config"]
    assert countdown["device_class"] == "duration"
    triggers = [c for c in configs.values() if c.get("automation_type") == "trigger"]
    assert {(c["subtype"], c["payload"]) for c in triggers} >= {("button_1", "short")}
    published = {h.topic for h in table_topics(listener)}
    for c in entities:  # every entity follows a topic the table publishes
        assert c["state_topic"] in published, c["state_topic"]
    before = len(listener.messages("homeassistant/"))
    listener.publish("homeassistant/status", b"online")
    wait_until(
        lambda: len(listener.messages("homeassistant/")) >= before + len(configs),
        what="the discovery sent again",
    )


def test_a_seat_button_is_a_device_trigger(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    table, _ = publishing(broker)
    listener.wait_for("companion/t1/availability", payload=b"online")
    table.happenings.note("button", 1.8e9, seat=3, press="long")
    assert listener.wait_for("companion/t1/seat/3/button").payload == b"long"
    event = json.loads(listener.wait_for("companion/t1/event").payload)
    assert (event["kind"], event["seat"], event["press"]) == ("button", 3, "long")


def test_the_table_takes_no_action_over_mqtt(
    broker: Broker, listener: Listener, publishing: Publishing
) -> None:
    table, _ = publishing(broker)
    table.start_game(REFEREE, {"game": "ice-trays"})
    listener.wait_for("companion/t1/event")
    changes = table.status()["game"]["changes"]
    for topic in ("companion/t1/action", "companion/t1/actions", "companion/t1/set", "#"):
        listener.publish(topic.replace("#", "companion/t1/cmd"), b'{"type": "roll", "seat": 1}')
    time.sleep(1.0)
    assert table.status()["game"]["changes"] == changes


@pytest.mark.parametrize("game", sorted(GAMES))
def test_nothing_secret_leaves_the_table_through_a_whole_game(
    broker: Broker, listener: Listener, publishing: Publishing, game: str
) -> None:
    table, _ = publishing(broker, monotonic=a_pace_a_look())  # every change goes out
    started = table.start_game(REFEREE, {"game": game})
    tokens = seated(table, started)
    claims = list(started["seat_claims"].values())
    hands = {seat: table.view(int(seat)).get("hand") for seat in tokens}
    play(table, tokens, random.Random(f"mqtt:{game}"))
    assert table.status()["game"]["over"]
    end = moment({"status": table.status()})
    listener.wait_for("companion/t1/status")  # the first; and then the game's end:
    wait_until(
        lambda: moment(json.loads(listener.messages("companion/t1/status")[-1].payload)) == end,
        what="the status of the game's end",
    )
    seed = [v for v in table.export(None)["seed"].values() if isinstance(v, str) and len(v) >= 16]
    assert seed, "the seed's secret parts"
    secrets = [table.referee_token, *tokens.values(), *claims, *seed]
    heard = listener.messages()
    assert len(heard) > 20
    for message in heard:
        text = message.payload.decode()
        assert not [s for s in secrets if s in text], f"a secret on {message.topic}"
        if text.startswith("{"):
            assert_public(json.loads(text), secrets)
    for hand in hands.values():
        if hand:  # the hand dealt at the start, as a list, shown nowhere
            assert json.dumps(hand)[1:-1] not in "".join(h.payload.decode() for h in heard)
            assert cards_in(hand)
