"""systemd/cantstop-box.service: what the unit promises, checked by systemd's own tools when present."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from firmware import config

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cantstop-box.service"
ANALYZE = shutil.which("systemd-analyze")
EXEC_START = "/opt/cantstop-box/current/venv/bin/cantstop-box run --config /etc/cantstop-box/config.toml"
MAX_EXPOSURE = 2.0  # "SAFE" in systemd-analyze security (issue 20: it stays 2.0 or lower)

# Directives a real unit may carry (from systemd.unit/.service/.exec/.kill/.resource-control);
# used to catch typos when systemd-analyze is not installed.
KNOWN = {
    "Unit": {"Description", "Documentation", "After", "Before", "Wants", "Requires", "StartLimitIntervalSec",
             "StartLimitBurst", "ConditionPathExists", "AssertPathExists"},
    "Service": {
        "Type", "NotifyAccess", "ExecStart", "ExecStartPre", "ExecStop", "WatchdogSec", "TimeoutStartSec",
        "TimeoutStopSec", "Restart", "RestartSec", "RestartPreventExitStatus", "Environment", "StandardOutput", "StandardError",
        "SyslogIdentifier", "User", "Group", "SupplementaryGroups", "StateDirectory", "StateDirectoryMode",
        "WorkingDirectory", "ConfigurationDirectory", "ConfigurationDirectoryMode", "UMask", "DevicePolicy",
        "DeviceAllow", "PrivateNetwork", "IPAddressDeny", "RestrictAddressFamilies", "ProtectSystem",
        "ProtectHome", "PrivateTmp", "ProtectProc", "ProcSubset", "ProtectKernelTunables", "ProtectKernelModules",
        "ProtectKernelLogs", "ProtectControlGroups", "ProtectClock", "ProtectHostname", "PrivateUsers",
        "PrivateMounts", "PrivateDevices", "RemoveIPC", "KeyringMode", "NoNewPrivileges", "CapabilityBoundingSet",
        "AmbientCapabilities", "RestrictSUIDSGID", "RestrictNamespaces", "LockPersonality", "RestrictRealtime",
        "MemoryDenyWriteExecute", "SystemCallArchitectures", "SystemCallFilter", "SystemCallErrorNumber",
    },
    "Install": {"WantedBy", "RequiredBy", "Alias"},
}


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """Sections -> (key, value) in order; repeated keys kept (systemd accumulates them)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if m := re.fullmatch(r"\[([A-Za-z]+)\]", line):
            current = sections.setdefault(m.group(1), [])
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, f"line {number} is neither a section nor key=value: {raw!r}"
        current.append((key.strip(), value.strip()))
    return sections


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT.read_text())


def one(unit, section: str, key: str) -> str:
    values = [v for k, v in unit[section] if k == key]
    assert len(values) == 1, f"[{section}] {key} appears {len(values)} times"
    return values[0]


def every(unit, section: str, key: str) -> list[str]:
    return [v for k, v in unit[section] if k == key]


