"""The emulator under a careless user: a window resized while running, a key held down."""

from __future__ import annotations

import io
import os
import signal
import threading
import time

import pytest
from PIL import Image, ImageDraw

from hw.keyrepeat import RepeatFilter, RepeatKeys
from hw.terminal import CLEAR_SCREEN, CURSOR_HOME, TerminalDisplay
from tests.kit.clock import FakeClock

FOOTER = "keys: r roll  q quit"


def frame() -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((10, 10, 60, 30), fill=1)
    return image


class Screen(io.StringIO):
    """What was written to the terminal; :meth:`wait_for` waits (with a timeout) for some text to arrive."""

    def __init__(self) -> None:
        super().__init__()
        self._written = threading.Condition()

    def write(self, text: str) -> int:
        with self._written:
            n = super().write(text)
            self._written.notify_all()
        return n

    def wait_for(self, needle: str, start: int, timeout: float = 5.0) -> bool:
        with self._written:
            return self._written.wait_for(lambda: needle in self.getvalue()[start:], timeout)


class Terminal:
    """A terminal whose size the test changes; what was written since the last look."""

    def __init__(self, cols=140, lines=40):
        self.size = (cols, lines)
        self.out = Screen()
        self.seen = 0

    def new(self) -> str:
        text = self.out.getvalue()[self.seen:]
        self.seen = len(self.out.getvalue())
        return text


@pytest.fixture
def term():
    return Terminal()


@pytest.fixture
def display(term):
    return TerminalDisplay(term.out, footer=FOOTER, terminal_size=lambda: term.size)


def visible_lines(text: str) -> list[str]:
    """The text after the last clear, split in lines (what the terminal shows)."""
    return text.rsplit(CLEAR_SCREEN, 1)[-1].replace(CURSOR_HOME, "").splitlines()


def test_hostile_shrunk_terminal_shows_one_line_not_a_wrapped_frame(term, display):
    display.show(frame())
    assert len(visible_lines(term.new())) == 32 + 2 + 1
    term.size = (60, 24)  # too narrow even for the frame at half width (66 columns)
    display.redraw()
    shown = term.new()
    assert shown.startswith(CLEAR_SCREEN)
    lines = visible_lines(shown)
    assert " ".join(lines) == "terminal 60x24 is too small: the box needs 130x35, or 66x35 at half width (make it bigger)"
    assert "█" not in shown and "▀" not in shown


def test_hostile_narrow_terminal_gets_the_frame_at_half_width(term, display):
    """80 columns are too few for 128x64's 130, enough for its half width: two pixels a cell, across."""
    term.size = (80, 40)
    display.show(frame())
    lines = visible_lines(term.new())
    assert len(lines) == 32 + 2 + 1 and lines[0] == "┌" + "─" * 64 + "┐"
    assert all(len(line.replace("\x1b[K", "")) == 66 for line in lines[:34]) and lines[-1].startswith(FOOTER)


def test_hostile_frames_while_too_small_are_the_whole_note_wrapped_to_the_width(term, display):
    term.size = (30, 10)
    display.show(frame())
    display.show(frame())
    for text in term.new().split(CLEAR_SCREEN)[1:]:
        lines = visible_lines(text)
        assert all(len(line) <= 29 for line in lines) and len(lines) <= 10  # no row wraps, none runs off
        assert " ".join(lines) == display.too_small_note(30, 10)  # and nothing is cut (issue 22, bug 1)


def test_hostile_grown_terminal_is_cleared_and_gets_the_whole_frame_back(term, display):
    display.show(frame())
    term.size = (60, 20)
    display.redraw()
    term.new()
    term.size = (150, 50)
    display.redraw()
    shown = term.new()
    assert shown.count(CLEAR_SCREEN) == 1  # the fragments of the note and the old frame are gone
    lines = visible_lines(shown)
    assert len(lines) == 35 and lines[-1].startswith(FOOTER)
    assert all(len(line.replace("\x1b[K", "")) <= 130 for line in lines)


def test_hostile_same_size_redraw_does_not_clear(term, display):
    display.show(frame())
    term.new()
    display.show(frame())
    assert CLEAR_SCREEN not in term.new()


def test_hostile_sigwinch_redraws_while_running(term, display):
    display.show(frame())
    before = signal.getsignal(signal.SIGWINCH)
    display.follow_resize()
    try:
        term.new()
        term.size = (50, 20)
        os.kill(os.getpid(), signal.SIGWINCH)
        assert term.out.wait_for("too small", term.seen)  # redrawn by the watch's thread
        assert " ".join(visible_lines(term.new())) == display.too_small_note(50, 20)
    finally:
        display.close()
    assert signal.getsignal(signal.SIGWINCH) == before  # closing gives the signal back


# -- auto-repeat ------------------------------------------------------------------------

