"""The camera in the pure UI: when it watches, what a wrong board shows and when, the menu's check, setting it up."""

from __future__ import annotations

from dataclasses import replace

from firmware import ui, views
from firmware.camera.link import CALIBRATION_FACT, SEEN_FACT
from firmware.config import GameConfig
from firmware.ui.camera import verdict_lines
from sight.layout import RUNNER, Piece
from sight.verdict import Finding, Verdict
from tests.ui.driving import press, run

RIGHT = Verdict("right")
WRONG = Verdict("wrong", (Finding("moved", "Red", 5, 1, 2),))


def _ready(app):
    app, effects = ui.update(app, ui.CameraSaid("ready"))
    return app, effects


def _watches(effects):
    return [e for e in effects if isinstance(e, (ui.WatchBoard, ui.StopWatching))]


def test_camera_none_in_the_config_means_no_watch_and_no_menu_item():
    app, effects = run(ui.boot(GameConfig()), "ROLL", "ROLL", (2, 3, 4, 5), "A", "STOP")
    assert _watches(effects) == [] and app.look is None
    app, _ = press(app, "MENU")
    assert "Check board" not in ui.view(app).items


def test_camera_watches_the_empty_board_before_the_first_roll_and_rests_after_it():
    app, _ = run(ui.boot(GameConfig()), "ROLL")
    app, effects = _ready(app)
    assert effects == (ui.WatchBoard(1, ()),)  # a new game: the board must be empty
    app, effects = run(app, "ROLL", (2, 3, 4, 5))
    assert _watches(effects) == [ui.StopWatching()] and app.look is None


def test_camera_a_stop_asks_for_the_board_the_game_has_now():
    app, _ = _ready(run(ui.boot(GameConfig()), "ROLL")[0])
    app, effects = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP")
    watch = [e for e in effects if isinstance(e, ui.WatchBoard)]
    assert watch[-1].expected == (Piece(5, 1, "Red"), Piece(9, 1, "Red")) and not watch[-1].once
    assert app.look.ticket == watch[-1].ticket


def _after_stop():
    app, _ = _ready(run(ui.boot(GameConfig(handover_guard_ms=0)), "ROLL")[0])
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP")
    return app


def test_camera_a_wrong_board_waits_until_the_players_touched_it():
    app = _after_stop()
    ticket = app.look.ticket
    quiet, effects = ui.update(app, ui.BoardSeen(ticket, WRONG, moved=False))
    assert not isinstance(ui.view(quiet), views.MessageView)  # the runners may simply not be swapped yet
    assert effects == (ui.KeepFacts({SEEN_FACT: {"reason": "handover", "verdict": WRONG.to_json(),
                                                 "expected": [[5, 1, "Red"], [9, 1, "Red"]]}}),)
    said, _ = ui.update(app, ui.BoardSeen(ticket, WRONG, moved=True))
    v = ui.view(said)
    assert isinstance(v, views.MessageView) and v.title == "Check the board"
    assert v.lines == ("Red on 5 should be at 1 (it is at 2)",)
    assert v.keys == ui.view(app).keys  # the same presses as without the camera: it never stops the game


def test_camera_a_wrong_board_is_said_once_the_table_confirmed_it_with_roll():
    app = _after_stop()
    app, _ = ui.update(app, ui.BoardSeen(app.look.ticket, WRONG, moved=False))
    app, _ = press(app, "ROLL")  # the board is set, says the table
    assert isinstance(ui.view(app), views.MessageView)
    app, effects = run(app, "ROLL", (1, 1, 1, 2))  # the next player rolls all the same: the table decides
    assert ui.StopWatching() in effects and not isinstance(ui.view(app), views.MessageView)


def test_camera_a_board_put_right_says_so_once_and_shows_the_game_again():
    app = _after_stop()
    ticket = app.look.ticket
    app, _ = ui.update(app, ui.BoardSeen(ticket, WRONG, moved=True))
    app, _ = ui.update(app, ui.BoardSeen(ticket, RIGHT, moved=True))
    assert app.flash == "The board is right now" and not isinstance(ui.view(app), views.MessageView)


def test_camera_an_older_watchs_answer_is_too_late():
    app = _after_stop()
    late, effects = ui.update(app, ui.BoardSeen(app.look.ticket - 1, WRONG, moved=True))
    assert late == app and effects == ()


def test_camera_the_menus_check_looks_once_and_shows_what_it_saw():
    app = _after_stop()
    app, _ = press(app, "MENU")
    items = ui.view(app).items
    for _ in range(items.index("Check board")):
        app, _ = press(app, "B")
    app, effects = press(app, "ROLL")
    (watch,) = effects
    assert watch.once and watch.expected == (Piece(5, 1, "Red"), Piece(9, 1, "Red"))
    assert ui.view(app).lines == ("Looking at the board...",)
    app, effects = ui.update(app, ui.BoardSeen(watch.ticket, WRONG, moved=False))
    assert ui.view(app).lines == ("Red on 5 should be at 1 (it is at 2)",)  # asked for: said at once
    again = [e for e in effects if isinstance(e, ui.WatchBoard)]
    assert again and not again[0].once  # the hand-over's watch goes on after the menu's look


def test_camera_a_piece_on_a_claimed_column_is_said_with_who_claimed_it():
    app = _after_stop()
    g = app.game
    claimed = list(g.claimed)
    claimed[7] = 1
    app = replace(app, states=app.states[:-1] + (g._replace(claimed=tuple(claimed)),))
    v = Verdict("wrong", (Finding("extra", "Red", 7, 0, 13), Finding("extra", RUNNER, 9, 0, 3)))
    assert verdict_lines(app, v) == ("Take Red off 7: Blue claimed it", "A runner is still on 9")


def test_camera_set_up_from_the_menu_asks_to_clear_the_board_then_keeps_what_it_learnt():
    app, _ = ui.update(ui.boot(GameConfig()), ui.CameraSaid("unset"))
    app, _ = press(app, "MENU")
    for _ in range(ui.view(app).items.index("Check board")):
        app, _ = press(app, "B")
    app, effects = press(app, "ROLL")
    assert effects == () and "Take every piece off the board, then press C." in ui.view(app).lines
    app, effects = press(app, "C")
    (asked,) = effects
    assert isinstance(asked, ui.SetUpCamera)
    refused, _ = ui.update(app, ui.CameraSetUp(asked.ticket, None, "markers"))
    assert ui.view(refused).lines == ("Not set up:", "all four corner tags must be in the picture")
    refused, _ = ui.update(app, ui.CameraSetUp(asked.ticket, None, "phone"))  # a board only a person can place
    assert ui.view(refused).lines == ("Not set up:", "mark each column's ends on a paired phone")
    done, effects = ui.update(app, ui.CameraSetUp(asked.ticket, {"version": 1}, ""))
    assert effects == (ui.KeepFacts({CALIBRATION_FACT: {"version": 1}}),) and done.camera == "ready"
    assert ui.view(done).lines == ("Camera set up: it found the board's spaces",)


def test_camera_absent_is_said_on_its_screen_and_nothing_is_watched():
    app, _ = run(ui.boot(GameConfig()), "ROLL")
    app, effects = ui.update(app, ui.CameraSaid("absent", "no camera at /dev/video0: is the webcam plugged in?"))
    assert _watches(effects) == []
    app, _ = press(app, "MENU")
    for _ in range(ui.view(app).items.index("Check board")):
        app, _ = press(app, "B")
    app, _ = press(app, "ROLL")
    assert ui.view(app).lines == ("The camera does not answer: no camera at /dev/video0: is the webcam plugged in?",)
