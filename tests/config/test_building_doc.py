"""docs/building.md: the config reference, wiring table and service facts agree with the code."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from firmware import config
from firmware.config import ButtonPins, DisplayConfig, GameConfig
from firmware.config.models import LightsConfig, SoundConfig
from hw.header import physical_pin

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "building.md").read_text()
MODELS = {"buttons": ButtonPins, "display": DisplayConfig, "game": GameConfig, "lights": LightsConfig,
          "sound": SoundConfig, "web": config.WebConfig, "camera": config.CameraConfig}


def table_after(heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first table after ``heading``, header and rule excluded."""
    _, _, rest = DOC.partition(heading + "\n")
    assert rest, f"no heading {heading!r}"
    rows = []
    for line in rest.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, heading
    return rows[2:]


def default_of(section: str, key: str):
    if section == "storage":
        return config.Config().state_dir
    field = next(f for f in dataclasses.fields(MODELS[section]) if f.name == key)
    return field.default


@pytest.mark.parametrize("section", list(config.SECTIONS))
def test_building_doc_lists_every_key_with_its_default(section):
    rows = table_after(f"### `[{section}]`")
    keys = [row[0].strip("`") for row in rows]
    assert keys == list(config.SECTIONS[section])
    for row in rows:
        key, shown = row[0].strip("`"), row[1]
        if shown == "(unset)":
            value = None
        else:
            value = tomllib.loads(f"v = {shown.strip('`')}")["v"]
            value = tuple(value) if isinstance(value, list) else value
        assert value == default_of(section, key), key


def test_building_doc_wiring_table_matches_the_default_pins():
    rows = {row[0]: row[1:] for row in table_after("docs/wiring.png`), so it matches a box with no config file. Summary:\n")}
    for name, gpio in ButtonPins().pins().items():
        assert rows[f"{name} button"] == [str(physical_pin(gpio)), f"GPIO{gpio}"]
    assert rows["OLED SDA"] == ["3", "GPIO2"] and rows["OLED SCL"] == ["5", "GPIO3"]
    assert rows["OLED VCC"][0] == "1" and rows["OLED GND"][0] == "6"
    assert (REPO / "docs" / "wiring.png").exists() and "![Wiring diagram](wiring.png)" in DOC


def test_building_doc_example_error_is_the_real_message():
    example = re.search(r"^(/etc/cantstop-box/config\.toml: \[buttons\] roll = 2: .*)$", DOC, re.M).group(1)
    with pytest.raises(config.ConfigError) as err:
        config.parse("[buttons]\nroll = 2\n", "/etc/cantstop-box/config.toml")
    assert str(err.value) == example


def test_building_doc_service_facts_match_the_unit():
    unit = (REPO / "systemd" / "cantstop-box.service").read_text()

    def value(key: str) -> str:
        return re.search(rf"^{key}=(.*)$", unit, re.M).group(1)

    assert f"pings a {value('WatchdogSec').rstrip('s')} s watchdog" in DOC
    assert f"restarted after {value('RestartSec')} s" in DOC
    assert f"at most {value('StartLimitBurst')} times in {int(value('StartLimitIntervalSec')) // 60} minutes" in DOC
    assert f"after {value('StartLimitBurst')} crashes in {int(value('StartLimitIntervalSec')) // 60} minutes" in DOC
    from firmware.daemon.devicewait import DEVICE_WAIT_S

    assert f"waits up to {DEVICE_WAIT_S:g} s for the GPIO chip" in DOC


def test_building_doc_names_the_real_paths_and_commands():
    from firmware.store import DB_NAME

    assert f"/var/lib/cantstop-box/{DB_NAME}" in DOC
    for text in ("sudo deploy/install.sh", "deploy/install.sh --dry-run", "sudo deploy/uninstall.sh --purge",
                 "journalctl -u cantstop-box", "cantstop-box export", "sudo raspi-config nonint do_i2c 0",
                 "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000",  # as deploy/bootconfig.py writes them
                 "/boot/firmware/config.txt", "config.txt.cantstop-box.bak", "60-cantstop-box.rules"):
        assert text in DOC, text
    for path in config.DEFAULT_PATHS:
        assert path in DOC
