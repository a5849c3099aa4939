"""``cantstop-box export`` and ``history``: records that ``replay`` accepts, a readable list, one-line errors."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Record, Rules, state_view
from boxcli.cli import main
from firmware.store import DB_NAME, Store
from tests.kit.storekit import play_to_end, random_events

ROOT = Path(__file__).resolve().parents[2]


def _cli(*argv):
    """Run ``cantstop-box`` as a separate program; (status, stdout, stderr)."""
    out = subprocess.run([sys.executable, "-m", "boxcli.cli", *argv],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout, out.stderr


def _replay_text(text):
    out = subprocess.run([sys.executable, "-m", "boxcli.cli", "replay", "-"], input=text,
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture
def filled(state_dir, clock):
    """Three games: 1 finished, 2 abandoned, 3 open (mid-turn)."""
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")  # setup only: durability is tested elsewhere
        won, final = play_to_end(seed=21)
        a = store.new_game(["Ann", "Bob"], Rules(), meta={"colours": ["red", "blue"]})
        for e in won:
            clock.advance(3)
            store.append(a.id, e)
        store.finish(a.id, final.winner)
        clock.advance(600)
        b = store.new_game(["Cy", "Di", "Ed"], Rules(columns_to_win=2))
        for e in random_events(7, seed=1, players=("Cy", "Di", "Ed"))[0]:
            store.append(b.id, e)
        clock.advance(60)
        open_events, open_state = random_events(41, seed=22, rules=Rules(speedy=True))
        c = store.new_game(["Red", "Blue"], Rules(speedy=True))
        for e in open_events:
            store.append(c.id, e)
    return {"won": (won, final), "open": (open_events, open_state)}


def test_store_export_round_trips_through_the_real_replay_command(state_dir, filled, capsys):
    assert main(["export", "--state-dir", str(state_dir)]) == 0  # default: the open game
    text = capsys.readouterr().out
    record = json.loads(text)
    assert record["id"] == 3 and record["status"] == "open"
    events, state = filled["open"]
    direct = state_view(Record(("Red", "Blue"), Rules(speedy=True), tuple(events)).replay())
    assert direct == state_view(state)
    assert _replay_text(text) == direct


def test_store_export_of_a_finished_game_by_number(state_dir, filled, capsys, tmp_path):
    out = tmp_path / "game1.json"
    assert main(["export", "1", "--state-dir", str(state_dir), "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    record = json.loads(out.read_text())
    won, final = filled["won"]
    assert record["players"] == ["Ann", "Bob"] and record["meta"] == {"colours": ["red", "blue"]}
    assert "colours" not in record  # meta is carried as stored, not copied into keys of its own
    assert record["status"] == "finished" and record["winner"] == final.winner
    assert Record.from_json(record).events == tuple(won)
    assert Record.from_json(record).replay().winner == final.winner


def test_store_export_defaults_to_the_latest_game_when_none_is_open(state_dir, clock, capsys):
    with Store.open(state_dir, clock=clock) as store:
        for players in (["A"], ["B"]):
            g = store.new_game(players, Rules())
            store.abandon(g.id)
    assert main(["export", "--state-dir", str(state_dir)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["B"]


def test_store_export_of_a_damaged_game_replays_its_valid_prefix(state_dir, filled):
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE events SET payload = 'garbage' WHERE game_id = 1 AND seq = 20")
    db.commit()
    db.close()
    status, text, err = _cli("export", "1", "--state-dir", str(state_dir))
    assert status == 0
    assert err.count("\n") == 1 and "game 1, event 20: not valid JSON" in err
    record = json.loads(text)
    assert record["status"] == "damaged" and record["problem"] == "game 1, event 20: not valid JSON"
    assert len(record["events"]) == 19
    assert record["damaged_events"][0] == {"event": 20, "stored": "garbage"}
    assert len(record["damaged_events"]) == len(filled["won"][0]) - 19  # every row kept
    won, _ = filled["won"]
    assert _replay_text(text) == state_view(Record(("Ann", "Bob"), Rules(), tuple(won[:19])).replay())


@pytest.mark.parametrize("argv, message", [
    (["export", "9"], "cantstop-box export: there is no game 9\n"),
    (["export", "two"], "cantstop-box export: GAME must be a game number like 3, not 'two'\n"),
    (["export", "-1"], "cantstop-box export: GAME must be a game number like 3, not '-1'\n"),
])
@pytest.mark.usefixtures("filled")  # games 1 to 3 exist: 9 is missing among real ones
def test_store_export_bad_game_is_one_line_exit_2(state_dir, capsys, argv, message):
    assert main([*argv, "--state-dir", str(state_dir)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == message


@pytest.mark.parametrize("command", ["export", "history"])
def test_store_commands_on_an_empty_store_are_one_line_exit_2(tmp_path, clock, capsys, command):
    missing = tmp_path / "nothing"
    assert main([command, "--state-dir", str(missing)]) == 2
    assert capsys.readouterr().err == f"cantstop-box {command}: no saved games in {missing}\n"
    assert not missing.exists()  # looking creates nothing
    Store.open(missing, clock=clock).close()  # a store with no games yet
    assert main([command, "--state-dir", str(missing)]) == 2
    assert capsys.readouterr().err == f"cantstop-box {command}: no saved games in {missing}\n"


def test_store_commands_on_a_bad_file_are_one_line_and_move_nothing(tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    (state / DB_NAME).write_bytes(b"this is no database" * 50)
    assert main(["history", "--state-dir", str(state)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unusable" in err
    assert [p.name for p in state.iterdir()] == [DB_NAME]


def test_store_history_table_lists_games_newest_first(state_dir, filled, capsys):
    assert main(["history", "--state-dir", str(state_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "started", "players", "turns", "rounds", "winner", "duration", "status"]
    assert [line.split()[0] for line in lines[1:]] == ["3", "2", "1"]
    won, final = filled["won"]
    first = lines[3]
    assert "Ann, Bob" in first and first.rstrip().endswith("finished")
    assert f" {['Ann', 'Bob'][final.winner]} " in first
    minutes, seconds = divmod(3 * len(won), 60)
    assert f"{minutes}m {seconds:02d}s" in first
    assert "Cy, Di, Ed" in lines[2] and lines[2].rstrip().endswith("set aside")  # not "abandoned": Continue reopens it


def test_store_history_json_has_players_turns_winner_and_duration(state_dir, filled, capsys):
    assert main(["history", "--json", "--state-dir", str(state_dir)]) == 0
    games = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in games] == [3, 2, 1]
    won, final = filled["won"]
    one = games[2]
    assert one["players"] == ["Ann", "Bob"] and one["winner"] == final.winner
    assert one["winner_name"] == ["Ann", "Bob"][final.winner]
    assert one["turns"] == final.turn and one["duration"] == 3 * len(won)
    assert one["rounds"] == (final.turn - 1) // 2 + 1  # what the box's win screen says: "N rounds"
    assert one["started"] == "2023-11-14T22:13:20Z"  # the fake clock's start, in UTC
    assert games[0]["turns"] == filled["open"][1].turn and games[0]["status"] == "open"
    assert main(["history", "--json", "-n", "1", "--state-dir", str(state_dir)]) == 0
    assert [g["id"] for g in json.loads(capsys.readouterr().out)] == [3]


@pytest.mark.parametrize("sql", ["UPDATE games SET started = 'yesterday' WHERE id = 1",
                                 "UPDATE games SET winner = 7 WHERE id = 1",
                                 "UPDATE games SET finished = x'00ff' WHERE id = 1"])
def test_store_commands_report_a_damaged_row_and_go_on(state_dir, filled, sql):
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute(sql)
    db.commit()
    db.close()
    status, out, err = _cli("history", "--state-dir", str(state_dir))
    assert status == 0 and err == "", err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[1:4]] == ["3", "2", "1"] and lines[3].rstrip().endswith("damaged")
    assert lines[-1].startswith("damaged: game 1: ")
    status, out, err = _cli("history", "--json", "--state-dir", str(state_dir))
    assert status == 0 and json.loads(out)[2]["status"] == "damaged"
    status, out, err = _cli("export", "1", "--state-dir", str(state_dir))
    assert status == 0 and "Traceback" not in err and err.count("\n") == 1 and "game 1: " in err
    record = json.loads(out)
    assert record["status"] == "damaged" and len(record["events"]) == len(filled["won"][0])
    assert _replay_text(out)["players"] == ["Ann", "Bob"]
