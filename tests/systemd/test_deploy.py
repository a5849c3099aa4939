"""deploy/install.sh and deploy/uninstall.sh, run against a temporary root (never the real system)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.kit.deploykit import (BASH, CI_DEPS, ENABLE_LINK, INSTALL, REPO, RPI_OS_PACKAGES, UNINSTALL, enables,
                                 files_under, run)


def test_deploy_install_puts_config_unit_and_docs_under_the_root(root):
    out = run(INSTALL, "--root", str(root)).stdout
    assert (root / "etc/cantstop-box/config.toml").read_bytes() == (REPO / "firmware/default_config.toml").read_bytes()
    unit = root / "etc/systemd/system/cantstop-box.service"
    assert unit.read_bytes() == (REPO / "systemd/cantstop-box.service").read_bytes()
    assert oct(unit.stat().st_mode & 0o777) == "0o644"
    for doc in ("building.md", "wiring.png"):
        if (REPO / "docs" / doc).exists():
            assert (root / "opt/cantstop-box/docs" / doc).read_bytes() == (REPO / "docs" / doc).read_bytes()
    assert not (root / "etc/systemd/system/cantstop-box.service.d").exists()
    # system changes are only printed under a root override
    assert "would run: useradd --system --user-group" in out
    assert "--groups gpio\\,i2c\\,spi cantstop" in out
    # each version in its own place, made current by a symlink; the old path points at it (docs/update.md)
    assert f"would run: python3 -m venv --system-site-packages {root}/opt/cantstop-box/releases/0.1.0/venv" in out
    assert f"would run: {root}/opt/cantstop-box/releases/0.1.0/venv/bin/python -m pip install" in out
    assert "\\[pi\\]" in out
    assert os.readlink(root / "opt/cantstop-box/current") == "releases/0.1.0"
    assert os.readlink(root / "opt/cantstop-box/venv") == "current/venv"
    assert os.readlink(root / "usr/local/sbin/cantstop-box-update") == "/opt/cantstop-box/updater/update.py"
    assert (root / "opt/cantstop-box/updater/switching.py").read_bytes() == (REPO / "deploy/switching.py").read_bytes()
    assert ("would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "
            + " ".join(RPI_OS_PACKAGES)) in out
    assert "--only-binary=:all:" in out  # never a compiler
    # no systemd runs a --root tree: enabled offline, starts on the next boot
    assert os.readlink(root / ENABLE_LINK) == "/etc/systemd/system/cantstop-box.service"
    assert "systemctl daemon-reload" not in out and "restart" not in out
    assert out.rstrip().endswith("cantstop-box is enabled and starts on the next boot.")
    assert "NOTE" not in out


def test_deploy_install_is_idempotent_and_never_overwrites_settings(root):
    run(INSTALL, "--root", str(root))
    settings = root / "etc/cantstop-box/config.toml"
    settings.write_text("[game]\nplayers = 4\n")
    before = files_under(root)
    out = run(INSTALL, "--root", str(root)).stdout
    assert f"kept your settings in {settings}" in out
    assert files_under(root) == before


def test_deploy_install_updates_a_changed_unit(root):
    run(INSTALL, "--root", str(root))
    unit = root / "etc/systemd/system/cantstop-box.service"
    unit.write_text("[Service]\nExecStart=/old\n")
    run(INSTALL, "--root", str(root))
    assert unit.read_bytes() == (REPO / "systemd/cantstop-box.service").read_bytes()


def test_deploy_install_dry_run_changes_nothing(root):
    before = files_under(root)
    out = run(INSTALL, "--dry-run", "--root", str(root)).stdout
    assert out.startswith("Dry run: nothing is changed.\n")
    assert files_under(root) == before
    assert f"would run: install -m 0644 {REPO}/systemd/cantstop-box.service {root}/etc/systemd/system/" in out
    assert f"/firmware/default_config.toml {root}/etc/cantstop-box/config.toml" in out
    assert enables(out)


def test_deploy_install_dry_run_on_the_real_system_only_prints(tmp_path):
    # ROOT unset: the real paths, but --dry-run must not touch them
    env = {k: v for k, v in os.environ.items() if k != "ROOT"}
    done = subprocess.run([BASH, str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert enables(done.stdout) or "would run: systemctl enable cantstop-box.service" in done.stdout
    assert "/etc/systemd/system/cantstop-box.service" in done.stdout
    assert " /opt/cantstop-box/releases/" in done.stdout and "would make /opt/cantstop-box/current point at" in done.stdout


def test_deploy_install_root_from_the_environment(root):
    run(INSTALL, env={"ROOT": str(root)})
    assert (root / "etc/systemd/system/cantstop-box.service").exists()


def test_deploy_install_on_plain_debian_makes_the_groups_and_gives_them_the_devices(root):
    """Issue 20, fault 1: no gpio group, /dev/gpiochip0 root 0600: the box could not read its buttons."""
    (root / "etc/group").write_text("root:x:0:\nusers:x:100:\n")  # plain Debian: none of the three
    out = run(INSTALL, "--root", str(root)).stdout
    for group in ("gpio", "i2c", "spi"):
        assert f"would run: groupadd --system {group}" in out
    assert "--groups gpio\\,i2c\\,spi cantstop" in out
    assert "does not exist" not in out
    rule = root / "etc/udev/rules.d/60-cantstop-box.rules"
    assert rule.read_bytes() == (REPO / "deploy/60-cantstop-box.rules").read_bytes()
    assert oct(rule.stat().st_mode & 0o777) == "0o644"
    # no systemd here: the rule takes effect at the next boot, and says so
    assert "the udev rule 60-cantstop-box.rules gives the GPIO, I2C and SPI devices to their groups" in out
    # the unit keeps all three groups: no drop-in loosens or narrows it
    assert not (root / "etc/systemd/system/cantstop-box.service.d").exists()


def test_deploy_install_makes_only_the_missing_groups(root):
    (root / "etc/group").write_text("gpio:x:997:\ni2c:x:998:\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert "would run: groupadd --system spi" in out
    assert "groupadd --system gpio" not in out and "groupadd --system i2c" not in out


def test_deploy_install_drops_an_old_groups_drop_in(root):
    dropin = root / "etc/systemd/system/cantstop-box.service.d/groups.conf"
    dropin.parent.mkdir(parents=True)
    dropin.write_text("[Service]\nSupplementaryGroups=\nSupplementaryGroups=gpio i2c\n")
    run(INSTALL, "--root", str(root))
    assert not dropin.exists() and not dropin.parent.exists()


def test_deploy_uninstall_removes_the_udev_rule(root):
    run(INSTALL, "--root", str(root))
    rule = root / "etc/udev/rules.d/60-cantstop-box.rules"
    assert rule.exists()
    run(UNINSTALL, "--root", str(root))
    assert not rule.exists()


def test_deploy_install_puts_the_command_on_roots_path_and_uninstall_takes_it_back(root):
    link = root / "usr/local/bin/cantstop-box"
    run(INSTALL, "--root", str(root))
    assert os.readlink(link) == "/opt/cantstop-box/venv/bin/cantstop-box"  # `sudo cantstop-box players add Ann`
    run(UNINSTALL, "--root", str(root))
    assert not link.is_symlink()


def test_deploy_install_leaves_another_programs_command_alone(root):
    other = root / "usr/local/bin/cantstop-box"
    other.parent.mkdir(parents=True, exist_ok=True)
    other.write_text("#!/bin/sh\necho mine\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert other.read_text() == "#!/bin/sh\necho mine\n"
    assert "is another program's: run the box's commands as /opt/cantstop-box/venv/bin/cantstop-box" in out
    run(UNINSTALL, "--root", str(root))
    assert other.read_text() == "#!/bin/sh\necho mine\n"


def test_deploy_install_existing_user_gets_the_groups(root):
    (root / "etc/passwd").write_text("cantstop:x:990:990::/var/lib/cantstop-box:/usr/sbin/nologin\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert "user cantstop exists" in out
    assert "would run: usermod --append --groups gpio\\,i2c\\,spi cantstop" in out
    assert "useradd" not in out


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_deploy_scripts_reject_unknown_options_in_one_line(script):
    done = run(script, "--frobnicate", check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"{script.name}: unknown option '--frobnicate'; usage: sudo deploy/{script.name}" in done.stderr


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_deploy_scripts_reject_a_missing_root(script, tmp_path):
    done = run(script, "--root", str(tmp_path / "nope"), check=False)
    assert done.returncode == 2 and "is not a directory" in done.stderr


def test_deploy_uninstall_keeps_history_and_edited_settings(root):
    run(INSTALL, "--root", str(root))
    (root / "opt/cantstop-box/current/venv/bin").mkdir(parents=True)
    (root / "opt/cantstop-box/current/venv/bin/cantstop-box").write_text("#!/bin/sh\n")
    (root / "var/lib/cantstop-box").mkdir(parents=True)
    (root / "var/lib/cantstop-box/games.sqlite").write_bytes(b"SQLite format 3\0")
    (root / "etc/cantstop-box/config.toml").write_text("[game]\nplayers = 3\n")
    out = run(UNINSTALL, "--root", str(root)).stdout
    assert not (root / "etc/systemd/system/cantstop-box.service").exists()
    assert not (root / ENABLE_LINK).is_symlink()
    assert not (root / "opt/cantstop-box").exists()
    assert (root / "var/lib/cantstop-box/games.sqlite").read_bytes() == b"SQLite format 3\0"
    assert (root / "etc/cantstop-box/config.toml").read_text() == "[game]\nplayers = 3\n"
    assert f"kept the game history in {root}/var/lib/cantstop-box" in out
    # twice is fine
    again = run(UNINSTALL, "--root", str(root)).stdout
    assert "no service installed" in again and "no program installed" in again


def test_deploy_uninstall_leaves_nothing_but_the_game_store(root):
    before = files_under(root)
    run(INSTALL, "--root", str(root))
    (root / "var/lib/cantstop-box").mkdir(parents=True)
    (root / "var/lib/cantstop-box/games.sqlite").write_bytes(b"SQLite format 3\0")
    run(UNINSTALL, "--root", str(root))
    left = {p for p in files_under(root) if not p.startswith("var/lib/cantstop-box/")}
    assert left == set(before)
    assert not (root / "etc/cantstop-box").exists()  # the untouched default settings went too
    assert not (root / ENABLE_LINK).is_symlink()


def test_deploy_uninstall_purge_removes_everything_it_made(root):
    run(INSTALL, "--root", str(root))
    (root / "var/lib/cantstop-box").mkdir(parents=True)
    (root / "etc/passwd").write_text("cantstop:x:990:990::/var/lib/cantstop-box:/usr/sbin/nologin\n")
    (root / "etc/group").write_text((root / "etc/group").read_text() + "cantstop:x:990:\n")
    out = run(UNINSTALL, "--purge", "--root", str(root)).stdout
    assert not (root / "var/lib/cantstop-box").exists() and not (root / "etc/cantstop-box").exists()
    assert "would run: userdel cantstop" in out
    assert (root / "etc/group").exists() and (root / "boot/firmware/config.txt").exists()


def test_deploy_uninstall_dry_run_changes_nothing(root):
    run(INSTALL, "--root", str(root))
    before = files_under(root)
    out = run(UNINSTALL, "--purge", "--dry-run", "--root", str(root)).stdout
    assert files_under(root) == before
    assert f"would run: rm -rf {root}/etc/cantstop-box" in out
    assert out.rstrip().endswith("Would remove cantstop-box, its game history and its settings.")


def test_deploy_scripts_pass_shellcheck_or_bash_syntax():
    scripts = [str(p) for p in (INSTALL, UNINSTALL, CI_DEPS)]
    for s in scripts:
        assert os.access(s, os.X_OK), f"{s} is not executable"
    # sourced by both, not run: no exec bit needed
    scripts += [str(REPO / "deploy" / "steps.sh"), str(REPO / "deploy" / "platform.sh")]
    checker = shutil.which("shellcheck")
    command = [checker, "--shell=bash", "-x", *scripts] if checker else [BASH, "-n", *scripts]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def open_copy():
    """deploy/ copied where any user can read it: the checkout may sit in a 0700 folder (``mktemp -d``)."""
    base = Path(tempfile.mkdtemp(prefix="cantstop-deploy-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        base.chmod(0o755)
        shutil.copytree(REPO / "deploy", base / "deploy")
        # What makes it a checkout to install.sh: pyproject.toml and the unit.
        (base / "systemd").mkdir()
        for name in ("pyproject.toml", "systemd/cantstop-box.service"):
            shutil.copy(REPO / name, base / name)
        for path in [base / "deploy", base / "systemd", *base.glob("*/*"), base / "pyproject.toml"]:
            path.chmod(0o755)
        yield base / "deploy"
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_deploy_scripts_refuse_the_real_system_without_root(script, open_copy):
    command = [BASH, str(open_copy / script.name)]
    if os.geteuid() == 0:  # drop to nobody for this check
        command = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {k: v for k, v in os.environ.items() if k != "ROOT"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, cwd=open_copy)
    assert done.returncode == 1
    assert f"{script.name}: needs root: run 'sudo deploy/{script.name}'" in done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
