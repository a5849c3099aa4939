"""The store, read-only, for the web view: never a lock the box waits on.

The file is opened with SQLite's ``mode=ro`` URI (never ``immutable``: the box
writes while we read) and a short busy timeout; each read runs in one short
read transaction, so a page shows one consistent moment and the box's writes
(WAL) never wait for it. :meth:`Reader.token` is the cheap change check the
event stream polls: ``PRAGMA data_version`` changes when another connection
commits; a file moved aside (a damaged store the box replaced) is noticed by
its inode and reopened.

A connection is only right while the ``-shm`` it maps is the file's: the box,
when it closes as the last connection, deletes the ``-wal`` and ``-shm``, and
its next start makes new ones. SQLite's own shared lock keeps that from
happening under a reader, but one lost (any ``close()`` of the file in this
process drops it, issue 46) left the web view on the deleted pair: the same
``data_version`` for ever and "database disk image is malformed". So a
``-shm`` that is not the one the connection opened with, and any error but
a plain busy, closes the connection, and the next read opens it again; the
token carries which opening it is, so a new connection is always a change.
SQLite maps one ``-shm`` per file for all the connections of a process, so a
new connection reads through the deleted one as long as any other holds it:
the process's map (``/proc/self/maps``) says which one it maps, and every
reader of the file lets go of a deleted one before any opens again.

Whether the box is running: the box holds an exclusive ``flock`` on
``games.lock`` while it runs, and the kernel lists every lock in
``/proc/locks``; reading that list takes no lock (taking one, even shared,
could make a starting box refuse to start).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pathlib
import sqlite3
import threading
import time
import urllib.parse
import weakref

from firmware.store import Store, StoreError
from firmware.store import schema
from hw.errors import one_line
from firmware.store.file import DB_NAME, LOCK_NAME

log = logging.getLogger("cantstop.web")

BUSY_MS = 200  # a read that finds the file busy (the box's recovery) waits this long at most
BUSY_TOKENS = 5  # a token found busy this many times running is a fault, not the box's commit: opened again


class _OncePerGame(logging.Filter):
    """The store says "damaged game: ..." each time it reads a damaged game; the web view reads it at every page
    view. Let each such line through once per process (the same game keeps the same line)."""

    def __init__(self):
        super().__init__()
        self._said: set[str] = set()
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("damaged game:"):
            return True
        line = record.getMessage()
        with self._lock:
            if line in self._said:
                return False
            if len(self._said) < 10_000:  # bounded: a store of damaged games cannot grow it without end
                self._said.add(line)
        return True


_ONCE = _OncePerGame()

#: SQLite's page cache per connection (KiB). The web view's three readers each filled 512 KiB at 10,000 games;
#: at 128 KiB the process is 0.6 MB smaller and every page still within 20 ms (benchmarks/web.py: medians
#: 2-8 ms, the slowest view 19 ms): the store's pages come from the kernel's cache, which a Pi keeps for the
#: box's own reads anyway.
CACHE_KIB = 128


class Reader:
    """One read-only connection to the store in ``state_dir``, opened when the file is there.

    Thread-safe: every use holds the reader's lock (reads take milliseconds).
    """

    def __init__(self, state_dir: pathlib.Path | str, *, clock=time.time, proc_locks: str = "/proc/locks",
                 cache_kib: int = CACHE_KIB):
        self.state_dir = pathlib.Path(state_dir)
        self.path = self.state_dir / DB_NAME
        self._clock = clock
        self._proc_locks = proc_locks
        self._cache_kib = int(cache_kib)
        self._lock = threading.RLock()
        self._store: Store | None = None
        self._ino: int | None = None
        self._shm: object = None  # the -shm's inode when the connection opened (see _side)
        self._shm_path: str | None = None  # the -shm's path as the process's map names it
        self._let_go = False  # another reader found the -shm deleted under this one: close after this use
        self._opening = 0  # how many connections were opened: a token of another one is another token
        self._busy = 0  # tokens found busy in a row
        self._last_token: tuple | None = None  # the last token read from the file
        self.problem: str | None = None  # why there is no store to read (one line), else None
        store_log = logging.getLogger("cantstop.store")
        if _ONCE not in store_log.filters:
            store_log.addFilter(_ONCE)
        with _READERS_LOCK:
            _READERS.add(self)

    # -- opening -------------------------------------------------------------

    def _open(self) -> Store | None:
        try:
            st = self.path.stat()
        except OSError:
            self._close()
            self.problem = f"no saved games in {self.state_dir} yet"
            return None
        if self._store is not None and not self._let_go and st.st_ino == self._ino and self._side() == self._shm:
            return self._store
        self._close()
        resolved = str(self.path.resolve())
        self._shm_path = resolved + "-shm"
        if self._deleted_shm_mapped():  # a new connection would read through it too: all let go of it first
            _let_go(self)
            if self._deleted_shm_mapped():  # held by a read under way (it lets go when done): the next read
                self.problem = "the store's files were made anew; reading them again"
                return None
        store = self._connect(st, resolved)
        if store is not None and self._deleted_shm_mapped():  # deleted while opening
            self._close()
            self.problem = "the store's files were made anew; reading them again"
            return None
        return store

    def _connect(self, st: os.stat_result, resolved: str) -> Store | None:
        uri = "file:" + urllib.parse.quote(resolved) + "?mode=ro"
        db = None
        try:
            shm = self._side()
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            db.execute(f"PRAGMA cache_size=-{self._cache_kib}")
            version = schema.check(db)  # a read: the connection has its -shm open from here
            now = self._side()
            if version == 0:
                raise StoreError(f"no saved games in {self.state_dir} yet")
        except (sqlite3.Error, StoreError) as err:
            if db is not None:
                db.close()
            self.problem = _one_line(err)
            return None
        self._store = Store(db, self.path, self._clock, readonly=True, version=version)
        self._ino = st.st_ino
        # the -shm there now, unless it changed while opening (which one was opened is then not known: the
        # next read opens again)
        self._shm = now if shm in (None, now) else _UNSURE
        self._opening, self._busy = self._opening + 1, 0
        self.problem = None
        return self._store

    def _side(self) -> int | None:
        """The inode of the ``-shm`` beside the file (None when there is none)."""
        try:
            return os.stat(str(self.path) + "-shm").st_ino
        except OSError:
            return None

    def _deleted_shm_mapped(self) -> bool:
        """Whether this process maps a ``-shm`` of the file that is no longer the one beside it (a deleted one).

        False when the process's map cannot be read (not Linux): then only the connection's own check holds.
        """
        held = _mapped(self._shm_path)
        return held is not None and held != self._side()

    def _close(self) -> None:
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.close()
        self._store, self._ino, self._shm, self._let_go = None, None, None, False

    def _done(self) -> None:
        """The end of one use: a reader asked to let go of a deleted ``-shm`` meanwhile closes now."""
        if self._let_go:
            self._close()

    def close(self) -> None:
        with self._lock:
            self._close()

    def key(self):
        """Tells the file open now from another one put in its place (its inode)."""
        return self._ino

    # -- reading -------------------------------------------------------------

    @contextlib.contextmanager
    def read(self):
        """The store (or None when there is none) inside one short read transaction.

        An SQLite error out of the reading (other than busy) closes the connection: the next read opens the
        file again, as a restart of the web view would.
        """
        with self._lock:
            store = self._open()
            if store is None:
                yield None
                return
            db = store._db
            try:
                db.execute("BEGIN")
            except sqlite3.Error as err:
                self.problem = _one_line(err)
                self._close()
                yield None
                return
            try:
                yield store
            except sqlite3.Error as err:
                if not _busy(err):
                    log.warning("reading the store: %s; opening it again", _one_line(err))
                    self._close()
                    db = None
                raise
            finally:
                if db is not None:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("COMMIT")
                self._done()

    def token(self) -> tuple:
        """Changes whenever the store does (a commit by the box, a new file): cheap enough to poll."""
        with self._lock:
            try:
                return self._token()
            finally:
                self._done()

    def _token(self) -> tuple:
        store = self._open()
        if store is None:
            return (None, self.problem)
        try:
            version = store._db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.OperationalError as err:
            if self._last_token is not None and _busy(err) and self._busy < BUSY_TOKENS:
                self._busy += 1
                return self._last_token  # the box's commit or checkpoint under way: not a change
            self.problem = _one_line(err)
            self._close()
            return (None, self.problem)
        except sqlite3.Error as err:
            self.problem = _one_line(err)
            self._close()
            return (None, self.problem)
        self._busy = 0
        self._last_token = (self._ino, self._opening, version)
        return self._last_token

    def stamp(self) -> tuple:
        """The file's and its WAL's inode, size and modification time: changes on every commit of the box (a
        commit appends to the WAL), and costs two stat calls, so it can be asked every few milliseconds on the
        event loop; :meth:`token` is what says for sure."""
        out = []
        for suffix in ("", "-wal"):
            try:
                st = os.stat(str(self.path) + suffix)
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def last_write(self) -> float | None:
        """When the box last wrote (the newest of the file and its WAL), or None."""
        times = []
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                times.append(os.stat(str(self.path) + suffix).st_mtime)
        return max(times) if times else None

    def box_running(self) -> bool | None:
        """Whether a box holds the store's lock now; None when the kernel's lock list cannot be read."""
        try:
            st = os.stat(self.state_dir / LOCK_NAME)
        except OSError:
            return False
        try:
            with open(self._proc_locks, encoding="ascii", errors="replace") as f:
                text = f.read()
        except OSError:
            return None
        return holds_flock(text, st.st_dev, st.st_ino)


def holds_flock(locks: str, dev: int, ino: int) -> bool:
    """Whether ``/proc/locks`` text lists an exclusive flock on the file (``dev``, ``ino``).

    Lines look like ``1: FLOCK  ADVISORY  WRITE 1234 08:02:131 0 EOF``, the
    device as hexadecimal major:minor.
    """
    want = f"{os.major(dev):02x}:{os.minor(dev):02x}:{ino}"
    for line in locks.splitlines():
        parts = line.split()
        if "->" in parts:  # a blocked waiter, not a holder
            continue
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[3] == "WRITE" and parts[5] == want:
            return True
    return False


_UNSURE = object()  # a -shm no stat ever returns: the connection is opened again at the next read
_READERS: "weakref.WeakSet[Reader]" = weakref.WeakSet()  # every reader of this process
_READERS_LOCK = threading.Lock()


def _let_go(asking: Reader) -> None:
    """Every other reader of the same file closes its connection: now if it is idle, else after its use."""
    with _READERS_LOCK:
        others = [r for r in _READERS if r is not asking and r._shm_path == asking._shm_path]
    for other in others:
        if other._lock.acquire(blocking=False):  # never waited for: two readers asking at once go on
            try:
                other._close()
            finally:
                other._lock.release()
        else:
            other._let_go = True


def _mapped(shm_path: str | None, maps: str = "/proc/self/maps") -> int | None:
    """The inode of the ``-shm`` at ``shm_path`` this process maps (SQLite's, one per file), None if none or
    when the map cannot be read. A line: ``start-end rw-s offset dev inode path``, `` (deleted)`` after a
    path no longer there."""
    if shm_path is None:
        return None
    try:
        with open(maps, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split(maxsplit=5)
                if len(parts) == 6 and parts[5].removesuffix(" (deleted)") == shm_path:
                    return int(parts[4])
    except (OSError, ValueError):
        return None
    return None


def _busy(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


def _one_line(err: BaseException) -> str:
    return one_line(err, 200)