def feed(f: RepeatFilter, arrivals) -> list[tuple[float, str]]:
    """Keys (time, key) in order; returns (time, key) of each press sent, including held-back ones."""
    sent = []
    for at, key in arrivals:
        for k in f.due(at):
            sent.append((at, k))
        sent.extend((at, k) for k in f.key(key, at))
    sent.extend((99.0, k) for k in f.due(99.0))
    return sent


def held(key: str, start: float, seconds: float, delay=0.5, rate=0.033):
    """What a terminal sends while ``key`` is held: once, then after ``delay`` every ``rate``."""
    times = [start]
    t = start + delay
    while t < start + seconds:
        times.append(t)
        t += rate
    return [(round(t, 4), key) for t in times]


@pytest.mark.parametrize("delay, rate", [(0.25, 0.033), (0.5, 0.04), (0.66, 0.04), (0.6, 0.1)])
def test_hostile_a_held_key_is_one_press(delay, rate):
    f = RepeatFilter()
    assert [k for _, k in feed(f, held("r", 0.0, 3.0, delay, rate))] == ["r"]


def test_hostile_a_key_held_twice_is_two_presses():
    f = RepeatFilter()
    arrivals = held("r", 0.0, 2.0) + held("r", 3.0, 2.0)
    assert [at for at, _ in feed(f, arrivals)] == [0.0, 3.0]


def test_hostile_quick_deliberate_taps_all_count():
    f = RepeatFilter()
    arrivals = [(0.0, "a"), (0.25, "a"), (0.5, "a"), (0.75, "a"), (1.0, "b"), (1.2, "b")]
    assert [k for _, k in feed(f, arrivals)] == ["a", "a", "a", "a", "b", "b"]


def test_hostile_held_key_then_another_key_counts_the_other():
    f = RepeatFilter()
    arrivals = held("r", 0.0, 1.5) + [(1.6, "s")]
    assert [k for _, k in feed(f, arrivals)] == ["r", "s"]


def test_hostile_repeat_keys_on_the_clock_send_a_held_back_tap_after_the_wait():
    clock, sent = FakeClock(0.0), []
    keys = RepeatKeys(sent.append, rate_gap=0.05, clock=clock, timer=clock.timer)
    try:
        keys("r")
        clock.advance(0.2)
        keys("r")  # a deliberate second tap: held back for rate_gap, then sent
        assert sent == ["r"]
        clock.advance(0.04)
        assert sent == ["r"]  # still inside rate_gap: it could yet be auto-repeat
        clock.advance(0.02)
        assert sent == ["r", "r"]
    finally:
        keys.close()


def test_hostile_repeat_keys_swallow_a_burst():
    """The repeats never pause for rate_gap, so the timer never sends the held-back arrival."""
    clock, sent = FakeClock(0.0), []
    keys = RepeatKeys(sent.append, rate_gap=0.1, clock=clock, timer=clock.timer)
    try:
        keys("r")
        clock.advance(0.5)
        for _ in range(20):
            keys("r")
            clock.advance(0.033)
        clock.advance(0.3)
        assert sent == ["r"]
    finally:
        keys.close()


# -- the real emulator on a pseudo-terminal -------------------------------------------

