"""The live page follows a box that quits and starts again beside it (issue 46, item 4).

As the tester met it: a second phone paired, two set-ups sent (each form opens the store for a moment),
New game on the box, and the box quit and restarted: ``/now.json`` stayed at one version while the store
gained events, and the web view logged "cannot read the kept screen: database disk image is malformed"
until it was restarted. The box runs in another process here, as it does on the Pi: SQLite's locks
between the two are the kernel's.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading

import pytest

from firmware.config.models import GameConfig
from firmware.store import DB_NAME, shared
from firmware.table import restart, roster
from tests.store.boxproc import BoxProcess
from web import live
from web.phone import tableform
from web.reader import BUSY_TOKENS, Reader


@pytest.fixture
def box(tmp_path):
    boxes = []

    def start():
        boxes.append(BoxProcess(tmp_path))
        return boxes[-1]

    yield start
    for b in boxes:
        b.kill()


def _seen(reader):
    """What the live page shows: (the open game's events, the kept screen's language)."""
    shown = live.snapshot(reader, GameConfig(), "en")
    with reader.read() as store:
        kept = restart.kept(store)
    return shown.events, kept["language"] if kept else None


def _names(state_dir, *names):
    """A phone's change of the names, as the web view makes it (straight in the file)."""
    shared.update_fact(state_dir, roster.ROSTER_KEY, lambda raw: roster.from_fact(raw, names).to_json())


def _malformed(caplog):
    return [r.getMessage() for r in caplog.records if "malformed" in r.getMessage() or "cannot read" in r.getMessage()]


def test_the_live_page_follows_the_box_after_phones_sent_set_ups_and_it_restarted(tmp_path, box, caplog):
    caplog.set_level(logging.INFO)
    first = box()
    first.do("notes 60 a", "checkpoint", "game", "events 6", "table en")
    reader = Reader(tmp_path)
    token = reader.token()
    assert _seen(reader) == (6, "en")
    for _ in range(2):  # two phones' set-ups: each reads the table's form, and the names change
        tableform.kept_facts(tmp_path, restart.MEMORY_KEY)
        _names(tmp_path, "Ann", "Ben")
    first.quit()  # New game, then the box quits and restarts
    assert (tmp_path / (DB_NAME + "-shm")).exists()  # the web view's lock held: the box was not the last one
    second = box()
    second.do("notes 60 b", "game", "events 4", "table ja", "checkpoint")
    assert reader.token() != token  # the page is sent the new game ...
    assert _seen(reader) == (4, "ja")  # ... which the page shows, in the table's language
    second.do("events 2")
    assert _seen(reader) == (6, "ja")
    with reader.read() as store:
        assert set(store.facts("note:").values()) == {"b" * 2000}
    assert not _malformed(caplog)
    second.quit()
    reader.close()


def test_the_box_off_a_phones_names_then_the_box_back_are_followed(tmp_path, box, caplog):
    """The brief's order: the box writes, the page reads, the box stops, a phone changes the names (the web
    view writes the file itself then), the box starts again and plays on."""
    caplog.set_level(logging.INFO)
    first = box()
    first.do("game", "events 5", "table en")
    reader = Reader(tmp_path)
    assert _seen(reader) == (5, "en")
    first.quit()
    _names(tmp_path, "Ann")  # the box is off: the web view opens it to write
    token = reader.token()
    again = box()
    again.do("events 3", "table ko")
    assert reader.token() != token and _seen(reader) == (8, "ko")
    again.quit()  # and once more: the box quits and starts again
    token = reader.token()
    third = box()
    third.do("game", "events 2", "checkpoint")
    assert reader.token() != token and _seen(reader) == (2, "ko")
    assert not _malformed(caplog)
    third.quit()
    reader.close()


def _lose_the_locks(state_dir):
    """What any ``close()`` of the file in the web view's process does: the kernel drops its locks on it."""
    os.close(os.open(state_dir / DB_NAME, os.O_RDONLY))


