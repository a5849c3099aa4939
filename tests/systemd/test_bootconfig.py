"""deploy/bootconfig.py: which config.txt lines count, and what it writes (issue 20, fault 6).

tests/systemd/test_deploy.py runs it through install.sh on fake roots; these
are the firmware's rules it must follow: aliases, sections, comments.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bootconfig", REPO / "deploy" / "bootconfig.py")
bootconfig = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bootconfig)

I2C = {"i2c_arm": "on", "i2c_arm_baudrate": "400000"}


@pytest.mark.parametrize("text", [
    "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n",
    "dtparam=i2c=on\ndtparam=i2c_baudrate=400000\n",  # the firmware's other names
    "dtparam=i2c_arm\ndtparam=i2c_arm_baudrate=400000  # fast\n",  # a bare param is on
    "[pi4]\narm_boost=1\n[all]\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\n",
])
def test_bootconfig_takes_what_the_firmware_takes_as_on(text):
    assert bootconfig.plan(text, I2C) == (text, [])


def test_bootconfig_a_later_conditional_line_is_not_every_boards():
    text = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n[pi3]\ndtparam=i2c_arm_baudrate=100000\n"
    after, changes = bootconfig.plan(text, I2C)
    assert changes == [("add", "'dtparam=i2c_arm_baudrate=400000'")]
    assert after.endswith("[all]\ndtparam=i2c_arm_baudrate=400000\n")


def test_bootconfig_turns_an_off_line_on_where_it_stands():
    after, changes = bootconfig.plan("dtparam=audio=on,i2c_arm=off\ndtparam=i2c_arm_baudrate=400000\n", I2C)
    assert after == "dtparam=audio=on,i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n"
    assert changes == [("change", "'dtparam=audio=on,i2c_arm=off' to 'dtparam=audio=on,i2c_arm=on'")]


@pytest.mark.parametrize("settings, want", [
    ("", I2C), ('[display]\ninterface = "i2c"\nport = 1\n', I2C), ('[display]\ninterface = "spi"\n', {"spi": "on"}),
])
def test_bootconfig_reads_the_bus_from_the_settings(settings, want):
    assert bootconfig.wanted(settings) == want


def test_bootconfig_leaves_a_bus_it_does_not_know_to_the_owner(tmp_path, capsys):
    settings = tmp_path / "config.toml"
    settings.write_text("[display]\nport = 3\n")
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\n")
    assert bootconfig.main([str(settings), str(boot)]) == bootconfig.CANNOT
    assert capsys.readouterr().out == ("cannot tell which bus to turn on: the display is on I2C bus 3, not the Pi's"
                                       " bus 1 (i2c_arm): turn that bus on yourself\n")
    assert boot.read_text() == "dtparam=audio=on\n"


@pytest.mark.parametrize("settings", ["display = 5\n", 'display = "oled"\n', "display = [1, 2]\n"])
def test_bootconfig_a_display_key_where_the_table_belongs_is_one_line_naming_it(tmp_path, capsys, settings):
    """Issue 45, item 13: display = 5 on the boot partition was an AttributeError traceback."""
    (tmp_path / "config.toml").write_text(settings)
    (tmp_path / "config.txt").write_text("dtparam=audio=on\n")
    assert bootconfig.main([str(tmp_path / "config.toml"), str(tmp_path / "config.txt")]) == bootconfig.CANNOT
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "display = " in out and "[display] table" in out
    assert (tmp_path / "config.txt").read_text() == "dtparam=audio=on\n"


def test_bootconfig_writes_the_change_and_keeps_the_old_file(tmp_path, capsys):
    settings = tmp_path / "config.toml"
    settings.write_text("")
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\n")
    assert bootconfig.main([str(settings), str(boot)]) == bootconfig.CHANGED
    assert boot.read_text().endswith("[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    assert (tmp_path / "config.txt.cantstop-box.bak").read_text() == "dtparam=audio=on\n"
    assert bootconfig.main([str(settings), str(boot)]) == bootconfig.UNCHANGED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "config.txt", "config.txt.cantstop-box.bak"]
