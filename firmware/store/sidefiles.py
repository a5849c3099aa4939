"""The files SQLite and the box keep beside the game file, and a file there that only looks like one of them.

SQLite finds a database's journal, WAL and shared memory by name
(``games.sqlite3-journal``, ``-wal``, ``-shm``; a multi-file transaction's
``-mj…``) and the box has its lock (``games.lock``) there too. A file of such
a name is taken for one of them: a backup written as ``games.sqlite3-journal``
was a "hot journal" to SQLite, and every reader of the store was refused
("attempt to write a readonly database"). So :func:`side_name` refuses
those names as a backup's, and :func:`stray_journal` finds such a journal
left by an older version: the box sets it aside (:func:`set_aside_stray_journal`,
renamed and kept, as SQLite would delete it), and a reader reads past it.

The game file's own first bytes are read here too (:func:`file_head`), never
with ``open()`` and ``close()``: see there why.
"""

from __future__ import annotations

import errno
import logging
import os
import pathlib
import stat
import threading
import time

log = logging.getLogger("cantstop.store")

DB_NAME = "games.sqlite3"
LOCK_NAME = "games.lock"
#: The first bytes of a rollback journal SQLite wrote (and synced): one it would play back.
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")
#: What SQLite keeps beside a database file, by suffix of its name.
SIDE_SUFFIXES = ("-journal", "-wal", "-shm")
#: A super-journal (a transaction over several attached files) is ``<name>-mj`` and eight hex digits.
SUPER_JOURNAL = "-mj"


#: How many game files' descriptors :func:`file_head` keeps open at most (a box has one file; tests have many).
KEPT_FILES = 8
_kept: list[tuple[tuple[int, int], int]] = []  # ((device, inode), descriptor), the latest used last
_kept_lock = threading.Lock()


def file_head(path: pathlib.Path, size: int) -> bytes:
    """The first ``size`` bytes of the file at ``path`` (fewer when it is shorter); OSError as ``open()`` gives.

    Read through a descriptor this process keeps open, not one opened and closed: closing *any* descriptor of
    a file drops every POSIX lock the process holds on that file (fcntl's rule), SQLite's included, and SQLite
    does not know. The web view read the header so beside its long-lived connection (a phone's form opens the
    store for a moment), so its shared lock was gone; the box, quitting, then found no other reader, and
    deleted the ``-wal`` and ``-shm`` as the last connection does; the web view's connection went on with the
    deleted ones: the same ``data_version`` for ever, and "database disk image is malformed" once the box's
    new log was checkpointed (issue 46). SQLite keeps its own descriptors open until its locks go, for the
    same reason. At most :data:`KEPT_FILES` files' are kept; the one used least recently is closed for
    another's (a file moved aside, or a test's: no connection of ours reads it any more).
    """
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)
    with _kept_lock:
        for i, (known, fd) in enumerate(_kept):
            if known == key:
                _kept.append(_kept.pop(i))
                return os.pread(fd, size, 0)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # NONBLOCK: a FIFO put there never waits
        try:
            opened = os.fstat(fd)
        except BaseException:
            os.close(fd)
            raise
        if not stat.S_ISREG(opened.st_mode):  # no game file, so no lock of SQLite's on it
            os.close(fd)
            code = errno.EISDIR if stat.S_ISDIR(opened.st_mode) else errno.EINVAL
            raise OSError(code, os.strerror(code), str(path))
        _kept.append(((opened.st_dev, opened.st_ino), fd))
        if len(_kept) > KEPT_FILES:
            os.close(_kept.pop(0)[1])
        return os.pread(fd, size, 0)


def side_name(state_dir: pathlib.Path, target: pathlib.Path) -> str | None:
    """What ``target`` would be taken for in ``state_dir`` (the store, its journal, ...), or None.

    The folders are compared as files (``os.path.samefile``: a symlink, ``..``
    or another mount of the same folder is the same folder), a symlink at
    ``target`` is followed, and names are compared casefolded (a USB stick's
    FAT file system, where ``GAMES.SQLITE3-WAL`` is ``games.sqlite3-wal``).
    """
    for path in (target, pathlib.Path(os.path.realpath(target))):
        name = path.name.casefold()
        what = _what(name)
        if what is None:
            continue
        try:
            if os.path.samefile(path.parent, state_dir):
                return what
        except OSError:
            continue  # a folder that is not there is not the state directory
    return None


def _what(name: str) -> str | None:
    db = DB_NAME.casefold()
    if name == db:
        return "the store itself"
    if name == LOCK_NAME.casefold():
        return "the box's lock file"
    for suffix, what in zip(SIDE_SUFFIXES, ("SQLite's journal", "SQLite's write-ahead log", "SQLite's shared memory")):
        if name == db + suffix:
            return what
    if name.startswith(db + SUPER_JOURNAL):
        return "SQLite's super-journal"
    return None


def stray_journal(path: pathlib.Path) -> pathlib.Path | None:
    """The ``-journal`` beside the game file if SQLite would take it for a hot journal but it holds nothing of the file's.

    SQLite calls a journal *hot* when it exists, is not empty and does not
    start with a zero byte: a read-only connection then refuses the file
    ("attempt to write a readonly database") and a read-write one plays it
    back and deletes it. A journal is the file's own only when it starts with
    SQLite's journal header and the file is in rollback mode; the box's file
    is always in WAL mode, where SQLite never writes a rollback journal. Any
    other such file is somebody's (a backup an older ``cantstop-box backup``
    let be named so, say): stray.
    """
    journal = path.with_name(path.name + "-journal")
    try:
        fd = os.open(journal, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = os.pread(fd, len(JOURNAL_MAGIC), 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not head or head[0] == 0:
        return None  # SQLite passes over it
    if head == JOURNAL_MAGIC and not _wal_mode(path):
        return None  # a rollback-mode file's own journal: SQLite's to play back
    return journal


def _wal_mode(path: pathlib.Path) -> bool:
    """Whether the file's header says WAL mode (its read and write versions, bytes 18 and 19, are 2)."""
    try:
        head = file_head(path, 20)
    except OSError:
        return False
    return len(head) == 20 and head[18] == 2 and head[19] == 2


def set_aside_stray_journal(path: pathlib.Path, clock=time.time) -> pathlib.Path | None:
    """Rename a :func:`stray_journal` to ``<name>-journal.stray-YYYYmmdd-HHMMSS``; where it went, or None.

    Renamed, not deleted (SQLite would delete it): it may be somebody's only
    copy of something. A rename that fails leaves it; the open then says why.
    """
    journal = stray_journal(path)
    if journal is None:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock()))
    aside = journal.with_name(f"{journal.name}.stray-{stamp}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = journal.with_name(f"{journal.name}.stray-{stamp}-{n}")
    try:
        os.rename(journal, aside)
    except OSError as err:
        log.warning("%s beside the game file is no journal of it, and cannot be set aside (%s)", journal.name,
                    err.strerror or err)
        return None
    log.warning("%s beside the game file was no journal of it (SQLite would have kept every reader out): "
                "set aside as %s", journal.name, aside.name)
    return aside
