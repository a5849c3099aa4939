"""Switch to a new version, keep it only if it proves itself, else go back; finish either after a power cut.

The steps of an update, each written to the state file before it is taken
(deploy/releases.py):

    1. the new version installed beside the current one (releases/<v>, marked
       whole by its .complete once every file is written): the box plays on meanwhile
    2. state "trying" (good = the current version, to = the new one)
    3. the box stopped; if the new version's store schema is newer than the
       store's, the old version's own ``backup`` of it, named in the state
    4. ``current`` switched to the new version (one rename)
    5. the box started: it must reach READY and pass the check within the bound
    6a. it did: state idle, good = the new one, previous = the old one (for --rollback)
    6b. it did not: going back (state "going-back"), below

Going back (also ``--rollback``, and at boot whenever the state is not idle):
the box stopped; if the store was migrated (its schema is above the backup's),
the newer store is copied aside, the backup put in its place, and after the
switch the old version's own ``import`` brings back every game of the copy
(it refuses those already there, so doing it twice adds nothing); then
``current`` goes back, the box starts, and the reason is one line on its
screen and in the journal. Every step may be done again after a power cut.

What touches the system (systemd, the box's commands, SQLite) is a ``System``
(deploy/system.py; the tests give a fake one).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol

if __package__:  # deploy.switching (the tests)
    from .releases import GOING_BACK, IDLE, TRYING, Releases, UpdateError, is_newer
else:  # a script beside releases.py (the box)
    from releases import GOING_BACK, IDLE, TRYING, Releases, UpdateError, is_newer


class System(Protocol):
    def log(self, line: str) -> None: ...
    def stop(self) -> None: ...
    def start(self, version: str) -> str | None:
        """Start the box; None when it reached READY and passed its check in time, else why not (one line)."""
    def store_schema(self) -> int | None: ...
    def backup(self, version: str, target: Path) -> None: ...
    def copy_store(self, target: Path) -> None: ...
    def restore_store(self, source: Path) -> None: ...
    def import_games(self, version: str, source: Path) -> None: ...


class Switcher:
    def __init__(self, releases: Releases, system: System) -> None:
        self.releases, self.system = releases, system

    # -- an update ------------------------------------------------------------------

    def check_update(self, version: str, allow_older: bool = False) -> str | None:
        """The current version, after refusing a ``version`` not newer (unless ``allow_older``)."""
        current = self.releases.current()
        if current is not None and not allow_older and not is_newer(version, current):
            same = "already installed" if version == current else f"older than {current}, the one installed"
            raise UpdateError(f"version {version} is {same}; --allow-older installs it anyway")
        if current == version:
            raise UpdateError(f"version {version} is the one running: nothing to do")
        return current

    def switch_to(self, version: str, schema: int | None) -> str:
        """Steps 2 to 6 for an installed ``version`` whose store schema is ``schema``; one line of what happened.
        Raises UpdateError (after going back) when the new version failed."""
        releases, system = self.releases, self.system
        good = releases.current()
        if releases.state()["phase"] != IDLE:
            raise UpdateError("an update was left half done: run with --recover first")
        before = releases.state()
        state = {"phase": TRYING, "good": good, "to": version, "backup": None, "backup_schema": None,
                 "previous": before.get("previous")}
        releases.save(state)
        system.stop()
        now = system.store_schema()
        if good is not None and schema is not None and now is not None and schema > now:
            target = releases.kept / f"before-{version}.sqlite3"
            if target.exists():
                target.unlink()
            system.backup(good, target)
            state.update(backup=str(target), backup_schema=now)
            releases.save(state)
            system.log(f"store schema {now} -> {schema}: backed up to {target} first")
        releases.switch(version)
        why = system.start(version)
        if why is None:
            releases.save({"phase": IDLE, "good": version, "previous": good, "backup": state["backup"],
                           "backup_schema": state["backup_schema"]})
            kept = {version} | ({good} if good else set())
            releases.prune(kept)
            return f"updated {good or 'nothing'} -> {version}: it reached READY and passed its check"
        if good is None:
            releases.save({"phase": IDLE, "good": None, "previous": None})
            raise UpdateError(f"version {version} did not start ({why}) and there is no older one to go back to")
        line = f"update to {version} failed: {why}; back on {good}"
        self.go_back(state, good, version, line, start=True)
        raise UpdateError(line)

    # -- going back -----------------------------------------------------------------

    def rollback(self) -> str:
        """--rollback: back to the last good version before this one, with every game."""
        state = self.releases.state()
        if state["phase"] != IDLE:
            raise UpdateError("an update was left half done: run with --recover first")
        now, previous = self.releases.current(), state.get("previous")
        if not previous or previous not in self.releases.installed():
            raise UpdateError(f"no earlier version kept to go back to (running {now or 'none'})")
        line = f"went back from {now} to {previous} (--rollback)"
        self.go_back(state, previous, now, line, start=True)
        return line

    def go_back(self, state: dict, good: str, bad: str | None, line: str, start: bool) -> None:
        """Back to ``good`` from ``bad``, the games played on ``bad`` kept; each step may run again."""
        releases, system = self.releases, self.system
        state = {**state, "phase": GOING_BACK, "good": good, "to": bad, "why": line}
        releases.save(state)
        if start:  # at boot the box has not started (and a stop would cancel its start)
            system.stop()
        aside = None
        backup = state.get("backup")
        if backup and Path(backup).exists():
            if not state.get("restored"):
                now = system.store_schema()
                if now is not None and now > (state.get("backup_schema") or 0):
                    if not state.get("aside"):  # a name of its own, kept before the copy is made
                        state["aside"] = str(self.new_name(f"from-{bad}-{time.strftime('%Y%m%d-%H%M%S')}"))
                        releases.save(state)
                    if not Path(state["aside"]).exists():
                        system.copy_store(Path(state["aside"]))
                    system.restore_store(Path(backup))
                state["restored"] = True
                releases.save(state)
            aside = Path(state["aside"]) if state.get("aside") else None
        releases.switch(good)
        if aside is not None:
            system.import_games(good, aside)
        previous = state.get("previous")  # still there for --rollback, unless that is where we went
        releases.save({"phase": IDLE, "good": good, "previous": previous if previous != good else None, "failed": bad})
        releases.tell(line)
        system.log(line)
        if start:
            why = system.start(good)
            if why is not None:
                system.log(f"{good} did not start either: {why}")

    def new_name(self, stem: str) -> Path:
        """A file name in the kept folder that no earlier going back used."""
        n, path = 1, self.releases.kept / f"{stem}.sqlite3"
        while path.exists() or path.with_name(path.name + ".tmp").exists():
            n += 1
            path = self.releases.kept / f"{stem}-{n}.sqlite3"
        return path

    # -- at boot ----------------------------------------------------------------------

    def recover(self) -> str | None:
        """Finish what a power cut interrupted (run before the box starts); one line of what it did, or None."""
        releases = self.releases
        releases.clear_partials()
        state = releases.state()
        phase = state["phase"]
        if phase == IDLE:
            good = state.get("good")
            if releases.current() is None and good in releases.installed():
                releases.switch(good)  # a link lost: the last good one
                return f"current pointed nowhere: {good} again"
            return None
        good = state.get("good")
        if not good or good not in releases.installed():
            # Nothing older to go back to: keep what the link points at (the only whole version).
            releases.save({"phase": IDLE, "good": releases.current(), "previous": None})
            return None
        bad = state.get("to")
        if phase == TRYING:
            line = f"update to {bad} interrupted (power cut?): back on {good}"
        elif phase == GOING_BACK:
            line = state.get("why") or f"went back to {good}"
        else:
            raise UpdateError(f"{releases.state_file}: unknown phase {phase!r}: move it away")
        self.go_back(state, good, bad, line, start=False)
        return line
