"""The table config: defaults, a full example, and a clear refusal of every kind of mistake."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.config import (
    COLOURS,
    CONVERSION_S,
    HEADER,
    FilterSpec,
    Pins,
    default_config,
    load_config,
    parse_config,
    pin_uses,
)
from companion.errors import DataFileError

EXAMPLE = """\
# A four-seat table wired straight to the Pi, every key given.
[sensors]
thermometers = "w1"
w1_root = "/sys/bus/w1/devices"
scales = "hx711"
resolution = 10
sweep_s = 1.5
hx711_gain = 64
hx711_rate_hz = 80
pod_port = ""

[pins]
chip = 0
one_wire = 4
hx711_clock = 27
hx711_data = [22, 23, 24, 14]
buzzer = 18
buzzer_kind = "tonal"
seat_leds = [9, 25, 11, 8]
led_bar = [7, 5, 6, 12, 13, 19, 16, 26, 20, 21]
seat_buttons = [2, 3, 15, 10]

[cues]
pace_s = 1.0

[filters]
scale = [
  {median = {window_size = 7, send_every = 1}},
  {reject_outliers = {window_size = 10, max_deviations = 3}},
  {sliding_window_moving_average = {window_size = 10, send_every = 1}},
  {calibrate_linear = [[0, 0], [1000, 250.5]]},
]
thermometer = [{exponential_moving_average = {alpha = 0.3}}, {offset = -0.2}]

[[seat]]
name = "Karen"
colour = "blue"
thermometer = "28-0316a2794aff"

[[seat]]
name = "Tom"
colour = "yellow"
thermometer = "28-0316a27b11ff"

[[seat]]
name = "Mary"
colour = "green"

[[seat]]
name = "Jo"
"""


def refusal(text: str) -> DataFileError:
    with pytest.raises(DataFileError) as info:
        parse_config("table.toml", text)
    return info.value


def line_of(text: str, fragment: str) -> int:
    """The number of the first line of ``text`` holding ``fragment``."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


def test_defaults_make_a_four_seat_table_on_the_default_pins() -> None:
    cfg = default_config()
    assert [(s.seat, s.name, s.colour) for s in cfg.seats] == [
        (i, f"Seat {i}", COLOURS[i - 1]) for i in range(1, 5)
    ]
    assert cfg.path is None
    assert cfg.sensors.thermometers == "w1" and cfg.sensors.scales == "hx711"
    assert cfg.sensors.w1_root == Path("/sys/bus/w1/devices")
    assert cfg.sensors.resolution == 11 and cfg.sensors.sweep_s == 2.0
    assert cfg.sensors.zero_tracking is True
    assert cfg.pins == Pins()
    assert cfg.pins.one_wire == 4 and cfg.pins.buzzer in (12, 13, 18, 19)
    assert cfg.cues.pace_s == 0.8
    assert [f.name for f in cfg.filters["scale"]] == ["median", "sliding_window_moving_average"]
    assert [f.name for f in cfg.filters["thermometer"]] == ["median"]
    assert parse_config("empty.toml", "") == default_config().__class__(
        "empty.toml", cfg.sensors, cfg.pins, cfg.cues, cfg.filters, cfg.seats
    )


def test_the_default_map_uses_25_distinct_header_gpios_and_leaves_one_free() -> None:
    cfg = default_config()
    pins = [u.bcm for u in pin_uses(cfg.sensors, cfg.pins)]
    assert len(pins) == len(set(pins)) == 25
    assert set(pins) <= set(range(2, 28))


def test_header_has_40_pins_and_the_26_gpios_of_bcm_2_to_27_plus_the_id_pins() -> None:
    assert [p.physical for p in HEADER] == list(range(1, 41))
    assert sorted(p.bcm for p in HEADER if p.bcm is not None) == list(range(28))
    assert {p.label for p in HEADER if p.bcm is None} == {"3V3", "5V", "GND"}
    assert HEADER[11].label == "GPIO18 (PWM0)" and HEADER[11].bcm == 18


