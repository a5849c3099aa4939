"""A seat is one thing everywhere (issue 47, item 1): its person, named or not, played by a person or by the box,
the box's part a mark beside the name; a rename follows the person, for a box seat as for anyone. Game 3 of the
tester's night: Cat, a box seat, won; `players rename Cat Dee` followed."""

from __future__ import annotations

import re

import pytest

from boxcli.cli import main
from firmware.store import Store
from firmware.table import roster
from tests.kit.rig import Rig
from tests.web import fetch
from tests.web.server import Server


@pytest.fixture
def renamed(tmp_path, capsys):
    """Ann (a person) and Cat (the box played her seat) in a finished game; then Cat renamed Dee."""
    state = tmp_path / "state"
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    for argv in (("add", "Ann"), ("add", "Cat")):
        assert main(["players", *argv, "--state-dir", str(state), "--config", str(empty)]) == 0
    with Store.open(state) as store:
        ids = {m.name: m.id for m in roster.load(store, ()).people}
        store.new_game(["Red", "Green"], __import__("engine").Rules(), meta={"seats": [
            {"colour": "Red", "bot": None, "name": "Ann", "person": ids["Ann"]},
            {"colour": "Green", "bot": "strong", "name": "Cat", "person": ids["Cat"]}]})
    rig = Rig(state, seed=11, rest=1.0)
    rig.play_on()  # to a winner
    winner = rig.box.store.game(1).winner
    rig.close()
    assert main(["players", "rename", "Cat", "Dee", "--state-dir", str(state), "--config", str(empty)]) == 0
    capsys.readouterr()
    return state, winner


def test_the_history_command_names_the_box_seat_by_its_person_now_with_the_box_mark(renamed, capsys):
    state, winner = renamed
    assert main(["history", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    assert "Ann (Red), Dee (Green, box)" in out and "Cat" not in out
    row = out.splitlines()[1]
    assert (" Dee (box) " in row) if winner == 1 else (" Ann " in row.split("box)", 1)[1])


def test_the_web_history_live_and_replay_name_it_the_same_way(renamed):
    state, winner = renamed
    with Server(state) as server:
        history = fetch.get(server.url + "/games?lang=ja", timeout=10).text
        assert re.search(r'>Ann, Dee <span class="bot"[^>]*>🤖</span></td>', history), history
        assert "Cat" not in history and "CPU" not in history
        replay = fetch.get(server.url + "/games/1?lang=en", timeout=10).text
        assert re.search(r'Dee <span class="bot"', replay) and "Cat" not in replay
        live = fetch.get(server.url + "/?lang=en", timeout=10).text  # the finished game the table looks at
        assert "Cat" not in live


def test_the_statistics_count_the_box_seats_games_under_the_box_not_the_person(renamed, capsys):
    """Decided (docs/players.md): the box made every choice in that seat, so its games are the box's figures."""
    state, winner = renamed
    with Server(state) as server:
        stats = fetch.get(server.url + "/people?lang=en", timeout=10).text
    assert "Box" in stats and "Dee" not in stats and "Cat" not in stats


def test_a_box_running_a_game_calls_a_renamed_person_by_the_new_name_at_once():
    """On the box too: `players rename Cat Dee` while a game is on (or while the box was off) and the game's
    screens say Dee, the box seat's mark kept."""
    from engine import Rules
    from firmware import ui
    from firmware.config import GameConfig
    from firmware.table.seat import Seat
    from firmware.ui.setup import roster_changed

    seats = (Seat("Red", None, "Ann", 1), Seat("Green", "strong", "Cat", 2), Seat("Blue", None, "Bob", 3))
    app = ui.resume(GameConfig(), seats, Rules(), (), ("Ann", "Cat", "Bob"), "en", (1, 2, 3))
    assert app.name(1) == "Cat"
    app = roster_changed(app, ("Ann", "Dee"), (1, 2), removed=(3,))
    assert app.name(1) == "Dee" and app.seats[1].bot == "strong"
    assert app.name(2) == "Bob"  # removed since: the game keeps the name they played under


def test_the_continue_list_names_a_renamed_person_by_the_new_name(tmp_path):
    from firmware.daemon.loaders import unfinished

    with Store.open(tmp_path) as store:
        store.put_fact("roster", {"people": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Dee"}], "next": 3})
        game = store.new_game(["Red", "Green"], __import__("engine").Rules(), meta={"seats": [
            {"colour": "Red", "bot": None, "name": "Ann", "person": 1},
            {"colour": "Green", "bot": "strong", "name": "Cat", "person": 2}]})
        store.append(game.id, __import__("engine").Roll((1, 2, 3, 4)))
        store.abandon(game.id)
        people = roster.load(store, ())
        listed = unfinished(store, people).games
    assert listed and listed[0].names == ("Ann", "Dee")