def test_systemd_unit_starts_the_installed_daemon_with_the_etc_config(unit):
    assert one(unit, "Service", "ExecStart") == EXEC_START
    assert EXEC_START.split()[-1] == config.DEFAULT_PATHS[0]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert Path(EXEC_START.split()[0]).name in scripts
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_systemd_unit_is_notify_with_a_watchdog_and_restarts(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert re.fullmatch(r"\d+s?", one(unit, "Service", "WatchdogSec"))
    assert 2 <= int(one(unit, "Service", "WatchdogSec").rstrip("s")) <= 60
    assert one(unit, "Service", "Restart") == "on-failure"
    assert one(unit, "Service", "RestartSec") == "2"
    assert one(unit, "Service", "TimeoutStopSec")
    # a config error is final (the daemon exits with EX_CONFIG); hardware faults are retried
    from boxcli.run import EXIT_CONFIG, EXIT_HARDWARE

    assert one(unit, "Service", "RestartPreventExitStatus").split() == [str(EXIT_CONFIG)]
    assert EXIT_HARDWARE != EXIT_CONFIG
    keys = {k for k, _ in unit["Unit"]}
    assert {"StartLimitIntervalSec", "StartLimitBurst"} <= keys
    assert not {"StartLimitIntervalSec", "StartLimitBurst"} & {k for k, _ in unit["Service"]}


def test_systemd_unit_runs_as_its_own_user_in_its_state_directory(unit):
    assert one(unit, "Service", "User") == "cantstop"
    assert set(one(unit, "Service", "SupplementaryGroups").split()) == {"gpio", "i2c", "spi"}
    assert one(unit, "Service", "StateDirectory") == "cantstop-box"
    # lgpio makes its FIFOs in the working directory: it must be the writable state directory
    assert one(unit, "Service", "WorkingDirectory") == "/var/lib/cantstop-box"
    assert one(unit, "Service", "ConfigurationDirectory") == "cantstop-box"
    assert one(unit, "Service", "UMask") == "0077"


def test_systemd_unit_has_no_network_and_only_its_devices(unit):
    assert one(unit, "Service", "PrivateNetwork") == "yes"
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert one(unit, "Service", "RestrictAddressFamilies") == "AF_UNIX"
    assert one(unit, "Service", "DevicePolicy") == "closed"
    assert set(every(unit, "Service", "DeviceAllow")) == {"char-gpiochip rw", "char-i2c rw", "char-spi rw",
                                                          "/dev/gpiomem rw"}  # the fallback without lgpio
    # PrivateDevices would hide /dev/gpiochip*; ProcSubset=pid would hide /proc/device-tree,
    # where gpiozero reads the board revision
    assert "PrivateDevices" not in {k for k, _ in unit["Service"]}
    assert every(unit, "Service", "ProcSubset") in ([], ["all"])


def test_systemd_unit_is_hardened(unit):
    for key in ("ProtectHome", "PrivateTmp", "NoNewPrivileges", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectKernelLogs", "ProtectControlGroups", "RestrictNamespaces", "LockPersonality",
                "MemoryDenyWriteExecute", "RestrictRealtime", "RestrictSUIDSGID", "ProtectClock"):
        assert one(unit, "Service", key) == "yes", key
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert one(unit, "Service", "ProtectProc") == "invisible"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    assert one(unit, "Service", "SystemCallArchitectures") == "native"
    assert "@system-service" in every(unit, "Service", "SystemCallFilter")


def test_systemd_unit_uses_only_known_directives(unit):
    for section, entries in unit.items():
        assert section in KNOWN, section
        unknown = {k for k, _ in entries} - KNOWN[section]
        assert not unknown, f"[{section}] {sorted(unknown)}"


def test_systemd_unit_parser_rejects_garbage():
    with pytest.raises(AssertionError):
        parse_unit("[Service]\nType notify\n")
    assert parse_unit("[Unit]\n# c\nA=1\nA=2\n") == {"Unit": [("A", "1"), ("A", "2")]}


# -- systemd's own tools (installed in CI by deploy/ci-deps.sh) ---------------------


def verify(tmp_path, text: str) -> str:
    """systemd-analyze verify on a copy whose ExecStart exists here; its whole output."""
    copy = tmp_path / "cantstop-box.service"
    copy.write_text(text.replace(EXEC_START.split()[0], sys.executable, 1))
    return verify_file(copy)


def verify_file(copy: Path) -> str:
    """systemd-analyze verify on a unit file (any of the box's, its programs pointed at ones that exist here)."""
    done = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True, cwd=copy.parent,
                          timeout=60)
    return (done.stdout + done.stderr).strip() + ("" if done.returncode == 0 else f"\n(exit {done.returncode})")


def test_systemd_verify_prints_no_warnings(tmp_path, unit):
    if ANALYZE is None:
        # No systemd tools here: the offline checks above stand in; make sure they saw the whole file.
        assert sum(len(v) for v in unit.values()) >= 50
        return
    assert verify(tmp_path, UNIT.read_text()) == ""


