"""deploy/60-cantstop-box.rules: the udev rule that gives the box's devices to the unit's groups (issue 20, fault 1).

Checked with ``udevadm verify`` where this systemd has it (253 and later), and
always by a parser of the rule syntax it uses, plus a small matcher that plays
devices (subsystem, kernel name) through the rules as udev does.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cantstop-box.service"
RULE = REPO / "deploy" / "60-cantstop-box.rules"
MATCH_KEYS = {"SUBSYSTEM", "KERNEL"}
ASSIGN_KEYS = {"GROUP", "MODE", "TAG"}
PAIR = re.compile(r'\s*([A-Z]+)\s*(==|!=|\+=|=)\s*"([^"]*)"\s*')


def parse_rules(text: str) -> list[list[tuple[str, str, str]]]:
    """Each rule as (key, operator, value) triples; an AssertionError names a line udev would not take."""
    rules = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        triples = []
        for part in line.split(","):
            m = PAIR.fullmatch(part)
            assert m, f"line {number}: {part.strip()!r} is not KEY==\"value\" or KEY=\"value\""
            key, op, value = m.groups()
            if key in MATCH_KEYS:
                assert op in ("==", "!="), f"line {number}: {key} is a match key: use =="
            else:
                assert key in ASSIGN_KEYS, f"line {number}: unknown key {key}"
                assert op in ("=", "+="), f"line {number}: {key} is assigned, not matched"
            triples.append((key, op, value))
        assert any(k in MATCH_KEYS for k, _, _ in triples), f"line {number} matches every device"
        rules.append(triples)
    return rules


def apply(rules, subsystem: str, kernel: str) -> dict[str, str]:
    """What the rules assign to a device, the later rule winning, as udev does."""
    got: dict[str, str] = {}
    device = {"SUBSYSTEM": subsystem, "KERNEL": kernel}
    for rule in rules:
        if all(fnmatch.fnmatchcase(device[k], v) == (op == "==") for k, op, v in rule if k in MATCH_KEYS):
            got.update({k: v for k, _, v in rule if k in ASSIGN_KEYS})
    return got


@pytest.fixture(scope="module")
def rules():
    return parse_rules(RULE.read_text())


def unit_groups() -> set[str]:
    """The unit's SupplementaryGroups= (every such line, as systemd adds them up)."""
    lines = re.findall(r"^SupplementaryGroups=(.*)$", UNIT.read_text(), re.M)
    assert lines
    return set(" ".join(lines).split())


@pytest.mark.parametrize("subsystem, kernel, group", [
    ("gpio", "gpiochip0", "gpio"), ("gpio", "gpiochip4", "gpio"), ("gpio", "gpiochip12", "gpio"),
    ("bcm2835-gpiomem", "gpiomem", "gpio"), ("rpi-gpiomem", "gpiomem0", "gpio"),
    ("i2c-dev", "i2c-1", "i2c"), ("i2c-dev", "i2c-22", "i2c"),
    ("spidev", "spidev0.0", "spi"), ("spidev", "spidev10.1", "spi"),
])
def test_udev_rule_gives_each_device_to_a_group_the_unit_joins(rules, subsystem, kernel, group):
    assert apply(rules, subsystem, kernel) == {"GROUP": group, "MODE": "0660"}
    assert group in unit_groups()


@pytest.mark.parametrize("subsystem, kernel", [
    ("gpio", "gpio17"),  # a line exported through sysfs, not a chip
    ("i2c", "1-003c"),  # the display's own I2C client device
    ("tty", "ttyAMA0"), ("block", "mmcblk0"), ("mem", "mem"),  # /dev/mem would be every byte of RAM
])
def test_udev_rule_leaves_other_devices_alone(rules, subsystem, kernel):
    assert apply(rules, subsystem, kernel) == {}


def test_udev_rule_groups_are_the_installers_and_never_open_to_all(rules):
    install = (REPO / "deploy" / "install.sh").read_text()
    wanted = set(re.search(r"^GROUPS_WANTED=\(([^)]*)\)", install, re.M).group(1).split())
    assigned = {v for rule in rules for k, _, v in rule if k == "GROUP"}
    assert assigned == wanted == unit_groups()
    for rule in rules:
        modes = [v for k, _, v in rule if k == "MODE"]
        assert modes and all(int(m, 8) & 0o007 == 0 for m in modes)  # nothing for "other"


def test_udev_rule_parser_rejects_what_udev_would_not_take():
    for bad in ('SUBSYSTEM="gpio", GROUP="gpio"',  # = where a match needs ==
                'KERNEL=="gpiochip*", GROUP=="gpio"',  # == where an assignment needs =
                'KERNEL=="gpiochip*", GROUP=gpio',  # unquoted
                'GROUP="gpio", MODE="0660"',  # matches every device
                'KERNEL=="gpiochip*", OWNR="pi"'):
        with pytest.raises(AssertionError):
            parse_rules(bad)


def _udevadm_verify() -> str | None:
    udevadm = shutil.which("udevadm")
    if udevadm is None:
        return None
    probe = subprocess.run([udevadm, "verify", "--help"], capture_output=True, text=True, timeout=30)
    return udevadm if probe.returncode == 0 else None


def test_udev_rule_passes_udevadm_verify_where_there_is_one(rules, tmp_path):
    udevadm = _udevadm_verify()
    if udevadm is None:  # systemd before 253: the parser above stands in; it saw every rule
        assert len(rules) == 5
        return
    done = subprocess.run([udevadm, "verify", "--no-style", str(RULE)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / "broken.rules"
    broken.write_text('KERNEL="gpiochip*", GROUP=="gpio"\n')
    assert subprocess.run([udevadm, "verify", "--no-style", str(broken)], capture_output=True,
                          timeout=30).returncode != 0
