"""The card's first boot step against Raspberry Pi Imager's OS customisation (deploy/image/cardsetup.py
imager(), and its unit): firstrun.sh and Imager's words in cmdline.txt taken off the card, every other
word kept, a reboot only when the running boot was one of Imager's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deploy.image import cardsetup

REPO = Path(__file__).resolve().parents[2]
CARDS_OWN = "console=ttyS1,115200 console=tty1 root=LABEL=cantstop-root rw fsck.repair=yes net.ifnames=0 rootwait ro quiet"
IMAGERS = " systemd.run=/boot/firmware/firstrun.sh systemd.run_success_action=reboot systemd.unit=kernel-command-line.target"
#: What the kernel got on such a boot: the firmware's own words first, then cmdline.txt's.
FIRMWARE = "coherent_pool=1M 8250.nr_uarts=1 snd_bcm2835.enable_headphones=0 bcm2708_fb.fbwidth=0 "
IGNORED = ("Imager: its OS customisation is for Raspberry Pi OS and was ignored "
           "(firstrun.sh and its cmdline.txt entries removed): set up Wi-Fi with wifi.txt")
REBOOT = ["systemctl", "--no-block", "reboot"]


@pytest.fixture
def card(tmp_path):
    """(the boot partition, /proc/cmdline, the commands run)."""
    boot = tmp_path / "boot"
    boot.mkdir()
    ran: list[list[str]] = []
    return boot, tmp_path / "proc-cmdline", ran


def runner(ran):
    return lambda argv, **kw: ran.append(argv)


def imagers_card(boot: Path, proc: Path | None, cmdline: str = CARDS_OWN + IMAGERS) -> None:
    (boot / "cmdline.txt").write_text(cmdline + "\n")
    (boot / "firstrun.sh").write_text("#!/bin/bash\nset +e\nCURRENT_HOSTNAME=`cat /etc/hostname`\n")
    if proc is not None:
        proc.write_text(FIRMWARE + cmdline + "\n")


def test_imagers_cmdline_loses_only_its_words_firstrun_goes_and_the_box_reboots(card):
    boot, proc, ran = card
    imagers_card(boot, proc)
    said = cardsetup.imager(boot, proc, runner(ran))
    assert (boot / "cmdline.txt").read_text() == CARDS_OWN + "\n"
    assert not (boot / "firstrun.sh").exists() and not (boot / "cmdline.txt.new").exists()
    assert said == IGNORED + "; rebooting for a normal boot" and "\n" not in said
    assert ran == [REBOOT]


def test_the_next_boot_is_a_normal_one_with_nothing_to_do(card):
    boot, proc, ran = card
    imagers_card(boot, proc)
    cardsetup.imager(boot, proc, runner(ran))
    proc.write_text(FIRMWARE + (boot / "cmdline.txt").read_text())  # the boot after the reboot
    assert cardsetup.imager(boot, proc, runner(ran)) == "Imager: no OS customisation on the card"
    assert ran == [REBOOT]


@pytest.mark.parametrize("cmdline, left", [
    ("console=tty1 root=LABEL=cantstop-root rw quiet systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot "
     "systemd.unit=kernel-command-line.target\n", "console=tty1 root=LABEL=cantstop-root rw quiet\n"),  # older Imager
    ("systemd.run=/boot/firmware/firstrun.sh ro cfg80211.ieee80211_regdom=GB systemd.run_failure_action=none quiet\n",
     "ro cfg80211.ieee80211_regdom=GB quiet\n"),
    ("ro\tsystemd.run=\"/bin/sh -c 'echo a b'\" systemd.run-success-action=reboot quiet\r\n", "ro quiet\n"),
    ("ro systemd.unit=kernel-command-line.target\nquiet\n", "ro quiet\n"),
])
def test_every_word_imager_adds_goes_and_the_rest_stay_in_order_on_one_line(cmdline, left):
    assert cardsetup.without_imager(cmdline) == left


@pytest.mark.parametrize("cmdline", [CARDS_OWN + "\n", "ro systemd.unit=multi-user.target systemd.runx=1 quiet\n",
                                     "ro systemd.run_other=1 mysystemd.run=/x\n"])
def test_words_imager_does_not_add_are_not_touched(cmdline):
    assert cardsetup.without_imager(cmdline) is None


def test_a_clean_card_is_left_as_it_is_its_cmdline_not_even_rewritten(card):
    boot, proc, ran = card
    cmdline = boot / "cmdline.txt"
    cmdline.write_text(CARDS_OWN + "\n")
    os.utime(cmdline, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    before = cmdline.stat()
    proc.write_text(FIRMWARE + CARDS_OWN + "\n")
    assert cardsetup.imager(boot, proc, runner(ran)) == "Imager: no OS customisation on the card"
    after = cmdline.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    assert cmdline.read_text() == CARDS_OWN + "\n" and sorted(p.name for p in boot.iterdir()) == ["cmdline.txt"]
    assert ran == []


def test_no_reboot_unless_the_running_boot_had_imagers_words(card):
    boot, proc, ran = card
    imagers_card(boot, None)  # written by Imager, yet this boot's command line came without them
    proc.write_text(FIRMWARE + CARDS_OWN + "\n")
    assert cardsetup.imager(boot, proc, runner(ran)) == IGNORED
    assert (boot / "cmdline.txt").read_text() == CARDS_OWN + "\n" and ran == []
    imagers_card(boot, None)
    assert cardsetup.imager(boot, boot / "no-such-proc-cmdline", runner(ran)) == IGNORED and ran == []


def test_no_reboot_when_the_words_came_from_elsewhere_than_cmdline_txt(card):
    """Rebooting then would bring the same command line back, boot after boot."""
    boot, proc, ran = card
    (boot / "cmdline.txt").write_text(CARDS_OWN + "\n")
    proc.write_text(FIRMWARE + CARDS_OWN + IMAGERS + "\n")
    said = cardsetup.imager(boot, proc, runner(ran))
    assert "not rebooting" in said and "\n" not in said and ran == []


def test_firstrun_alone_is_removed(card):
    boot, proc, ran = card
    (boot / "cmdline.txt").write_text(CARDS_OWN + "\n")
    (boot / "firstrun.sh").write_text("#!/bin/bash\n")
    proc.write_text(CARDS_OWN + "\n")
    said = cardsetup.imager(boot, proc, runner(ran))
    assert "(firstrun.sh removed)" in said and not (boot / "firstrun.sh").exists() and ran == []


def test_a_cmdline_over_the_size_limit_is_left_alone_with_one_line_saying_why(card):
    boot, proc, ran = card
    big = CARDS_OWN + " " + "x" * cardsetup.MAX_CMDLINE_BYTES + IMAGERS + "\n"
    (boot / "cmdline.txt").write_text(big)
    proc.write_text(CARDS_OWN + IMAGERS + "\n")
    said = cardsetup.imager(boot, proc, runner(ran))
    assert (boot / "cmdline.txt").read_text() == big and not (boot / "cmdline.txt.new").exists()
    assert said.startswith("Imager: cmdline.txt left as it is: cmdline.txt is ") and "more than 4096" in said
    assert "by hand" in said and "\n" not in said and ran == []  # no reboot: the next boot would be the same


def test_a_cmdline_that_is_not_text_is_left_alone(card):
    boot, proc, ran = card
    data = b"ro \xff\xfe systemd.unit=kernel-command-line.target\n"
    (boot / "cmdline.txt").write_bytes(data)
    said = cardsetup.imager(boot, proc, runner(ran))
    assert (boot / "cmdline.txt").read_bytes() == data and "left as it is" in said and "\n" not in said


def test_the_running_command_line_is_read_bounded():
    proc = Path("/proc/self/cmdline")  # a file in /proc: its size says 0
    assert proc.stat().st_size == 0 and cardsetup.read_bytes_limited(proc, 1 << 20)
    with pytest.raises(cardsetup.Unusable):
        cardsetup.read_bytes_limited(proc, 1)


def test_the_boot_runs_imager_first_then_wifi_ssh_and_the_bus(monkeypatch, capsys):
    order = []
    for name in ("imager", "wifi", "take_ssh", "bus"):
        monkeypatch.setattr(cardsetup, name, lambda name=name: order.append(name) or f"{name}: done")
    assert cardsetup.main(["cardsetup.py", "boot"]) == 0
    assert order == ["imager", "wifi", "take_ssh", "bus"]
    assert capsys.readouterr().out.splitlines()[0] == "cantstop-card: imager: done"


def unit_values(text: str) -> dict[str, list[str]]:
    """Each key's values over all its lines (systemd adds them up), by section: {"Unit.Before": [...]}."""
    values: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif line and not line.startswith(("#", ";")) and "=" in line:
            key, _, value = line.partition("=")
            values.setdefault(f"{section}.{key.strip()}", []).extend(value.split())
    return values


def test_the_unit_runs_on_imagers_boot_too_before_its_firstrun():
    values = unit_values((REPO / "deploy/image/units/cantstop-card.service").read_text())
    assert {"multi-user.target", "kernel-command-line.target"} <= set(values["Install.WantedBy"])
    assert {"kernel-command-line.service", "cantstop-box.service", "wpa_supplicant@wlan0.service"} <= set(values["Unit.Before"])
    assert values["Service.ExecStart"][-1] == "boot"
