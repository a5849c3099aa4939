"""Issue 20, fault 7: on an installed box every command means the box's config and store.

``sudo cantstop-box players add Ann``, as the README shows, wrote to root's
home store, which the box never reads. The install markers, the box's store
and the users are the test's own (firmware.store.file.INSTALL_MARKERS,
BOX_STATE_DIR; firmware.store.installed.BOX_USER).
"""

from __future__ import annotations

import os
import pwd

import pytest

from boxcli.cli import main
from firmware.store import Store, file, installed
from firmware.table.roster import ROSTER_KEY


@pytest.fixture
def box(tmp_path, monkeypatch):
    """An installed box: its settings as the marker, its store folder, and a HOME that is not the box's."""
    marker = tmp_path / "etc/cantstop-box/config.toml"
    marker.parent.mkdir(parents=True)
    marker.write_text('[game]\nroster = ["Bob"]\n')
    monkeypatch.setattr(file, "INSTALL_MARKERS", (str(marker), str(tmp_path / "opt/install.record")))
    monkeypatch.setattr(file, "BOX_STATE_DIR", tmp_path / "var/lib/cantstop-box")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "root-home"))
    return tmp_path


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_installed_box_players_add_changes_the_boxs_list_not_homes(box, capsys):
    config = str(box / "etc/cantstop-box/config.toml")
    assert cli(capsys, "players", "add", "Ann", "--config", config) == (0, "Bob\nAnn\n", "")
    with Store.open(box / "var/lib/cantstop-box", readonly=True) as store:
        assert store.fact(ROSTER_KEY)["names"] == ["Bob", "Ann"]
    assert not (box / "root-home").exists()
    assert cli(capsys, "players", "--config", config)[1] == "Bob\nAnn\n"


def test_installed_box_history_and_export_read_the_boxs_store(box, capsys):
    Store.open(box / "var/lib/cantstop-box").close()
    code, _, err = cli(capsys, "export", "--config", str(box / "etc/cantstop-box/config.toml"))
    assert (code, err) == (2, f"cantstop-box export: no saved games in {box / 'var/lib/cantstop-box'}\n")


def test_installed_box_the_record_alone_marks_it(box, capsys, monkeypatch):
    record = box / "opt/install.record"
    record.parent.mkdir(parents=True)
    record.write_text("user cantstop\n")
    (box / "etc/cantstop-box/config.toml").unlink()
    assert file.default_state_dir() == box / "var/lib/cantstop-box"
    record.unlink()
    assert file.default_state_dir() == box / "root-home/.local/share/cantstop-box"  # not installed: the user's own


def test_installed_box_state_dir_and_config_still_say_otherwise(box, capsys, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    assert cli(capsys, "players", "add", "Cy", "--state-dir", str(elsewhere))[0] == 0
    assert (elsewhere / file.DB_NAME).exists() and not (box / "var/lib/cantstop-box").exists()
    custom = tmp_path / "custom.toml"
    custom.write_text(f'[storage]\nstate_dir = "{tmp_path / "usb"}"\n')
    code, _, err = cli(capsys, "export", "--config", str(custom))  # [storage] state_dir: export reads it too
    assert (code, err) == (2, f"cantstop-box export: no saved games in {tmp_path / 'usb'}\n")


def test_installed_box_a_broken_config_is_one_line_with_the_way_round_it(box, capsys, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[storage\n")
    code, _, err = cli(capsys, "history", "--config", str(broken))
    assert code == 2 and err.count("\n") == 1 and err.rstrip().endswith("(or name the store with --state-dir)")


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")


@needs_root
def test_installed_box_root_leaves_the_store_to_the_boxs_user(box, capsys):
    store = box / "var/lib/cantstop-box"
    store.mkdir(parents=True)
    os.chown(store, 4242, 4343)  # as systemd's StateDirectory= made it for the box's user
    assert cli(capsys, "players", "add", "Ann", "--config", str(box / "etc/cantstop-box/config.toml"))[0] == 0
    made = [store, *store.iterdir()]
    assert len(made) > 1
    assert {(os.lstat(p).st_uid, os.lstat(p).st_gid) for p in made} == {(4242, 4343)}


@needs_root
def test_installed_box_root_on_a_box_never_started_gives_the_store_to_the_boxs_user(box, capsys, monkeypatch):
    nobody = pwd.getpwnam("nobody")
    monkeypatch.setattr(installed, "BOX_USER", "nobody")
    assert cli(capsys, "players", "add", "Ann", "--config", str(box / "etc/cantstop-box/config.toml"))[0] == 0
    store = box / "var/lib/cantstop-box"
    assert {(os.lstat(p).st_uid, os.lstat(p).st_gid) for p in [store, *store.iterdir()]} == {
        (nobody.pw_uid, nobody.pw_gid)}
    assert os.stat(store).st_mode & 0o777 == installed.STATE_MODE


def test_installed_box_hand_back_leaves_a_box_not_installed_alone(tmp_path, monkeypatch):
    store = tmp_path / "store"
    store.mkdir()
    (store / "games.sqlite").write_bytes(b"")
    before = {(p, os.lstat(p).st_uid) for p in store.iterdir()}
    installed.hand_back(store)  # INSTALL_MARKERS empty (tests/conftest.py): not an installed box
    assert {(p, os.lstat(p).st_uid) for p in store.iterdir()} == before
