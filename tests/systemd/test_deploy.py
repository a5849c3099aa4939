"""deploy/install.sh and deploy/uninstall.sh, run against a temporary root (never the real system)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"
UNINSTALL = REPO / "deploy" / "uninstall.sh"
CI_DEPS = REPO / "deploy" / "ci-deps.sh"
BASH = shutil.which("bash")


def run(script: Path, *args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([BASH, str(script), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


RPI_OS_PACKAGES = ("python3-venv", "python3-lgpio", "python3-spidev", "python3-pil", "python3-cbor2")
ENABLE_LINK = "etc/systemd/system/multi-user.target.wants/cantstop-box.service"


@pytest.fixture
def apt_knows(tmp_path, monkeypatch):
    """A stand-in apt-cache (APT_CACHE) offering the packages listed in the returned file."""
    known = tmp_path / "apt-known"
    known.write_text("\n".join(RPI_OS_PACKAGES) + "\n")
    fake = tmp_path / "apt-cache"
    fake.write_text(f'#!{BASH}\n[ "$1" = policy ] || exit 1\necho "$2:"\necho "  Installed: (none)"\n'
                    f'if grep -qx "$2" {known}; then echo "  Candidate: 1.0-1"; else echo "  Candidate: (none)"; fi\n')
    fake.chmod(0o755)
    monkeypatch.setenv("APT_CACHE", str(fake))
    return known


@pytest.fixture
def root(tmp_path, apt_knows):
    """A Raspberry Pi OS-like root: the three device groups, I2C on at 400 kHz, apt's lists fetched."""
    r = tmp_path / "root"
    (r / "etc").mkdir(parents=True)
    (r / "etc" / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    (r / "var/lib/apt/lists").mkdir(parents=True)
    (r / "var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-arm64_Packages").touch()
    (r / "etc" / "group").write_text("gpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\n")
    (r / "boot" / "firmware").mkdir(parents=True)
    (r / "boot" / "firmware" / "config.txt").write_text("[all]\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\n")
    (r / "dev").mkdir()
    (r / "dev" / "i2c-1").touch()
    return r


def enables(out: str) -> bool:
    """Does this (dry-run) output enable the unit offline?"""
    return any(line.startswith("would run: systemctl --root=") and line.endswith("enable cantstop-box.service")
               or line.startswith("would run: ln -sfn /etc/systemd/system/cantstop-box.service")
               for line in out.splitlines())


def files_under(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


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
    assert f"would run: python3 -m venv --system-site-packages {root}/opt/cantstop-box/venv" in out
    assert f"would run: {root}/opt/cantstop-box/venv/bin/python -m pip install" in out and "\\[pi\\]" in out
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
    assert " /opt/cantstop-box/venv" in done.stdout or "/opt/cantstop-box/venv exists" in done.stdout


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


# -- the display's bus in the Pi's boot config (issue 20, fault 6) --------------------------------------------

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
    (root / "opt/cantstop-box/venv/bin").mkdir(parents=True)
    (root / "opt/cantstop-box/venv/bin/cantstop-box").write_text("#!/bin/sh\n")
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


# -- where the compiled modules come from, and the offline enable ------------------


def test_deploy_install_takes_lgpio_from_apt_where_the_distribution_has_it(root):
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: from the distribution (python3-lgpio)" in out


def test_deploy_install_takes_a_wheel_where_the_distribution_has_no_lgpio(root, apt_knows):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian bookworm
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio; a binary wheel from the package index" in out
    apt_line = next(line for line in out.splitlines() if "apt-get install" in line)
    assert apt_line.endswith("python3-venv python3-spidev python3-pil python3-cbor2")
    pip_line = next(line for line in out.splitlines() if "-m pip install" in line)
    assert "--only-binary=:all:" in pip_line


def test_deploy_install_reads_apt_caches_whole_answer(root, tmp_path, monkeypatch):
    """Found by pi-check on armhf: a long answer (the version table) after the Candidate line.

    grep -q in a pipe quit at the Candidate line, apt-cache died of SIGPIPE, and
    under pipefail every package read as missing."""
    long = tmp_path / "apt-cache-long"
    long.write_text(f'#!{BASH}\necho "$2:"\necho "  Candidate: 1.0-1"\n'
                    f'for i in $(seq 20000); do echo "     1.0-$i 500 http://deb.debian.org/debian bookworm/main"; done\n')
    long.chmod(0o755)
    monkeypatch.setenv("APT_CACHE", str(long))
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: from the distribution (python3-lgpio)" in out
    assert "a binary wheel" not in out


def test_deploy_install_names_an_unknown_system_without_os_release(root, apt_knows):
    (root / "etc/os-release").unlink()
    apt_knows.write_text("")
    out = run(INSTALL, "--root", str(root)).stdout
    assert "spidev: this system has no python3-spidev; a binary wheel from the package index" in out
    assert "would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv" in out


def test_deploy_install_fetches_apt_lists_on_a_fresh_image_first(root):
    shutil.rmtree(root / "var/lib/apt/lists")
    lines = run(INSTALL, "--root", str(root)).stdout.splitlines()
    assert lines.index("would run: apt-get update") < next(i for i, line in enumerate(lines) if "apt-get install" in line)


def test_deploy_install_enables_offline_without_systemctl(root, tmp_path):
    """No systemctl at all (a bare image tree): the WantedBy= link made by hand."""
    bin_dir = tmp_path / "bin-without-systemctl"
    bin_dir.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        for tool in Path(d).glob("*") if Path(d).is_dir() else ():
            if tool.name != "systemctl" and not (bin_dir / tool.name).exists():
                (bin_dir / tool.name).symlink_to(tool)
    out = run(INSTALL, "--root", str(root), env={"PATH": str(bin_dir)}).stdout
    assert os.readlink(root / ENABLE_LINK) == "/etc/systemd/system/cantstop-box.service"
    assert "starts on the next boot" in out
    run(UNINSTALL, "--root", str(root), env={"PATH": str(bin_dir)})
    assert not (root / ENABLE_LINK).is_symlink()


# -- ci-deps.sh, with stand-ins for apt so nothing is installed -----------------------


@pytest.fixture
def fake_bin(tmp_path):
    """A PATH holding only a logging apt-get/apt-cache; ci-deps.sh runs on bash builtins otherwise."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    for name, body in (("apt-get", f'echo "apt-get $*" >> {log}'),
                       ("apt-cache", f'echo "apt-cache $*" >> {log}; [ -e {tmp_path}/known ] && echo "$2 | 1.0 | deb"')):
        (bin_dir / name).write_text(f"#!{BASH}\n{body}\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    if os.geteuid() != 0:  # ci-deps.sh goes through sudo; let a stand-in pass the command on
        (bin_dir / "sudo").write_text(f'#!{BASH}\nexec "$@"\n')
        (bin_dir / "sudo").chmod(0o755)
    return bin_dir, log


def ci_deps(bin_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([BASH, str(CI_DEPS)], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "HOME": "/nonexistent"})


def add_tool(bin_dir: Path, name: str) -> None:
    (bin_dir / name).write_text(f"#!{BASH}\nexit 0\n")
    (bin_dir / name).chmod(0o755)


def test_deploy_ci_deps_installs_only_what_is_missing(fake_bin, tmp_path):
    bin_dir, log = fake_bin
    add_tool(bin_dir, "systemd-analyze")
    (tmp_path / "known").touch()
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    calls = log.read_text().splitlines()
    assert calls == ["apt-cache madison shellcheck", "apt-get install -y -qq --no-install-recommends shellcheck"]


def test_deploy_ci_deps_updates_apt_only_when_it_knows_no_candidate(fake_bin):
    bin_dir, log = fake_bin
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert log.read_text().splitlines() == [
        "apt-cache madison systemd",
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends systemd shellcheck",
    ]


def test_deploy_ci_deps_does_nothing_when_tools_are_there(fake_bin):
    bin_dir, log = fake_bin
    add_tool(bin_dir, "systemd-analyze")
    add_tool(bin_dir, "shellcheck")
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not log.exists()


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


# -- lgpio where the distribution has none: a PyPI wheel, or nothing at all ----------


@pytest.fixture
def pip_index(tmp_path, monkeypatch):
    """A stand-in pip (PIP) that logs its arguments; the returned file names, one a line, the
    distributions the index has no wheel of ("lgpio", "adafruit-lgpio"); empty: all have one."""
    answer = tmp_path / "pip-missing"
    answer.write_text("")
    asked = tmp_path / "pip-asked"
    fake = tmp_path / "bin" / "pip"
    fake.parent.mkdir()
    fake.write_text(f'#!{BASH}\necho "$*" >> {asked}\n'
                    'want=${!#}; name=${want%%[<>=]*}\n'
                    f'if grep -qxF "$name" {answer}; then\n'
                    '  echo "ERROR: Could not find a version that satisfies the requirement $want (from versions: none)" >&2\n'
                    '  echo "ERROR: No matching distribution found for $want" >&2; exit 1\nfi\n'
                    'echo "Saved ./${name//-/_}-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("PIP", "pip")
    return answer, asked


def pip_install_line(out: str) -> str:
    return next(line for line in out.splitlines() if "-m pip install" in line)


def test_deploy_install_takes_lgpio_from_a_pypi_wheel(root, apt_knows, pip_index):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian bookworm
    answer, asked = pip_index
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio; a binary wheel from the package index" in out
    question = asked.read_text()
    assert question.startswith("download ") and "--only-binary=:all:" in question and "lgpio>=0.2" in question
    assert pip_install_line(out).endswith("\\[pi\\]")  # the 'pi' extra, which brings lgpio
    assert "no lgpio" not in out and "NOTE" not in out


def test_deploy_install_without_lgpio_anywhere_installs_the_rest_and_says_so(root, apt_knows, pip_index):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian trixie
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n')
    answer, asked = pip_index
    answer.write_text("lgpio\nadafruit-lgpio\n")
    done = run(INSTALL, "--root", str(root))
    out = done.stdout
    assert asked.read_text().startswith("download ")
    line = pip_install_line(out)
    assert "[pi]" not in line.replace("\\", "") and line.endswith(str(REPO))  # the program without the 'pi' extra
    notes = [line for line in out.splitlines() if line.startswith("NOTE:")]
    assert any("Debian GNU/Linux 13 (trixie) has no python3-lgpio and PyPI no wheel for it" in n for n in notes)
    assert any("gpiozero's own backend (/dev/gpiomem)" in n for n in notes)
    assert any("Pi 5" in n and "install python3-lgpio" in n for n in notes)
    assert os.readlink(root / ENABLE_LINK) == "/etc/systemd/system/cantstop-box.service"  # installed all the same


def test_deploy_install_takes_adafruits_lgpio_build_where_pypi_has_no_lgpio_wheel(root, apt_knows, pip_index):
    """Debian trixie on a 64-bit Pi (Python 3.13): lgpio from Adafruit's wheel, rpi-lgpio beside it, no note."""
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n')
    answer, asked = pip_index
    answer.write_text("lgpio\n")
    out = run(INSTALL, "--root", str(root)).stdout
    questions = asked.read_text().splitlines()
    assert [q.split()[-1] for q in questions] == ["lgpio>=0.2", "adafruit-lgpio>=0.2.2"]
    assert "lgpio: PyPI's lgpio has no wheel for this Python; Adafruit's build of it (adafruit-lgpio)" in out
    installs = [line.replace("\\", "") for line in out.splitlines() if "-m pip install" in line]
    assert len(installs) == 2, installs
    assert "--no-deps" in installs[0] and installs[0].endswith("adafruit-lgpio>=0.2.2 rpi-lgpio>=0.6")  # spidev: apt
    assert installs[1].endswith(str(REPO))  # the program, its 'pi' extra given part by part above
    assert "NOTE" not in out


def test_deploy_install_leaves_a_pip_fault_to_the_real_install(root, apt_knows, pip_index, tmp_path):
    """Only pip's "no matching distribution" means no wheel: a network fault keeps the 'pi' extra."""
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")
    _, asked = pip_index
    broken = tmp_path / "bin" / "pip"
    broken.write_text(f'#!{BASH}\necho "$*" >> {asked}\necho "ERROR: Could not fetch URL: connection refused" >&2\nexit 1\n')
    out = run(INSTALL, "--root", str(root)).stdout
    assert asked.read_text().startswith("download ")
    assert pip_install_line(out).endswith("\\[pi\\]")