def test_systemd_verify_would_catch_a_typo(tmp_path):
    text = UNIT.read_text().replace("PrivateTmp=yes", "PrivateTmpp=yes")
    if ANALYZE is None:
        with pytest.raises(AssertionError):
            test_systemd_unit_uses_only_known_directives(parse_unit(text))
        return
    assert "PrivateTmpp" in verify(tmp_path, text)


def exposure(path: Path) -> tuple[float, int, str]:
    done = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", f"--threshold={int(MAX_EXPOSURE * 10)}",
                           str(path)], capture_output=True, text=True, cwd=path.parent, timeout=60)
    m = re.search(r"Overall exposure level for [\w.-]+: (\d+\.\d+) (\w+)", done.stdout)
    assert m, done.stdout + done.stderr
    return float(m.group(1)), done.returncode, m.group(2)


def test_systemd_security_rates_the_unit_ok_or_better(unit):
    if ANALYZE is None:
        # Without the tool, the directives that carry most of the rating must all be there.
        assert one(unit, "Service", "User") != "root" and one(unit, "Service", "PrivateNetwork") == "yes"
        assert one(unit, "Service", "CapabilityBoundingSet") == ""
        return
    level, returncode, word = exposure(UNIT)
    assert level <= MAX_EXPOSURE and returncode == 0, (level, word)
    assert word == "SAFE"


def test_systemd_security_threshold_fails_a_weak_unit(tmp_path):
    if ANALYZE is None:
        with pytest.raises(AssertionError):
            test_systemd_unit_is_hardened(parse_unit("[Service]\nUser=cantstop\n"))
        return
    weak = tmp_path / "weak.service"
    weak.write_text("[Service]\nType=simple\nExecStart=/bin/true\n")
    level, returncode, _ = exposure(weak)
    assert level > MAX_EXPOSURE and returncode != 0


# -- MemoryDenyWriteExecute=yes: the Python stack must not need W+X memory ----------

MDWE_CHILD = r"""
import ctypes, sqlite3, sys, tempfile
callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda x: x * 2)  # libffi closure
assert callback(21) == 42
from PIL import Image, ImageDraw
import gpiozero, gpiozero.pins.mock, luma.core.device, luma.oled.device, smbus2
from hw import fonts
from hw.buttons import GpioButtons
from hw.display import open_dummy
from firmware import config, store
from firmware.daemon import sdnotify
display = open_dummy()
frame = Image.new("1", (128, 64))
ImageDraw.Draw(frame).text((0, 0), "ROLL", font=fonts.load("large"), fill=1)
display.show(frame)
with tempfile.TemporaryDirectory() as d:
    db = sqlite3.connect(d + "/t.sqlite3")
    db.execute("pragma journal_mode=wal")
    db.execute("create table t(x)")
    db.commit()
print("stack ok")
"""

MDWE_LAUNCHER = r"""
import ctypes, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN (Linux 6.3+)
    print("no-mdwe", ctypes.get_errno())
    sys.exit(0)
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    print("mdwe-not-enforced")
    sys.exit(0)
except OSError:
    pass
os.execv(sys.executable, [sys.executable, "-c", sys.argv[1]])
"""


def test_systemd_python_stack_runs_without_writable_executable_memory(unit):
    assert one(unit, "Service", "MemoryDenyWriteExecute") == "yes"
    done = subprocess.run([sys.executable, "-c", MDWE_LAUNCHER, MDWE_CHILD], capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    if done.stdout.startswith("no-mdwe"):
        # A kernel before 6.3: the only refusal it knows is the errno of an unknown prctl.
        assert done.stdout.split() == ["no-mdwe", "22"]  # EINVAL
        plain = subprocess.run([sys.executable, "-c", MDWE_CHILD], capture_output=True, text=True, cwd=REPO,
                               timeout=60)
        assert plain.stdout == "stack ok\n", plain.stderr
        return
    assert done.stdout == "stack ok\n"
