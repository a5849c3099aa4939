"""firmware.config: defaults, the reference file, where the file is looked for, unreadable files."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from firmware import config
from firmware.config import ButtonPins, Config, ConfigError, DisplayConfig, GameConfig
from hw.header import physical_pin

REPO = Path(__file__).resolve().parents[2]
DEFAULT_FILE = REPO / "firmware" / "default_config.toml"


def test_config_defaults_match_the_default_wiring():
    c = Config()
    assert c.buttons.pins() == {"ROLL": 5, "STOP": 6, "A": 13, "B": 19, "C": 26, "MENU": 16}
    assert [physical_pin(p) for p in c.buttons.pins().values()] == [29, 31, 33, 35, 37, 36]
    assert (c.buttons.debounce_ms, c.buttons.long_press_ms) == (30, 800)
    assert c.display == DisplayConfig("ssd1306", "i2c", 1, 0x3C, 0, 24, 25, 0, 255)
    assert c.game == GameConfig(("Red", "Blue", "Green", "Yellow"), 2, 3, False, False)
    assert (c.state_dir, c.path) == (None, None)


def test_config_models_are_frozen():
    c = Config()
    for obj, name in ((c, "state_dir"), (c.buttons, "roll"), (c.display, "driver"), (c.game, "players")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, None)
    assert c.replace(state_dir="/x").state_dir == "/x" and c.state_dir is None


def test_config_reference_file_loads_to_exactly_the_defaults():
    loaded = config.load(DEFAULT_FILE)
    assert loaded.path == str(DEFAULT_FILE)
    assert loaded == Config(path=str(DEFAULT_FILE))


def test_config_reference_file_documents_every_key_with_a_comment():
    text = DEFAULT_FILE.read_text()
    section = None
    seen: set[tuple[str, str]] = set()
    for line in text.splitlines():
        if m := re.fullmatch(r"\[(\w+)\]", line.strip()):
            section = m.group(1)
        elif m := re.match(r"#?\s*(\w+)\s*=", line):
            seen.add((section, m.group(1)))
    expected = {(s, k) for s, keys in config.SECTIONS.items() for k in keys}
    assert expected <= seen
    for section, keys in config.SECTIONS.items():
        block = text.split(f"[{section}]", 1)[1]
        for key in keys:
            # each key is preceded by, or shares its line with, a comment
            lines = block.splitlines()
            at = next(i for i, ln in enumerate(lines) if re.match(rf"#?\s*{key}\s*=", ln))
            assert "#" in lines[at] or lines[at - 1].lstrip().startswith("#"), key


def test_config_sections_list_every_dataclass_field():
    assert config.SECTIONS["buttons"] == tuple(f.name for f in dataclasses.fields(ButtonPins))
    assert config.SECTIONS["display"] == tuple(f.name for f in dataclasses.fields(DisplayConfig))
    # GameConfig.sound is set from [sound] (is a buzzer wired, is it muted at first), not a [game] key
    assert config.SECTIONS["game"] == tuple(f.name for f in dataclasses.fields(GameConfig) if f.name != "sound")
    assert "sound" not in config.SECTIONS["game"]
    top = {f.name for f in dataclasses.fields(Config)}
    assert top == {"buttons", "display", "game", "lights", "sound", "web", "camera", "state_dir", "path"}
    assert config.SECTIONS["web"] == tuple(f.name for f in dataclasses.fields(config.WebConfig))
    assert config.SECTIONS["camera"] == tuple(f.name for f in dataclasses.fields(config.CameraConfig))


def test_config_empty_file_gives_defaults(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("# nothing\n")
    assert config.load(f) == Config(path=str(f))


def test_config_partial_file_keeps_other_defaults(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[buttons]\nroll = 17\n[display]\ndriver = "sh1106"\naddress = 0x3D\n'
                 '[game]\ncolours = ["Red", "Blue", "Green", "Yellow", "Purple"]\nplayers = 4\nrisky = true\n'
                 '[storage]\nstate_dir = "/srv/box"\n')
    c = config.load(str(f))
    assert c.buttons == ButtonPins(roll=17)
    assert c.display == DisplayConfig(driver="sh1106", address=0x3D)
    assert c.game == GameConfig(colours=("Red", "Blue", "Green", "Yellow", "Purple"), players=4, risky=True)
    assert c.state_dir == "/srv/box"


def test_config_spi_display_frees_the_i2c_pins(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[display]\ninterface = "spi"\nspi_device = 1\n[buttons]\nroll = 2\nstop = 3\n')
    c = config.load(f)
    assert c.buttons.pins()["ROLL"] == 2 and c.buttons.pins()["STOP"] == 3
    opts = c.display.oled_options()
    assert opts["interface"] == "spi" and opts["spi_device"] == 1 and opts["spi_port"] == 0


def test_config_i2c_display_leaves_dc_and_reset_pins_free(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[buttons]\na = 24\nb = 25\n")
    assert config.load(f).buttons.pins()["A"] == 24


def test_config_oled_options_fit_open_oled():
    import inspect

    from hw.display import open_oled

    params = inspect.signature(open_oled).parameters
    options = DisplayConfig(address=0x3D, rotation=2).oled_options()
    assert set(options) <= set(params)
    assert options["address"] == 0x3D and options["rotation"] == 2


def test_config_state_dir_expands_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    f = tmp_path / "c.toml"
    f.write_text('[storage]\nstate_dir = "~/games"\n')
    assert config.load(f).state_dir == str(tmp_path / "games")


def test_config_no_path_and_no_default_file_gives_pure_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "DEFAULT_PATHS", (str(tmp_path / "etc.toml"), str(tmp_path / "home.toml")))
    assert config.load() == Config()
    assert config.load(None).path is None


def test_config_no_path_takes_the_first_existing_default(tmp_path, monkeypatch):
    etc, home = tmp_path / "etc.toml", tmp_path / "home" / ".config" / "c.toml"
    home.parent.mkdir(parents=True)
    home.write_text("[game]\nplayers = 3\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(config, "DEFAULT_PATHS", (str(etc), "~/.config/c.toml"))
    c = config.load()
    assert (c.game.players, c.path) == (3, str(home))
    etc.write_text("[game]\nplayers = 4\n")
    c = config.load()
    assert (c.game.players, c.path) == (4, str(etc))


def test_config_default_paths_are_etc_then_home():
    assert config.DEFAULT_PATHS == ("/etc/cantstop-box/config.toml", "~/.config/cantstop-box/config.toml")


def test_config_explicit_missing_file_is_an_error(tmp_path, monkeypatch):
    missing = tmp_path / "nope.toml"
    monkeypatch.setattr(config, "DEFAULT_PATHS", (str(DEFAULT_FILE),))
    with pytest.raises(ConfigError) as err:
        config.load(missing)
    assert str(err.value) == f"{missing}: config file not found"


def test_config_directory_is_an_error(tmp_path):
    with pytest.raises(ConfigError) as err:
        config.load(tmp_path)
    assert str(err.value) == f"{tmp_path}: is a directory, not a config file"


def test_config_unreadable_file_is_an_error(tmp_path, monkeypatch):
    f = tmp_path / "c.toml"
    f.write_text("")

    def denied(name, mode="r", *args, **kwargs):
        raise PermissionError(13, "Permission denied", name)

    # root reads anything, so stand in for the kernel's refusal
    monkeypatch.setattr(config, "open", denied, raising=False)
    with pytest.raises(ConfigError) as err:
        config.load(f)
    assert str(err.value) == f"{f}: cannot read the config file: permission denied"


def test_config_other_read_failure_is_an_error(tmp_path, monkeypatch):
    def broken(name, mode="r", *args, **kwargs):
        raise OSError(5, "Input/output error", name)

    monkeypatch.setattr(config, "open", broken, raising=False)
    with pytest.raises(ConfigError) as err:
        config.load(tmp_path / "c.toml")
    assert str(err.value) == f"{tmp_path / 'c.toml'}: cannot read the config file: Input/output error"


def test_config_error_is_one_line_and_keeps_no_context(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[buttons]\nroll = 'x\n")
    with pytest.raises(ConfigError) as err:
        config.load(f)
    assert "\n" not in str(err.value)
    assert err.value.__cause__ is None and err.value.__suppress_context__
    assert str(ConfigError("a\n  b")) == "a b"


def test_config_ssd1322_over_spi_is_the_256x64_grey_panel(tmp_path):
    f = tmp_path / "config.toml"
    f.write_text('[display]\ndriver = "ssd1322"\ninterface = "spi"\n')
    display = config.load(f).display
    assert display.dimensions == (256, 64)
    options = display.oled_options()
    assert (options["interface"], options["width"], options["height"]) == ("spi", 256, 64)
