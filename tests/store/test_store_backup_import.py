"""``cantstop-box backup`` and ``import`` (issue 21, fault 10): a copy made while the box writes, games brought back.

A card wears out; nothing copied a store safely while the box ran, nor
brought games back onto a new card.
"""

import json
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from engine import Rules
from boxcli.cli import main
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, copies
from firmware.daemon.loaders import load_stats
from firmware.table.roster import Roster
from tests.kit.storekit import play_to_end, random_events

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
FIXTURE_GAMES = sorted(p.name for p in RECORDS.glob("*.json") if not p.name.endswith(".view.json"))


def _finished_games(state_dir, clock, count):
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for i in range(count):
            won, final = play_to_end(seed=i)
            seats = [{"colour": c, "bot": None, "name": n} for c, n in zip(("Red", "Blue"), ("Ann", f"P{i}"))]
            g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
            for e in won:
                clock.advance(2)
                store.append(g.id, e)


def _history(state_dir, capsys):
    assert main(["history", "--all", "--json", "--state-dir", str(state_dir)]) == 0
    return json.loads(capsys.readouterr().out)


def test_backup_while_a_box_writes_in_another_thread_is_consistent_and_opens(state_dir, clock, tmp_path,
                                                                           monkeypatch):
    _finished_games(state_dir, clock, 20)
    box = Store.open(state_dir, clock=clock)  # the box: holds the lock, writes on
    events, _ = random_events(400, seed=5, stop_chance=0.0)  # no stop: the game stays open
    game = box.new_game(["Red", "Blue"], Rules())
    stop, snapshot_taken, written, errors = threading.Event(), threading.Event(), [], []

    def play():
        try:
            for e in events:
                if stop.is_set():
                    break
                if len(written) == 20:  # the rest after the backup's snapshot: a busy machine once let the box
                    snapshot_taken.wait(30)  # write all 400 before the backup began, and none while it copied
                box.append(game.id, e)
                written.append(time.perf_counter())
        except Exception as err:  # pragma: no cover - reported below
            errors.append(err)

    monkeypatch.setattr(copies, "STEP_PAGES", 1)  # many small steps while the box writes between them
    copy_pages, at_snapshot = copies._copy_pages, []

    def copy_after_more_writes(source, dest, pages, pause):
        # The backup's snapshot is taken: the box writes 20 more events before the pages are copied, so
        # the copy is made while the store moves on, whatever the scheduler does.
        at_snapshot.append(len(written))
        snapshot_taken.set()
        wait_until = time.monotonic() + 30
        while len(written) < at_snapshot[0] + 20 and not errors and time.monotonic() < wait_until:
            time.sleep(0.001)
        copy_pages(source, dest, pages, pause)

    monkeypatch.setattr(copies, "_copy_pages", copy_after_more_writes)
    thread = threading.Thread(target=play)
    thread.start()
    deadline = time.monotonic() + 30
    while len(written) < 20 and not errors and time.monotonic() < deadline:
        time.sleep(0.001)
    target = tmp_path / "copy.sqlite3"
    try:
        games, size = copies.backup(state_dir, target, pages=1, pause=0.001)
        during = len(written)
    finally:
        stop.set()
        thread.join()
        box.close()
    assert not errors and during >= at_snapshot[0] + 20  # the box went on writing while the copy was made
    assert games == 21 and size == target.stat().st_size
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("copy")] == ["copy.sqlite3"]  # no -wal beside
    db = sqlite3.connect(target)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    copy_dir = tmp_path / "restored"
    copy_dir.mkdir()
    shutil.copy(target, copy_dir / DB_NAME)
    with Store.open(copy_dir, clock=clock) as restored:
        kept = restored.game(game.id)
        assert kept.status == "open" and 0 < len(kept.events) <= len(events)
        assert list(kept.events) == events[:len(kept.events)]  # a prefix of what the box wrote: one moment
        assert len(kept.events) <= at_snapshot[0] + 1  # that moment is the snapshot's, not the copy's end
        assert all(restored.game(g.id).status == "finished" for g in restored.games() if g.id != game.id)


def test_backup_command_refuses_an_existing_file_and_writes_into_a_folder(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 2)
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("mine")
    assert main(["backup", str(taken), "--state-dir", str(state_dir)]) == 2
    assert capsys.readouterr().err == f"cantstop-box backup: {taken} exists already: give the backup a new name\n"
    assert taken.read_text() == "mine"
    folder = tmp_path / "usb"
    folder.mkdir()
    assert main(["backup", str(folder), "--state-dir", str(state_dir)]) == 0
    out = capsys.readouterr().out
    made = list(folder.iterdir())
    assert len(made) == 1 and made[0].name.startswith("cantstop-games-") and out.startswith("backed up 2 games")


def test_backup_of_no_store_is_one_line(tmp_path, capsys):
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"cantstop-box backup: no saved games in {tmp_path / 'none'}\n"
    assert not (tmp_path / "b.sqlite3").exists()


