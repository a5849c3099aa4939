"""The box's versions side by side, and the one step that makes one of them current.

Stdlib only: it runs with the system's python3 (the updater, and at boot
before the box starts), never from a release's own venv.

    /opt/cantstop-box/releases/<version>/   each version: src/ (the project), wheels/, venv/,
                                            and .complete once all is written (a
                                            folder without it is removed at boot)
    /opt/cantstop-box/current -> releases/<version>   the one the units run (one rename(2))
    /opt/cantstop-box/update-state.json     where an update or a going back is (see Releases)
    /opt/cantstop-box/update-pending        there while one is under way (the boot's step runs then)
    /var/lib/cantstop-box/update/           the store's backup before a migration, and
                                            the newer store kept aside when going back
    /var/lib/cantstop-box/update-notice.txt  one line the box shows when it next starts

An update is a few steps, each written to the state file before it is taken,
so that ``recover`` (run at every boot before the box, and before any other
update) finds where a power cut left it and ends it by going back to the
version that was good: the box boots into the old version or the new one,
never neither, with its games.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

#: A version as pyproject.toml spells it: numbers joined by dots (0.1.0, 1.10).
VERSION = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,6}){0,4}$")
STATE_LIMIT = 64 * 1024  # the state file is a few hundred bytes; a bigger one is not ours
IDLE, TRYING, GOING_BACK = "idle", "trying", "going-back"
#: Flush to the card at every step (the tests, whose "power cuts" are exceptions, turn it off for speed).
DURABLE = True


class UpdateError(Exception):
    """A refusal or a failure, in one line for the owner."""


def parse_version(text: str) -> tuple[int, ...]:
    """>>> parse_version("0.10.2")
    (0, 10, 2)
    """
    if not isinstance(text, str) or not VERSION.match(text):
        raise UpdateError(f"not a version: {str(text)[:40]!r} (numbers and dots, such as 0.2.1)")
    return tuple(int(part) for part in text.split("."))


def is_newer(candidate: str, than: str) -> bool:
    """Whether ``candidate`` is a later version than ``than`` (1.10 after 1.9; 1.0 and 1.0.0 the same).

    >>> is_newer("0.10.0", "0.9.9"), is_newer("1.0", "1.0.0"), is_newer("0.1.0", "0.1.1")
    (True, False, False)
    """
    a, b = parse_version(candidate), parse_version(than)
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)) > b + (0,) * (width - len(b))


def fsync_dir(path: Path) -> None:
    if not DURABLE:
        return
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """``path`` holds ``data`` whole or what it held before, whenever the power goes."""
    tmp = path.with_name(f".{path.name}.new")
    with open(tmp, "wb") as out:
        out.write(data)
        out.flush()
        if DURABLE:
            os.fsync(out.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


class Releases:
    """The releases under ``opt`` and the update state; the store's directory for the backups."""

    def __init__(self, opt: Path, state_dir: Path) -> None:
        self.opt = Path(opt)
        self.root = self.opt / "releases"
        self.current_link = self.opt / "current"
        self.state_file = self.opt / "update-state.json"
        #: There while an update or a going back is under way: the boot's recover step runs only then.
        self.pending = self.opt / "update-pending"
        self.state_dir = Path(state_dir)
        self.kept = self.state_dir / "update"
        self.notice_file = self.state_dir / "update-notice.txt"

    # -- where things are -----------------------------------------------------------

    def path(self, version: str) -> Path:
        parse_version(version)
        return self.root / version

    def installed(self) -> list[str]:
        """The versions fully installed, oldest first."""
        if not self.root.is_dir():
            return []
        found = [p.name for p in self.root.iterdir() if p.is_dir() and VERSION.match(p.name)
                 and (p / ".complete").exists()]
        return sorted(found, key=parse_version)

    def current(self) -> str | None:
        """The version ``current`` points at, or None (no link yet, or one that is not ours)."""
        try:
            target = os.readlink(self.current_link)
        except OSError:
            return None
        name = Path(target).name
        return name if VERSION.match(name) and Path(target).parent.name == "releases" else None

    def switch(self, version: str) -> None:
        """Make ``version`` current in one rename(2) of a new symlink over the old."""
        if not (self.path(version) / ".complete").exists():
            raise UpdateError(f"version {version} is not installed in {self.root}")
        tmp = self.opt / ".current.new"
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()
        os.symlink(f"releases/{version}", tmp)
        os.replace(tmp, self.current_link)
        fsync_dir(self.opt)

    def begin(self, version: str) -> Path:
        """An empty folder for ``version`` (its venv must be built where it will run: its scripts name it)."""
        if version == self.current():
            raise UpdateError(f"version {version} is the one running: nothing to do")
        final = self.path(version)
        if final.exists():
            shutil.rmtree(final)
        final.mkdir(parents=True)
        return final

    def mark_complete(self, version: str) -> None:
        """A version's files all written: flushed, then marked whole."""
        if DURABLE:
            os.sync()
        write_atomic(self.path(version) / ".complete", (version + "\n").encode())

    def prune(self, keep: set[str]) -> list[str]:
        """Remove every release but ``keep`` (the current one and the last good); the removed ones."""
        gone = []
        for version in self.installed():
            if version not in keep:
                shutil.rmtree(self.path(version), ignore_errors=True)
                gone.append(version)
        return gone

    def clear_partials(self) -> list[str]:
        gone = []
        if self.root.is_dir():
            for p in self.root.iterdir():
                if p.is_dir() and not (p / ".complete").exists() and p.name != self.current():
                    shutil.rmtree(p, ignore_errors=True)
                    gone.append(p.name)
        return gone

    # -- the state ------------------------------------------------------------------

    def state(self) -> dict:
        """The update state; idle with no versions when there is no file (a first install)."""
        try:
            if self.state_file.stat().st_size > STATE_LIMIT:
                raise UpdateError(self._damaged("larger than an update state"))
            state = json.loads(self.state_file.read_text())
        except FileNotFoundError:
            state = {}
        except (ValueError, RecursionError) as err:  # not JSON, not UTF-8, or nested too deep
            raise UpdateError(self._damaged(f"not JSON: {str(err)[:60] or type(err).__name__}")) from None
        except OSError as err:
            raise UpdateError(f"cannot read {self.state_file}: {err.strerror or err}") from None
        if not isinstance(state, dict) or not isinstance(state.get("phase", IDLE), str):
            raise UpdateError(self._damaged("not an update state"))
        state.setdefault("phase", IDLE)
        return state

    def _damaged(self, why: str) -> str:
        """One line for a state file that does not read: what it is, and what to do."""
        return (f"{self.state_file} is damaged ({why}): move it away (sudo mv {self.state_file} /root/), then "
                f"run this again; meanwhile the box runs {self.current() or 'what current points at'}")

    def save(self, state: dict) -> None:
        self.opt.mkdir(parents=True, exist_ok=True)
        write_atomic(self.state_file, (json.dumps(state, indent=1, sort_keys=True) + "\n").encode())

    def set_pending(self, on: bool) -> None:
        if on:
            write_atomic(self.pending, b"")
        else:
            self.pending.unlink(missing_ok=True)
            fsync_dir(self.opt)

    def tell(self, line: str) -> None:
        """One line for the box's screen when it next starts (it reads and removes the file)."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.notice_file, (line[:200] + "\n").encode())
        owner = self.state_dir.stat()
        if os.geteuid() == 0:  # the box (its user) removes it once shown
            os.chown(self.notice_file, owner.st_uid, owner.st_gid)
