"""The game file's lifecycle: where it lives, opening it, checking it, moving a bad one aside, the lock.

A writer (the box) takes an exclusive lock on ``games.lock`` in the state
directory, so a second box on the same directory is refused; readers (the
``export`` and ``history`` commands) take no lock and open the file read-only.

When the file cannot be written at all (a read-only card, a full disk at the
first start, a directory that cannot be made), the writer still opens: it
reads what it can (the file read-only, else an empty store in memory) and
tries a read-write open again before each write, see :func:`reopen_writer`.
"""

from __future__ import annotations

import fcntl
import logging
import os
import pathlib
import sqlite3
import stat
import time
import urllib.parse
from dataclasses import dataclass

from . import schema
from .sidefiles import DB_NAME, LOCK_NAME, file_head, set_aside_stray_journal, stray_journal
from .errors import (SQLITE_CANTOPEN, SQLITE_READONLY, BadFile, NewerFile, StoreError, StoreLockedError,
                     StoreMissingError, StorePathError, StoreWriteError, is_corruption, one_line, sqlite_code,
                     write_message)

log = logging.getLogger("cantstop.store")

APP_DIR = "cantstop-box"
_MAGIC = b"SQLite format 3\0"


#: Where an installed box (deploy/install.sh) keeps its games: the service's StateDirectory=.
BOX_STATE_DIR = pathlib.Path("/var/lib/cantstop-box")
#: Either of these says this machine is an installed box: the installed settings, or the install's record.
INSTALL_MARKERS = ("/etc/cantstop-box/config.toml", "/opt/cantstop-box/install.record")


def installed_box() -> bool:
    """Is the box installed here (so every command means the box's own store)?"""
    return any(os.path.exists(marker) for marker in INSTALL_MARKERS)


def default_state_dir() -> pathlib.Path:
    """Where the games live: ``$STATE_DIRECTORY`` under systemd; on an installed box the box's own
    (``BOX_STATE_DIR``, whoever asks: ``sudo cantstop-box players add Ann`` changes the box's list);
    else the user's data directory."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return pathlib.Path(state.split(":")[0])
    if installed_box():
        return BOX_STATE_DIR
    xdg = os.environ.get("XDG_DATA_HOME")
    base = pathlib.Path(xdg) if xdg and os.path.isabs(xdg) else pathlib.Path.home() / ".local" / "share"
    return base / APP_DIR


def sqlite_connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    """Every connection to the game file is made here (tests replace it to act out a bad card)."""
    return sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False)


@dataclass
class Opened:
    """What opening for writing gave: a connection, and why it cannot write yet (None when it can)."""

    db: sqlite3.Connection
    version: int
    notice: str | None = None
    cannot_save: str | None = None
    refuse: str | None = None  # why no write is ever tried (a file from a newer box)


class Lock:
    """An exclusive ``flock`` on the state directory's lock file: one writing box at a time.

    The kernel drops it when the process ends, however it ends (a power cut
    or SIGKILL leaves no stale lock).
    """

    def __init__(self, path: pathlib.Path):
        self.path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def take(self) -> None:
        """Take the lock: StoreLockedError if another process has it, StoreWriteError if there is no lock file."""
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as err:
            try:  # a read-only card: an existing lock file can still be locked
                fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                raise StoreWriteError(write_message(err)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f"another box (process {holder})" if holder else "another box"
            raise StoreLockedError(f"{who} is using the games in {self.path.parent}") from None
        except OSError as err:  # pragma: no cover - a file system without locks: go on unlocked
            log.warning("cannot lock %s (%s): a second box would not be stopped", self.path, err)
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass  # the pid is only for the refusal message

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isascii() and text.isdigit() else None


def open_writer(state_dir: pathlib.Path, lock: Lock, clock) -> Opened:
    """Open the store for the box: lock, create or update, move a bad file aside.

    Raises StoreLockedError for a second box and StoreError when the state
    directory is a file. Any write fault gives a store that reads only, with
    ``cannot_save`` saying why.
    """
    path = state_dir / DB_NAME
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"cannot use {state_dir}: it is not a directory") from None
    except OSError as err:
        return _reading_only(path, write_message(err))
    try:
        lock.take()
        db, version, notice = _connect_writer(path, clock)
    except NewerFile as err:
        log.warning("%s", err.note)
        opened = _reading_only(path, str(err), quiet=True)
        opened.refuse = str(err)
        return opened
    except StoreWriteError as err:
        return _reading_only(path, str(err))
    return Opened(db, version, notice)


def check_kind(path: pathlib.Path) -> None:
    """StorePathError when something that is not a file (a FIFO, a device, a directory) is at ``path``.

    Checked before any open: reading a FIFO would wait for a writer for ever.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # no file yet, or a path the open then reports (too long, no permission) as before
    if stat.S_ISREG(mode):
        return
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file")
    raise StorePathError(f"cannot use {path}: it is {kind}, not a game file (move it away, or choose "
                         "another --state-dir)")