def test_import_of_a_backup_keeps_who_when_and_the_result_and_refuses_it_twice(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 5)
    with Store.open(state_dir, clock=clock) as store:
        store.abandon(store.new_game(["Red", "Blue"], Rules()).id)
    before = _history(state_dir, capsys)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    capsys.readouterr()
    card = tmp_path / "new-card"
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(card)]) == 0
    assert capsys.readouterr().out == f"imported 6 games into {card}; refused 0 already there and 0 not legal\n"
    after = _history(card, capsys)
    keys = ("id", "players", "names", "started", "finished", "duration", "turns", "winner", "winner_name", "status")
    assert [{k: g[k] for k in keys} for g in after] == [{k: g[k] for k in keys} for g in before]
    with Store.open(card, clock=clock) as new, Store.open(state_dir, clock=clock, readonly=True) as old:
        assert [new.game(g["id"]).times for g in after] == [old.game(g["id"]).times for g in before]
        assert load_stats(new, Roster()).rows == load_stats(old, Roster()).rows  # statistics follow
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(card)]) == 0
    out = capsys.readouterr()
    assert out.out == f"imported 0 games into {card}; refused 6 already there and 0 not legal\n"
    assert out.err.count("\n") == 6 and "b.sqlite3, game 3: refused: already in the store" in out.err
    assert _history(card, capsys) == after


def test_import_of_a_folder_of_records(tmp_path, capsys):
    card = tmp_path / "card"
    assert main(["import", str(RECORDS), "--state-dir", str(card)]) == 0
    out = capsys.readouterr()
    assert out.err == ""  # the state views beside the records are no records: left alone
    assert out.out == f"imported {len(FIXTURE_GAMES)} games into {card}; refused 0 already there and 0 not legal\n"
    games = _history(card, capsys)
    by_players = {}
    for name in FIXTURE_GAMES:
        record = json.loads((RECORDS / name).read_text())
        by_players.setdefault(tuple(record["players"]), []).append(len(record["events"]))
    assert sorted((tuple(g["players"]), g["events"]) for g in games) == sorted(
        (p, n) for p, counts in by_players.items() for n in counts)
    assert {g["status"] for g in games} <= {"finished", "abandoned"} and any(g["winner"] is not None for g in games)
    assert main(["import", str(RECORDS), "--state-dir", str(card)]) == 0
    assert f"refused {len(FIXTURE_GAMES)} already there" in capsys.readouterr().out


def test_import_of_exported_records_keeps_their_times(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 3)
    folder = tmp_path / "records"
    folder.mkdir()
    for n in (1, 2, 3):
        assert main(["export", str(n), "-o", str(folder / f"{n}.json"), "--state-dir", str(state_dir)]) == 0
    card = tmp_path / "card"
    assert main(["import", str(folder), "--state-dir", str(card)]) == 0
    capsys.readouterr()
    keys = ("players", "names", "started", "finished", "duration", "winner_name", "status", "turns")
    assert [{k: g[k] for k in keys} for g in _history(card, capsys)] == \
        [{k: g[k] for k in keys} for g in _history(state_dir, capsys)]


@pytest.mark.parametrize("text, why", [
    ("this is not json", "not a game record (not JSON"),
    ('{"players": ["Red", "Blue"]}', "not a game record (events is missing"),
    ('{"players": ["Red", "Blue"], "events": [{"move": [7]}]}', "event 1: "),
    ('{"players": ["Red"], "events": [], "started": "yesterday"}', "started must be a time like"),
])
def test_import_refuses_an_illegal_record_with_one_line_and_keeps_the_others(tmp_path, capsys, text, why):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(RECORDS / "two_players.json", folder / "a.json")
    (folder / "b.json").write_text(text)
    card = tmp_path / "card"
    assert main(["import", str(folder), "--state-dir", str(card)]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and out.err.startswith("cantstop-box import: b.json: refused: ")
    assert why in out.err and "Traceback" not in out.err
    assert out.out == f"imported 1 game into {card}; refused 0 already there and 1 not legal\n"
    assert len(_history(card, capsys)) == 1


def test_import_refuses_a_winner_the_events_contradict(tmp_path, capsys):
    record = json.loads((RECORDS / "two_players.json").read_text())
    final = record["events"]
    assert final[-1] == {"stop": True}
    from engine import Record
    winner = Record.from_json(record).replay().winner
    record["winner"] = 1 - winner
    (tmp_path / "g.json").write_text(json.dumps(record))
    assert main(["import", str(tmp_path / "g.json"), "--state-dir", str(tmp_path / "card")]) == 2
    assert f"its events make player {winner} the winner" in capsys.readouterr().err


def test_import_while_the_box_runs_is_refused_with_one_line_and_writes_nothing(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 1)
    with Store.open(state_dir, clock=clock):  # the box
        size = (state_dir / DB_NAME).stat().st_size
        assert main(["import", str(RECORDS), "--state-dir", str(state_dir)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"(process {os.getpid()}) is using the games" in err
        assert "stop the box first (sudo systemctl stop cantstop-box)" in err
        assert (state_dir / DB_NAME).stat().st_size == size
    assert len(_history(state_dir, capsys)) == 1


def test_import_of_nothing_is_one_line(tmp_path, capsys):
    assert main(["import", str(tmp_path / "nope"), "--state-dir", str(tmp_path / "card")]) == 2
    assert capsys.readouterr().err == f"cantstop-box import: {tmp_path / 'nope'}: no such file or folder\n"
    (tmp_path / "empty").mkdir()
    assert main(["import", str(tmp_path / "empty"), "--state-dir", str(tmp_path / "card")]) == 2
    assert capsys.readouterr().err == f"cantstop-box import: no game records (*.json) in {tmp_path / 'empty'}\n"


def test_import_keeps_person_ids_only_where_this_stores_roster_knows_them(state_dir, clock, tmp_path, capsys):
    from firmware.table import roster as rosters

    with Store.open(state_dir, clock=clock) as store:
        store.put_fact(rosters.ROSTER_KEY, rosters.from_fact(None, ("Ann", "Bob")).to_json())  # Ann 1, Bob 2
        won, _ = play_to_end(seed=4)
        seats = [{"colour": "Red", "bot": None, "name": "Ann", "person": 1},
                 {"colour": "Blue", "bot": None, "name": "Bob", "person": 2}]
        g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
        for e in won:
            store.append(g.id, e)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    fresh, other = tmp_path / "fresh", tmp_path / "other"
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(fresh)]) == 0  # takes the roster too
    with Store.open(other, clock=clock) as store:  # a card whose id 1 is somebody else
        store.put_fact(rosters.ROSTER_KEY, rosters.from_fact(None, ("Zed", "Bob")).to_json())
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(other)]) == 0
    capsys.readouterr()
    with Store.open(fresh, clock=clock) as a, Store.open(other, clock=clock) as b:
        assert [s.get("person") for s in a.game(1).meta["seats"]] == [1, 2]
        assert [s.get("person") for s in b.game(1).meta["seats"]] == [None, 2]  # Ann is not Zed
        names = dict(load_stats(b, rosters.load(b, ())).rows)
        assert "Zed" not in names and {"Ann", "Bob"} <= set(names)


