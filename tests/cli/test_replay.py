"""``cantstop-box replay``: the real console script, run in a subprocess (CONTRACT.md).

On success it prints the state view as one JSON line; on any bad input it
exits 2 with nothing on stdout and exactly one line on stderr that names the
problem (``event N: ...`` for an event) and never a traceback.

Every view, standard input and the file errors go through the real script; each of the
50-odd kinds of bad record goes through the command's main() in this process (its
exit code, its two streams: 0.15 s of CPU less a case), and a few kinds of each sort
(JSON, schema, an event the rules refuse) through the real script as well.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
FIXTURES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".view.json"))

_script = shutil.which("cantstop-box", path=str(Path(sys.executable).parent))
COMMAND = [_script] if _script else [sys.executable, "-m", "boxcli.cli"]


def replay(arg: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, "replay", arg], input=stdin if stdin is not None else b"",
                          capture_output=True, timeout=60)


def replay_in_process(arg: str, capsysbinary) -> subprocess.CompletedProcess:
    """The same command line, run by the console script's main() here: its code and its two streams."""
    from boxcli.cli import main

    try:
        code = main(["replay", arg])
    except SystemExit as stop:
        code = stop.code
    out, err = capsysbinary.readouterr()
    return subprocess.CompletedProcess(["replay", arg], code, out, err)


def ordered(text):
    """Parsed JSON keeping key order, so views compare key by key and in order."""
    return json.loads(text, object_pairs_hook=lambda pairs: list(pairs))


def record(events=(), players=("Red", "Blue"), rules=None) -> bytes:
    """A record as JSON bytes; tuples become lists, anything else is written as given."""
    obj = {"players": list(players) if isinstance(players, tuple) else players}
    if rules is not None:
        obj["rules"] = rules
    obj["events"] = list(events) if isinstance(events, tuple) else events
    return json.dumps(obj).encode()


R = lambda *dice: {"roll": list(dice)}  # noqa: E731
M = lambda *sums: {"move": list(sums)}  # noqa: E731
S = {"stop": True}

# Runners on 2, 3 and 12 (RULES.md's bust example): phase decide, bust odds 728/1296.
DECIDE_EVENTS = [R(1, 1, 6, 6), M(2, 12), R(1, 2, 1, 2), M(3, 3)]
DECIDE_VIEW = {
    "players": ["Red", "Blue"], "current": 0, "phase": "decide", "dice": None, "moves": [],
    "runners": {"2": 1, "3": 2, "12": 1}, "markers": [{}, {}], "claimed": {}, "winner": None,
    "can_stop": True, "bust_chance": 0.5617,
}
# Red claims 2, 12 and 3 in one turn and wins.
WIN_EVENTS = [R(1, 1, 1, 1), M(2, 2), R(1, 1, 1, 1), M(2), R(6, 6, 6, 6), M(12, 12), R(6, 6, 6, 6), M(12),
              R(1, 2, 1, 2), M(3, 3), R(1, 2, 1, 2), M(3, 3), R(1, 2, 1, 2), M(3), S]


def assert_one_line_error(result, *words, event=None):
    assert result.returncode == 2, result
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}"
    assert "Traceback" not in err
    for word in words:
        assert word in err, f"{word!r} not in {err!r}"
    if event is None:
        assert not err.startswith("event ")
    else:
        assert err.startswith(f"event {event}: "), err


# -- success --------------------------------------------------------------------------


def test_replay_prints_the_view_of_a_record_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(record(DECIDE_EVENTS))
    result = replay(str(path))
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode().count("\n") == 1
    assert ordered(result.stdout) == ordered(json.dumps(DECIDE_VIEW))


def test_replay_reads_standard_input_for_dash():
    result = replay("-", record(DECIDE_EVENTS))
    assert result.returncode == 0 and result.stderr == b""
    assert ordered(result.stdout) == ordered(json.dumps(DECIDE_VIEW))


def test_replay_shows_dice_and_moves_while_a_roll_is_pending():
    result = replay("-", record([R(2, 3, 4, 5)], players=["Red"]))
    assert result.returncode == 0
    assert ordered(result.stdout) == ordered(json.dumps({
        "players": ["Red"], "current": 0, "phase": "move", "dice": [2, 3, 4, 5],
        "moves": [[5, 9], [6, 8], [7, 7]], "runners": {}, "markers": [{}], "claimed": {},
        "winner": None, "can_stop": False, "bust_chance": None,
    }))


