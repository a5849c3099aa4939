"""Opening the store never takes away the locks of a connection that reads beside it in the same process (issue 46).

Closing any descriptor of a file drops every POSIX lock the process holds on it. The store read the game
file's header with ``open()``/``close()`` each time it opened it, so a phone's form in the web view (which
opens the store for a moment) took the shared lock from the web view's long-lived reader; the box, quitting,
then found no other connection, deleted the ``-wal`` and ``-shm`` the reader still used, and the reader went
on with the deleted ones.
"""

import os
import sqlite3
import urllib.parse

import pytest

from engine import Rules
from firmware.store import DB_NAME, Store, file, shared
from firmware.store.sidefiles import KEPT_FILES, file_head, stray_journal
from tests.store.boxproc import BoxProcess

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="needs the kernel's lock list")


def _read_locks(path) -> list[str]:
    """This process's POSIX read locks on ``path``, as the kernel lists them."""
    st = os.stat(path)
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    mine = ["POSIX", "ADVISORY", "READ", str(os.getpid()), want]
    with open("/proc/locks", encoding="ascii", errors="replace") as f:
        return [line for line in f if line.split()[1:6] == mine]


def _reader(path) -> sqlite3.Connection:
    """A connection as the web view's: read-only, kept open; in WAL mode it holds a shared lock on the file."""
    db = sqlite3.connect("file:" + urllib.parse.quote(str(path)) + "?mode=ro", uri=True, isolation_level=None)
    db.execute("SELECT count(*) FROM games").fetchone()
    return db


def test_opening_the_store_beside_a_reader_keeps_the_readers_lock(state_dir, clock):
    with Store.open(state_dir, clock=clock) as box:
        box.new_game(["Red", "Blue"], Rules())
    path = state_dir / DB_NAME
    reader = _reader(path)
    try:
        assert _read_locks(path)  # the shared lock that tells a closing box it is not the last
        file._check_header(path)
        Store.open(state_dir, clock=clock, readonly=True).close()  # a phone's form: the kept facts
        (path.parent / (DB_NAME + "-journal")).write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\0" * 504)
        assert stray_journal(path) is not None  # which reads the file's header as well
        (path.parent / (DB_NAME + "-journal")).unlink()
        shared.update_fact(state_dir, "roster", lambda old: ["Ann"], clock=clock)  # a phone's names, box off
        assert _read_locks(path), "opening the store beside the reader dropped its shared lock"
        assert reader.execute("SELECT count(*) FROM games").fetchone() == (1,)
    finally:
        reader.close()


def test_file_head_reads_each_file_through_one_kept_descriptor(tmp_path):
    paths = [tmp_path / f"f{i}" for i in range(KEPT_FILES + 2)]
    for i, p in enumerate(paths):
        p.write_bytes(b"%02d-rest" % i)
    assert [file_head(p, 2) for p in paths] == [b"%02d" % i for i in range(len(paths))]
    fds = len(os.listdir("/proc/self/fd"))
    assert [file_head(p, 4) for p in paths[-KEPT_FILES:]] == [b"%02d-r" % i for i in range(2, len(paths))]
    assert len(os.listdir("/proc/self/fd")) == fds  # the same descriptors again: none opened, none closed
    (tmp_path / "short").write_bytes(b"ab")
    assert file_head(tmp_path / "short", 16) == b"ab"
    with pytest.raises(FileNotFoundError):
        file_head(tmp_path / "missing", 16)
    with pytest.raises(IsADirectoryError):
        file_head(tmp_path, 16)


def test_a_box_quitting_beside_a_reader_that_opened_the_store_leaves_its_log(state_dir):
    """The issue's order: the box plays, the web view reads, a phone's form opens the store, the box quits."""
    box = BoxProcess(state_dir)
    try:
        box.do("game", "events 5", "table en")
        path = state_dir / DB_NAME
        reader = _reader(path)
        try:
            Store.open(state_dir, readonly=True).close()
            shm = os.stat(str(path) + "-shm").st_ino
            box.quit()
            # still a reader: the box was not the last connection, so the -wal and -shm it reads are there
            assert os.path.exists(str(path) + "-wal") and os.stat(str(path) + "-shm").st_ino == shm
            before = reader.execute("PRAGMA data_version").fetchone()[0]
            box = BoxProcess(state_dir)
            box.do("game", "events 3")
            assert reader.execute("PRAGMA data_version").fetchone()[0] != before  # the reader sees the new box
            assert reader.execute("SELECT count(*) FROM games").fetchone() == (2,)
        finally:
            reader.close()
        box.quit()
    finally:
        box.kill()
