"""firmware.config: every mistake in the file is one line naming the file, the key and the problem."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import config
from firmware.config import ConfigError

ETC = "/etc/cantstop-box/config.toml"


def error_for(text: str | bytes, name: str = ETC) -> str:
    with pytest.raises(ConfigError) as err:
        config.parse(text, name)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{name}: ")
    return message[len(name) + 2:]


def load_error(tmp_path, text: str) -> str:
    f = tmp_path / "config.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        config.load(f)
    assert str(err.value).startswith(f"{f}: ")
    return str(err.value)[len(str(f)) + 2:]


def test_config_error_names_file_key_and_problem_for_an_i2c_pin(tmp_path):
    assert load_error(tmp_path, "[buttons]\nroll = 2\n") == \
        "[buttons] roll = 2: GPIO2 is the I2C data pin (SDA); choose another pin"
    assert error_for("[buttons]\nroll = 2\n") == \
        "[buttons] roll = 2: GPIO2 is the I2C data pin (SDA); choose another pin"


def test_config_error_toml_syntax_gives_line_and_column():
    assert error_for("[buttons]\nroll = \n") == "TOML syntax error: Invalid value (at line 2, column 8)"
    assert error_for("\n\n[buttons\n") == \
        "TOML syntax error: Expected ']' at the end of a table declaration (at line 3, column 9)"
    assert error_for("[buttons]\nroll = 5\nroll = 6\n").endswith("(at line 3, column 9)")


def test_config_error_not_utf8_gives_the_line():
    assert error_for(b"[game]\nplayers = 2\n# caf\xe9\n") == "line 3: not UTF-8 text (byte 0xE9)"


PIN_CASES = [
    ("[buttons]\nstop = 3\n", "[buttons] stop = 3: GPIO3 is the I2C clock pin (SCL); choose another pin"),
    ("[buttons]\nroll = true\n", "[buttons] roll = true: must be a BCM GPIO number from 0 to 27, not true/false"),
    ('[buttons]\nroll = "5"\n', '[buttons] roll = "5": must be a BCM GPIO number from 0 to 27 (without quotes)'),
    ('[buttons]\nroll = "five"\n', '[buttons] roll = "five": must be a BCM GPIO number from 0 to 27, not text'),
    ("[buttons]\nroll = 5.0\n", "[buttons] roll = 5.0: must be a BCM GPIO number from 0 to 27, not a decimal"),
    ("[buttons]\nroll = [5]\n", "[buttons] roll = [5]: must be a BCM GPIO number from 0 to 27, not a list"),
    ("[buttons]\nroll = {pin = 5}\n",
     "[buttons] roll = {pin = 5}: must be a BCM GPIO number from 0 to 27, not a table"),
    ("[buttons]\nroll = 29\n",
     "[buttons] roll = 29: GPIO numbers (BCM) go from 0 to 27; physical pin 29 is GPIO5, so write roll = 5"),
    ("[buttons]\nmenu = 39\n",
     "[buttons] menu = 39: GPIO numbers (BCM) go from 0 to 27; physical pin 39 is GND, not a GPIO"),
    ("[buttons]\nroll = 99\n", "[buttons] roll = 99: GPIO numbers (BCM) go from 0 to 27"),
    ("[buttons]\nroll = -1\n", "[buttons] roll = -1: GPIO numbers (BCM) go from 0 to 27"),
    ("[buttons]\nstop = 5\n", "[buttons] stop = 5: GPIO5 is already the roll button; each button needs its own pin"),
    ("[buttons]\nroll = 20\nmenu = 20\n",
     "[buttons] menu = 20: GPIO20 is already the roll button; each button needs its own pin"),
    ('[display]\ninterface = "spi"\n[buttons]\nroll = 10\n',
     "[buttons] roll = 10: GPIO10 is the SPI data pin (MOSI); choose another pin"),
    ('[display]\ninterface = "spi"\n[buttons]\nc = 11\n',
     "[buttons] c = 11: GPIO11 is the SPI clock pin (SCLK); choose another pin"),
    ('[display]\ninterface = "spi"\n[buttons]\nc = 9\n', "[buttons] c = 9: GPIO9 is the SPI MISO pin; choose another pin"),
    ('[display]\ninterface = "spi"\n[buttons]\nb = 8\n',
     "[buttons] b = 8: GPIO8 is the SPI chip-select pin (CE0); choose another pin"),
    ('[display]\ninterface = "spi"\n[buttons]\na = 7\n',
     "[buttons] a = 7: GPIO7 is the SPI chip-select pin (CE1); choose another pin"),
    ('[display]\ninterface = "spi"\n[buttons]\nroll = 24\n',
     "[buttons] roll = 24: GPIO24 is the display's DC pin ([display] gpio_dc); choose another pin"),
    ('[display]\ninterface = "spi"\ngpio_reset = 4\n[buttons]\nmenu = 4\n',
     "[buttons] menu = 4: GPIO4 is the display's RESET pin ([display] gpio_reset); choose another pin"),
    ('[display]\ninterface = "spi"\ngpio_dc = 8\n',
     "[display] gpio_dc = 8: GPIO8 is the SPI chip-select pin (CE0); choose another pin"),
    ('[display]\ninterface = "spi"\ngpio_reset = 24\n',
     "[display] gpio_reset = 24: GPIO24 is already the display's DC pin; DC and RESET need their own pins"),
    ("[display]\ngpio_dc = 28\n",
     "[display] gpio_dc = 28: GPIO numbers (BCM) go from 0 to 27; physical pin 28 is GPIO1, so write gpio_dc = 1"),
]


@pytest.mark.parametrize("text, message", PIN_CASES)
def test_config_error_pins(text, message):
    assert error_for(text) == message


KEY_CASES = [
    ("[buttons]\nrol = 5\n", "[buttons] rol = 5: unknown key; did you mean 'roll'?"),
    ("[buttons]\nROLL = 5\n", "[buttons] ROLL = 5: unknown key; did you mean 'roll'?"),
    ("[buttons]\nlong_press = 900\n", "[buttons] long_press = 900: unknown key; did you mean 'long_press_ms'?"),
    ("[buttons]\nstate_dir = '/x'\n", '[buttons] state_dir = "/x": unknown key; it belongs in [storage]'),
    ("[display]\nplayers = 3\n", "[display] players = 3: unknown key; it belongs in [game]"),
    ("[buttons]\nzzz = 1\n",
     "[buttons] zzz = 1: unknown key; known: 'roll', 'stop', 'a', 'b', 'c', 'menu', 'debounce_ms', 'long_press_ms'"),
    ("[storage]\nstatedir = '/x'\n", '[storage] statedir = "/x": unknown key; did you mean \'state_dir\'?'),
    ("[game]\ncolors = ['Red']\n", '[game] colors = ["Red"]: unknown key; did you mean \'colours\'?'),
    ("[butons]\nroll = 5\n", "unknown section [butons]; did you mean [buttons]?"),
    ("[Display]\n", "unknown section [Display]; did you mean [display]?"),
    ("[xyz]\n", "unknown section [xyz]; known: [buttons], [display], [game], [lights], [sound], [storage], [web], [camera]"),
    ("roll = 5\n", "roll = 5: unknown key outside any section; put it under [buttons]"),
    ("foo = 5\n", "foo = 5: unknown key outside any section; keys go under [buttons], [display], [game], [lights], [sound], [storage], [web] or [camera]"),
    ("buttons = 5\n", "buttons = 5: [buttons] must be a section, not a value"),
]


@pytest.mark.parametrize("text, message", KEY_CASES)
def test_config_error_unknown_names(text, message):
    assert error_for(text) == message


VALUE_CASES = [
    ("[buttons]\ndebounce_ms = 900\n", "[buttons] debounce_ms = 900: must be from 0 to 500 milliseconds"),
    ("[buttons]\ndebounce_ms = 5.5\n",
     "[buttons] debounce_ms = 5.5: must be a whole number from 0 to 500 milliseconds, not a decimal"),
    ("[buttons]\nlong_press_ms = 20\n", "[buttons] long_press_ms = 20: must be from 100 to 10000 milliseconds"),
    ("[buttons]\ndebounce_ms = 300\nlong_press_ms = 200\n",
     "[buttons] long_press_ms = 200: long_press_ms (200) must be longer than debounce_ms (300)"),
    ("[buttons]\ndebounce_ms = 500\nlong_press_ms = 500\n",
     "[buttons] long_press_ms = 500: long_press_ms (500) must be longer than debounce_ms (500)"),
    ('[display]\ndriver = "SSD1306"\n',
     '[display] driver = "SSD1306": must be one of "ssd1306", "sh1106", "ssd1309", "ssd1322"; did you mean "ssd1306"?'),
    ('[display]\ndriver = "sh1107"\n',
     '[display] driver = "sh1107": must be one of "ssd1306", "sh1106", "ssd1309", "ssd1322"; did you mean "sh1106"?'),
    ('[display]\ndriver = "st7735"\n', '[display] driver = "st7735": must be one of "ssd1306", "sh1106", "ssd1309", "ssd1322"'),
    ("[display]\ndriver = 1306\n", '[display] driver = 1306: must be one of "ssd1306", "sh1106", "ssd1309", "ssd1322"'),
    ('[display]\ndriver = "ssd1322"\ninterface = "i2c"\n',
     '[display] interface = "i2c": the ssd1322 talks SPI only: set interface = "spi"'),
    ('[display]\ndriver = "ssd1322"\ninterface = "spi"\nsize = "128x64"\n',
     '[display] size = "128x64": the ssd1322 drives "256x64"; a 128x64 panel needs driver = "ssd1306"'),
    ('[display]\ninterface = "I2C"\n', '[display] interface = "I2C": must be one of "i2c", "spi"; did you mean "i2c"?'),
    ("[display]\naddress = 0x80\n", "[display] address = 0x80: must be from 0x03 to 0x77"),
    ('[display]\naddress = "0x3C"\n',
     '[display] address = "0x3C": must be a whole number from 0x03 to 0x77 (without quotes)'),
    ("[display]\nport = true\n", "[display] port = true: must be a whole number from 0 to 255, not true/false"),
    ("[display]\nrotation = 4\n", "[display] rotation = 4: must be 0, 1, 2 or 3 quarter turns clockwise"),
    ("[display]\nrotation = 180\n",
     "[display] rotation = 180: must be 0, 1, 2 or 3 quarter turns clockwise; for 180 degrees write rotation = 2"),
    ("[display]\ncontrast = 256\n", "[display] contrast = 256: must be from 0 to 255"),
    ("[display]\nspi_device = 2\n", "[display] spi_device = 2: must be 0 or 1"),
    ('[game]\ncolours = ["Red", "Blue", "Green"]\n',
     '[game] colours = ["Red", "Blue", "Green"]: needs 4 to 8 colours (at least 4 so four players can sit), not 3'),
    ('[game]\ncolours = ["A","B","C","D","E","F","G","H","I"]\n',
     '[game] colours = ["A", "B", "C", "D", "E", "F", "G", "H", "I"]: needs 4 to 8 colours'
     " (at least 4 so four players can sit), not 9"),
    ('[game]\ncolours = "Red"\n',
     '[game] colours = "Red": must be a list of names, like ["Red", "Blue", "Green", "Yellow"]'),
    ('[game]\ncolours = ["Red", "Blue", "Green", 4]\n',
     '[game] colours = ["Red", "Blue", "Green", 4]: 4 is not a name; put each colour in quotes'),
    ('[game]\ncolours = ["Red", "Blue", "Green", ""]\n',
     '[game] colours = ["Red", "Blue", "Green", ""]: a colour name is empty'),
    ('[game]\ncolours = ["Red", "Blue", "Green", "Turquoise"]\n',
     '[game] colours = ["Red", "Blue", "Green", "Turquoise"]: "Turquoise" is 9 characters; at most 8 fit the screen'),
    ('[game]\ncolours = ["Red", "Blue", "Green", "red"]\n',
     '[game] colours = ["Red", "Blue", "Green", "red"]: "red" is listed twice; each colour must differ'),
    ('[game]\ncolours = ["Red", "Blue", "Green", "Grün"]\n',
     '[game] colours = ["Red", "Blue", "Green", "Grün"]: "Grün": the screen\'s font has no \'ü\';'
     " use plain letters A-Z and digits"),
    ('[game]\ncolours = ["Red", "Blue", "Green", " Pink"]\n',
     '[game] colours = ["Red", "Blue", "Green", " Pink"]: " Pink" has spaces at an end'),
    ("[game]\nplayers = 5\n", "[game] players = 5: must be from 1 to 4"),
    ("[game]\nplayers = 0\n", "[game] players = 0: must be from 1 to 4"),
    ("[game]\ncolumns_to_win = 12\n", "[game] columns_to_win = 12: must be from 1 to 11"),
    ('[game]\nspeedy = "true"\n', '[game] speedy = "true": must be true or false (without quotes)'),
    ("[game]\nrisky = 1\n", "[game] risky = 1: must be true or false"),
    ('[storage]\nstate_dir = "relative/dir"\n',
     '[storage] state_dir = "relative/dir": must be an absolute path (starting with / or ~)'),
    ("[storage]\nstate_dir = 5\n",
     '[storage] state_dir = 5: must be a folder path in quotes, like "/var/lib/cantstop-box"'),
]


@pytest.mark.parametrize("text, message", VALUE_CASES)
def test_config_error_values(text, message):
    assert error_for(text) == message


def test_config_error_long_values_are_shortened():
    names = ", ".join(f'"C{i}"' for i in range(20))
    message = error_for(f"[game]\ncolours = [{names}]\n")
    assert message.startswith('[game] colours = ["C0", "C1",') and "...: needs 4 to 8 colours" in message
    assert len(message) < 150


def test_config_error_multiline_value_stays_on_one_line():
    message = error_for('[storage]\nstate_dir = """rel\nmore"""\n')
    assert message == '[storage] state_dir = "rel more": must be an absolute path (starting with / or ~)'


# -- properties -------------------------------------------------------------

FREE_PINS = [p for p in range(28) if p not in config.I2C_PINS]


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FREE_PINS), min_size=6, max_size=6, unique=True))
def test_config_any_distinct_free_pins_load_as_written(pins):
    keys = ("roll", "stop", "a", "b", "c", "menu")
    text = "[buttons]\n" + "".join(f"{k} = {p}\n" for k, p in zip(keys, pins))
    loaded = config.parse(text, "x.toml")
    assert list(loaded.buttons.pins().values()) == pins
    assert loaded.display == config.DisplayConfig()


ANY_VALUE = st.one_of(
    st.integers(-300, 300), st.booleans(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12), st.lists(st.text(max_size=10), max_size=10),
)
ANY_KEY = st.sampled_from([(s, k) for s, keys in config.SECTIONS.items() for k in keys] + [("game", "colurs")])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(ANY_KEY, ANY_VALUE, max_size=6))
def test_config_any_values_either_load_or_give_one_line(entries):
    sections: dict[str, list[str]] = {}
    for (section, key), value in entries.items():
        sections.setdefault(section, []).append(f"{key} = {_toml(value)}")
    text = "".join(f"[{s}]\n" + "\n".join(lines) + "\n" for s, lines in sections.items())
    try:
        loaded = config.parse(text, "x.toml")
    except ConfigError as err:
        message = str(err)
        assert message.startswith("x.toml: ") and "\n" not in message
        assert message.count(":") >= 2
        return
    # whatever loaded is valid by the same rules the checker enforces
    pins = list(loaded.buttons.pins().values())
    assert len(set(pins)) == 6 and all(0 <= p <= 27 for p in pins)
    if loaded.display.interface == "i2c":
        assert not set(pins) & {2, 3}
    assert 4 <= len(loaded.game.colours) <= 8 and all(1 <= len(c) <= 8 for c in loaded.game.colours)
    assert 1 <= loaded.game.players <= 4
    for (section, key), value in entries.items():
        if section == "storage":
            assert loaded.state_dir == os.path.expanduser(value)
        elif (section, key) in {("camera", "device"), ("camera", "folder")}:  # a path, its spaces around dropped
            assert getattr(loaded.camera, key) == value.strip()
        else:
            assert getattr(getattr(loaded, section), key) == (tuple(value) if isinstance(value, list) else value)


@pytest.mark.parametrize("text, message", [
    ("[web]\nport = 0\n", "[web] port = 0: must be from 1 to 65535"),
    ("[web]\nport = 70000\n", "[web] port = 70000: must be from 1 to 65535"),
    ("[web]\nport = \"8080\"\n", '[web] port = "8080": must be a whole number from 1 to 65535 (without quotes)'),
    ("[web]\nenabled = \"yes\"\n", '[web] enabled = "yes": must be true or false'),
    ("[web]\nhost = 8080\n", '[web] host = 8080: must be an address to listen on in quotes'),
    ("[web]\nhost = \"my box\"\n", '[web] host = "my box": must be an address to listen on in quotes'),
    ("[web]\nhots = \"x\"\n", "[web] hots = \"x\": unknown key"),
])
def test_config_error_in_the_web_section_is_one_line(text, message):
    with pytest.raises(config.ConfigError) as err:
        config.parse(text)
    assert str(err.value).startswith("<config>: " + message)
    assert "\n" not in str(err.value)


def test_config_web_section_accepts_addresses_and_ports():
    web = config.parse('[web]\nenabled = true\nhost = "::"\nport = 80\n').web
    assert (web.enabled, web.host, web.port) == (True, "::", 80)
    assert config.parse('[web]\nhost = "cantstop.local"\n').web.host == "cantstop.local"
    assert config.parse("").web == config.WebConfig(enabled=False, host="0.0.0.0", port=8080)
