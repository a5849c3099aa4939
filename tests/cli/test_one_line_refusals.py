"""A refusal is one line on standard error, with the store's own log kept out of it (issue 30).

``import`` onto a card that fills up printed "cannot save: the SD card is
full (...); 0 operation(s) kept to save later" before its own line, and onto
a newer box's store the store's log line before the command's refusal (as
``players`` did: tests/cli/test_newer_store.py). The log lines went to
standard error through Python's last-resort handler, which pytest's own
handlers stand in for: so these run the command in a process of its own.
"""

import sqlite3

from boxcli.cli import main
from firmware.store import DB_NAME, SCHEMA_VERSION, Store
from tests.kit.importkit import RECORDS, command
from tests.kit.storekit import fill, small_fs


def _newer(state_dir):
    Store.open(state_dir).close()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()


def test_import_onto_a_newer_boxs_store_says_so_once(tmp_path):
    _newer(tmp_path / "state")
    done, _, _ = command("import", str(RECORDS), "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 2
    assert done.stderr == "cantstop-box import: cannot save: game file from a newer box\n"


def test_import_onto_a_card_that_fills_up_is_one_line(tmp_path):
    with small_fs("1m") as where:
        card = where / "card"
        Store.open(card).close()
        fill(where)
        done, _, _ = command("import", str(RECORDS), "--state-dir", str(card))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("cantstop-box import: cannot save: the SD card "), \
        done.stderr


def test_import_whose_write_fails_midway_is_one_line(tmp_path, capsys, monkeypatch):
    """In this process: the line the command prints, its log kept for the journal (caplog) and off stderr."""
    card = tmp_path / "card"
    Store.open(card).close()
    from firmware.store import pending

    def full(self, db, writes, then=None, *, keep=True):
        raise self.failed(sqlite3.OperationalError("database or disk is full"), [])

    monkeypatch.setattr(pending.Queue, "save", full)
    assert main(["import", str(RECORDS), "--state-dir", str(card)]) == 2
    assert capsys.readouterr().err == ("cantstop-box import: cannot save: the SD card is full (the games imported "
                                       "before it are kept)\n")