def reopen_writer(path: pathlib.Path, lock: Lock) -> sqlite3.Connection:
    """A read-write connection once the card takes writes again; StoreWriteError while it does not.

    No file is moved aside here: pending operations name the games in it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock.take()
    except OSError as err:
        raise StoreWriteError(write_message(err)) from None
    except StoreLockedError as err:
        raise StoreWriteError(f"cannot save: {err}") from None
    try:
        return _connect(path, integrity=False)  # checked as it opened: not the whole file again on the loop
    except BadFile as bad:
        raise StoreWriteError(f"cannot save: the game file is damaged ({bad})") from None


def _reading_only(path: pathlib.Path, cannot_save: str, *, quiet: bool = False) -> Opened:
    """The file read-only if it holds a store, else an empty store in memory."""
    if not quiet:
        log.error("game store %s cannot be written (%s): playing on, saving once it can", path, cannot_save)
    try:
        db, version = open_reader(path)
    except StoreError as err:
        if not isinstance(err, StoreMissingError):
            log.error("and it cannot be read either (%s): showing no saved games", err)
        return Opened(schema.empty(), schema.SCHEMA_VERSION, cannot_save=cannot_save)
    return Opened(db, version, cannot_save=cannot_save)


def open_reader(path: pathlib.Path, *, box_file: bool = True) -> tuple[sqlite3.Connection, int]:
    """A read-only connection that creates, moves and writes nothing, and its schema version.

    ``box_file=False`` for a file that is not a box's own store (a backup
    being imported): an unusable one is then not said to be moved aside,
    since no box ever starts on it.

    StoreMissingError when there is no store (no file, or a file with no tables
    yet), StoreError for an unusable file. On a read-only card with no ``-wal``
    (a clean shutdown) SQLite cannot make the ``-shm`` it needs for ``mode=ro``:
    the file is then opened ``immutable``, which is exact because nothing can
    change it.
    """
    check_kind(path)
    if not path.is_file():
        raise StoreMissingError(f"no saved games in {path.parent}")
    try:
        _check_header(path)
        wal = path.with_name(path.name + "-wal")
        uris = [_ro_uri(path)]
        wal_empty = not wal.exists() or wal.stat().st_size == 0
        if wal_empty:
            uris.append(_ro_uri(path) + "&immutable=1")
        for i, uri in enumerate(uris):
            db = None
            try:
                db = sqlite_connect(uri, uri=True)
                version = schema.check(db)
            except sqlite3.DatabaseError as err:
                if db is not None:
                    db.close()
                if is_corruption(err):
                    raise BadFile(one_line(err)) from None
                code = sqlite_code(err)
                if code == SQLITE_CANTOPEN and i + 1 < len(uris):
                    continue
                stray = stray_journal(path) if code == SQLITE_READONLY else None
                if stray is not None and i + 1 < len(uris):
                    continue  # nothing in the WAL: the file alone is the store, read as it is
                if stray is not None:
                    raise StoreError(f"cannot read the game file {path}: {stray.name} beside it is no journal "
                                     "of it but keeps readers out while the box writes; move it out of "
                                     f"{path.parent} (the box sets it aside when it starts)") from None
                raise StoreError(f"cannot read the game file {path}: {one_line(err)}") from None
            except BaseException:
                if db is not None:
                    db.close()
                raise
            if version == 0:
                db.close()
                raise StoreMissingError(f"no saved games in {path.parent}")
            return db, version
    except BadFile as bad:
        if not box_file:
            raise StoreError(f"not a usable game file ({bad})") from None  # the caller names the file
        raise StoreError(f"the game file {path} is unusable ({bad}); the box moves it aside when it starts") from None
    except OSError as err:
        raise StoreError(f"cannot read the game file {path}: {err.strerror or err}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _connect_writer(path: pathlib.Path, clock) -> tuple[sqlite3.Connection, int, str | None]:
    """A read-write connection, moving a bad file aside first; the notice says if it did."""
    try:
        return _connect(path), schema.SCHEMA_VERSION, None
    except BadFile as bad:
        aside = _move_aside(path, clock)
        log.error("game store %s was unusable (%s); moved it to %s and started clean", path, bad, aside.name)
    try:
        db = _connect(path)
    except BadFile as again:  # pragma: no cover - a fresh file failing is a disk fault
        raise StoreWriteError(f"cannot save: a new game file fails too ({again})") from None
    return db, schema.SCHEMA_VERSION, "Saved games were unreadable: kept aside, starting clean"


def _connect(path: pathlib.Path, *, integrity: bool = True) -> sqlite3.Connection:
    """A ready read-write connection; BadFile for a file to move aside, StoreWriteError for a write fault.

    An existing file is first checked through a read-only connection, so a
    bad file is moved aside exactly as found: a read-write connection would
    checkpoint or delete its ``-wal`` when it closes.
    """
    version = 0
    check_kind(path)
    if path.exists():
        _check_header(path)
        set_aside_stray_journal(path)
        probe = None
        try:
            probe = sqlite_connect(_ro_uri(path), uri=True)
            version = schema.check(probe, integrity=integrity)
        except sqlite3.DatabaseError as err:
            if is_corruption(err):
                raise BadFile(one_line(err)) from None
            raise StoreWriteError(_open_message(path, err)) from None
        finally:
            if probe is not None:
                probe.close()
        if version > schema.SCHEMA_VERSION:  # read, never written: going back a version hides nothing
            raise NewerFile(schema.NEWER, schema.newer_note(path, version))
    db = None
    try:
        db = sqlite_connect(str(path))
        db.execute("PRAGMA busy_timeout=5000")
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":  # pragma: no cover - only on file systems without shared memory
            log.warning("journal_mode is %s, not wal", mode)
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        if schema.bring_up_to_date(db, version) and version:
            log.info("game store schema updated from version %d to %d", version, schema.SCHEMA_VERSION)
        return db
    except sqlite3.DatabaseError as err:
        if db is not None:
            db.close()
        if is_corruption(err):
            raise BadFile(one_line(err)) from None
        raise StoreWriteError(_open_message(path, err)) from None


def _open_message(path: pathlib.Path, err: BaseException) -> str:
    """Why the file cannot be opened for writing: a read-only mount says so, whatever SQLite reported."""
    try:
        if os.statvfs(path.parent).f_flag & os.ST_RDONLY:
            return "cannot save: the SD card is read-only"
    except OSError:
        pass
    return write_message(err)


def _check_header(path: pathlib.Path) -> None:
    """A non-empty file must start with SQLite's header: SQLite itself takes a zeroed page 1 for an empty database.

    Read by :func:`.sidefiles.file_head`, never ``open()`` and ``close()``: that close would drop the locks of
    every SQLite connection of this process to the file (a web view's reader beside a phone's request).
    """
    try:
        head = file_head(path, len(_MAGIC))
    except OSError as err:
        raise StoreWriteError(f"cannot read the game file: {err.strerror or err}") from None
    if head and head != _MAGIC:
        raise BadFile("not an SQLite database (wrong header)")


def _ro_uri(path: pathlib.Path) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def _move_aside(path: pathlib.Path, clock) -> pathlib.Path:
    """Rename the database (and its -wal/-shm) to ``<name>.corrupt-YYYYmmdd-HHMMSS``; return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock()))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        for suffix in ("", "-wal", "-shm", "-journal"):
            src = path.with_name(path.name + suffix)
            if src.exists():
                os.replace(src, aside.with_name(aside.name + suffix))
    except OSError as err:
        raise StoreWriteError(f"cannot move the damaged game file aside: {err.strerror or err}") from None
    _fsync_dir(path.parent)
    return aside


def _fsync_dir(directory: pathlib.Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
