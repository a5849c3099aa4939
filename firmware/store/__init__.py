"""The authoritative game store: every game and every event, in SQLite.

One file, ``games.sqlite3``, in the state directory, in WAL mode with
``synchronous=FULL``: :meth:`Store.append` returns only once the event is
committed and synced, so what the players see is always already durable.
docs/store.md describes the behaviour; the package holds one job per file:

- :mod:`.file`: the file's lifecycle: where it lives, the writer's lock,
  opening and checking it, moving a bad one aside, reading a card that
  cannot be written;
- :mod:`.schema`: the tables, the schema version and the migrations;
- :mod:`.sidefiles`: the files SQLite keeps beside the game file, and a stray journal;
- :mod:`.store`: :class:`Store`, the event log and its writes (its reads: :mod:`.reads`);
- :mod:`.games`: stored games as values, and replaying stored rows;
- :mod:`.pending`: the writes kept in memory after a failed write;
- :mod:`.shared`: a fact another process may change beside a running box (the roster);
- :mod:`.errors`: the errors, and one line saying why a write failed.
"""

from .errors import (StoreError, StoreGameError, StoreLockedError, StoreMissingError, StorePathError,
                     StoreWriteError)
from .store import Store
from .file import APP_DIR, DB_NAME, LOCK_NAME, default_state_dir
from .games import GameSummary, StoredGame
from .schema import SCHEMA_VERSION

__all__ = [
    "APP_DIR", "DB_NAME", "LOCK_NAME", "SCHEMA_VERSION", "GameSummary", "Store", "StoreError", "StoreGameError",
    "StoreLockedError", "StoreMissingError", "StorePathError", "StoreWriteError", "StoredGame", "default_state_dir",
]