def test_the_readers_open_again_when_the_box_made_new_wal_and_shm_under_them(tmp_path, box, caplog):
    """Whatever took the web view's lock away, the box's quitting deletes the -wal and -shm, and its start makes
    new ones: the web view's three readers (the live page's, the history's, the background's) notice and open
    again, though SQLite's one -shm per file and process kept the deleted one for all of them."""
    caplog.set_level(logging.INFO)
    first = box()
    first.do("notes 60 a", "checkpoint", "game", "events 6", "table en")
    readers = [Reader(tmp_path) for _ in range(3)]
    tokens = [r.token() for r in readers]
    assert [_seen(r) for r in readers] == [(6, "en")] * 3
    shm = os.stat(tmp_path / (DB_NAME + "-shm")).st_ino
    _lose_the_locks(tmp_path)
    first.quit()
    assert not (tmp_path / (DB_NAME + "-shm")).exists()  # the box was the last connection, as far as it knew
    second = box()
    second.do("game", "events 4", "table ja")
    assert os.stat(tmp_path / (DB_NAME + "-shm")).st_ino != shm
    assert [r.token() for r in readers] != tokens
    assert [_seen(r) for r in readers] == [(4, "ja")] * 3
    second.do("notes 60 b", "events 2", "checkpoint")
    assert [_seen(r) for r in readers] == [(6, "ja")] * 3
    for r in readers:
        with r.read() as store:
            assert set(store.facts("note:").values()) == {"b" * 2000}
    assert not _malformed(caplog)
    second.quit()
    for r in readers:
        r.close()


def test_a_reader_busy_when_the_shm_was_made_anew_lets_go_once_done(tmp_path, box):
    first = box()
    first.do("game", "events 6", "table en")
    live_reader, history = Reader(tmp_path), Reader(tmp_path)
    assert _seen(live_reader) == _seen(history) == (6, "en")
    reading, done = threading.Event(), threading.Event()

    def read_history():  # a history page being read all through the box's restart
        with history.read() as store:
            store.open_game()
            reading.set()
            done.wait(10)

    thread = threading.Thread(target=read_history)
    thread.start()
    try:
        assert reading.wait(10)
        _lose_the_locks(tmp_path)
        first.quit()
        second = box()
        second.do("game", "events 4", "table ja")
        token = live_reader.token()  # the history's connection still holds the deleted -shm: not read through
        assert token[0] is None and "made anew" in token[1]
    finally:
        done.set()
        thread.join(10)
    assert live_reader.token()[0] is not None  # the history let go of it once done
    assert _seen(live_reader) == _seen(history) == (4, "ja")
    second.quit()
    live_reader.close()
    history.close()


def test_a_new_connection_is_a_new_token(game, tmp_path):
    reader = Reader(tmp_path)
    first = reader.token()
    reader.close()  # the same file, no commit since: but another connection, whose data_version is its own
    assert reader.token() != first
    reader.close()


def test_a_store_busy_for_long_is_opened_again(game, tmp_path):
    reader = Reader(tmp_path)
    first = reader.token()

    class Busy:
        def execute(self, sql, *a):
            raise sqlite3.OperationalError("database is locked")

    reader._store._db = Busy()
    tokens = [reader.token() for _ in range(BUSY_TOKENS + 1)]
    assert tokens[:BUSY_TOKENS] == [first] * BUSY_TOKENS  # a commit or a checkpoint under way: no change
    assert tokens[-1][0] is None and "locked" in tokens[-1][1]  # but not for ever: opened again
    again = reader.token()
    assert again[0] == first[0] and again != first
    reader.close()


def test_an_error_while_reading_opens_the_store_again(game, tmp_path):
    reader = Reader(tmp_path)
    with reader.read() as store:
        kept = store
    with pytest.raises(sqlite3.OperationalError):
        with reader.read() as store:
            raise sqlite3.OperationalError("database is locked")
    with reader.read() as store:
        assert store is kept  # busy: the same connection
    with pytest.raises(sqlite3.DatabaseError):
        with reader.read() as store:
            raise sqlite3.DatabaseError("database disk image is malformed")
    with reader.read() as store:
        assert store is not None and store is not kept  # opened again, as a restart of the web view would
        assert store.open_game() is not None
    reader.close()