def test_replay_shows_the_winner():
    result = replay("-", record(WIN_EVENTS))
    assert result.returncode == 0
    view = json.loads(result.stdout)
    assert (view["phase"], view["winner"], view["current"]) == ("over", 0, 0)
    assert view["claimed"] == {"2": 0, "3": 0, "12": 0}


def test_replay_accepts_a_utf8_byte_order_mark():
    result = replay("-", b"\xef\xbb\xbf" + record(DECIDE_EVENTS))
    assert result.returncode == 0 and json.loads(result.stdout) == DECIDE_VIEW


@pytest.mark.parametrize("name", FIXTURES)
def test_replay_prints_the_expected_view_of_each_example_record(name):
    result = replay(str(RECORDS / f"{name}.json"))
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode().count("\n") == 1
    assert ordered(result.stdout) == ordered((RECORDS / f"{name}.view.json").read_text())


# -- bad input: each kind of error -------------------------------------------------------

ERRORS = {
    # id: (record bytes, words the line must hold, 1-based event number or None)
    "not-json": (b'{"players": ["Red"], "events": [', ["not valid JSON"], None),
    "empty-file": (b"", ["not valid JSON"], None),
    "nan": (b'{"players": ["Red"], "events": [{"roll": [NaN, 1, 1, 1]}]}', ["not valid JSON", "NaN"], None),
    "infinity": (b'{"players": ["Red"], "rules": {"columns_to_win": Infinity}, "events": []}',
                 ["not valid JSON", "Infinity"], None),
    "bad-utf8": (b'{"players": ["R\xe9d"], "events": []}', ["not valid JSON", "UTF-8"], None),
    "nested-too-deeply": (b"[" * 100_000, ["not valid JSON", "nested too deeply"], None),
    "number-too-long": (b'{"players": ["Red"], "events": [{"roll": [' + b"9" * 5000 + b"]}]}",
                        ["not valid JSON", "digits"], None),
    "not-an-object": (b"[]", ["JSON object"], None),
    "players-missing": (b'{"events": []}', ["players", "1 to 4"], None),
    "players-empty": (record(players=[]), ["players", "1 to 4"], None),
    "players-too-many": (record(players=["A", "B", "C", "D", "E"]), ["players", "1 to 4"], None),
    "players-not-a-list": (record(players="Red"), ["players", "1 to 4"], None),
    "player-name-not-text": (record(players=["Red", 7]), ["player 2", "non-empty name", "7"], None),
    "player-name-empty": (record(players=["Red", ""]), ["player 2", "non-empty name"], None),
    "rules-not-an-object": (record(rules=[3]), ["rules", "object"], None),
    "rules-unknown-key": (record(rules={"fast": True}), ["rules", "unknown rule 'fast'"], None),
    "rules-columns-to-win-0": (record(rules={"columns_to_win": 0}), ["columns_to_win", "1 to 11", "0"], None),
    "rules-columns-to-win-12": (record(rules={"columns_to_win": 12}), ["columns_to_win", "1 to 11", "12"], None),
    "rules-columns-to-win-text": (record(rules={"columns_to_win": "3"}), ["columns_to_win", "'3'"], None),
    "rules-speedy-text": (record(rules={"speedy": "yes"}), ["speedy", "true or false", "'yes'"], None),
    "rules-risky-number": (record(rules={"risky": 1}), ["risky", "true or false"], None),
    "events-missing": (b'{"players": ["Red"]}', ["events is missing"], None),
    "events-not-a-list": (record(events={"roll": [1, 2, 3, 4]}), ["events must be a list"], None),
    "event-not-an-object": (record([R(2, 3, 4, 5), [7, 7]]), ["must be an object"], 2),
    "event-no-known-key": (record([{"rol": [1, 2, 3, 4]}]), ["none of the keys roll, move, stop"], 1),
    "event-two-keys": (record([R(2, 3, 4, 5), {"move": [7, 7], "stop": True}]), ["more than one", "move", "stop"], 2),
    "roll-three-dice": (record([R(1, 2, 3)]), ["roll must be a list of four", "[1, 2, 3]"], 1),
    "roll-five-dice": (record([R(1, 2, 3, 4, 5)]), ["roll must be a list of four"], 1),
    "roll-a-seven": (record([R(2, 3, 4, 5), M(7, 7), R(1, 2, 3, 7)]), ["roll must be", "1 to 6", "7"], 3),
    "roll-a-zero": (record([R(0, 2, 3, 4)]), ["roll must be", "1 to 6"], 1),
    "roll-a-bool": (record([R(True, 2, 3, 4)]), ["roll must be", "true"], 1),
    "roll-a-float": (record([R(1.0, 2, 3, 4)]), ["roll must be", "1.0"], 1),
    "roll-not-a-list": (record([{"roll": "1234"}]), ["roll must be"], 1),
    "move-sum-1": (record([R(2, 3, 4, 5), M(1)]), ["move must be a list of one or two sums 2 to 12"], 2),
    "move-sum-13": (record([R(2, 3, 4, 5), M(13)]), ["move must be", "13"], 2),
    "move-no-sums": (record([R(2, 3, 4, 5), M()]), ["move must be", "[]"], 2),
    "move-three-sums": (record([R(2, 3, 4, 5), M(5, 9, 7)]), ["move must be"], 2),
    "move-not-a-list": (record([R(2, 3, 4, 5), {"move": 7}]), ["move must be"], 2),
    "stop-false": (record([R(2, 3, 4, 5), M(7, 7), {"stop": False}]), ["stop must be true", "false"], 3),
    # events the rules do not allow at that point
    "roll-with-dice-out": (record([R(2, 3, 4, 5), R(1, 1, 1, 1)]), ["roll cannot come now", "dice are out"], 2),
    "move-without-roll": (record([M(7, 7)]), ["move must come right after a roll"], 1),
    "move-twice": (record([R(2, 3, 4, 5), M(7, 7), M(7, 7)]), ["move must come right after a roll"], 3),
    "stop-at-turn-start": (record([S]), ["cannot stop before rolling and moving"], 1),
    "stop-with-dice-out": (record([R(2, 3, 4, 5), S]), ["cannot stop now", "dice are out"], 2),
    "stop-after-bust": (record([R(1, 1, 1, 1), M(2, 2), R(1, 1, 1, 1), M(2), R(1, 1, 1, 1), S]),
                        ["cannot stop before rolling and moving"], 6),
    "illegal-move-drops-a-sum": (record([R(2, 3, 4, 5), M(5)]),
                                 ["move [5] is not legal", "[2, 3, 4, 5]", "[5, 9], [6, 8], [7, 7]"], 2),
    "illegal-move-double-past-top": (record([R(1, 1, 1, 1), M(2, 2), R(1, 1, 1, 1), M(2, 2)]),
                                     ["move [2, 2] is not legal", "legal moves: [2]"], 4),
    "roll-after-the-win": (record(WIN_EVENTS + [R(1, 2, 3, 4)]), ["game is over", "Red won"], 16),
    "stop-after-the-win": (record(WIN_EVENTS + [S]), ["game is over", "Red won"], 16),
    "move-after-the-win": (record(WIN_EVENTS + [M(7, 7)]), ["game is over", "Red won"], 16),
    "risky-stop-on-a-marker": (record([R(3, 4, 1, 1), M(2, 7), S, R(3, 4, 6, 6), M(7, 12), S], rules={"risky": True}),
                               ["cannot stop", "risky"], 6),
}


