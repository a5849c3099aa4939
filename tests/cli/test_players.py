"""``cantstop-box players``: list, add, remove, rename; one-line errors with the usual exit codes;
and ``history`` naming players (the JSON keeps its documented keys)."""

import json

import pytest

from engine import Rules
from firmware.commands.cli import main
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
        assert store.fact(ROSTER_KEY) == {"names": ["Robert", "김민준"], "renamed": {"Bob": "Robert"}}


@pytest.mark.parametrize("argv, words", [
    (("add", "ann"), "listed twice"),
    (("add", " Ann"), "spaces at an end"),
    (("remove", "Zed"), "no player called"),
    (("rename", "Ann"), "OLD and NEW"),
    (("add",), "one NAME"),
])
def test_players_mistakes_are_one_line_with_status_2(tmp_path, config, capsys, argv, words):
    code, out, err = players(capsys, tmp_path / "state", config, *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_players_refuse_to_change_while_the_box_runs(tmp_path, config, capsys):
    state = tmp_path / "state"
    with Store.open(state):  # the running box holds the store
        code, _, err = players(capsys, state, config, "add", "Cy")
    assert code == 75 and "stop it to change the players" in err and err.count("\n") == 1


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
                        "rounds", "events", "winner", "winner_name", "status", "problem"}
    assert row["players"] == ["Red", "Blue"] and row["names"] == ["Ann", None]
