"""``cantstop-box backup`` never writes where SQLite keeps its own files, and a stray journal locks nobody out (issue 30).

A backup named ``games.sqlite3-journal`` in the state directory was taken by
SQLite for a hot journal of the store: every reader (history, export,
backup, the web view) then failed with "attempt to write a readonly
database", and the box opened with no history, saying the card was read-only.
"""

import json
import os
import sqlite3

import pytest

from engine import Rules
from boxcli.cli import main
from firmware.store import DB_NAME, LOCK_NAME, Store
from tests.kit.storekit import play_to_end

SIDE_NAMES = [DB_NAME + "-journal", DB_NAME + "-wal", DB_NAME + "-shm", LOCK_NAME, DB_NAME,
              "GAMES.SQLITE3-JOURNAL", DB_NAME + "-mj0123ABCD"]


def _games(state_dir, clock, count=2):
    with Store.open(state_dir, clock=clock) as store:
        for i in range(count):
            won, _ = play_to_end(seed=i)
            g = store.new_game(["Red", "Blue"], Rules())
            for e in won:
                store.append(g.id, e)


def _listing(state_dir):
    return sorted(p.name for p in state_dir.iterdir())


def _history(state_dir, capsys):
    code = main(["history", "--json", "--state-dir", str(state_dir)])
    out = capsys.readouterr()
    assert code == 0, out.err
    return [g["id"] for g in json.loads(out.out)]


@pytest.mark.parametrize("name", SIDE_NAMES)
def test_backup_refuses_a_name_sqlite_keeps_beside_the_store(state_dir, clock, capsys, name):
    _games(state_dir, clock)
    before = _listing(state_dir)
    assert main(["backup", str(state_dir / name), "--state-dir", str(state_dir)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cantstop-box backup: ") and "Traceback" not in err
    assert "beside the store" in err
    assert _listing(state_dir) == before  # nothing made, nothing removed
    assert _history(state_dir, capsys) == [2, 1]


def test_backup_refuses_the_journal_name_through_a_symlink_and_another_spelling(state_dir, clock, tmp_path, capsys):
    _games(state_dir, clock)
    link = tmp_path / "link"
    link.symlink_to(state_dir)
    dangling = tmp_path / "j"
    dangling.symlink_to(state_dir / (DB_NAME + "-journal"))
    for target in (link / (DB_NAME + "-journal"), state_dir / ".." / state_dir.name / (DB_NAME + "-wal"), dangling):
        assert main(["backup", str(target), "--state-dir", str(state_dir)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("beside the store" in err or "exists already" in err), err
    assert not (state_dir / (DB_NAME + "-journal")).exists() and not (state_dir / (DB_NAME + "-wal")).exists()
    assert _history(state_dir, capsys) == [2, 1]
    assert main(["backup", str(tmp_path / "fine.sqlite3"), "--state-dir", str(link)]) == 0  # elsewhere: as before


def _stray_journal(state_dir):
    """What the old ``backup STATE/games.sqlite3-journal`` left: a whole copy of the store under the journal's name."""
    journal = state_dir / (DB_NAME + "-journal")
    journal.write_bytes((state_dir / DB_NAME).read_bytes())
    return journal


def test_a_stray_journal_beside_a_closed_store_is_read_through(state_dir, clock, capsys):
    _games(state_dir, clock)
    journal = _stray_journal(state_dir)
    with Store.open(state_dir, clock=clock, readonly=True) as store:
        assert [g.id for g in store.games()] == [2, 1]
    assert _history(state_dir, capsys) == [2, 1]
    assert main(["export", "1", "--state-dir", str(state_dir)]) == 0 and json.loads(capsys.readouterr().out)["id"] == 1
    assert journal.exists()  # readers write nothing, not even that


def test_the_box_sets_a_stray_journal_aside_and_opens_with_its_games(state_dir, clock, capsys):
    _games(state_dir, clock)
    journal = _stray_journal(state_dir)
    kept = journal.read_bytes()
    with Store.open(state_dir, clock=clock) as box:
        assert box.cannot_save is None and box.notice is None
        assert [g.id for g in box.games()] == [2, 1]
        box.new_game(["Red", "Blue"], Rules())  # and it saves
        with Store.open(state_dir, clock=clock, readonly=True) as reader:  # a reader beside it
            assert [g.id for g in reader.games()] == [3, 2, 1]
    aside = [p for p in state_dir.iterdir() if p.name.startswith(DB_NAME + "-journal.stray-")]
    assert len(aside) == 1 and aside[0].read_bytes() == kept  # somebody's file: kept, not deleted
    assert not journal.exists()
    assert _history(state_dir, capsys) == [3, 2, 1]


def test_a_journal_sqlite_would_roll_back_is_left_to_sqlite(state_dir, clock):
    """A real journal of a file in rollback mode is SQLite's own: the store does not move it."""
    from firmware.store import file

    path = state_dir / DB_NAME
    state_dir.mkdir()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    journal = state_dir / (DB_NAME + "-journal")
    journal.write_bytes(bytes.fromhex("d9d505f920a163d7") + b"\0" * 504)
    assert file.stray_journal(path) is None
    journal.write_bytes(b"\0" * 512)
    assert file.stray_journal(path) is None  # a zeroed header: SQLite itself ignores it
    journal.write_bytes(b"not a journal")
    assert file.stray_journal(path) == journal


def test_a_stray_journal_beside_a_box_that_is_writing_is_one_line_for_a_reader(state_dir, clock, capsys):
    _games(state_dir, clock)
    with Store.open(state_dir, clock=clock) as box:
        box.new_game(["Red", "Blue"], Rules())  # the WAL holds writes no immutable read would see
        _stray_journal(state_dir)
        assert main(["history", "--state-dir", str(state_dir)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and DB_NAME + "-journal" in err and "move it" in err
        assert [g.id for g in box.games()] == [3, 2, 1]  # the box itself goes on
    assert os.path.exists(state_dir / (DB_NAME + "-journal"))


def test_a_refused_backup_leaves_a_partial_file_it_did_not_make(state_dir, clock, tmp_path, capsys):
    _games(state_dir, clock)
    taken, theirs = tmp_path / "x", tmp_path / "x.partial"
    taken.write_text("mine")
    theirs.write_text("someone's")
    assert main(["backup", str(taken), "--state-dir", str(state_dir)]) == 2  # x exists: refused
    assert capsys.readouterr().err.count("\n") == 1
    assert theirs.read_text() == "someone's" and taken.read_text() == "mine"
    fresh = tmp_path / "y"
    (tmp_path / "y.partial").write_text("someone's too")
    assert main(["backup", str(fresh), "--state-dir", str(state_dir)]) == 2  # its .partial is somebody's
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "y.partial exists already" in err
    assert (tmp_path / "y.partial").read_text() == "someone's too" and not fresh.exists()


def test_a_backup_that_fails_removes_only_its_own_partial_file(state_dir, clock, tmp_path, capsys, monkeypatch):
    from firmware.store import copies

    _games(state_dir, clock)

    def failing(self, *args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(copies, "_copy_pages", failing)
    assert main(["backup", str(tmp_path / "z"), "--state-dir", str(state_dir)]) == 2
    assert "disk I/O error" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state"]  # its own .partial gone, nothing else touched
