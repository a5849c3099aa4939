"""The emulator's q asks once (issue 32, item 10): a q inside a burst of keys does not end the game."""

from boxcli.emulate import _Keys
from firmware.config import load
from hw.keys import QUIT


class FakeBox:
    def __init__(self):
        self.stopped = None
        self.edges = []

    def sink(self, name, pressed):
        self.edges.append((name, pressed))

    def request_shutdown(self, reason):
        self.stopped = reason


def _keys(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    box, said = FakeBox(), []
    keys = _Keys(load(empty), box, say=said.append)
    return keys, box, said


def test_a_q_in_a_burst_of_keys_asks_and_the_next_key_plays_on(tmp_path):
    keys, box, said = _keys(tmp_path)
    try:
        for key in "rbqc":
            keys.on_key(key)
        assert box.stopped is None and said == [_Keys.ASK, None]  # asked, then the key help again
        keys.on_key("q")
        keys.on_key("q")  # q twice quits
        assert box.stopped == "Stopped"
    finally:
        keys.close()


def test_ctrl_c_and_the_end_of_input_quit_at_once(tmp_path):
    keys, box, _ = _keys(tmp_path)
    try:
        keys.on_key(QUIT)
        assert box.stopped == "Stopped"
    finally:
        keys.close()