def test_the_full_example_parses() -> None:
    cfg = parse_config("table.toml", EXAMPLE)
    assert cfg.path == "table.toml"
    assert [s.name for s in cfg.seats] == ["Karen", "Tom", "Mary", "Jo"]
    assert cfg.seats[3].colour == "pink"  # the first colour no seat chose
    assert cfg.seats[0].thermometer == "28-0316a2794aff" and cfg.seats[2].thermometer is None
    assert cfg.sensors.resolution == 10 and cfg.sensors.sweep_s == 1.5
    assert (cfg.sensors.hx711_gain, cfg.sensors.hx711_rate_hz) == (64, 80)
    assert cfg.pins.hx711_data == (22, 23, 24, 14)
    assert cfg.pins.seat_buttons == (2, 3, 15, 10)
    assert cfg.cues.pace_s == 1.0
    assert cfg.filters["scale"][3] == FilterSpec(
        "calibrate_linear", {"datapoints": ((0.0, 0.0), (1000.0, 250.5))}
    )
    assert cfg.filters["thermometer"][1] == FilterSpec("offset", {"value": -0.2})


def test_a_file_on_disk_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[cues]\npace_s = 2\n[[seat]]\nname = "A"\n[[seat]]\n', encoding="utf-8")
    cfg = load_config(path)
    assert cfg.path == str(path) and cfg.cues.pace_s == 2.0 and len(cfg.seats) == 2
    assert cfg.pins.seat_leds == Pins().seat_leds[:2]


def test_pins_a_source_does_not_need_are_free_for_other_parts() -> None:
    cfg = parse_config(
        "t.toml",
        '[sensors]\nthermometers = "pod"\nscales = "sim"\n[pins]\nseat_buttons = [4, 27, 22, 23]\n',
    )
    assert cfg.pins.seat_buttons == (4, 27, 22, 23)
    assert {u.part for u in pin_uses(cfg.sensors, cfg.pins)}.isdisjoint({"one-wire", "hx711"})


def test_six_seats_without_hx711_fit_the_header() -> None:
    seats = "".join(f'[[seat]]\nname = "P{i}"\n' for i in range(6))
    text = (
        '[sensors]\nscales = "pod"\n[pins]\nseat_leds = [9, 25, 11, 8, 22, 23]\n'
        f"seat_buttons = [2, 3, 15, 17, 24, 10]\n{seats}"
    )
    cfg = parse_config("t.toml", text)
    assert [s.colour for s in cfg.seats] == list(COLOURS)


