"""``cantstop-box players remove`` / ``rename`` beside a running box: a seat on the new-game screen follows at once.

A removed person's seat lets go of them (it is its colour again, as a seat
nobody named: the next name on the list could be somebody not at the table),
so the game never starts credited to them; a renamed person's seat shows the
new name under the same person id. Through the daemon on mock pins with the
real ``players`` command on the same store, and through the pure ``ui.update``.
"""

from __future__ import annotations

from dataclasses import replace

from firmware import ui, views
from boxcli.cli import main
from firmware.config import GameConfig
from firmware.daemon.box import ROSTER_CHECK
from firmware.ui.model import Seat
from tests.kit.rig import Rig, goto


def players(state_dir, *argv, config=None) -> int:
    return main(["players", *argv, "--state-dir", str(state_dir), *(["--config", str(config)] if config else [])])


def later(rig) -> None:
    """A second on the box's clock: the loop looks at the roster again."""
    rig.clock.advance(ROSTER_CHECK)
    rig.box.pump()


def name_rows(rig) -> list[str]:
    v = rig.view
    assert isinstance(v, views.SetupView)
    return [value for label, value in v.rows if label.endswith(" name")]


def choose(rig, seat: int, taps: int = 1) -> None:
    goto(rig, f"P{seat} name")
    for _ in range(taps):
        rig.tap("C")


def started_seats(rig) -> list[dict]:
    rig.tap("ROLL")
    return rig.store.open_game().meta["seats"]


def test_a_removed_person_leaves_the_seat_at_once_and_the_game_is_not_theirs(tmp_path):
    for name in ("Ann", "Bob"):
        assert players(tmp_path, "add", name) == 0
    rig = Rig(tmp_path)
    try:
        choose(rig, 1)  # Ann
        choose(rig, 2, taps=1)  # Bob (Ann is taken)
        assert name_rows(rig) == ["Ann", "Bob"]
        assert players(tmp_path, "remove", "Ann") == 0
        later(rig)
        assert name_rows(rig) == ["(Red)", "Bob"] and rig.box.app.roster == ("Bob",)  # by its colour now
        seats = started_seats(rig)
        assert "name" not in seats[0] and "person" not in seats[0]  # the seat is its colour, nobody's
        assert (seats[1]["name"], seats[1]["person"]) == ("Bob", 2)
    finally:
        rig.close()


def test_a_removed_person_whose_name_comes_back_is_not_the_seat(tmp_path):
    assert players(tmp_path, "add", "Ann") == 0
    rig = Rig(tmp_path)
    try:
        choose(rig, 1)
        assert players(tmp_path, "remove", "Ann") == 0
        assert players(tmp_path, "add", "Ann") == 0  # somebody new (id 2), between two looks of the box
        later(rig)
        assert name_rows(rig)[0] == "(Red)"
        assert "person" not in started_seats(rig)[0]
    finally:
        rig.close()


def test_a_seat_named_before_ids_follows_a_rename_and_a_removal(tmp_path):
    """The config's roster (no ids yet): the first `players` change gives ids, and the seats take theirs."""
    config = tmp_path / "box.toml"
    config.write_text('[game]\nroster = ["Ann", "Bob"]\n')
    rig = Rig(tmp_path, settings=GameConfig(roster=("Ann", "Bob")))
    try:
        choose(rig, 1)  # Ann
        choose(rig, 2)  # Bob
        assert [s.person for s in rig.box.app.setup.seats[:2]] == [None, None]
        assert players(tmp_path, "rename", "Ann", "Cat", config=config) == 0
        later(rig)
        assert name_rows(rig) == ["Cat", "Bob"]
        assert [(s.name, s.person) for s in rig.box.app.setup.seats[:2]] == [("Cat", 1), ("Bob", 2)]
        assert players(tmp_path, "remove", "Bob", config=config) == 0
        later(rig)
        assert name_rows(rig) == ["Cat", "(Blue)"]
        seats = started_seats(rig)
        assert (seats[0]["name"], seats[0]["person"]) == ("Cat", 1) and "name" not in seats[1]
    finally:
        rig.close()


def test_a_seat_kept_over_a_restart_follows_what_players_changed_meanwhile(tmp_path):
    for name in ("Ann", "Bob"):
        assert players(tmp_path, "add", name) == 0
    rig = Rig(tmp_path)
    choose(rig, 1)  # Ann
    choose(rig, 2)  # Bob
    rig.close()  # the box is off (a power cut)
    assert players(tmp_path, "remove", "Ann") == 0
    assert players(tmp_path, "rename", "Bob", "Rob") == 0
    rig = Rig(tmp_path)
    try:
        assert name_rows(rig) == ["(Red)", "Rob"]
        assert [(s.name, s.person) for s in rig.box.app.setup.seats[:2]] == [(None, None), ("Rob", 2)]
    finally:
        rig.close()


def test_the_pure_update_lets_a_removed_person_go_and_follows_a_rename():
    app = ui.boot(GameConfig(), ("Ann", "Bob", "Cy"), roster_ids=(1, 2, 3))
    seats = (Seat("Red", None, "Ann", 1), Seat("Blue", None, "Bob", 2), Seat("Green", None, "Cy", 3))
    app = replace(app, setup=replace(app.setup, seats=seats))  # as three presses of C would name them
    changed, effects = ui.update(app, ui.RosterChanged(("Robert", "Cy", "Ann"), (2, 3, 4), removed=(1,)))
    assert effects == ()
    assert [(s.name, s.person) for s in changed.setup.seats] == [(None, None), ("Robert", 2), ("Cy", 3)]
    assert changed.roster == ("Robert", "Cy", "Ann")
    # a seat from before ids: the id its name stood for (legacy), whatever that person is called now
    old = replace(app, setup=replace(app.setup, seats=(Seat("Red", None, "Ann"), Seat("Blue", None, "Bob"))))
    changed, _ = ui.update(old, ui.RosterChanged(("Cat",), (1,), removed=(2,), legacy=(("ann", 1), ("bob", 2))))
    assert [(s.name, s.person) for s in changed.setup.seats] == [("Cat", 1), (None, None)]
    # a name the roster never had (an older version kept it) stays the players' choice
    kept = replace(app, setup=replace(app.setup, seats=(Seat("Red", None, "Zed"),)))
    changed, _ = ui.update(kept, ui.RosterChanged(("Cat",), (1,), removed=(2,), legacy=(("ann", 1),)))
    assert [(s.name, s.person) for s in changed.setup.seats] == [("Zed", None)]
