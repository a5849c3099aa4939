"""What an import reads (issue 30): one bad record is refused alone, and nothing is read past the bounds.

A record nested 100,000 deep was a traceback that took the good records down
with it; a 200 MB record, a million events or an 8 GB sparse file were read
whole; a backup's 12 MB roster was copied as it was. Each is now one line,
the rest imported, and a file over its bound is refused from its size.
"""

import json
import shutil

import pytest

from firmware.store import Store
from firmware.store import jsontext
from firmware.store.incoming import MAX_EVENTS
from tests.kit.importkit import (RECORDS, backup_of_finished_games, change, command, deep, endless_turns, make_backup,
                                  run_import)


def _folder(tmp_path, middle: str):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(RECORDS / "two_players.json", folder / "a.json")
    (folder / "b.json").write_text(middle)
    shutil.copy(RECORDS / "solitaire.json", folder / "c.json")
    return folder


def test_a_record_nested_100000_deep_is_refused_alone(tmp_path, capsys):
    card = tmp_path / "card"
    code, out, err = run_import(capsys, _folder(tmp_path, deep(100_000)), card)
    assert code == 2 and err == ["cantstop-box import: b.json: refused: not a game record (not JSON: nested too deeply)"]
    assert out == f"imported 2 games into {card}; refused 0 already there and 1 not legal\n"


@pytest.mark.parametrize("column, cell", [
    ("meta", deep(20_000)),    # under the cell bound: refused for its depth
    ("meta", deep(100_000)),   # over it: refused for its size, unread
    ("meta", '{"seats": ' + deep(40) + "}"),  # parsed, but deeper than the store reads back
    ("players", '["Red", ' + deep(20_000) + "]"),
    ("rules", deep(20_000)),
])
def test_a_backup_game_with_a_deep_cell_is_refused_and_the_other_50_come_in(tmp_path, capsys, column, cell):
    backup = backup_of_finished_games(tmp_path / "b.sqlite3", 51)
    change(backup, f"UPDATE games SET {column} = ? WHERE id = 26", params=(cell,))
    card = tmp_path / "card"
    code, out, err = run_import(capsys, backup, card)
    assert code == 2 and len(err) == 1 and err[0].startswith("cantstop-box import: b.sqlite3, game 26: refused: ")
    assert err[0].endswith(f"refused: {column}: not valid JSON: nested more than 32 deep") or \
        err[0].endswith(f"refused: {column}: too big to read (200,000 characters; at most 65,536)")
    assert out == f"imported 50 games into {card}; refused 0 already there and 1 not legal\n"


def test_a_deep_roster_in_a_backup_is_refused_and_its_games_come_in(state_dir, clock, tmp_path, capsys):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 3)
    change(backup, "INSERT OR REPLACE INTO facts (key, value, time) VALUES ('roster', ?, 0)", params=(deep(20_000),))
    card = tmp_path / "card"
    code, out, err = run_import(capsys, backup, card)
    assert code == 2 and err == ["cantstop-box import: b.sqlite3, its roster: refused: the roster: not valid JSON: "
                                 "nested more than 32 deep; its games count by their names"]
    assert out.startswith("imported 3 games")


