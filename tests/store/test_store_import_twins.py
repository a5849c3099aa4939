"""Telling an incoming game from those already there (issue 30): in one look-up, and saying what differs.

Importing 10,000 records into a store that held their twins compared each
with every stored game of the same players, rules and length (52 s to add
nothing); a refusal said "...winner 1, but it says winner 1" when what was
wrong was the status.
"""

import json
import sqlite3
from dataclasses import replace

import pytest

from engine import Rules
from firmware.store import DB_NAME, Store
from firmware.store.incoming import Importer, Refused, checked
from tests.kit.importkit import RECORDS, run_import
from tests.kit.storekit import play_to_end


class _Counted(float):
    """A start time that counts how often it is read as a second."""

    reads = 0

    def __int__(self):
        _Counted.reads += 1
        return super().__int__()


def _store_of_twins(state_dir, count):
    """``count`` stored games alike but for their start (one game played again every hour)."""
    won, _ = play_to_end(seed=7)
    payloads = [json.dumps(e.to_json(), separators=(",", ":")) for e in won]
    Store.open(state_dir).close()
    db = sqlite3.connect(state_dir / DB_NAME)
    for i in range(count):
        cur = db.execute("INSERT INTO games (players, rules, meta, started, finished, winner, status, turns) "
                         "VALUES ('[\"Red\",\"Blue\"]', ?, '{}', ?, ?, 0, 'finished', 1)",
                         (json.dumps(Rules().to_json(), separators=(",", ":")), 1.7e9 + 3600 * i, 1.7e9 + 3600 * i))
        db.executemany("INSERT INTO events (game_id, seq, payload, time) VALUES (?, ?, ?, ?)",
                       [(cur.lastrowid, s, p, 1.7e9 + 3600 * i) for s, p in enumerate(payloads, 1)])
    db.commit()
    db.close()
    return won


@pytest.mark.parametrize("started_known", [True, False])
def test_each_twin_is_found_in_one_look_up_however_many_are_stored(state_dir, started_known):
    count = 2000
    won = _store_of_twins(state_dir, count)
    template = checked(["Red", "Blue"], Rules(), {}, won, started=1.7e9, finished=None, status=None, winner=None)
    _Counted.reads = 0
    with Store.open(state_dir) as store:
        importer = Importer(store)
        refused = 0
        for i in range(count):
            game = replace(template, started=_Counted(1.7e9 + 3600 * i + 0.5), started_known=started_known)
            try:
                importer.offer(game)
            except Refused as why:
                refused += str(why).startswith("already in the store")
        importer.flush()
    assert refused == count and importer.added == 0
    assert _Counted.reads <= 2 * count  # not once per stored game of the same shape: 2,000 x 2,000 before


def test_a_stored_game_is_hashed_once_whatever_looks_for_it(state_dir, monkeypatch):
    won = _store_of_twins(state_dir, 50)
    from firmware.store import incoming

    hashed = []
    real = incoming.fingerprint
    monkeypatch.setattr(incoming, "fingerprint", lambda texts: hashed.append(1) or real(texts))
    template = checked(["Red", "Blue"], Rules(), {}, won, started=1.7e9, finished=None, status=None, winner=None)
    with Store.open(state_dir) as store:
        importer = Importer(store)
        for i in range(3):
            with pytest.raises(Refused):
                importer.offer(replace(template, started_known=False))  # a start unknown: any of the 50 is its twin
    assert len(hashed) == 3 + 50  # each offer once, each stored game once


def test_a_record_whose_status_contradicts_its_winning_events_says_so(tmp_path, capsys):
    record = json.loads((RECORDS / "two_players.json").read_text())
    from engine import Record

    winner = Record.from_json(record).replay().winner
    record.update(status="abandoned", winner=winner)
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert code == 2 and err == [f"cantstop-box import: g.json: refused: its events end in a win (player {winner}), "
                                 "but it says it was abandoned"]
    record.update(status="finished", winner=1 - winner)
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert err == [f"cantstop-box import: g.json: refused: its events make player {winner} the winner, but it says "
                   f"winner {1 - winner}"]
