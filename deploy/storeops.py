"""The updater's own touches of the game store, run as the box's user (so that
every file SQLite makes beside the store stays the box's):

    python3 storeops.py schema STORE_DIR          print the store's schema version (nothing: no store)
    python3 storeops.py copy STORE_DIR TARGET     a whole copy of the store (SQLite's backup), TARGET written last
    python3 storeops.py restore STORE_DIR SOURCE  SOURCE in the store's place, the old WAL dropped first

Stdlib only; the box must be stopped (the updater stops it first).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

DB_NAME = "games.sqlite3"  # firmware/store/sidefiles.py
SIDES = ("-wal", "-shm", "-journal")


def _sync(path: Path) -> None:
    with open(path, "rb") as f:
        os.fsync(f.fileno())
    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def schema(store_dir: Path) -> int | None:
    path = store_dir / DB_NAME
    if not path.exists():
        return None
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def copy(store_dir: Path, target: Path) -> None:
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{store_dir / DB_NAME}?mode=ro", uri=True)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)  # the WAL's pages too
    finally:
        dst.close()
        src.close()
    _sync(tmp)
    os.replace(tmp, target)
    _sync(target)


def restore(store_dir: Path, source: Path) -> None:
    tmp = store_dir / f".{DB_NAME}.restoring"
    shutil.copyfile(source, tmp)
    _sync(tmp)
    # The newer store's WAL must not be played into the restored file: it goes first
    # (its pages are in the copy made aside before this).
    for side in SIDES:
        (store_dir / (DB_NAME + side)).unlink(missing_ok=True)
    os.replace(tmp, store_dir / DB_NAME)
    _sync(store_dir / DB_NAME)


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 2 and argv[0] == "schema":
            found = schema(Path(argv[1]))
            print("" if found is None else found)
        elif len(argv) == 3 and argv[0] == "copy":
            copy(Path(argv[1]), Path(argv[2]))
        elif len(argv) == 3 and argv[0] == "restore":
            restore(Path(argv[1]), Path(argv[2]))
        else:
            print("usage: storeops.py schema DIR | copy DIR TARGET | restore DIR SOURCE", file=sys.stderr)
            return 2
    except (OSError, sqlite3.Error) as err:
        print(f"storeops: {argv[0]}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