def test_import_keeps_the_id_of_a_person_renamed_after_the_game_a_box_seat_too(state_dir, clock, tmp_path, capsys):
    """Issue 47, item 2: Cat, a box seat, renamed Dee before the backup, had person 3 before the import and none
    after it: the id was kept only where the roster knew it by the seat's name of then."""
    from firmware.table import roster as rosters

    with Store.open(state_dir, clock=clock) as store:
        store.put_fact(rosters.ROSTER_KEY, rosters.from_fact(None, ("Ann", "Bob", "Cat")).to_json())  # Cat is 3
        won, _ = play_to_end(seed=4)
        seats = [{"colour": "Red", "bot": None, "name": "Ann", "person": 1},
                 {"colour": "Blue", "bot": "strong", "name": "Cat", "person": 3}]
        g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
        for e in won:
            store.append(g.id, e)
    assert main(["players", "rename", "Cat", "Dee", "--state-dir", str(state_dir)]) == 0
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    fresh, other = tmp_path / "fresh", tmp_path / "other"
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(fresh)]) == 0
    with Store.open(other, clock=clock) as store:  # a card whose own roster has Dee as 3 too, and Zed as 1
        store.put_fact(rosters.ROSTER_KEY, rosters.from_fact(None, ("Zed", "Bob", "Dee")).to_json())
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(other)]) == 0
    capsys.readouterr()
    with Store.open(state_dir) as before, Store.open(fresh) as a, Store.open(other) as b:
        assert [s.get("person") for s in before.game(1).meta["seats"]] == [1, 3]
        assert [s.get("person") for s in a.game(1).meta["seats"]] == [1, 3]  # the events and the people the same
        assert [s.get("person") for s in b.game(1).meta["seats"]] == [None, 3]  # Dee is 3 there too; Ann is not Zed


def test_import_of_a_damaged_backup_is_one_line_that_moves_nothing(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 2)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    db = sqlite3.connect(tmp_path / "b.sqlite3")
    db.executescript("DROP TABLE facts;")  # a schema this box cannot read: no file the box would start on
    db.close()
    capsys.readouterr()
    card = tmp_path / "card"
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(card)]) == 2
    err = capsys.readouterr().err
    assert err == (f"cantstop-box import: {tmp_path / 'b.sqlite3'}: not a usable game file"
                   f" (schema version {SCHEMA_VERSION} but tables facts missing)\n")
    assert "aside" not in err and (tmp_path / "b.sqlite3").exists()


def test_import_of_a_backup_from_a_newer_box_brings_the_games_it_can_read(state_dir, clock, tmp_path, capsys):
    _finished_games(state_dir, clock, 3)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    db = sqlite3.connect(tmp_path / "b.sqlite3")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")  # a newer box's backup: what this box knows is there
    db.commit()
    db.close()
    capsys.readouterr()
    card = tmp_path / "card"
    assert main(["import", str(tmp_path / "b.sqlite3"), "--state-dir", str(card)]) == 0
    assert capsys.readouterr().out == f"imported 3 games into {card}; refused 0 already there and 0 not legal\n"
