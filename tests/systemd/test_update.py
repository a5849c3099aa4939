"""The updater's logic (deploy/releases.py, deploy/switching.py, deploy/bundle.py), against a temporary
/opt and a fake box: versions compared, bundles refused in one line, the switch and the way back,
and a power cut before every step, after which the boot's ``recover`` leaves a version that runs
with every game. (The real thing, on a booted guest: make boot-check's update rows.)"""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import tarfile
from pathlib import Path

import pytest

from deploy import storeops
from deploy.releases import IDLE, Releases, UpdateError, is_newer, parse_version
from deploy.switching import Switcher

OLD, NEW, BAD = "0.1.0", "0.2.0", "0.2.1"
SCHEMAS = {OLD: 5, NEW: 6, BAD: 6, "0.1.5": 5}  # the store schema each version writes


class PowerCut(Exception):
    pass


class Disk:
    """What survives a power cut: the store (schema, games) and the count of steps taken."""

    def __init__(self, cut_at: int | None = None) -> None:
        self.store = {"schema": 5, "games": ["g1", "g2"]}
        self.steps, self.cut_at = 0, cut_at
        self.running: str | None = None

    def step(self, what: str) -> None:
        self.steps += 1
        if self.cut_at is not None and self.steps == self.cut_at:
            self.running = None
            raise PowerCut(what)


class FakeBox:
    """The System: a version starts if it is not BAD, migrates the store to its schema and plays one game."""

    def __init__(self, disk: Disk) -> None:
        self.disk, self.lines = disk, []

    def log(self, line: str) -> None:
        self.lines.append(line)

    def stop(self) -> None:
        self.disk.step("stop")
        self.disk.running = None

    def start(self, version: str) -> str | None:
        self.disk.step(f"start {version}")
        store = self.disk.store
        assert store["schema"] <= SCHEMAS[version], f"{version} given a store of schema {store['schema']}"
        store["schema"] = SCHEMAS[version]  # it migrates first
        if version == BAD:
            return "it did not start: cantstop-box: broken on purpose"
        self.disk.running = version
        store["games"].append(f"played on {version} #{len(store['games'])}")
        return None

    def store_schema(self) -> int | None:
        return self.disk.store["schema"]

    def backup(self, version: str, target: Path) -> None:
        self.disk.step("backup")
        assert self.disk.running is None and not target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.disk.store))

    def copy_store(self, target: Path) -> None:
        self.disk.step("copy aside")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.disk.store))

    def restore_store(self, source: Path) -> None:
        self.disk.step("restore")
        self.disk.store = json.loads(source.read_text())

    def import_games(self, version: str, source: Path) -> None:
        self.disk.step("import")
        store = self.disk.store
        assert store["schema"] <= SCHEMAS[version], "an old version cannot write a newer store"
        store["games"] += [g for g in json.loads(source.read_text())["games"] if g not in store["games"]]


class CutReleases(Releases):
    def __init__(self, opt, state_dir, disk: Disk) -> None:
        super().__init__(opt, state_dir)
        self.disk = disk

    def save(self, state):
        self.disk.step(f"save {state.get('phase')}")
        super().save(state)

    def switch(self, version):
        self.disk.step(f"switch {version}")
        super().switch(version)


def fake_release(releases: Releases, version: str) -> None:
    place = releases.begin(version)
    (place / "venv").mkdir()
    releases.mark_complete(version)


@pytest.fixture
def box(tmp_path, monkeypatch):
    monkeypatch.setattr("deploy.releases.DURABLE", False)  # a cut here is an exception, not the power
    def make(cut_at=None, disk=None):
        disk = disk or Disk(cut_at)
        releases = CutReleases(tmp_path / "opt", tmp_path / "state", disk)
        (tmp_path / "state").mkdir(exist_ok=True)
        return Switcher(releases, FakeBox(disk)), releases, disk
    return make


def installed_old(make):
    switcher, releases, disk = make()
    fake_release(releases, OLD)
    releases.switch(OLD)
    releases.save({"phase": IDLE, "good": OLD, "previous": None})
    disk.running = OLD
    return switcher, releases, disk


# -- versions ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, newer", [("0.2.0", "0.1.9", True), ("0.10.0", "0.9.0", True), ("1.0", "1.0.0", False),
                                         ("1.0.1", "1.0", True), ("0.1.0", "0.1.0", False), ("0.1.0", "0.2", False)])
