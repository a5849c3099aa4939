"""The updater's System on a real box: systemd, the box's own commands, the store as the box's user.

"Proved itself" (``start``): ``systemctl start`` returns once the box has sent
READY=1 (Type=notify), within the bound; then it must stay up, not restarted,
for SETTLE_S, and its own ``history`` must read the store. All of it within
the bound (60 s: a Pi Zero 2 W replaying a long game takes a moment).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

if __package__:  # deploy.system (the tests)
    from .releases import Releases, UpdateError
else:  # a script beside releases.py (the box)
    from releases import Releases, UpdateError

UNIT = "cantstop-box.service"
WEB_UNIT = "cantstop-box-web.service"
USER = "cantstop"
SETTLE_S = 5.0
HERE = Path(__file__).resolve().parent


def one_line(text: str, limit: int = 160) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return (lines[-1] if lines else "no output")[:limit]


class RealSystem:
    def __init__(self, releases: Releases, bound_s: float = 60.0, quiet: bool = False) -> None:
        self.releases, self.bound_s, self.quiet = releases, bound_s, quiet
        self.store_dir = releases.state_dir

    def log(self, line: str) -> None:
        """To the journal (as cantstop-box-update) and the terminal."""
        if not self.quiet:
            print(f"cantstop-box-update: {line}", flush=True)
        subprocess.run(["logger", "-t", "cantstop-box-update", "--", line], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def run(self, *cmd: str, timeout: float = 600.0, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        if check and done.returncode:
            raise UpdateError(f"{Path(cmd[0]).name} {' '.join(cmd[1:3])}: {one_line(done.stderr + done.stdout)}")
        return done

    def as_box(self, *cmd: str, timeout: float = 600.0, check: bool = True) -> subprocess.CompletedProcess:
        return self.run("runuser", "-u", USER, "--", *cmd, timeout=timeout, check=check)

    def box(self, version: str) -> str:
        return str(self.releases.path(version) / "venv/bin/cantstop-box")

    # -- the units --------------------------------------------------------------------

    def web_enabled(self) -> bool:
        return self.run("systemctl", "is-enabled", "--quiet", WEB_UNIT, check=False).returncode == 0

    def stop(self) -> None:
        for unit in (WEB_UNIT, UNIT):  # one at a time: a web view never installed stops nothing else
            self.run("systemctl", "stop", unit, check=False, timeout=60)

    def start(self, version: str) -> str | None:
        started = time.monotonic()
        self.run("systemctl", "reset-failed", UNIT, check=False)
        try:
            done = self.run("systemctl", "start", UNIT, check=False, timeout=self.bound_s)
        except subprocess.TimeoutExpired:
            return f"no READY within {self.bound_s:.0f} s"
        if done.returncode:
            return f"it did not start: {self.said()}"
        while time.monotonic() - started < self.bound_s:
            state = self.show("ActiveState", "NRestarts", "SubState")
            if state.get("ActiveState") != "active" or state.get("NRestarts", "0") != "0":
                return f"it stopped after READY: {self.said()}"
            if time.monotonic() - started >= SETTLE_S:
                break
            time.sleep(0.5)
        left = self.bound_s - (time.monotonic() - started)
        if left <= 0:
            return f"no check passed within {self.bound_s:.0f} s"
        try:
            check = self.as_box(self.box(version), "history", "--state-dir", str(self.store_dir),
                                timeout=left, check=False)
        except subprocess.TimeoutExpired:
            return f"its check (history) took over {self.bound_s:.0f} s"
        if check.returncode:
            return f"its check failed: {one_line(check.stderr + check.stdout)}"
        if self.web_enabled():
            self.run("systemctl", "start", WEB_UNIT, check=False, timeout=60)
        return None

    def show(self, *props: str) -> dict[str, str]:
        args = [a for p in props for a in ("-p", p)]
        out = self.run("systemctl", "show", UNIT, *args, check=False).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def said(self) -> str:
        """The box's last line in the journal (its one-line reason for stopping)."""
        text = self.run("journalctl", "--no-pager", "-o", "cat", "-n", "30", "-u", UNIT, check=False).stdout
        lines = [line for line in text.splitlines() if line.startswith("cantstop-box: ")] or \
                [line for line in text.splitlines() if line.strip() and "systemd" not in line]
        return (lines[-1] if lines else "no line in the journal")[:120]

    # -- the store ------------------------------------------------------------------------

    def storeops(self, *args: str) -> str:
        return self.as_box(sys.executable, str(HERE / "storeops.py"), *args).stdout.strip()

    def store_schema(self) -> int | None:
        found = self.storeops("schema", str(self.store_dir))
        return int(found) if found else None

    def backup(self, version: str, target: Path) -> None:
        self.as_box("mkdir", "-p", "-m", "0700", str(target.parent))
        self.as_box(self.box(version), "backup", str(target), "--state-dir", str(self.store_dir))

    def copy_store(self, target: Path) -> None:
        self.storeops("copy", str(self.store_dir), str(target))

    def restore_store(self, source: Path) -> None:
        self.storeops("restore", str(self.store_dir), str(source))

    def import_games(self, version: str, source: Path) -> None:
        done = self.as_box(self.box(version), "import", str(source), "--state-dir", str(self.store_dir), check=False)
        if done.returncode:
            self.log(f"import of {source.name} by {version}: {one_line(done.stdout + done.stderr)}")
        else:
            self.log(f"{version} imported the games of {source.name}: {one_line(done.stdout)}")
