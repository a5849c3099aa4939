"""Everything a game record holds comes back through backup and import (issue 30).

A backup imported onto a new card gave the same events but every game's
``elapsed`` (the play time) was gone, and with it the durations history
shows; a game whose clock jumped came back with dates said to be known.
``export`` of each game before and after is now the same record.
"""

import json

from engine import Rules
from boxcli.cli import main
from firmware.store import Store
from tests.kit.clock import FakeClock
from tests.kit.importkit import exported, run_import
from tests.kit.storekit import play_to_end, random_events


def _box_history(state_dir):
    """Five games as a box plays them: play time by a clock that cannot jump, the wall clock beside it."""
    wall, steady = FakeClock(1_750_000_000.0), FakeClock(5_000.0)

    def tick(seconds, jump=0.0):
        wall.advance(seconds + jump)
        steady.advance(seconds)

    seats = [{"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Blue", "bot": "rule28"}]
    with Store.open(state_dir, clock=wall, monotonic=steady) as store:
        for seed, jump_at, pause_at in ((1, None, None), (2, 9, None), (3, None, 5)):
            won, _ = play_to_end(seed=seed)
            g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
            for i, e in enumerate(won):
                tick(700.0 if i == pause_at else 3.5, jump=3600.0 if i == jump_at else 0.0)  # a jump; a long pause
                store.append(g.id, e)
        events, _ = random_events(30, seed=4, stop_chance=0.0)
        g = store.new_game(["Red", "Blue", "Green"], Rules(speedy=True), meta={"seats": seats[:1]})
        for e in events[:20]:
            tick(2.25)
            store.append(g.id, e)
        store.finish(g.id, 2)  # finished by the box without a winning stop: its winner kept
        g = store.new_game(["Red"], Rules(columns_to_win=2))
        for e in events[:7]:
            tick(1.0)
            store.append(g.id, e)
        tick(60.0)
        store.abandon(g.id)


def _records(state_dir, capsys):
    return [exported(state_dir, capsys, n) for n in range(1, 6)]


def _history(state_dir, capsys):
    assert main(["history", "--all", "--json", "--state-dir", str(state_dir)]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_backup_imported_onto_a_new_card_exports_every_game_as_before(state_dir, tmp_path, capsys):
    _box_history(state_dir)
    before = _records(state_dir, capsys)
    assert [r["status"] for r in before] == ["finished", "finished", "finished", "finished", "abandoned"]
    assert [r["date_known"] for r in before] == [True, False, True, True, True] and "elapsed" in before[0]
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--state-dir", str(state_dir)]) == 0
    capsys.readouterr()
    card = tmp_path / "card"
    assert run_import(capsys, tmp_path / "b.sqlite3", card)[0] == 0
    assert _records(card, capsys) == before
    assert _history(card, capsys) == _history(state_dir, capsys)
    with Store.open(card, readonly=True) as new, Store.open(state_dir, readonly=True) as old:
        assert [new.game(n).times for n in range(1, 6)] == [old.game(n).times for n in range(1, 6)]


def test_exported_records_imported_onto_a_new_card_export_as_before(state_dir, tmp_path, capsys):
    _box_history(state_dir)
    before = _records(state_dir, capsys)
    folder = tmp_path / "records"
    folder.mkdir()
    for record in before:
        (folder / f"{record['id']:03d}.json").write_text(json.dumps(record))
    card = tmp_path / "card"
    code, out, err = run_import(capsys, folder, card)
    assert (code, err) == (0, []), err
    assert _records(card, capsys) == before
    keys = ("players", "names", "started", "finished", "duration", "date_known", "turns", "winner", "status")
    assert [{k: g[k] for k in keys} for g in _history(card, capsys)] == \
        [{k: g[k] for k in keys} for g in _history(state_dir, capsys)]