def test_versions_compare_as_numbers(a, b, newer):
    assert is_newer(a, b) is newer


@pytest.mark.parametrize("text", ["", "1.x", "v1.0", "1..2", "../1.0", "1.0-rc1", None])
def test_a_version_not_numbers_and_dots_is_refused_in_one_line(text):
    with pytest.raises(UpdateError) as err:
        parse_version(text)
    assert "\n" not in str(err.value) and "not a version" in str(err.value)


def test_an_update_not_newer_is_refused_unless_allowed(box):
    switcher, releases, _ = installed_old(box)
    with pytest.raises(UpdateError, match="already installed; --allow-older"):
        switcher.check_update(OLD)
    with pytest.raises(UpdateError, match="older than 0.1.0"):
        switcher.check_update("0.0.9")
    assert switcher.check_update("0.0.9", allow_older=True) == OLD
    assert switcher.check_update(NEW) == OLD


# -- the switch and the way back ---------------------------------------------------------------

def test_a_good_update_is_kept_and_the_old_one_stays_for_rollback(box):
    switcher, releases, disk = installed_old(box)
    fake_release(releases, "0.0.5")  # an older one: pruned
    fake_release(releases, NEW)
    line = switcher.switch_to(NEW, SCHEMAS[NEW])
    assert "0.1.0 -> 0.2.0" in line and releases.current() == NEW and disk.running == NEW
    assert releases.installed() == [OLD, NEW]
    assert os.readlink(releases.current_link) == f"releases/{NEW}"
    assert not (releases.opt / ".current.new").exists()
    state = releases.state()
    assert state["previous"] == OLD and state["backup"].endswith(f"before-{NEW}.sqlite3")


def test_a_version_that_fails_to_start_goes_back_by_itself_and_says_why(box):
    switcher, releases, disk = installed_old(box)
    before = list(disk.store["games"])
    fake_release(releases, BAD)
    with pytest.raises(UpdateError, match="update to 0.2.1 failed: it did not start: cantstop-box: broken on purpose; "
                                          "back on 0.1.0"):
        switcher.switch_to(BAD, SCHEMAS[BAD])
    assert releases.current() == OLD and disk.running == OLD
    assert disk.store["schema"] == 5 and disk.store["games"][:len(before)] == before
    assert "back on 0.1.0" in releases.notice_file.read_text() and releases.state()["failed"] == BAD


def test_a_migration_then_rollback_keeps_every_game(box):
    switcher, releases, disk = installed_old(box)
    fake_release(releases, NEW)
    switcher.switch_to(NEW, SCHEMAS[NEW])
    disk.store["games"].append("another on 0.2.0")
    everything = list(disk.store["games"])
    assert disk.store["schema"] == 6
    assert "from 0.2.0 to 0.1.0" in switcher.rollback()
    assert releases.current() == OLD and disk.store["schema"] == 5
    assert set(everything) <= set(disk.store["games"])
    with pytest.raises(UpdateError, match="no earlier version kept"):
        switcher.rollback()


def test_an_update_without_a_new_schema_takes_no_backup(box):
    switcher, releases, disk = installed_old(box)
    fake_release(releases, "0.1.5")
    switcher.switch_to("0.1.5", 5)
    assert releases.state()["backup"] is None and not releases.kept.exists()


# -- a power cut before each step ---------------------------------------------------------------

def steps_of(box, run) -> int:
    switcher, releases, disk = installed_old(box)
    start = disk.steps
    run(switcher, releases, disk)
    return disk.steps - start


def good_update(switcher, releases, disk):
    fake_release(releases, NEW)
    switcher.switch_to(NEW, SCHEMAS[NEW])


def bad_update(switcher, releases, disk):
    fake_release(releases, BAD)
    with pytest.raises(UpdateError):
        switcher.switch_to(BAD, SCHEMAS[BAD])


def update_then_rollback(switcher, releases, disk):
    good_update(switcher, releases, disk)
    switcher.rollback()


def rollback_then_update_again(switcher, releases, disk):
    update_then_rollback(switcher, releases, disk)
    disk.store["games"].append("played on 0.1.0 after going back")
    good_update(switcher, releases, disk)  # a second store kept aside must not be taken for the first


