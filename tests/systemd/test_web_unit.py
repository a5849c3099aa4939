"""systemd/cantstop-box-web.service, and deploy/install.sh installing it only when [web] enabled = true."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.deploykit import CI_DEPS, INSTALL, UNINSTALL, add_tool, run
from tests.systemd.test_systemd_unit import ANALYZE, KNOWN, every, exposure, one, parse_unit, verify_file

REPO = Path(__file__).resolve().parents[2]
WEB_UNIT = REPO / "systemd" / "cantstop-box-web.service"
BOX_UNIT = REPO / "systemd" / "cantstop-box.service"
EXEC_START = "/opt/cantstop-box/current/venv/bin/cantstop-box web --config /etc/cantstop-box/config.toml"
MAX_EXPOSURE = 2.5
WEB_KNOWN = KNOWN["Service"] | {"MemoryHigh", "MemoryMax", "TasksMax", "Nice", "CPUWeight", "IOWeight",
                                "IPAddressAllow"}


@pytest.fixture(scope="module")
def unit():
    return parse_unit(WEB_UNIT.read_text())


def test_web_unit_serves_the_web_command_as_the_boxs_user(unit):
    assert one(unit, "Service", "ExecStart") == EXEC_START
    assert one(unit, "Service", "User") == "cantstop"
    assert one(unit, "Service", "StateDirectory") == "cantstop-box"
    assert one(unit, "Service", "RestartPreventExitStatus") == "78"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"
    from boxcli.cli import COMMANDS

    assert "web" in COMMANDS


def test_web_unit_is_hardened_and_small(unit):
    for key in ("ProtectHome", "PrivateTmp", "NoNewPrivileges", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectKernelLogs", "ProtectControlGroups", "RestrictNamespaces", "LockPersonality",
                "MemoryDenyWriteExecute", "RestrictRealtime", "RestrictSUIDSGID", "ProtectClock", "PrivateDevices",
                "PrivateUsers"):
        assert one(unit, "Service", key) == "yes", key
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    assert set(one(unit, "Service", "RestrictAddressFamilies").split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert "localhost" in one(unit, "Service", "IPAddressAllow").split()
    assert one(unit, "Service", "MemoryMax").endswith("M")
    # /proc/locks (is the box running?) must stay visible: no ProcSubset=pid
    assert every(unit, "Service", "ProcSubset") in ([], ["all"])
    for section, entries in unit.items():
        known = WEB_KNOWN if section == "Service" else KNOWN[section]
        assert not {k for k, _ in entries} - known, section


def test_the_boxs_own_unit_keeps_no_network():
    box = parse_unit(BOX_UNIT.read_text())
    assert one(box, "Service", "PrivateNetwork") == "yes"
    assert one(box, "Service", "RestrictAddressFamilies") == "AF_UNIX"


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (deploy/ci-deps.sh installs it)")
def test_web_unit_verifies_and_rates_at_most_2_5(tmp_path):

    copy = tmp_path / "cantstop-box-web.service"
    copy.write_text(WEB_UNIT.read_text().replace(EXEC_START.split()[0], sys.executable, 1))
    assert verify_file(copy) == ""
    level, _, rating = exposure(copy)
    assert level <= MAX_EXPOSURE, (level, rating)


def _enable_web(root_dir: Path) -> None:
    etc = root_dir / "etc/cantstop-box"
    etc.mkdir(parents=True, exist_ok=True)
    text = (REPO / "firmware/default_config.toml").read_text().replace("enabled = false", "enabled = true")
    (etc / "config.toml").write_text(text)


def test_install_leaves_the_web_view_out_by_default(root):  # noqa: F811
    out = run(INSTALL, "--root", str(root)).stdout
    assert not (root / "etc/systemd/system/cantstop-box-web.service").exists()
    pip = next(line for line in out.splitlines() if "pip install" in line)
    assert pip.endswith("\\[pi\\]")  # the extra for the Pi only


def test_install_adds_the_web_view_when_enabled_and_removes_it_when_not(root):  # noqa: F811
    _enable_web(root)
    out = run(INSTALL, "--root", str(root)).stdout
    unit = root / "etc/systemd/system/cantstop-box-web.service"
    assert unit.read_bytes() == WEB_UNIT.read_bytes()
    pip = next(line for line in out.splitlines() if "pip install" in line)
    assert pip.replace("\\", "").endswith("[pi,web]")  # its extra is installed too
    assert (root / "etc/systemd/system/multi-user.target.wants/cantstop-box-web.service").is_symlink() or \
        "enable cantstop-box-web.service" in out
    config = root / "etc/cantstop-box/config.toml"
    config.write_text(config.read_text().replace("enabled = true", "enabled = false"))
    run(INSTALL, "--root", str(root))
    assert not unit.exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/cantstop-box-web.service").is_symlink()


def test_uninstall_removes_the_web_view(root):  # noqa: F811
    _enable_web(root)
    run(INSTALL, "--root", str(root))
    run(UNINSTALL, "--root", str(root))
    assert not (root / "etc/systemd/system/cantstop-box-web.service").exists()
    assert shutil.which("bash")


def test_ci_deps_installs_the_browser_when_asked(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    bash = shutil.which("bash")
    for name, body in (("apt-get", f'echo "apt-get $*" >> {log}'),
                       ("apt-cache", f'echo "apt-cache $*" >> {log}; echo "$2 | 1.0 | deb"')):
        (bin_dir / name).write_text(f"#!{bash}\n{body}\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    (bin_dir / "sudo").write_text(f'#!{bash}\nexec "$@"\n')
    (bin_dir / "sudo").chmod(0o755)
    add_tool(bin_dir, "chromium")
    env = {"PATH": str(bin_dir), "HOME": "/nonexistent"}
    done = subprocess.run([bash, str(CI_DEPS), "chromium=chromium", "chromedriver=chromium-driver"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert log.read_text().splitlines() == ["apt-cache madison chromium-driver",
                                            "apt-get install -y -qq --no-install-recommends chromium-driver"]
    assert "chromium=chromium chromedriver=chromium-driver" in (REPO / ".ci/run").read_text()
