"""The laptop emulator's keys: keys from a pipe or a TTY, keys as mock pins."""

from __future__ import annotations

import io
import os
import threading

import pytest

from hw.buttons import GpioButtons
from hw.keys import QUIT, KeyPins, KeyReader

PINS = {"ROLL": 17, "STOP": 27, "A": 5, "MENU": 26}


def collect_keys(stream, **kw) -> list[str]:
    keys: list[str] = []
    reader = KeyReader(keys.append, stream, **kw).start()
    reader.join(5)
    reader.close()
    return keys


def test_terminal_keyreader_reads_pipe_line_by_line():
    read_fd, write_fd = os.pipe()
    with os.fdopen(write_fd, "w") as writer:
        writer.write("rs\na\n\x03\n")
    with os.fdopen(read_fd) as stream:
        reader_keys = collect_keys(stream)
    assert reader_keys == ["r", "s", "a", QUIT, QUIT]  # Ctrl-C, then end of input


def test_terminal_keyreader_end_of_input_without_quit():
    assert collect_keys(io.StringIO("xy\n"), quit_on_eof=False) == ["x", "y"]


def test_terminal_keyreader_is_not_tty_for_pipe():
    reader = KeyReader(lambda key: None, io.StringIO(""))
    assert not reader.is_tty


def test_terminal_keyreader_keys_arrive_while_pipe_stays_open():
    read_fd, write_fd = os.pipe()
    got = threading.Event()
    keys: list[str] = []

    def on_key(key):
        keys.append(key)
        got.set()

    with os.fdopen(read_fd) as stream, os.fdopen(write_fd, "w") as writer:
        reader = KeyReader(on_key, stream).start()
        writer.write("m\n")
        writer.flush()
        assert got.wait(5)
        assert keys == ["m"]
        reader.close(timeout=0.1)


def test_terminal_keyreader_tty_cbreak_keys_and_restore():
    import pty
    import termios

    master, slave = pty.openpty()
    keys: list[str] = []
    done = threading.Event()

    def on_key(key):
        keys.append(key)
        if len(keys) == 3:
            done.set()

    try:
        with os.fdopen(slave, "r", closefd=False) as stream:
            before = termios.tcgetattr(slave)
            reader = KeyReader(on_key, stream)
            assert reader.is_tty
            with reader:
                during = termios.tcgetattr(slave)
                assert not during[3] & (termios.ICANON | termios.ECHO | termios.ISIG)
                os.write(master, b"r\x03\x1b[A")  # no Enter needed; Ctrl-C is a key
                assert done.wait(5)
            assert keys == ["r", QUIT, "up"]
            assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("sequence", ["\x1b[1~", "\x1b[15~", "\x1b[2~", "\x1b[3~", "\x1b[5~", "\x1b[1;5C",
                                      "\x1bOP", "\x1bOQ", "\x1b[200~", "\x1b1", "\x1ba"])
def test_terminal_an_unmapped_escape_sequence_is_read_whole_and_presses_nothing(sequence):
    """Issue 47, item 4: Home (ESC [ 1 ~) and F5 (ESC [ 1 5 ~) hold a "1", which is A: Home took pairing A."""
    from hw.keys import _split_keys

    assert list(_split_keys(sequence)) == []
    assert list(_split_keys("r" + sequence + "s")) == ["r", "s"]


def test_terminal_arrows_in_either_mode_are_keys_and_a_lone_escape_is_one():
    from hw.keys import _split_keys

    assert list(_split_keys("\x1b[A\x1bOB\x1b[C\x1bOD")) == ["up", "down", "right", "left"]
    assert list(_split_keys("a\x1b")) == ["a", "\x1b"]
    assert list(_split_keys("\x1b[")) == []  # a sequence cut short by the read: dropped, never its letters


def test_terminal_keypins_tap_reaches_button_sink(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0), "s": ("STOP", 0)}, tap=0.01) as keys:
        assert keys.press("r")
        assert keys.press("s")
        assert not keys.press("z")  # unmapped
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("ROLL", False), ("STOP", True), ("STOP", False)]


def test_terminal_keypins_long_press_holds_for_given_seconds(mock_factory):
    """The button stays down for the key's hold (a long press), a tap for the tap time; one after the other."""
    timeline: list[tuple] = []
    with GpioButtons(PINS, lambda name, pressed: timeline.append((name, pressed)), pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"M": ("MENU", 0.3), "m": ("MENU", 0)},
                    sleep=lambda seconds: timeline.append(("held", seconds))) as keys:
        keys.press("M")
        keys.press("m")
        assert keys.wait_idle(5)
    assert timeline == [("MENU", True), ("held", 0.3), ("MENU", False),  # serialised: the tap waits
                        ("MENU", True), ("held", 0.05), ("MENU", False)]


def test_terminal_keypins_presses_never_overlap(mock_factory, edges):
    hold_log: list[float] = []
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0), "a": ("A", 0)},
                    sleep=hold_log.append, max_pending=16) as keys:
        for key in "rara":
            keys.press(key)
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("ROLL", False), ("A", True), ("A", False)] * 2
    assert hold_log == [0.05] * 4


def test_terminal_keypins_chord_holds_buttons_together(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {}, sleep=lambda s: None) as keys:
        keys.chord(["ROLL", "STOP"], hold=2.0)
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("STOP", True), ("ROLL", False), ("STOP", False)]


def test_terminal_keypins_unknown_button_rejected(mock_factory):
    with pytest.raises(ValueError, match="FOLD"):
        KeyPins(mock_factory, PINS, {"f": ("FOLD", 0)})


def test_terminal_keypins_survives_failing_sink(mock_factory):
    calls: list[str] = []

    def sink(name, pressed):
        calls.append(name)
        if len(calls) == 1:
            raise RuntimeError("boom")

    with GpioButtons(PINS, sink, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0)}, sleep=lambda s: None) as keys:
        keys.press("r")
        assert keys.wait_idle(5)
        keys.press("r")
        assert keys.wait_idle(5)
    assert calls == ["ROLL", "ROLL", "ROLL", "ROLL"]
    assert mock_factory.pin(17).state  # released (high) even after the failure