@pytest.mark.parametrize("run", [good_update, bad_update, update_then_rollback, rollback_then_update_again])
def test_a_power_cut_at_any_step_boots_into_a_version_that_runs_with_every_game(tmp_path, box, run):
    total = steps_of(box, run)
    assert total >= 5
    for cut in range(1, total + 1):
        for path in (tmp_path / "opt", tmp_path / "state"):
            if path.exists():
                import shutil
                shutil.rmtree(path)
        switcher, releases, disk = installed_old(box)
        disk.cut_at = disk.steps + cut
        with pytest.raises(PowerCut):
            try:
                run(switcher, releases, disk)
            except UpdateError:
                raise AssertionError(f"cut {cut}: no power cut") from None
        played = set(disk.store["games"])
        # The boot: recover first (its own steps may be cut again: then the next boot recovers).
        disk.cut_at = None
        again, releases, _ = box(disk=disk)
        again.recover()
        now = releases.current()
        assert now in (OLD, NEW) and releases.state()["phase"] == IDLE, f"cut {cut}: {now} {releases.state()}"
        assert disk.store["schema"] <= SCHEMAS[now], f"cut {cut}: {now} cannot write schema {disk.store['schema']}"
        assert played <= set(disk.store["games"]), f"cut {cut}: games lost"
        assert FakeBox(disk).start(now) is None


def test_recover_removes_a_half_installed_version_and_leaves_the_running_one(box):
    switcher, releases, _ = installed_old(box)
    (releases.root / NEW / "venv").mkdir(parents=True)  # no .complete: the power went during the install
    assert switcher.recover() is None
    assert releases.installed() == [OLD] and not (releases.root / NEW).exists() and releases.current() == OLD


# -- the store's own steps, on a real SQLite file -------------------------------------------------------

def test_the_copy_aside_holds_what_is_still_in_the_wal_and_a_restore_drops_the_old_wal(tmp_path):
    store = tmp_path / "state"
    store.mkdir()
    db = sqlite3.connect(store / storeops.DB_NAME)
    db.execute("PRAGMA journal_mode=wal")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE games(id)")
    db.execute("PRAGMA user_version=5")
    db.commit()
    storeops.copy(store, tmp_path / "backup.sqlite3")
    db.execute("INSERT INTO games VALUES (1)")
    db.execute("PRAGMA user_version=6")
    db.commit()
    assert (store / "games.sqlite3-wal").stat().st_size > 0
    assert storeops.schema(store) == 6
    storeops.copy(store, tmp_path / "aside.sqlite3")
    db.close()
    storeops.restore(store, tmp_path / "backup.sqlite3")
    assert storeops.schema(store) == 5
    assert sqlite3.connect(store / storeops.DB_NAME).execute("SELECT count(*) FROM games").fetchone() == (0,)
    assert sqlite3.connect(tmp_path / "aside.sqlite3").execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert storeops.schema(tmp_path / "none") is None


def test_the_installer_update_option_needs_a_bundle_and_says_so_in_one_line():
    from tests.kit.deploykit import INSTALL, run

    done = run(INSTALL, "--update", check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "install.sh: --update needs a bundle FILE" in done.stderr


UPDATE = Path(__file__).resolve().parents[2] / "deploy/update.py"
# The updater as root runs it (deploy/ first on its path, as a script), with os.geteuid saying root.
AS_ROOT = ("import os, runpy, sys; sys.path.insert(0, os.path.dirname(sys.argv[1])); os.geteuid = lambda: 0; "
           "runpy.run_path(sys.argv.pop(1), run_name='__main__')")


@pytest.mark.parametrize("damage", [b"{not json", b"[" * 5000, b'{"phase": 7}', b"\xff\xfe", b"[1, 2]"])
@pytest.mark.parametrize("how", [["--recover"], ["--rollback"], ["FILE"], ["--status"]])
def test_a_damaged_update_state_is_one_line_saying_what_to_do_for_every_command(tmp_path, bundles, damage, how):
    """Issue 45, item 3: the error handler read the state again, and that raised a second time."""
    import subprocess
    import sys

    opt, state_dir = tmp_path / "opt", tmp_path / "state"
    opt.mkdir()
    (opt / "update-state.json").write_bytes(damage)
    args = [str(bundles.at()) if a == "FILE" else a for a in how]
    done = subprocess.run([sys.executable, "-c", AS_ROOT, str(UPDATE), *args, "--opt", str(opt),
                           "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=60)
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2, said
    assert "Traceback" not in done.stderr and len(said) == 1, said
    assert "update-state.json is damaged" in said[0] and "move it away" in said[0]
    assert (opt / "update-state.json").read_bytes() == damage  # nothing written over it