# Each bad input: the line it is reported at (a fragment of that line) and words of the sentence.
REFUSALS = [
    ('[sensors]\nthermometrs = "w1"\n', "thermometrs", "did you mean 'thermometers'?"),
    ("[sensor]\nscales = 1\n", "[sensor]", "unknown key 'sensor'"),
    ('[[seat]]\nname = "A"\ncolor = "blue"\n[[seat]]\n', "color", "did you mean 'colour'?"),
    ("[pins]\nledbar = [1]\n", "ledbar", "did you mean 'led_bar'?"),
    ("[cues]\nvolume = 3\n", "volume", "unknown key 'volume' in [cues]: the keys are pace_s"),
    ("[sensors]\nresolution = 13\n", "resolution", "a whole number from 9 to 12, not 13"),
    ('[sensors]\nresolution = "11"\n', "resolution", "a whole number from 9 to 12"),
    ("[sensors]\nsweep_s = 0.1\n", "sweep_s", "shorter than one conversion at 11 bits"),
    ("[sensors]\nsweep_s = nan\n", "sweep_s", "must be a number from 0 to 60"),
    ('[sensors]\nthermometers = "w2"\n', "thermometers", "one of 'w1', 'pod', 'sim', 'none'"),
    ('[sensors]\nscales = "hx71"\n', "scales", "did you mean 'hx711'?"),
    ("[sensors]\nhx711_gain = 16\n", "hx711_gain", "one of 128, 64, 32"),
    ("[sensors]\nhx711_rate_hz = 20\n", "hx711_rate_hz", "one of 10, 80"),
    ("[sensors]\nw1_root = 5\n", "w1_root", "sensors.w1_root must be text in quotes"),
    ("[cues]\npace_s = 0.1\n", "pace_s", "from 0.2 to 5"),
    ('[network]\nhotspot = "yes"\n', "hotspot", "network.hotspot must be true or false, not 'yes'"),
    ("[sensors]\nzero_tracking = 0\n", "zero_tracking", "sensors.zero_tracking must be true or"),
    ("[pins]\nbuzzer = true\n", "buzzer", "pins.buzzer must be a whole number, not True"),
    ('[pins]\nbuzzer_kind = "loud"\n', "buzzer_kind", "one of 'tonal', 'active'"),
    ("[pins]\nbuzzer = 22\n", "buzzer", "GPIO22 is used twice: for the seat 1 HX711 data"),
    (
        "[pins]\nseat_leds = [9, 25, 9, 8]\n",
        "seat_leds",
        "seat 1 LED (pins.seat_leds) and the seat 3",
    ),
    ("[pins]\nseat_buttons = [2, 3, 4, 17]\n", "seat_buttons", "the 1-Wire bus pin"),
    ("[pins]\none_wire = 18\n", "one_wire", "the 1-Wire bus pin (pins.one_wire)"),
    ("[pins]\nbuzzer = 0\n", "buzzer", "HAT ID EEPROM pin, which must stay free"),
    ("[pins]\nbuzzer = 1\n", "buzzer", "HAT ID EEPROM pin"),
    ("[pins]\nbuzzer = 28\n", "buzzer", "not a GPIO of the 40-pin header: use BCM 2 to 27"),
    ("[pins]\nbuzzer = -1\n", "buzzer", "pins.buzzer = -1 is not a GPIO"),
    ("[pins]\nhx711_data = [22, 23, 24, 40]\n", "hx711_data", "entry 4 = 40 is not a GPIO"),
    ("[pins]\nled_bar = [7, 5, 6]\n", "led_bar", "the LED bar needs 10 pins, the list has 3"),
    ("[pins]\nhx711_data = 22\n", "hx711_data", "must be a list of BCM pin numbers"),
    ("[pins]\nchip = -1\n", "chip", "a whole number from 0 to 63"),
    ('[[seat]]\n[[seat]]\ncolour = "red"\n', "red", "one of 'blue', 'yellow'"),
    (
        "[[seat]]\ncolour = 'pink'\n[[seat]]\ncolour = \"pink\"\n",
        '"pink"',
        "each seat needs its own",
    ),
    ('[[seat]]\nname = ""\n[[seat]]\n', "name", "the name must be 1 to 40 printable characters"),
    (
        '[[seat]]\n[[seat]]\nname = "Tom\\u202Egnp"\n',
        "Tom",
        "seat 2: the name holds U+202E, a bidirectional control that changes how the text"
        " around it reads: write the name without it",
    ),
    ('[[seat]]\nname = "A\\u0007"\n[[seat]]\n', "name", "U+0007, a control character"),
    ('[[seat]]\nthermometer = "28-0316A2794AFF"\n[[seat]]\n', "28-", "not a 1-Wire probe id"),
    ('[[seat]]\nthermometer = "29-0316a2794aff"\n[[seat]]\n', "29-", "like '28-0316a2794aff'"),
    ("[[seat]]\nname = 'A'\n", "[[seat]]", "2 to 6 [[seat]] entries, not 1"),
    ("seat = [1, 2]\n", "seat", "each seat is a [[seat]] table"),
    ("[filters]\nscale = [{mediam = {}}]\n", "mediam", "unknown filter 'mediam' in filters.scale"),
    ("[filters]\nscale = [{mediam = {}}]\n", "mediam", "did you mean 'median'?"),
    ("[filters]\nscales = []\n", "scales", "did you mean 'scale'?"),
    (
        "[filters]\nscale = [\n  {median = {}},\n  {median = {windw_size = 3}},\n]\n",
        "windw_size",
        "unknown parameter 'windw_size' of median: did you mean 'window_size'?",
    ),
    ("[filters]\nscale = [{median = {window_size = 0}}]\n", "median", "window_size must be"),
    ("[filters]\nscale = [{median = 5}]\n", "median", "takes a table of window_size"),
    ("[filters]\nscale = [{offset = {}}]\n", "offset", "the offset filter needs value"),
    ("[filters]\nscale = [5]\n", "scale", "a list of one-key tables"),
    (
        "[filters]\nthermometer = [{exponential_moving_average = {alpha = 0}}]\n",
        "alpha",
        "must be above 0",
    ),
    ("[filters]\nscale = [{calibrate_linear = [[0, 0]]}]\n", "calibrate", "at least two"),
    ("[filters]\nscale = [{clamp = {min_value = 2, max_value = 1}}]\n", "clamp", "min_value"),
    ("[mqtt]\nport = 1883\n", "[mqtt]", "[mqtt] needs the broker's host"),
    ('[mqtt]\nhost = "a b"\n', "host", "mqtt.host must be a host name"),
    ('[mqtt]\nhost = "b"\nport = 0\n', "port", "a whole number from 1 to 65535"),
    ('[mqtt]\nhost = "b"\ntable = "Table 3"\n', "table", 'like "table-3"'),
    ('[mqtt]\nhost = "b"\ntable = "t/3"\n', "table", "a topic level"),
    ('[mqtt]\nhost = "b"\npassword = "x"\n', "[mqtt]", 'add username = "..."'),
    ('[mqtt]\nhost = "b"\nca_file = "no-such.pem"\n', "ca_file", "is not a file"),
    ('[mqtt]\nhost = "b"\npasword = "x"\n', "pasword", "did you mean 'password'?"),
    ('[mqtt]\nhost = "b"\nkeepalive_s = 2\n', "keepalive_s", "from 5 to 600"),
    ('[mqtt]\nhost = "b"\ndiscovery = "yes"\n', "discovery", "must be true or false"),
]


