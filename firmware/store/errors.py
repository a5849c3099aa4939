"""The store's errors, and one line for the screen saying why a write failed."""

from __future__ import annotations

from hw.errors import one_line as _one_line

import errno
import sqlite3

# Primary SQLite result codes we tell apart.
SQLITE_BUSY, SQLITE_LOCKED = 5, 6
SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN = 8, 10, 11, 13, 14
SQLITE_NOTADB = 26


class StoreError(Exception):
    """Base of the store's errors; ``str()`` is one line for the screen or the terminal."""


class StoreWriteError(StoreError):
    """Saving failed (full disk, read-only file system, I/O error).

    The operation is kept as pending and saved by the next write that works;
    the game in memory stays playable.
    """


class StoreGameError(StoreError, ValueError):
    """The caller named a game that does not exist or cannot take this change."""


class StoreMissingError(StoreError):
    """A read-only open found no store in the state directory."""


class StoreLockedError(StoreError):
    """Another box holds the state directory's lock: a second writer is refused."""


class StorePathError(StoreError):
    """The game file's path holds something that is not a file (a FIFO, a device, a directory): a set-up mistake.

    Never opened (reading a FIFO would block for ever) and never moved aside; the commands say so in one
    line and exit non-zero.
    """


class NewerFile(StoreWriteError):
    """The game file is from a newer version of the box (its schema version is above ours): read, never written.

    ``str()`` is the short line for the screen; ``note`` the one line for the log.
    """

    def __init__(self, message: str, note: str) -> None:
        super().__init__(message)
        self.note = note


class BadFile(Exception):
    """The database file cannot be used: it is moved aside (internal)."""


def write_message(err: BaseException) -> str:
    """One line saying why a write failed, for the screen."""
    if isinstance(err, OSError) and not isinstance(err, sqlite3.Error):
        if err.errno == errno.ENOSPC:
            return "cannot save: the SD card is full"
        if err.errno == errno.EROFS:
            return "cannot save: the SD card is read-only"
        if err.errno in (errno.EACCES, errno.EPERM):
            return f"cannot save: no permission to write {err.filename or 'the game file'}"
        return f"cannot save: {err.strerror or err}"
    messages = {
        SQLITE_FULL: "cannot save: the SD card is full",
        SQLITE_READONLY: "cannot save: the SD card is read-only",
        SQLITE_IOERR: "cannot save: the SD card failed to write (I/O error)",
        SQLITE_BUSY: "cannot save: the game file is busy",
        SQLITE_LOCKED: "cannot save: the game file is busy",
        SQLITE_CANTOPEN: "cannot save: cannot open the game file",
        SQLITE_CORRUPT: "cannot save: the game file is damaged",
        SQLITE_NOTADB: "cannot save: the game file is damaged",
    }
    return messages.get(sqlite_code(err)) or f"cannot save: {one_line(err)}"


def sqlite_code(err: BaseException) -> int | None:
    """The primary SQLite result code of ``err``, from the code or, failing that, the message."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(err).lower()
    for needle, value in (("disk is full", SQLITE_FULL), ("readonly", SQLITE_READONLY),
                          ("i/o error", SQLITE_IOERR), ("malformed", SQLITE_CORRUPT),
                          ("not a database", SQLITE_NOTADB), ("locked", SQLITE_BUSY),
                          ("unable to open", SQLITE_CANTOPEN)):
        if needle in text:
            return value
    return None


def is_corruption(err: BaseException) -> bool:
    return sqlite_code(err) in (SQLITE_CORRUPT, SQLITE_NOTADB)


def one_line(err: BaseException) -> str:
    """An error as the store says it: one line (hw.errors.one_line, the one owner)."""
    return _one_line(err)
