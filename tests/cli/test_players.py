"""``cantstop-box players``: list, add, remove, rename; one-line errors with the usual exit codes;
and ``history`` naming players (the JSON keeps its documented keys)."""

import json

import pytest

from engine import Rules
from boxcli.cli import main
from firmware.table.roster import ROSTER_KEY
from firmware.store import Store


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[game]\nroster = ["Ann", "Bob"]\n')
    return path


def players(capsys, state_dir, config, *argv):
    code = main(["players", *argv, "--state-dir", str(state_dir), "--config", str(config)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_players_list_starts_from_the_config_without_writing(tmp_path, config, capsys):
    code, out, _ = players(capsys, tmp_path / "state", config)
    assert code == 0 and out == "Ann\nBob\n"
    assert not (tmp_path / "state").exists()


def test_players_add_rename_remove_are_kept_in_the_store(tmp_path, config, capsys):
    state = tmp_path / "state"
    assert players(capsys, state, config, "add", "김민준")[0] == 0
    assert players(capsys, state, config, "rename", "bob", "Robert")[0] == 0
    assert players(capsys, state, config, "remove", "Ann")[0] == 0
    code, out, _ = players(capsys, state, config, "list")
    assert code == 0 and out == "Robert\n김민준\n"
    with Store.open(state, readonly=True) as store:
        kept = store.fact(ROSTER_KEY)
    assert kept["names"] == ["Robert", "김민준"]  # what an older box reads
    assert kept["people"] == [{"id": 1, "name": "Ann", "removed": True}, {"id": 2, "name": "Robert"},
                              {"id": 3, "name": "김민준"}]


@pytest.mark.parametrize("argv, words", [
    (("add", "ann"), "Ann is already on the list"),  # issue 47, item 7: not '"ann" is listed twice'
    (("add", " ann "), "Ann is already on the list"),  # trimmed first
    (("add", "\u0301"), "a name is empty"),  # a lone combining mark
    (("remove", "Zed"), "no player called"),
    (("rename", "Ann"), "OLD and NEW"),
    (("add",), "one NAME"),
])
def test_players_mistakes_are_one_line_with_status_2(tmp_path, config, capsys, argv, words):
    code, out, err = players(capsys, tmp_path / "state", config, *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_players_change_while_the_box_runs(tmp_path, config, capsys):
    state = tmp_path / "state"
    with Store.open(state) as box:  # the running box holds the store's lock
        code, out, err = players(capsys, state, config, "add", "Cy")
        assert (code, out, err) == (0, "Ann\nBob\nCy\n", "")
        assert box.fact(ROSTER_KEY)["names"] == ["Ann", "Bob", "Cy"]  # the box's own connection sees it
        box.new_game(["Red", "Blue"])  # and still writes its games


def test_players_bad_config_exits_78(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nroster = ["Ann", "ann"]\n')
    code, _, err = players(capsys, tmp_path / "state", bad)
    assert code == 78 and "listed twice" in err


def test_history_names_players_and_json_keeps_its_keys(tmp_path, capsys):
    with Store.open(tmp_path) as store:
        store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red", "bot": None, "name": "Ann"},
                                                                   {"colour": "Blue", "bot": None}]})
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    assert "Ann (Red), Blue" in capsys.readouterr().out
    assert main(["history", "--json", "--state-dir", str(tmp_path)]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert set(row) == {"id", "players", "names", "rules", "meta", "started", "finished", "duration", "turns",
                        "rounds", "events", "winner", "winner_name", "status", "problem", "date_known", "bots"}
    assert row["players"] == ["Red", "Blue"] and row["names"] == ["Ann", None]


def test_history_marks_box_seats_and_the_person_whose_seat_the_box_played(tmp_path, capsys):
    with Store.open(tmp_path) as store:
        store.new_game(["Red", "Blue", "Green"], Rules(), meta={"seats": [
            {"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Blue", "bot": "strong"},
            {"colour": "Green", "bot": "strong", "name": "Cat"}]})
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    assert "Ann (Red), Blue (box), Cat (Green, box)" in capsys.readouterr().out
    assert main(["history", "--json", "--state-dir", str(tmp_path)]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["bots"] == [None, "strong", "strong"] and row["names"] == ["Ann", None, "Cat"]  # old keys as they were


def test_players_long_list_lines_up_wide_names_and_counts_by_id(tmp_path, capsys):
    state = tmp_path / "state"
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    for argv in (("add", "Ann"), ("add", "김민준"), ("rename", "Ann", "Cat"), ("add", "Ann")):
        assert players(capsys, state, empty, *argv)[0] == 0
    with Store.open(state) as store:  # Cat (id 1) beat 김민준 once, before the new Ann came
        for winner in (0, 1):
            store.finish(store.new_game(["Red", "Blue"]).id, winner)
        store.put_fact("tally:1", {"seats": [{"name": "Ann", "person": 1, "bot": None},
                                              {"name": "김민준", "person": 2, "bot": None}], "winner": 0})
        store.put_fact("tally:2", {"seats": [{"name": "Ann", "person": 3, "bot": None},
                                              {"name": "김민준", "person": 2, "bot": None}], "winner": 1})
    code, out, _ = players(capsys, state, empty, "list", "--long")
    lines = out.splitlines()
    assert code == 0 and [line.split() for line in lines] == [
        ["id", "name", "games", "wins"], ["1", "Cat", "1", "1"], ["2", "김민준", "2", "1"], ["3", "Ann", "1", "0"]]
    from firmware.table.names import width
    assert len({width(line) for line in lines}) == 1  # every row as wide on the terminal


def test_players_a_file_held_locked_by_another_program_is_exit_75_in_one_line(tmp_path, config, capsys, monkeypatch):
    import sqlite3

    from firmware.store import DB_NAME, shared

    state = tmp_path / "state"
    assert players(capsys, state, config, "add", "Cy")[0] == 0
    monkeypatch.setattr(shared, "WAIT_MS", 50)
    holder = sqlite3.connect(state / DB_NAME, isolation_level=None)  # a curious owner's sqlite3
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, out, err = players(capsys, state, config, "add", "Di")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 75 and out == "" and "busy" in err and err.count("\n") == 1
    assert players(capsys, state, config, "list")[1] == "Ann\nBob\nCy\n"  # nothing half-written
