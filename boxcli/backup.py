"""``cantstop-box backup FILE``: a consistent copy of the saved games, made while the box runs.

The copy is one SQLite file of the same kind as the box's own (any later
version of the box reads it, and ``cantstop-box import FILE`` brings its
games into another box's store). It is made from a read-only look at one
moment of the file, in steps: the box goes on saving meanwhile and is never
kept waiting. FILE must not exist yet; a folder gets a file named after the
date inside it. Every page of the copy is checked before it gets its name,
so a FILE that exists is whole. See docs/backup.md.
"""

import argparse
import time
from pathlib import Path

from boxcli.cli import UsageError, write_stdout
from boxcli.export import add_config_argument, add_state_dir_argument, store_dir
from firmware.store import StoreError
from firmware.store.copies import backup

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the new file to write (or a folder to write it in)")
    add_state_dir_argument(parser)
    add_config_argument(parser)


def target_path(text: str) -> Path:
    path = Path(text)
    if path.is_dir():
        return path / time.strftime("cantstop-games-%Y%m%d-%H%M%S.sqlite3")
    return path


def run(args) -> int:
    target = target_path(args.file)
    state_dir = store_dir(args)
    t = time.perf_counter()
    try:
        games, size = backup(state_dir, target)
    except StoreError as err:
        raise UsageError(str(err)) from None
    write_stdout(f"backed up {games} games ({size / 1e6:.1f} MB) to {target} in {time.perf_counter() - t:.1f} s\n")
    return 0