@pytest.mark.parametrize(("text", "fragment", "words"), REFUSALS)
def test_each_mistake_names_the_file_the_line_and_what_to_do(
    text: str, fragment: str, words: str
) -> None:
    error = refusal(text)
    assert error.path == "table.toml"
    assert error.line == line_of(text, fragment), str(error)
    assert words in error.message
    assert str(error).startswith(f"table.toml:{error.line}: ")


def test_an_unknown_key_is_reported_as_the_brief_example_says() -> None:
    text = "# a table\n\n\n\n\n[sensors]\nthermometrs = 'w1'\n"
    assert str(refusal(text)) == (
        "table.toml:7: unknown key 'thermometrs' in [sensors]: did you mean 'thermometers'?"
    )


def test_a_pin_used_twice_names_both_uses() -> None:
    error = refusal("[pins]\nbuzzer = 5\n")
    assert error.message == (
        "GPIO5 is used twice: for the buzzer (pins.buzzer) and the LED bar 2 (pins.led_bar):"
        " give each its own pin"
    )


def test_a_table_too_big_for_the_header_is_refused_with_the_way_out() -> None:
    seats = "[[seat]]\n" * 6
    error = refusal(f"[pins]\nhx711_data = [22, 23, 24, 10]\n{seats}")
    assert error.line == 8  # the sixth seat
    assert error.message.startswith("6 seats need 31 GPIO pins with these sensors, the header")
    assert 'scales = "pod"' in error.message


def test_more_seats_than_pins_says_how_many_are_needed() -> None:
    seats = "[[seat]]\n" * 6
    pods = '[sensors]\nthermometers = "pod"\nscales = "pod"\n'
    error = refusal(f"{pods}[pins]\nseat_leds = [9, 25, 11, 8]\n{seats}")
    assert error.line == 5
    assert error.message.startswith("6 seats need 6 seat_leds pins, the list has 4")
    error = refusal(pods + seats)
    assert error.line == 9  # the sixth seat
    assert "6 seats need 6 seat_leds pins, the default map has 4" in error.message


def test_a_later_seat_is_reported_at_its_own_lines() -> None:
    text = '[[seat]]\nname = "A"\n\n[[seat]]\nname = "B"\n\n[[seat]]\nname = "C"\ncolour = "x"\n'
    assert refusal(text).line == 9
    text = text.replace('colour = "x"', "nam = 1")
    error = refusal(text)
    assert (error.line, error.message) == (
        9,
        "unknown key 'nam' in [[seat]] 3: did you mean 'name'?",
    )


def test_a_key_in_an_inline_table_is_reported_at_the_table_s_line() -> None:
    error = refusal('x = 1\nsensors = {thermometrs = "w1"}\n')
    assert error.line == 1 and "unknown key 'x'" in error.message
    error = refusal('\nsensors = {thermometrs = "w1"}\n')
    assert error.line == 2 and "did you mean 'thermometers'?" in error.message


@pytest.mark.parametrize("resolution", sorted(CONVERSION_S))
def test_a_sweep_as_long_as_one_conversion_is_enough(resolution: int) -> None:
    sweep = CONVERSION_S[resolution]
    cfg = parse_config("t.toml", f"[sensors]\nresolution = {resolution}\nsweep_s = {sweep}\n")
    assert cfg.sensors.sweep_s == sweep


