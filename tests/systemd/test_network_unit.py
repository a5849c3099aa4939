"""systemd/cantstop-box-network.service (deploy/netstatus.py's unit): sandboxed, with the network the box's
own unit has not, writing only its folder, which the box's unit can read; installed by install.sh on every
box (its dry run shows it), removed by uninstall.sh."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from deploy import netstatus
from firmware.daemon import network
from tests.kit.deploykit import INSTALL, UNINSTALL, run
from tests.systemd.test_systemd_unit import ANALYZE, KNOWN, every, exposure, one, parse_unit, verify_file

REPO = Path(__file__).resolve().parents[2]
NET_UNIT = REPO / "systemd" / "cantstop-box-network.service"
BOX_UNIT = REPO / "systemd" / "cantstop-box.service"
PROGRAM = "/opt/cantstop-box/network/netstatus.py"
MAX_EXPOSURE = 1.5
NET_KNOWN = KNOWN["Service"] | {"RuntimeDirectory", "RuntimeDirectoryMode", "RuntimeDirectoryPreserve", "MemoryMax",
                                "TasksMax", "Nice", "CPUWeight", "IOWeight"}


@pytest.fixture(scope="module")
def unit():
    return parse_unit(NET_UNIT.read_text())


def test_network_unit_runs_the_installed_writer_into_its_own_folder(unit):
    assert one(unit, "Service", "ExecStart") == f"/usr/bin/python3 {PROGRAM}"
    folder = one(unit, "Service", "RuntimeDirectory")
    assert Path("/run", folder) == netstatus.STATUS_DIR == network.STATUS.parent  # the writer's and the reader's
    assert one(unit, "Service", "RuntimeDirectoryMode") == "0755" and one(unit, "Service", "UMask") == "0022"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"
    for section, entries in unit.items():
        known = NET_KNOWN if section == "Service" else KNOWN[section]
        assert not {k for k, _ in entries} - known, section


def test_network_unit_is_sandboxed_with_network_but_no_ip_traffic_and_no_write_but_its_folder(unit):
    assert every(unit, "Service", "PrivateNetwork") == []  # it must see the host's interfaces
    assert set(one(unit, "Service", "RestrictAddressFamilies").split()) == {"AF_UNIX", "AF_NETLINK"}
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert every(unit, "Service", "ReadWritePaths") == []  # writable: its RuntimeDirectory only
    assert one(unit, "Service", "CapabilityBoundingSet") == "" and one(unit, "Service", "NoNewPrivileges") == "yes"
    for key in ("ProtectHome", "PrivateTmp", "PrivateDevices", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectKernelLogs", "ProtectControlGroups", "ProtectClock", "ProtectHostname", "RestrictNamespaces",
                "LockPersonality", "RestrictRealtime", "MemoryDenyWriteExecute", "RestrictSUIDSGID"):
        assert one(unit, "Service", key) == "yes", key


def test_the_boxs_unit_keeps_no_network_and_can_read_the_status_folder():
    box = parse_unit(BOX_UNIT.read_text())
    assert one(box, "Service", "PrivateNetwork") == "yes"
    # ProtectSystem=strict leaves /run readable (read-only); nothing hides it from the box
    assert one(box, "Service", "ProtectSystem") == "strict"
    for key in ("InaccessiblePaths", "TemporaryFileSystem", "ReadOnlyPaths", "ProtectSystem"):
        for value in every(box, "Service", key):
            assert not re.search(r"(^|\s)-?/run(/|\s|$)", value), f"{key}={value}"


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (deploy/ci-deps.sh installs it)")
def test_network_unit_verifies_and_rates_at_most_1_5(tmp_path):
    copy = tmp_path / NET_UNIT.name
    copy.write_text(NET_UNIT.read_text().replace(PROGRAM, str(REPO / "deploy/netstatus.py")).replace(
        "/usr/bin/python3", sys.executable))
    assert verify_file(copy) == ""
    level, _, rating = exposure(copy)
    assert level <= MAX_EXPOSURE, (level, rating)


def test_install_dry_run_shows_the_network_unit_and_uninstall_takes_it_away(root):
    shown = run(INSTALL, "--dry-run", "--root", str(root)).stdout
    assert f"would run: install -m 0755 {REPO}/deploy/netstatus.py {root}{PROGRAM}" in shown
    assert (f"would run: install -m 0644 {REPO}/systemd/cantstop-box-network.service "
            f"{root}/etc/systemd/system/cantstop-box-network.service") in shown
    assert re.search(r"^would run: (systemctl --root=\S+ --quiet enable cantstop-box-network\.service|ln -sfn "
                     r"/etc/systemd/system/cantstop-box-network\.service \S+)$", shown, re.M), shown
    assert not (root / "etc/systemd/system/cantstop-box-network.service").exists()
    # as an install leaves it (tests/systemd/test_deploy.py runs whole installs): uninstall takes the unit away
    units = root / "etc/systemd/system"
    (units / "multi-user.target.wants").mkdir(parents=True)
    (units / "cantstop-box-network.service").write_text(NET_UNIT.read_text())
    (units / "multi-user.target.wants/cantstop-box-network.service").symlink_to(
        "/etc/systemd/system/cantstop-box-network.service")
    gone = run(UNINSTALL, "--dry-run", "--root", str(root)).stdout
    assert f"would run: rm -f {units}/cantstop-box-network.service" in gone
