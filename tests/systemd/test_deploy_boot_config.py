"""install.sh and the Pi's boot config (issue 20, fault 6): the display's bus turned on, at 400 kHz, and what it says when it cannot."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.kit.deploykit import INSTALL, run


REBOOT_NOTE = "NOTE: the display's bus changed in /boot/firmware/config.txt: reboot for it to take effect (sudo reboot)"
ADDED_BLOCK = ("# Added by the Can't Stop box's deploy/install.sh: the display's bus.\n[all]\n"
               "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")


def boot_config(root: Path) -> Path:
    return root / "boot/firmware/config.txt"


def test_deploy_install_leaves_a_boot_config_that_has_the_bus_on_alone(root):
    before = boot_config(root).read_text()
    out = run(INSTALL, "--root", str(root)).stdout
    assert "the display's bus is already on in /boot/firmware/config.txt" in out
    assert boot_config(root).read_text() == before
    assert not (root / "boot/firmware/config.txt.cantstop-box.bak").exists()
    assert "reboot" not in out


def test_deploy_install_turns_a_100_khz_bus_to_400_where_it_stands_with_a_backup(root):
    slow = "[all]\ndtparam=audio=on\ndtparam=i2c_arm=on,i2c_arm_baudrate=100000\n[pi4]\narm_boost=1\n"
    boot_config(root).write_text(slow)
    out = run(INSTALL, "--root", str(root)).stdout
    assert boot_config(root).read_text() == slow.replace("100000", "400000")
    assert (root / "boot/firmware/config.txt.cantstop-box.bak").read_text() == slow
    assert ("/boot/firmware/config.txt: changed 'dtparam=i2c_arm=on,i2c_arm_baudrate=100000'"
            " to 'dtparam=i2c_arm=on,i2c_arm_baudrate=400000'") in out
    assert REBOOT_NOTE in out
    # and again: nothing more to do
    again = run(INSTALL, "--root", str(root)).stdout
    assert boot_config(root).read_text() == slow.replace("100000", "400000")
    assert "already on" in again and "reboot" not in again


def test_deploy_install_leaves_commented_lines_and_adds_the_bus_under_all(root):
    commented = "# For more options see config.txt's documentation\n#dtparam=i2c_arm=on\n#dtparam=spi=on\n[pi4]\ndtparam=i2c_arm=on\n"
    boot_config(root).write_text(commented)
    out = run(INSTALL, "--root", str(root)).stdout
    assert boot_config(root).read_text() == commented + "\n" + ADDED_BLOCK  # [pi4]'s line is not every board's
    assert "/boot/firmware/config.txt: added 'dtparam=i2c_arm_baudrate=400000'" in out
    assert REBOOT_NOTE in out


def test_deploy_install_dry_run_shows_the_boot_config_change_and_makes_none(root):
    boot_config(root).write_text("dtparam=audio=on\n")
    out = run(INSTALL, "--dry-run", "--root", str(root)).stdout
    assert boot_config(root).read_text() == "dtparam=audio=on\n"
    assert not (root / "boot/firmware/config.txt.cantstop-box.bak").exists()
    assert "/boot/firmware/config.txt: would add 'dtparam=i2c_arm=on'" in out
    assert "/boot/firmware/config.txt: would add 'dtparam=i2c_arm_baudrate=400000'" in out
    assert "NOTE: after that change the Pi would need a reboot" in out


def test_deploy_install_turns_spi_on_for_an_spi_display(root):
    (root / "etc/cantstop-box").mkdir(parents=True)
    (root / "etc/cantstop-box/config.toml").write_text('[display]\ndriver = "ssd1322"\ninterface = "spi"\n')
    boot_config(root).write_text("dtparam=spi=off\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert boot_config(root).read_text() == "dtparam=spi=on\n"
    assert "changed 'dtparam=spi=off' to 'dtparam=spi=on'" in out and REBOOT_NOTE in out


def test_deploy_install_finds_an_old_style_boot_config(root):
    shutil.rmtree(root / "boot/firmware")
    (root / "boot/config.txt").write_text("")
    out = run(INSTALL, "--root", str(root)).stdout
    assert (root / "boot/config.txt").read_text() == ADDED_BLOCK
    assert "NOTE: the display's bus changed in /boot/config.txt: reboot" in out


def test_deploy_install_without_a_boot_config_says_how_to_turn_the_bus_on(root):
    shutil.rmtree(root / "boot/firmware")
    (root / "dev/i2c-1").unlink()
    out = run(INSTALL, "--root", str(root)).stdout
    assert "NOTE: no /boot/firmware/config.txt or /boot/config.txt here, and no /dev/i2c-1" in out
    assert "sudo raspi-config nonint do_i2c 0" in out


def test_deploy_install_settings_it_cannot_read_leave_the_boot_config_alone(root):
    (root / "etc/cantstop-box").mkdir(parents=True)
    (root / "etc/cantstop-box/config.toml").write_text("[display\n")
    boot_config(root).write_text("dtparam=audio=on\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert boot_config(root).read_text() == "dtparam=audio=on\n"
    assert "cannot tell which bus to turn on: the settings are not valid TOML" in out
    assert "NOTE: the display's bus was left as it is in /boot/firmware/config.txt" in out
    assert 'NOTE: no bus module loaded at boot: the settings do not say "i2c" or "spi"' in out
    assert not (root / "etc/modules-load.d/cantstop-box.conf").exists()
