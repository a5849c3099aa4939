"""People end to end on mock pins: names picked on the box, a recap and statistics after a win,
an unfinished game continued from the menu, old games without names still loading."""

import pytest

from engine import Roll, Rules
from firmware import views
from firmware.table import person_stats
from firmware.config import GameConfig
from firmware.table.roster import ROSTER_KEY
from firmware.store import Store
from tests.kit.rig import Rig, goto

ROSTER = ("Ann", "Bob")


def _named_game(rig):
    """Ann (Red) and Bob (Blue), Bob starts."""
    goto(rig, "P1 name")
    rig.tap("C")
    goto(rig, "P2 name")
    rig.tap("C")
    goto(rig, "Starts")
    rig.tap("C")
    rig.tap("ROLL")


@pytest.fixture
def named(tmp_path):
    r = Rig(tmp_path, settings=GameConfig(roster=ROSTER))
    yield r
    r.close()


def test_people_e2e_names_on_the_screens_in_the_store_and_after_a_restart(named, tmp_path):
    _named_game(named)
    v = named.view
    # Bob sits first in turn order, but his pieces are Blue: the screen draws Blue's symbol (issue 22, friction 5)
    assert isinstance(v, views.TurnView) and v.player == "Bob" and v.seat == 1
    game = named.store.open_game()
    assert game.players == ("Blue", "Red")
    assert [s["name"] for s in game.meta["seats"]] == ["Bob", "Ann"]
    named.tap("ROLL")
    named.close()
    again = Rig(tmp_path, settings=GameConfig(roster=ROSTER))
    try:
        assert again.view.player == "Bob" and again.box.app.name(1) == "Ann"
    finally:
        again.close()


def test_people_e2e_win_shows_a_recap_and_statistics_by_name_without_replaying(named):
    _named_game(named)
    win = named.play_on()
    assert win.player in ROSTER and win.keys.startswith("B:recap")
    named.tap("B")
    recap = named.view
    assert isinstance(recap, views.RecapView) and {r.player for r in recap.rows} == set(ROSTER)
    assert all(r.turns > 0 for r in recap.rows) and recap.biggest is not None
    named.tap("ROLL")
    assert isinstance(named.view, views.WinView)
    # The finished game's tally was kept as it ended: the statistics screen needs no replay.
    kept = named.store.facts(person_stats.TALLY_PREFIX)
    assert list(kept) == [f"tally:{named.store.games()[0].id}"]
    named.tap("MENU")
    goto(named, "Statistics")
    named.tap("ROLL")
    stats = named.view
    assert isinstance(stats, views.StatsView) and stats.games == 1
    assert dict(stats.rows) == {win.player: 1, ({*ROSTER} - {win.player}).pop(): 0}
    named.tap("B")
    assert isinstance(named.view, views.TableView) and named.view.title == win.player


def test_people_e2e_an_unfinished_game_is_continued_and_the_current_one_waits_in_its_place(named):
    named.tap("ROLL")  # Red and Blue, no names
    named.tap("ROLL")
    first = named.store.open_game()
    events = first.events
    assert events and isinstance(events[0], Roll)
    named.tap("MENU")
    goto(named, "New game")
    named.tap("ROLL")
    if isinstance(named.view, views.MessageView):  # "New game?": yes (C, never ROLL)
        named.tap("C")
    _named_game(named)  # a second game: the first is left unfinished
    named.tap("ROLL")
    second = named.store.open_game()
    assert second.id != first.id and named.store.game(first.id).status == "abandoned"
    named.tap("MENU")
    goto(named, "Continue a game")
    named.tap("ROLL")
    assert named.view.items[0].startswith(f"{first.id} turn ") and named.view.items[0].endswith(": Red, Blue")
    named.tap("ROLL")
    assert isinstance(named.view, views.BoardView)
    assert named.store.open_game().id == first.id and named.store.game(second.id).status == "abandoned"
    assert named.box.app.events == events and named.box.game_id == first.id
    named.tap("ROLL")  # back to the game (MENU would open the menu), which plays on in the same stored game
    dice = named.view
    assert isinstance(dice, views.DiceView)  # the first roll of a game always has a move
    named.tap(next(o.label for o in dice.options if o.effect != "none"))
    if isinstance(named.view, views.PickView):
        named.tap("A")
    assert len(named.store.game(first.id).events) == len(events) + 1


def test_people_e2e_old_games_without_names_still_load_and_count_by_colour(tmp_path):
    with Store.open(tmp_path) as store:
        old = store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red", "bot": None},
                                                                         {"colour": "Blue", "bot": None}]})
        store.append(old.id, Roll((1, 1, 1, 1)))
    rig = Rig(tmp_path)
    try:
        v = rig.view
        assert isinstance(v, views.DiceView) and v.player == "Red"
    finally:
        rig.close()


def test_people_e2e_the_roster_kept_by_the_cli_replaces_the_configs(tmp_path):
    with Store.open(tmp_path) as store:
        store.put_fact(ROSTER_KEY, {"names": ["Zoë"], "renamed": {}})
    rig = Rig(tmp_path, settings=GameConfig(roster=ROSTER))
    try:
        goto(rig, "P1 name")
        rig.tap("C")
        assert ("P1 name", "Zoë") in rig.view.rows
    finally:
        rig.close()


def test_people_e2e_names_in_any_script_and_of_any_length_play_a_whole_game(tmp_path):
    long_name = "Maximiliane-Louise " + "x" * 45
    rig = Rig(tmp_path, settings=GameConfig(roster=("김민준", long_name)), seed=3)
    try:
        _named_game(rig)
        win = rig.play_on()  # every frame of the game rendered with these names
        assert win.player in ("김민준", long_name)
        rig.tap("B")
        assert {r.player for r in rig.view.rows} == {"김민준", long_name}
        assert rig.display.last is not None
    finally:
        rig.close()