@pytest.mark.parametrize("data, words, event", ERRORS.values(), ids=ERRORS.keys())
def test_replay_error_is_one_line_naming_the_problem(tmp_path, capsysbinary, data, words, event):
    path = tmp_path / "game.json"
    path.write_bytes(data)
    assert_one_line_error(replay_in_process(str(path), capsysbinary), *words, event=event)


# The real script, for a few of each sort: JSON (and the deepest nesting, on a process's own stack),
# the schema, an event's shape, an event the rules refuse.
REAL_PROCESS = ["not-json", "nested-too-deeply", "bad-utf8", "players-too-many", "rules-unknown-key",
                "roll-a-bool", "illegal-move-double-past-top", "roll-after-the-win", "risky-stop-on-a-marker"]


@pytest.mark.parametrize("kind", REAL_PROCESS)
def test_replay_error_is_one_line_naming_the_problem_from_the_real_script(tmp_path, kind):
    data, words, event = ERRORS[kind]
    path = tmp_path / "game.json"
    path.write_bytes(data)
    assert_one_line_error(replay(str(path)), *words, event=event)


@pytest.mark.parametrize("kind", ["not-json", "illegal-move-drops-a-sum"])
def test_replay_error_from_standard_input_is_the_same(kind):
    data, words, event = ERRORS[kind]
    assert_one_line_error(replay("-", data), *words, event=event)


def test_replay_file_that_does_not_exist(tmp_path):
    missing = tmp_path / "no-such-game.json"
    assert_one_line_error(replay(str(missing)), "cannot read", str(missing), "No such file")


def test_replay_directory_instead_of_a_file(tmp_path):
    assert_one_line_error(replay(str(tmp_path)), "cannot read", str(tmp_path), "directory")
