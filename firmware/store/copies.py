"""A copy of the games: a consistent backup of a live file.

:func:`backup` copies the game file with SQLite's online backup API from a
read-only connection that holds one snapshot for the whole copy, in steps
with a pause between them: the box's writes are never blocked (the file is
in WAL mode: a reader takes no lock a writer waits for) and the card's
bandwidth is shared with them. The copy is checked page by page before it is
given its name. Games coming back are :mod:`.incoming` (and a backup's are
read by :mod:`.backupfile`).
"""

from __future__ import annotations

import os
import pathlib
import sqlite3

from . import file
from .errors import StoreError, one_line
from .sidefiles import side_name

#: Pages copied per step (1 MB at 4 KB a page), and the pause after each.
STEP_PAGES, STEP_PAUSE = 256, 0.002


def backup(state_dir: pathlib.Path, target: pathlib.Path, *, pages: int = STEP_PAGES,
           pause: float = STEP_PAUSE) -> tuple[int, int]:
    """Copy the store in ``state_dir`` to ``target`` (a new file); (games, bytes) copied.

    Raises StoreError (one line) when there is nothing to copy, the target
    (or its ``.partial``) exists, names a file SQLite keeps beside the store,
    or cannot be written, or the copy fails its check. Nothing is left at
    ``target`` unless the copy is whole, and only the ``.partial`` this call
    made is ever removed.
    """
    taken_for = side_name(state_dir, target)
    if taken_for is not None:
        raise StoreError(f"{target} would be taken for {taken_for}: SQLite and the box keep files of that name "
                         "beside the store; give the backup another name or folder")
    source, _ = file.open_reader(state_dir / file.DB_NAME)  # StoreMissingError / StoreError
    partial = target.with_name(target.name + ".partial")
    made = False  # whether the .partial is this call's (only then is it removed)
    dest = None
    try:
        if os.path.lexists(target):
            raise StoreError(f"{target} exists already: give the backup a new name")
        source.execute("BEGIN")  # one snapshot for every step: the copy is of one moment
        games = source.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        try:
            os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644))
        except FileExistsError:
            raise StoreError(f"{partial} exists already (a backup cut short, or somebody's file): move it away, "
                             "or give the backup a new name") from None
        except OSError as err:
            raise StoreError(f"cannot write {target}: {_why(err)}") from None
        made = True
        try:
            dest = sqlite3.connect(partial, isolation_level=None)
            _copy_pages(source, dest, pages, pause)
            dest.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            problems = [r[0] for r in dest.execute("PRAGMA integrity_check(5)")]
        except sqlite3.Error as err:
            raise StoreError(f"cannot write {target}: {one_line(err)}") from None
        if problems != ["ok"]:
            raise StoreError(f"the copy fails its check ({'; '.join(map(str, problems))[:120]}): "
                             "the game file itself may be damaged")
        dest.close()
        dest = None
        _fsync(partial)
        os.replace(partial, target)
        made = False  # it is the backup now
        file._fsync_dir(target.parent)
        return games, target.stat().st_size
    except OSError as err:
        raise StoreError(f"cannot write {target}: {_why(err)}") from None
    finally:
        if dest is not None:
            dest.close()
        source.close()
        if made:
            partial.unlink(missing_ok=True)


def _copy_pages(source: sqlite3.Connection, dest: sqlite3.Connection, pages: int, pause: float) -> None:
    """SQLite's online backup, ``pages`` at a step with ``pause`` seconds between steps."""
    source.backup(dest, pages=pages, sleep=pause)


def _why(err: BaseException) -> str:
    return getattr(err, "strerror", None) or one_line(err)


def _fsync(path: pathlib.Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
