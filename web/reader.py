"""The store, read-only, for the web view: never a lock the box waits on.

The file is opened with SQLite's ``mode=ro`` URI (never ``immutable``: the box
writes while we read) and a short busy timeout; each read runs in one short
read transaction, so a page shows one consistent moment and the box's writes
(WAL) never wait for it. :meth:`Reader.token` is the cheap change check the
event stream polls: ``PRAGMA data_version`` changes when another connection
commits; a file moved aside (a damaged store the box replaced) is noticed by
its inode and reopened.

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

from firmware.store import Store, StoreError
from firmware.store import schema
from firmware.store.file import DB_NAME, LOCK_NAME

log = logging.getLogger("cantstop.web")

BUSY_MS = 200  # a read that finds the file busy (the box's recovery) waits this long at most


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
        self._last_token: tuple | None = None  # the last token read from the file
        self.problem: str | None = None  # why there is no store to read (one line), else None
        store_log = logging.getLogger("cantstop.store")
        if _ONCE not in store_log.filters:
            store_log.addFilter(_ONCE)

    # -- opening -------------------------------------------------------------

    def _open(self) -> Store | None:
        try:
            st = self.path.stat()
        except OSError:
            self._close()
            self.problem = f"no saved games in {self.state_dir} yet"
            return None
        if self._store is not None and st.st_ino == self._ino:
            return self._store
        self._close()
        uri = "file:" + urllib.parse.quote(str(self.path.resolve())) + "?mode=ro"
        db = None
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            db.execute(f"PRAGMA cache_size=-{self._cache_kib}")
            version = schema.check(db)
            if version == 0:
                raise StoreError(f"no saved games in {self.state_dir} yet")
        except (sqlite3.Error, StoreError) as err:
            if db is not None:
                db.close()
            self.problem = _one_line(err)
            return None
        self._store = Store(db, self.path, self._clock, readonly=True, version=version)
        self._ino = st.st_ino
        self.problem = None
        return self._store

    def _close(self) -> None:
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.close()
        self._store, self._ino = None, None

    def close(self) -> None:
        with self._lock:
            self._close()

    def key(self):
        """Tells the file open now from another one put in its place (its inode)."""
        return self._ino

    # -- reading -------------------------------------------------------------

    @contextlib.contextmanager
    def read(self):
        """The store (or None when there is none) inside one short read transaction."""
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
            finally:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("COMMIT")

    def token(self) -> tuple:
        """Changes whenever the store does (a commit by the box, a new file): cheap enough to poll."""
        with self._lock:
            store = self._open()
            if store is None:
                return (None, self.problem)
            try:
                version = store._db.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.OperationalError as err:
                if self._last_token is not None and _busy(err):
                    return self._last_token  # the box's commit or checkpoint under way: not a change
                self.problem = _one_line(err)
                self._close()
                return (None, self.problem)
            except sqlite3.Error as err:
                self.problem = _one_line(err)
                self._close()
                return (None, self.problem)
            self._last_token = (self._ino, version)
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


def _busy(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:200]
