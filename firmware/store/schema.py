"""What the game file holds: its tables, its version and how an older file is brought up to date.

The version lives in ``PRAGMA user_version``. A file of version N is brought
up to :data:`SCHEMA_VERSION` in place, in one transaction. A file of a newer
version (a box gone back to an older release) is read but never written (see
:mod:`.file`); an unknown schema (tables but no version, tables missing)
makes the file unusable (it is moved aside).
"""

from __future__ import annotations

import sqlite3

from .errors import BadFile

SCHEMA_VERSION = 5

#: How many games are finished (and undamaged) and the sum of their ids, kept by SQLite itself.
#: The statistics screen compares it with the kept sums of the tallies (see
#: :mod:`firmware.table.tally_sums`) at every opening: one row read, where a count over
#: ``games`` grows with every game night. Triggers keep it, so every writer (this box, an older
#: release of the same schema, ``sqlite3`` by hand) keeps it right in the same transaction.
_FINISHED = "(NEW.status = 'finished' AND NEW.problem IS NULL)"
_WAS_FINISHED = "(OLD.status = 'finished' AND OLD.problem IS NULL)"
FINISHED_COUNT = f"""
CREATE TABLE finished_count (
    one      INTEGER PRIMARY KEY CHECK (one = 1),
    count    INTEGER NOT NULL,            -- games with status 'finished' and no problem
    total    INTEGER NOT NULL             -- the sum of their ids
);
CREATE TRIGGER finished_count_insert AFTER INSERT ON games WHEN {_FINISHED} BEGIN
    UPDATE finished_count SET count = count + 1, total = total + NEW.id;
END;
CREATE TRIGGER finished_count_update AFTER UPDATE OF id, status, problem ON games
WHEN {_FINISHED} IS NOT {_WAS_FINISHED} OR NEW.id IS NOT OLD.id BEGIN
    UPDATE finished_count SET count = count + {_FINISHED} - {_WAS_FINISHED},
        total = total + NEW.id * {_FINISHED} - OLD.id * {_WAS_FINISHED};
END;
CREATE TRIGGER finished_count_delete AFTER DELETE ON games WHEN {_WAS_FINISHED} BEGIN
    UPDATE finished_count SET count = count - 1, total = total - OLD.id;
END;
"""

SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    players  TEXT NOT NULL,               -- JSON list of names, turn order
    rules    TEXT NOT NULL,               -- JSON, the record's rules object
    meta     TEXT NOT NULL DEFAULT '{}',  -- JSON, free-form for the UI (the seats)
    started  REAL NOT NULL,               -- seconds since the epoch
    finished REAL,                        -- when finished or abandoned
    winner   INTEGER,                     -- index into players
    status   TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
    problem  TEXT,                        -- set when an event does not replay: the game is damaged
    -- clock_jumped: 1 when the wall clock jumped during the game (its dates are not to be trusted)
    clock_jumped INTEGER,
    turns    INTEGER                      -- turns played, kept when the game closes (history without replay)
);
CREATE INDEX games_status ON games (status);
CREATE TABLE events (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,            -- 1, 2, 3 ... within the game
    payload  TEXT NOT NULL,               -- the record's JSON for the event
    time     REAL NOT NULL,
    -- elapsed: seconds of play from the game's start, by a clock that cannot jump
    elapsed  REAL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE facts (
    key      TEXT PRIMARY KEY,            -- a small UI fact, e.g. the settings last used
    value    TEXT NOT NULL,               -- JSON
    time     REAL NOT NULL
) WITHOUT ROWID;
""" + FINISHED_COUNT + "INSERT INTO finished_count VALUES (1, 0, 0);\n"

# Statements that bring a file of version N up to N + 1.
MIGRATIONS = {
    1: "ALTER TABLE games ADD COLUMN turns INTEGER;",
    2: "CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL, time REAL NOT NULL) WITHOUT ROWID;",
    # Two columns, no row rewritten (constant time however many games): older rows keep NULL there.
    3: "ALTER TABLE events ADD COLUMN elapsed REAL; ALTER TABLE games ADD COLUMN clock_jumped INTEGER;",
    # One count over the games' status index, once (2 ms for 10,000 games here); the triggers keep it after.
    4: FINISHED_COUNT + "INSERT INTO finished_count SELECT 1, COUNT(*), TOTAL(id) FROM games"
                        " WHERE status = 'finished' AND problem IS NULL;",
}

# The tables a file of each version must have.
TABLES = {1: {"games", "events"}, 2: {"games", "events"}, 3: {"games", "events", "facts"},
          4: {"games", "events", "facts"}, 5: {"games", "events", "facts", "finished_count"}}


def check(db: sqlite3.Connection, *, integrity: bool = True) -> int:
    """The schema version of a usable file; raises BadFile (or sqlite3.DatabaseError) for a bad one.

    ``integrity=False`` leaves out ``PRAGMA integrity_check``, which reads the whole file: for a file
    already checked when it was opened (the box trying a read-write open again, on its loop).
    """
    db.execute("PRAGMA busy_timeout=5000")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    tables.discard("sqlite_sequence")
    if version == 0 and tables:
        raise BadFile(f"unknown tables {', '.join(sorted(tables))} and no schema version")
    needed = TABLES.get(min(version, SCHEMA_VERSION), set())  # a newer file holds at least what we read
    if version > 0 and not needed <= tables:
        missing = needed - tables
        raise BadFile(f"schema version {version} but tables {', '.join(sorted(missing))} missing")
    problems = []
    for query in _checks(db, tables) if integrity else ():
        problems += [r[0] for r in db.execute(query)]
    if any(p != "ok" for p in problems):
        bad = [str(p) for p in problems if p != "ok"]
        raise BadFile("integrity check failed: " + "; ".join(bad)[:200])
    return version


#: The biggest file (in pages: 8 MB, about 1,000 games) checked whole at every opening: 80 ms here.
FULL_CHECK_PAGES = 2048
#: The tables still checked whole in a bigger file: every row of them is read at start or by any screen.
SMALL_TABLES = ("games", "facts")


def _checks(db: sqlite3.Connection, tables: set[str]) -> list[str]:
    """The integrity checks an opening runs: the whole file while it is small, else its small tables.

    A whole check reads every page (0.5 s with 10,000 games here, seconds on a
    Pi), at every start. Past :data:`FULL_CHECK_PAGES` only the games and the
    facts are checked, each b-tree page by page (``quick_check``: 1.5 ms for
    10,000 games, where ``integrity_check`` of the games alone, which also
    matches every row to its index, takes 19 ms); a damaged page among the events is found when the
    game it holds is read, which then shows as damaged (see
    :meth:`firmware.store.reads.Reads.game`), and ``cantstop-box backup``
    checks every page of its copy.
    """
    if db.execute("PRAGMA page_count").fetchone()[0] <= FULL_CHECK_PAGES:
        return ["PRAGMA integrity_check(5)"]
    return [f"PRAGMA quick_check({t})" for t in SMALL_TABLES if t in tables]


#: Why a file of a newer schema is not written, as the screen and the commands say it (short: it is shown).
NEWER = "cannot save: game file from a newer box"


def newer_note(path, version: int) -> str:
    """The one line the log gets when a newer file is opened."""
    return (f"the game file {path} is from a newer version of the box (schema {version}; this one knows "
            f"{SCHEMA_VERSION}): it is read, never written; update the box to play on with it saved")


def bring_up_to_date(db: sqlite3.Connection, version: int) -> bool:
    """Create the tables (version 0) or run the migrations from ``version``; True if anything changed.

    One transaction: a power cut leaves either the old file or the new one.
    """
    if version == 0:
        steps = SCHEMA
    elif version < SCHEMA_VERSION:
        steps = "".join(MIGRATIONS[v] for v in range(version, SCHEMA_VERSION))
    else:
        return False
    db.executescript(f"BEGIN IMMEDIATE; {steps} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
    return True


def empty() -> sqlite3.Connection:
    """An empty store in memory: what reads see while no file can be created (nothing is written to it)."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    bring_up_to_date(db, 0)
    db.execute("PRAGMA query_only = ON")
    return db
