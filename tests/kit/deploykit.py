"""Helpers for the deploy tests: the scripts, running them against a temporary root, stand-in tools."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

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



def enables(out: str) -> bool:
    """Does this (dry-run) output enable the unit offline?"""
    return any(line.startswith("would run: systemctl --root=") and line.endswith("enable cantstop-box.service")
               or line.startswith("would run: ln -sfn /etc/systemd/system/cantstop-box.service")
               for line in out.splitlines())


def files_under(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}



def ci_deps(bin_dir: Path, *wanted: str) -> subprocess.CompletedProcess:
    return subprocess.run([BASH, str(CI_DEPS), *wanted], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "HOME": "/nonexistent"})


def add_tool(bin_dir: Path, name: str) -> None:
    (bin_dir / name).write_text(f"#!{BASH}\nexit 0\n")
    (bin_dir / name).chmod(0o755)
