"""A stored JSON cell nested 100,000 deep, or 50 MB long, is a damaged game (or a damaged fact), never a traceback.

The cells are written with sqlite3 straight into a store the box's own
writes made, as a hand edit or a damaged card would leave them, and read
back by the real commands (``history``, ``export``, ``players``) and by the
box as it starts (on mock pins).
"""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import views
from boxcli.cli import main
from firmware.store import DB_NAME, Store, jsontext
from tests.kit.rig import Rig
from tests.kit.storekit import finished_and_open

ROOT = Path(__file__).resolve().parents[2]

#: Cells a hand edit could leave: nested deeper than the JSON decoder recurses (under the size limit of a
#: game's cell, and the issue's 100,000 deep, over it), and one over the size limit of a fact (2 MB).
#: The web view's tests (tests/web/test_damaged_cells.py) read one of 50 MB.
CELLS = {
    "20,000 deep": "[" * 20_000 + "]" * 20_000,
    "100,000 deep": "[" * 100_000 + "]" * 100_000,
    "2 MB": '"' + "x" * 2_000_000 + '"',
}


@pytest.fixture
def filled(state_dir, clock):
    """Game 1 finished (Ann and Bob), game 2 open, 9 events in."""
    return finished_and_open(state_dir, clock)


def damage(state_dir, sql, cell):
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute(sql, (cell,)).rowcount == 1
    db.commit()
    db.close()


WHERE = {  # where a damaged cell goes in game 1, and what the store says of it
    "event": ("UPDATE events SET payload = ? WHERE game_id = 1 AND seq = 5", "game 1, event 5: "),
    "players": ("UPDATE games SET players = ? WHERE id = 1", "game 1: players or rules unreadable: "),
    "rules": ("UPDATE games SET rules = ? WHERE id = 1", "game 1: players or rules unreadable: "),
    "meta": ("UPDATE games SET meta = ? WHERE id = 1", "game 1: meta unreadable: "),
}


def said(kind: str) -> str:
    return "too big to read" if len(CELLS[kind]) > jsontext.CELL_CHARS else f"nested more than {jsontext.MAX_DEPTH} deep"