def test_a_tonal_buzzer_may_use_a_pin_without_hardware_pwm() -> None:
    cfg = parse_config("t.toml", "[pins]\nbuzzer = 14\n")
    assert cfg.pins.buzzer == 14 and cfg.pins.buzzer_kind == "tonal"


def test_bad_toml_is_reported_at_the_line_tomllib_names() -> None:
    error = refusal('[sensors]\nscales = "hx711"\nresolution = = 3\n')
    assert error.line == 3 and error.message.startswith("not valid TOML")


def test_an_unreadable_file_is_a_data_file_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot be read"):
        load_config(tmp_path / "absent.toml")
    (tmp_path / "latin1.toml").write_bytes('[[seat]]\nname = "Jürgen"\n'.encode("latin-1"))
    with pytest.raises(DataFileError, match="is not UTF-8 text"):
        load_config(tmp_path / "latin1.toml")


def parses_or_refuses(text: str) -> None:
    """The property: a config either parses or is refused with a DataFileError, nothing else."""
    try:
        parse_config("fuzz.toml", text)
    except DataFileError as exc:
        assert exc.path == "fuzz.toml" and exc.message
        assert exc.line is None or 1 <= exc.line <= text.count("\n") + 1


@given(st.text())
def test_any_text_parses_or_is_refused(text: str) -> None:
    parses_or_refuses(text)


LINES = EXAMPLE.split("\n")
TOKENS = ["0", "1", "28", "-1", "true", '"x"', "[]", "{}", "[1, 2]", "nan", '"blue"', "4", "1e400"]


@st.composite
def mutated_examples(draw: st.DrawFn) -> str:
    """The example with a few lines dropped, duplicated, or with a value or a name changed."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "copy", "value", "key", "chars"]))
        line = lines[i]
        if how == "drop":
            del lines[i]
        elif how == "copy":
            lines.insert(draw(st.integers(0, len(lines))), line)
        elif how == "value" and "=" in line:
            lines[i] = line.split("=", 1)[0] + "= " + draw(st.sampled_from(TOKENS))
        elif how == "key" and "=" in line:
            lines[i] = (
                draw(st.from_regex(r"[a-z_]{1,12}", fullmatch=True)) + line[line.index("=") - 1 :]
            )
        else:
            j = draw(st.integers(0, len(line)))
            lines[i] = line[:j] + draw(st.text(max_size=3)) + line[j + 1 :]
    return "\n".join(lines)


@given(mutated_examples())
def test_any_mutation_of_the_example_parses_or_is_refused(text: str) -> None:
    parses_or_refuses(text)


def test_a_fifth_seat_does_not_fit_a_table_wired_straight_to_the_pi() -> None:
    text = EXAMPLE + '\n[[seat]]\nname = "Ali"\nthermometer = "3b-00000a1b2c3d"\n'
    error = refusal(text)
    assert error.line == line_of(text, 'name = "Ali"') - 1
    assert error.message.startswith("5 seats need 28 GPIO pins with these sensors")
    assert re.match(r"table\.toml:\d+: ", str(error))


def test_the_docs_example_config_is_a_valid_config() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "sensors.md").read_text()
    example = doc.split("```toml\n[sensors]", 1)[1].split("```", 1)[0]
    config = parse_config("docs/sensors.md", "[sensors]" + example)
    assert [s.name for s in config.seats] == ["Karen", "Tom"]


def test_mqtt_is_off_without_its_section_and_takes_a_password_from_a_file(tmp_path: Path) -> None:
    assert default_config().mqtt is None
    (tmp_path / "secret").write_text("s3cret\nignored\n")
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    path = tmp_path / "table.toml"
    path.write_text(
        '[mqtt]\nhost = "broker.local"\ntable = "cafe-7"\nname = "Café 7"\n'
        'username = "table"\npassword_file = "secret"\nca_file = "ca.pem"\n'
    )
    mqtt = load_config(path).mqtt
    assert mqtt is not None
    assert (mqtt.host, mqtt.port, mqtt.table, mqtt.name) == (
        "broker.local",
        8883,
        "cafe-7",
        "Café 7",
    )
    assert mqtt.tls and mqtt.secret() == "s3cret"
    assert "s3cret" not in repr(mqtt)
    both = '[mqtt]\nhost = "b"\nusername = "u"\npassword = "x"\npassword_file = "secret"\n'
    path.write_text(both)
    with pytest.raises(DataFileError, match="not both"):
        load_config(path)
