"""The roster changes while the box runs (fault 9): ``cantstop-box players`` beside a running box,
the new-game screen showing the change within a second, a chosen seat following a rename, and the
games keeping the person's id so that statistics follow it (fault 6)."""

import shutil
import subprocess
import sys
from pathlib import Path

from firmware import views
from boxcli.cli import main
from firmware.config import GameConfig
from firmware.daemon.box import ROSTER_CHECK
from firmware.table import person_stats, roster
from firmware.daemon.loaders import load_stats
from tests.kit.rig import Rig, goto

_script = shutil.which("cantstop-box", path=str(Path(sys.executable).parent))


def _players(tmp_path, *argv):
    return main(["players", *argv, "--state-dir", str(tmp_path)])


def _later(rig):
    """A second on the box's clock: the loop looks at the roster again."""
    rig.clock.advance(ROSTER_CHECK)
    rig.box.pump()


def _name_row(rig, n):
    v = rig.view
    assert isinstance(v, views.SetupView)
    return dict(v.rows).get(f"P{n} name")


def test_live_roster_players_change_beside_a_running_box_in_another_process(tmp_path):
    rig = Rig(tmp_path, settings=GameConfig(roster=("Ann",)))
    try:
        config = tmp_path / "box.toml"
        config.write_text('[game]\nroster = ["Ann"]\n')
        done = subprocess.run([_script, "players", "add", "Cy", "--state-dir", str(tmp_path), "--config", str(config)],
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr) == (0, ""), done.stderr  # was exit 75: "stop it to change the players"
        assert rig.box.app.roster == ("Ann",)  # not looked at yet
        _later(rig)
        assert rig.box.app.roster == ("Ann", "Cy")
        goto(rig, "P1 name")
        rig.tap("C")
        rig.tap("C")
        assert _name_row(rig, 1) == "Cy"
    finally:
        rig.close()


def test_live_roster_a_chosen_seat_follows_a_rename_and_the_game_keeps_the_id(tmp_path):
    assert _players(tmp_path, "add", "Ann") == 0
    rig = Rig(tmp_path)
    try:
        goto(rig, "P1 name")
        rig.tap("C")
        assert _name_row(rig, 1) == "Ann"
        assert _players(tmp_path, "rename", "Ann", "Cat") == 0
        assert _players(tmp_path, "add", "Ann") == 0
        _later(rig)
        assert _name_row(rig, 1) == "Cat" and rig.box.app.roster == ("Cat", "Ann")
        rig.tap("ROLL")
        seat = rig.store.open_game().meta["seats"][0]
        assert seat == {"colour": seat["colour"], "bot": None, "name": "Cat", "person": 1}
        rig.play_on()
        (tally,) = rig.store.facts(person_stats.TALLY_PREFIX).values()
        assert tally["seats"][0]["person"] == 1  # the statistics follow the id, whatever the name becomes
        assert _players(tmp_path, "rename", "Cat", "Kat") == 0
        stats = load_stats(rig.store, roster.load(rig.store, ()))
        assert {p.name for p in stats.people} >= {"Kat"} and "Cat" not in {p.name for p in stats.people}
    finally:
        rig.close()


def test_live_roster_nothing_changed_reads_no_roster(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    try:
        reads = []
        real = rig.store.fact
        monkeypatch.setattr(rig.store, "fact", lambda key: reads.append(key) or real(key))
        for _ in range(5):
            _later(rig)
        assert reads == []  # one PRAGMA data_version a second, no table read
        assert _players(tmp_path, "add", "Di") == 0
        _later(rig)
        assert reads == ["roster"] and rig.box.app.roster == ("Di",)
    finally:
        rig.close()


def test_live_roster_the_check_never_waits_on_a_locked_file(tmp_path):
    import sqlite3
    import time

    from firmware.store import DB_NAME

    rig = Rig(tmp_path)
    holder = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)  # another program holds the file
    try:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO facts (key, value, time) VALUES ('x', '1', 0)")
        t0 = time.perf_counter()
        for _ in range(3):
            _later(rig)
        assert time.perf_counter() - t0 < 1.0  # the store's busy timeout is 5 s: it was never waited on
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        rig.close()
