"""``emulate --camera``: the drawn board as the camera, its view beside the screen, and the key that nudges it."""

from __future__ import annotations

import io
import time
from dataclasses import replace

from PIL import Image, ImageDraw

from boxcli.cli import build_parser
from boxcli.emucamera import KEY_HELP, NUDGE_KEY, CameraPanel, camera_line, open_view
from boxcli.emulate import _Keys, emulator_config, key_help
from firmware import ui
from firmware.config import GameConfig, load
from hw.terminal import TerminalDisplay
from sight.verdict import Finding, Verdict

WRONG = Verdict("wrong", (Finding("moved", "Red", 5, 1, 2),))


class FakeLink:
    """The camera's process as the box holds it: what the box asked, where its pictures are."""

    def __init__(self, state_dir=None):
        self.state_dir = state_dir
        self.sent = []

    def send(self, message):
        self.sent.append(message)


class FakeBox:
    def __init__(self, camera=None, app=None):
        self.camera = camera
        self.app = app or ui.boot(GameConfig())
        self.edges = []
        self.stopped = None

    def sink(self, name, pressed):
        self.edges.append((name, pressed))

    def request_shutdown(self, reason):
        self.stopped = reason


def _config(tmp_path, text=""):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load(path)


def _args(*argv):
    return build_parser("emulate").parse_args(["emulate", *argv])


def _watching(verdict=None):
    """An app whose camera watches the board as a game starts, with ``verdict`` its last answer."""
    app, _ = ui.update(ui.boot(GameConfig()), ui.Press(ui.Button.ROLL))
    app, _ = ui.update(app, ui.CameraSaid("ready"))
    if verdict is not None:
        app, _ = ui.update(app, ui.BoardSeen(app.look.ticket, verdict, moved=True))
    return app


def test_emulate_camera_runs_the_drawn_board(tmp_path):
    cfg = _config(tmp_path)
    assert emulator_config(cfg, _args()).camera.source == "off"
    on = emulator_config(cfg, _args("--camera", "--size", "128x32"))
    assert on.camera.source == "scene" and on.camera.on and on.display.size == "128x32"
    usb = _config(tmp_path, '[camera]\nsource = "usb"\n')
    assert emulator_config(usb, _args()).camera.source == "usb"  # the config's own camera, without --camera


def test_emulate_key_help_lists_the_nudge_only_with_a_camera(tmp_path):
    cfg = _config(tmp_path)
    assert NUDGE_KEY not in key_help(cfg).split("\n")[0].split() and "\n" not in key_help(cfg)
    assert key_help(emulator_config(cfg, _args("--camera"))).endswith("\n" + KEY_HELP)


def test_emulate_nudge_key_reaches_the_camera_and_presses_no_button(tmp_path):
    link = FakeLink()
    box = FakeBox(camera=link)
    keys = _Keys(_config(tmp_path), box, actions=CameraPanel(box).keys())
    try:
        keys.on_key(NUDGE_KEY)
        keys.on_key("r")  # a button still presses its pin
        assert keys.keypins.wait_idle(5.0)
    finally:
        keys.close()
    assert link.sent == [{"do": "nudge"}]
    assert box.edges == [("ROLL", True), ("ROLL", False)]  # x was no seventh button


def test_emulate_nudge_key_without_a_camera_does_nothing(tmp_path):
    box = FakeBox()
    keys = _Keys(_config(tmp_path), box)
    try:
        keys.on_key(NUDGE_KEY)
        assert keys.keypins.wait_idle(5.0)
    finally:
        keys.close()
    assert box.edges == [] and box.stopped is None


def test_emulate_camera_line_says_what_the_camera_does_and_last_said():
    app = ui.boot(GameConfig())
    assert camera_line(replace(app, camera="starting")) == "camera: starting"
    assert camera_line(replace(app, camera="absent", camera_why="no webcam")) == "camera: absent (no webcam)"
    assert camera_line(replace(app, camera="unset")).startswith("camera: not set up")
    assert camera_line(_watching()) == "camera: watching"
    assert camera_line(_watching(Verdict("right"))) == "camera: right"
    assert camera_line(_watching(WRONG)) == "camera: wrong: Red on 5 should be at 1 (it is at 2)"
    assert camera_line(_watching(Verdict("blind", why="markers"))) == "camera: cannot see the board (markers)"
    assert camera_line(_watching(Verdict("unsure", unsure=((7, 3), (7, 4))))) == "camera: unsure of 2 spaces"
    rests = replace(_watching(WRONG), look=None)
    assert camera_line(rests) == "camera: resting"
    box = FakeBox(app=_watching(WRONG))
    panel = CameraPanel(box)
    panel.said()
    box.app = rests  # the watch is over (the next roll): the panel remembers what it last heard
    assert panel.said() == "camera: resting (last: wrong: Red on 5 should be at 1 (it is at 2))"


def test_emulate_camera_view_draws_the_board_read_and_the_line_beside_the_screen(tmp_path):
    (tmp_path / "camera").mkdir()
    board = Image.new("RGB", (900, 600), (110, 90, 70))
    ImageDraw.Draw(board).ellipse((400, 300, 436, 336), outline=(230, 40, 40), width=2)  # a red ring, as drawn
    board.save(tmp_path / "camera" / "read.png")
    box = FakeBox(camera=FakeLink(tmp_path), app=_watching(Verdict("right")))
    out = io.StringIO()
    display = TerminalDisplay(out, footer="keys", terminal_size=lambda: (200, 40))
    display.show(Image.new("1", (128, 64)))
    view, panel = open_view(box, display)
    try:
        deadline = time.monotonic() + 5
        while "camera: right" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        view.close()
    drawn = out.getvalue().split("\x1b[H")[-1]
    assert "camera: right" in drawn and "\x1b[38;2;110;90;70m" in drawn  # the board, by the view's thread
    assert "2;230;40;40m" in drawn  # and its thin ring, kept in the camera's red however small the picture
    assert isinstance(panel, CameraPanel) and open_view(FakeBox(), display) == (None, None)
