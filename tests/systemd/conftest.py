"""Fixtures of the deploy tests (install.sh, uninstall.sh, ci-deps.sh): a stand-in apt, a Pi-like root, a PATH of stand-ins."""

from __future__ import annotations

import logging
import os
import subprocess

import pytest

from tests.kit.deploykit import BASH, RPI_OS_PACKAGES


@pytest.fixture(autouse=True)
def _no_log_handler_left_behind():
    """run_box sets the box's log up as the journal reads it: logging.basicConfig(force=True) on the
    standard error of the moment, in a test a capture that closes after it. Left on the root logger,
    that handler made every later test in the process that logs print '--- Logging error ---' into
    its own standard error (14 store and command tests failed when run after these in one process)."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if type(handler) is logging.StreamHandler and handler not in before:
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture(scope="session")
def python3_itself(tmp_path_factory):
    """A folder whose python3 is the interpreter that ``python3`` on PATH runs, not a launcher for it.

    The scripts call python3 three times an install; where python3 is a pyenv shim (a bash script
    that finds the version, then execs it: 0.1 s of CPU and up to a second under load each time),
    the shim was two fifths of each install's CPU. Same interpreter, found directly."""
    folder = tmp_path_factory.mktemp("python3-itself")
    found = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"],
                           capture_output=True, text=True, timeout=60)
    interpreter = found.stdout.strip()
    if found.returncode == 0 and os.path.isabs(interpreter) and "'" not in interpreter:
        (folder / "python3").write_text(f"#!/bin/sh\nexec '{interpreter}' \"$@\"\n")
        (folder / "python3").chmod(0o755)
    return folder


@pytest.fixture(autouse=True)
def _python3_directly(python3_itself, monkeypatch):
    monkeypatch.setenv("PATH", f"{python3_itself}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture
def apt_knows(tmp_path, monkeypatch):
    """A stand-in apt-cache (APT_CACHE) offering the packages listed in the returned file (asked one or several at once)."""
    known = tmp_path / "apt-known"
    # Raspberry Pi OS has the Pi camera's picamera2 too (installed only for [camera] source = "pi")
    known.write_text("\n".join((*RPI_OS_PACKAGES, "python3-picamera2")) + "\n")
    fake = tmp_path / "apt-cache"
    fake.write_text(f'#!{BASH}\n[ "$1" = policy ] || exit 1\nshift\nfor p in "$@"; do\necho "$p:"\necho "  Installed: (none)"\n'
                    f'if grep -qx "$p" {known}; then echo "  Candidate: 1.0-1"; else echo "  Candidate: (none)"; fi\ndone\n')
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


@pytest.fixture(scope="session")
def release_key(tmp_path_factory):
    """A release key made for the run (ssh-keygen, as make release-key makes one), and a foreign one."""
    from tests.kit.bundlekit import make_key

    folder = tmp_path_factory.mktemp("release-keys")
    return make_key(folder), make_key(folder, "foreign")


@pytest.fixture
def bundles(tmp_path, release_key):
    """Bundles signed with the run's release key, read back through a trust file that holds it."""
    from deploy import signing
    from tests.kit.bundlekit import Bundles

    key, _ = release_key
    signers = tmp_path / "trust" / signing.TRUST_FILE
    signing.trust(key.with_name(key.name + ".pub"), signers)
    return Bundles(tmp_path, key, signers)