@pytest.mark.parametrize("size", [5 * 1024 * 1024, 8 * 1024 ** 3])
def test_a_record_over_4_mb_is_refused_from_its_size_unread(tmp_path, size):
    folder = _folder(tmp_path, "{}")
    (folder / "b.json").unlink()
    with open(folder / "big.json", "wb") as f:
        f.truncate(size)  # sparse: no block written, yet reading it gives every byte
    done, took, peak = command("import", str(folder), "--state-dir", str(tmp_path / "card"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"cantstop-box import: big.json: refused: {size / 1e6:,.0f} MB: bigger "
                                        "than 4 MB, not a game record (a long game is under 100 KB)"]
    assert done.stdout.startswith("imported 2 games")
    assert peak < 150 and took < 10  # the whole process: Python and its imports (well under a second here)


def test_a_single_sparse_record_is_refused_at_once(tmp_path, capsys):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(8 * 1024 ** 3)
    code, out, err = run_import(capsys, big, tmp_path / "card")
    assert code == 2 and len(err) == 1 and "bigger than 4 MB" in err[0]


def test_a_record_of_more_events_than_any_game_is_refused(tmp_path, capsys):
    record = {"players": ["Red"], "events": endless_turns(MAX_EVENTS + 1)}
    (tmp_path / "long.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "long.json", tmp_path / "card")
    assert code == 2 and err == [f"cantstop-box import: long.json: refused: {MAX_EVENTS + 1:,} events: more than "
                                 f"{MAX_EVENTS:,}, and no game is that long (a long one has a few hundred)"]


def test_a_backup_game_of_more_events_than_any_game_is_refused_uncounted_rows_unread(state_dir, clock, tmp_path,
                                                                                    capsys):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 2)
    payloads = [json.dumps(e, separators=(",", ":")) for e in endless_turns(MAX_EVENTS + 1)]
    change(backup, "INSERT INTO games (players, rules, meta, started, status) "
                   "VALUES ('[\"Red\"]', '{}', '{}', 1700000000, 'abandoned')")
    import sqlite3

    db = sqlite3.connect(backup)
    db.executemany("INSERT INTO events (game_id, seq, payload, time) VALUES (3, ?, ?, 1700000000)",
                   enumerate(payloads, 1))
    db.commit()
    db.close()
    code, out, err = run_import(capsys, backup, tmp_path / "card")
    assert code == 2 and err == [f"cantstop-box import: b.sqlite3, game 3: refused: {MAX_EVENTS + 1:,} events: "
                                 f"more than {MAX_EVENTS:,}, and no game is that long (a long one has a few hundred)"]
    assert out.startswith("imported 2 games")


def test_a_backup_cell_of_megabytes_is_refused_without_filling_the_memory(state_dir, clock, tmp_path):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 3)
    # 40 MB of meta in game 2 ({"x": "aaa..."}), and an event of 2 KB in game 3 (legal, with a key of its own)
    change(backup, "UPDATE games SET meta = '{\"x\": \"' || replace(hex(zeroblob(20000000)), '0', 'a') || '\"}' "
                   "WHERE id = 2",
           "UPDATE events SET payload = '{\"stop\": true, \"x\": \"' || replace(hex(zeroblob(1000)), '0', 'a') "
           "|| '\"}' WHERE game_id = 3 AND seq = (SELECT MAX(seq) FROM events WHERE game_id = 3)")
    done, took, peak = command("import", str(backup), "--state-dir", str(tmp_path / "card"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "cantstop-box import: b.sqlite3, game 2: refused: meta: too big to read (40,000,009 characters; at most "
        "65,536)",
        f"cantstop-box import: b.sqlite3, game 3: refused: event {_last(backup)}: too big to read (2,023 characters; "
        "at most 1,024)"]
    assert done.stdout.startswith("imported 1 game")
    assert peak < 120, f"{peak:.0f} MB"  # the cell is never a Python string (SQLite reads it once to count it)
    with Store.open(tmp_path / "card", readonly=True) as store:
        assert len(store.game(1).meta["seats"]) == 2


def _last(backup):
    import sqlite3

    db = sqlite3.connect(backup)
    try:
        return db.execute("SELECT MAX(seq) FROM events WHERE game_id = 3").fetchone()[0]
    finally:
        db.close()


def test_a_backups_12_mb_roster_is_refused_and_its_games_count_by_name(state_dir, clock, tmp_path, capsys):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 2)
    people = [{"id": i, "name": f"Player number {i:07d} of a roster no box ever had", "removed": True}
              for i in range(1, 200_001)]
    roster = json.dumps({"people": people, "legacy": {}, "names": [], "renamed": {}})
    assert len(roster) > 12 * 10 ** 6
    change(backup, "INSERT OR REPLACE INTO facts (key, value, time) VALUES ('roster', ?, 0)", params=(roster,))
    card = tmp_path / "card"
    code, out, err = run_import(capsys, backup, card)
    assert code == 2 and err == [f"cantstop-box import: b.sqlite3, its roster: refused: the roster: too big to read "
                                 f"({len(roster):,} characters; at most {jsontext.FACT_CHARS:,}); its games count "
                                 "by their names"]
    assert out.startswith("imported 2 games")
    with Store.open(card, readonly=True) as store:
        assert store.fact("roster") is None


def test_a_backups_roster_of_too_many_people_is_refused(state_dir, clock, tmp_path, capsys):
    backup = make_backup(state_dir, clock, tmp_path / "b.sqlite3", 1)
    people = [{"id": i, "name": f"P{i}", "removed": True} for i in range(1, 5000)]
    change(backup, "INSERT OR REPLACE INTO facts (key, value, time) VALUES ('roster', ?, 0)",
           params=(json.dumps({"people": people}),))
    code, out, err = run_import(capsys, backup, tmp_path / "card")
    assert code == 2 and len(err) == 1 and "the roster's people hold 4,999 entries: more than 4,096" in err[0]


def test_a_record_with_meta_over_the_cell_bound_is_refused(tmp_path, capsys):
    record = json.loads((RECORDS / "two_players.json").read_text())
    record["meta"] = {"x": "a" * jsontext.CELL_CHARS}
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert code == 2 and err == [f"cantstop-box import: g.json: refused: meta: too big to keep "
                                 f"({jsontext.CELL_CHARS + 8:,} characters; at most {jsontext.CELL_CHARS:,}, and a "
                                 "real game's take under 1,000)"]


def test_a_record_whose_meta_nests_deeper_than_the_store_reads_is_refused(tmp_path, capsys):
    """Kept, it would read back as a damaged game: the store reads a cell 32 deep at most."""
    record = json.loads((RECORDS / "two_players.json").read_text())
    record["meta"] = {"seats": json.loads(deep(40))}
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert code == 2 and err == ["cantstop-box import: g.json: refused: meta: nested more than 32 deep"]