class PtyBox:
    """``cantstop-box emulate`` on a pseudo-terminal of a given size: keys in, screen text out."""

    def __init__(self, state_dir, cols=140, lines=40, args=()):
        import fcntl
        import pty
        import struct
        import sys
        import termios
        from pathlib import Path

        self._fcntl, self._struct, self._termios = fcntl, struct, termios
        repo = Path(__file__).resolve().parents[2]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the emulator, the pty as its terminal, sized before it looks
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))
            os.chdir(repo)
            env = dict(os.environ, XDG_STATE_HOME=str(state_dir / "log"))
            for name in ("COLUMNS", "LINES"):  # they would win over the pty's size (pytest-xdist sets them)
                env.pop(name, None)
            os.execve(sys.executable, [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "1",
                                       "--state-dir", str(state_dir), *args], env)
        self.text = ""

    def resize(self, cols, lines):
        size = self._struct.pack("HHHH", lines, cols, 0, 0)
        self._fcntl.ioctl(self.fd, self._termios.TIOCSWINSZ, size)

    def read(self, seconds: float) -> str:
        import select

        end, got = time.monotonic() + seconds, []
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    got.append(os.read(self.fd, 65536).decode("utf-8", "replace"))
                except OSError:
                    break
        self.text += "".join(got)
        return "".join(got)

    def wait_for(self, needle: str, seconds: float = 15.0) -> bool:
        return self.wait_until(lambda: needle in self.text, seconds)

    def wait_until(self, done, seconds: float = 15.0) -> bool:
        """Read the screen until ``done()`` holds (True), or ``seconds`` pass (False)."""
        end = time.monotonic() + seconds
        while not done() and time.monotonic() < end:
            self.read(0.05)
        return done()

    def key(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> int:
        try:
            self.key("q")  # q asks once: the second quits (a moment later: at once, it would be auto-repeat)
            self.read(0.3)
            self.key("q")
            end = time.monotonic() + 10
            while time.monotonic() < end:
                self.read(0.1)
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    return os.waitstatus_to_exitcode(status)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            return -9
        finally:
            os.close(self.fd)


def open_game_exists(state_dir) -> bool:
    from firmware.store import DB_NAME, Store

    if not (state_dir / DB_NAME).exists():
        return False
    with Store.open(state_dir, readonly=True) as store:
        return store.open_game() is not None


def open_events(state_dir) -> list:
    from firmware.store import Store

    with Store.open(state_dir, readonly=True) as store:
        game = store.open_game()
        return [] if game is None else game.record().to_json()["events"]


def test_hostile_emulator_on_a_terminal_holds_roll_as_one_press_and_follows_resizes(tmp_path):
    box = PtyBox(tmp_path)
    try:
        assert box.wait_for("q quit"), box.text[-500:]  # the whole first frame, to its key help: New game
        # ROLL held down on New game: the terminal sends r, then after its delay a stream of r.
        # One press starts the game; the repeats must not roll the first player's dice.
        # (The emulator is another process on the real clock: the terminal's repeat delay is
        # real time here, and so is the moment given to any stray press to show in the store.)
        box.key("r")
        time.sleep(0.5)
        box.key("r")  # the first repeat after the delay, then the stream (in one write: a busy
        box.key("r" * 25)  # test machine must not stretch the gaps into separate presses)
        assert box.wait_until(lambda: open_game_exists(tmp_path)), "the first press did not start a game"
        box.read(1.0)
        assert [e for e in open_events(tmp_path) if "roll" in e] == []
        box.key("r")  # a later tap rolls, once
        assert box.wait_until(lambda: any("roll" in e for e in open_events(tmp_path))), box.text[-500:]
        box.read(0.5)
        assert sum("roll" in e for e in open_events(tmp_path)) == 1
        box.resize(50, 24)  # the kernel sends SIGWINCH to the emulator
        assert box.wait_for("terminal 50x24 is too small"), box.text[-500:]
        box.text = ""
        box.resize(140, 40)
        assert box.wait_for("└"), box.text[-500:]  # the whole frame again
    finally:
        status = box.close()
    assert status == 0


def test_hostile_emulator_256x64_draws_grey_whole_or_at_half_width(tmp_path):
    """``make run SIZE=256x64``: the frame with its grey highlight; a narrower window gets it at half width."""
    from hw import shades

    box = PtyBox(tmp_path, cols=260, lines=40, args=("--size", "256x64"))
    try:
        assert box.wait_for("q quit"), box.text[-500:]  # the whole first frame, to its key help
        assert "─" * 256 + "┐" in box.text and shades.GREY_BG in box.text  # New game: the cursor row on grey
        box.text = ""
        box.resize(140, 40)
        assert box.wait_for("─" * 128 + "┐"), box.text[-500:]
        assert "too small" not in box.text and shades.GREY_BG in box.text
    finally:
        status = box.close()
    assert status == 0


@pytest.mark.parametrize("cols, lines, shows", [(200, 50, "─" * 128 + "┐"), (100, 30, "is too small")])
def test_hostile_emulator_256x64_starts_in_a_smaller_terminal(tmp_path, cols, lines, shows):
    """It used to refuse to start below 258x35: now 200 columns get the frame at half width, 100 the note,
    and a window made big enough the whole frame, on the same run."""
    box = PtyBox(tmp_path, cols=cols, lines=lines, args=("--size", "256x64"))
    try:
        assert box.wait_for(shows), box.text[-500:]
        assert "run it again" not in box.text
        box.text = ""
        box.resize(260, 40)
        assert box.wait_for("─" * 256 + "┐"), box.text[-500:]
    finally:
        status = box.close()
    assert status == 0


def test_hostile_emulator_with_a_camera_shows_what_it_read_beside_the_screen(tmp_path):
    """``make run CAMERA=1``: the board as read (here a stand-in picture) beside the frame, the camera's line
    under it, its key in the key help; x goes to the camera, and the emulator quits cleanly."""
    (tmp_path / "camera").mkdir()
    Image.new("RGB", (90, 60), (200, 30, 170)).save(tmp_path / "camera" / "read.png")
    box = PtyBox(tmp_path, cols=200, lines=40, args=("--camera",))
    try:
        assert box.wait_for("x makes one mistake"), box.text[-500:]
        assert box.wait_for("\x1b[38;2;200;30;170m"), box.text[-500:]  # the picture, in its own colour
        assert box.wait_for("camera: "), box.text[-500:]
        box.key("x")
        box.read(0.3)
        assert not open_game_exists(tmp_path)  # x is no button: the new-game screen is still up
    finally:
        status = box.close()
    assert status == 0