@pytest.mark.parametrize("kind", ["20,000 deep", "100,000 deep"])
@pytest.mark.parametrize("where", sorted(WHERE))
def test_history_lists_a_damaged_cell_as_a_damaged_game_in_one_line(state_dir, filled, capsys, where, kind):
    sql, problem = WHERE[where]
    damage(state_dir, sql, CELLS[kind])
    assert main(["history", "--state-dir", str(state_dir)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("1 "))
    assert row.endswith("damaged")
    notes = [line for line in lines if line.startswith("damaged:")]
    assert notes == [f"damaged: {problem}{notes[0].split(problem, 1)[1]}"] and said(kind) in notes[0]
    assert len(notes[0]) < 200 and err == ""
    assert main(["history", "--json", "--state-dir", str(state_dir)]) == 0
    listed = {g["id"]: g for g in json.loads(capsys.readouterr().out)}
    assert listed[1]["status"] == "damaged" and listed[1]["problem"].startswith(problem)
    assert listed[2]["status"] == "open"


@pytest.mark.parametrize("kind", ["20,000 deep", "100,000 deep"])
def test_export_writes_the_events_before_a_damaged_one_and_the_stored_rows(state_dir, filled, capsys, kind):
    damage(state_dir, WHERE["event"][0], CELLS[kind])
    assert main(["export", "1", "--state-dir", str(state_dir)]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert record["status"] == "damaged" and len(record["events"]) == 4
    assert record["problem"].startswith("game 1, event 5: ") and said(kind) in record["problem"]
    first = record["damaged_events"][0]
    too_big = len(CELLS[kind]) > jsontext.CELL_CHARS
    assert first == {"event": 5, "stored": None if too_big else CELLS[kind]}  # verbatim, unless too big to read
    assert [d["event"] for d in record["damaged_events"]] == list(range(5, filled + 1))
    assert err.count("\n") == 1 and err.startswith("cantstop-box export: warning: game 1, event 5: ")
    assert main(["export", "--state-dir", str(state_dir)]) == 0  # the open game, untouched
    assert json.loads(capsys.readouterr().out)["status"] == "open"


def test_the_real_command_lists_a_cell_100000_deep_without_a_traceback(state_dir, filled):
    damage(state_dir, WHERE["meta"][0], CELLS["100,000 deep"])
    for argv in (["history"], ["export", "1"]):
        done = subprocess.run([sys.executable, "-m", "boxcli.cli", *argv, "--state-dir", str(state_dir)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert "game 1: meta unreadable: too big to read" in done.stdout + done.stderr


@pytest.mark.parametrize("sql", [
    "UPDATE events SET payload = ? WHERE game_id = 2 AND seq = 9",
    "UPDATE games SET meta = ? WHERE id = 2",
    "UPDATE games SET players = ? WHERE id = 2",
], ids=["last event", "meta", "players"])
def test_the_box_starts_with_its_damaged_notice_on_a_damaged_open_game(state_dir, filled, sql):
    # the last event nested 20,000 deep around a stop: opening the store looks for a win left open there
    damage(state_dir, sql, "[" * 20_000 + '"stop"' + "]" * 20_000)
    rig = Rig(state_dir)
    try:
        shown = rig.view
        problem = rig.store.game(2).problem
        assert problem.startswith("game 2") and "nested more than" in problem
        assert isinstance(shown, views.MessageView)
        assert (shown.title, shown.lines[0]) == (rig.box.app.words.notice("damaged", problem)[0], problem)
        rig.tap("ROLL")  # read: the table goes on to a new game, the damaged one kept in history
        assert not isinstance(rig.view, views.MessageView)
    finally:
        rig.close()
    assert Store.open(state_dir, readonly=True).game(2).status == "damaged"


TALLY = {"seats": [{"name": "Ann", "bot": None, "turns": 9, "busts": 2, "best": 5},
                   {"name": "Bob", "bot": None, "turns": 9, "busts": 3, "best": 4}], "winner": 0, "columns": 3}


@pytest.mark.parametrize("key", ["roster", "table", "tally:1"])
def test_a_damaged_fact_reads_as_none_and_every_reader_goes_on(state_dir, filled, capsys, key):
    assert main(["players", "add", "Cy", "--state-dir", str(state_dir)]) == 0
    rig = Rig(state_dir)
    table = rig.box.keeper.memory_of(rig.box.app)  # what the box keeps of its screen for a restart
    rig.close()
    with Store.open(state_dir) as store:
        store.put_facts({"tally:1": TALLY, "table": table})
    for kind in ("100,000 deep", "2 MB"):
        damage(state_dir, f"UPDATE facts SET value = ? WHERE key = '{key}'", CELLS[kind])
        with Store.open(state_dir, readonly=True) as store:
            assert store.fact(key) is None and key not in store.facts(key[:3])
        capsys.readouterr()
        assert main(["players", "list", "-l", "--state-dir", str(state_dir)]) == 0
        assert main(["history", "--state-dir", str(state_dir)]) == 0
        err = capsys.readouterr().err
        assert "Traceback" not in err and all(len(line) < 200 for line in err.splitlines())
        rig = Rig(state_dir)  # the box starts as with the fact unset
        try:
            assert rig.box.app.game is not None or isinstance(rig.view, views.SetupView)
        finally:
            rig.close()


def test_the_guarded_reader_says_what_is_wrong_in_one_line():
    load, CellError, MAX_DEPTH = jsontext.load, jsontext.CellError, jsontext.MAX_DEPTH
    assert load('{"roll":[2,3,4,5]}') == {"roll": [2, 3, 4, 5]}
    assert load("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert load('["' + "[" * 100 + '"]') == ["[" * 100]  # brackets inside a string do not nest
    for text, why in (("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested more than"),
                      ("[" * 100_000 + "]" * 100_000, "too big"), ('{"a": NaN}', "not valid JSON"),
                      ("{not json", "not valid JSON"), ("1" * 5000, "not valid JSON"), (None, "missing")):
        with pytest.raises(CellError, match=why):
            load(text)
    with pytest.raises(CellError, match="nested more than"):
        load("[" * 20_000 + "]" * 20_000)
