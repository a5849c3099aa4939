"""A backup whose tables are not what its schema version says (issue 30): one line, exit 2, nothing imported.

A column missing, or a table of another shape, was an OperationalError out
of the import (a traceback, exit status 1), after some of it was read.
"""

import pytest

from firmware.store import SCHEMA_VERSION
from tests.kit.importkit import change, make_backup, run_import


@pytest.mark.parametrize("sql, why", [
    ("ALTER TABLE events DROP COLUMN elapsed", "table events has no column elapsed"),
    ("ALTER TABLE games DROP COLUMN meta", "table games has no column meta"),
    ("DROP TABLE games; CREATE TABLE games (id INTEGER PRIMARY KEY, x)",
     "table games has no column clock_jumped, finished, meta, players, problem, rules, started, status, winner"),
    ("DROP TABLE facts; CREATE TABLE facts (name TEXT, data TEXT)", "table facts has no column key, value"),
])
def test_a_backup_whose_tables_lack_a_column_is_one_line_and_nothing_comes_in(state_dir, clock, tmp_path, capsys,
                                                                            sql, why):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 3)
    change(backup, sql)
    card = tmp_path / "card"
    code, out, err = run_import(capsys, backup, card)
    assert code == 2 and out == ""
    assert err == [f"cantstop-box import: {backup}: not a usable game file (schema version {SCHEMA_VERSION} but "
                   f"{why})"]
    assert not card.exists()  # not even a store made for it


def test_a_backup_of_an_older_version_is_read_for_the_columns_it_had(state_dir, clock, tmp_path, capsys):
    from tests.kit.storekit import as_version_4

    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 2)
    as_version_4(backup)
    change(backup, "ALTER TABLE events DROP COLUMN elapsed; ALTER TABLE games DROP COLUMN clock_jumped;"
                   " PRAGMA user_version = 3")  # as version 3 left it: no play time kept yet
    code, out, err = run_import(capsys, backup, tmp_path / "card")
    assert (code, err) == (0, []) and out.startswith("imported 2 games")
