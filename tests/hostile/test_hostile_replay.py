"""Fuzzed game records into ``cantstop-box replay``: never a traceback, always the contract's answer.

A record either replays (exit 0, the state view as one JSON line, nothing on
standard error) or is refused (exit 2, nothing on standard output, exactly one
line on standard error). Inputs are random bytes, mangled real records, and
JSON that is well formed but wrong in every place a record has a value.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boxcli.cli import main

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
REAL = [p.read_bytes() for p in sorted(RECORDS.glob("*.json")) if not p.name.endswith(".view.json")]
REAL_OBJECTS = [json.loads(b) for b in REAL]


def replay(data: bytes) -> tuple[int, str, str]:
    """``cantstop-box replay FILE`` in this process: (status, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", str(path)])
    return status, out.getvalue(), err.getvalue()


def check(data: bytes) -> None:
    status, out, err = replay(data)
    assert "Traceback" not in err
    if status == 0:
        assert err == "" and out.endswith("\n") and out.count("\n") == 1
        assert isinstance(json.loads(out), dict)
    else:
        assert status == 2, (status, err)
        assert out == ""
        assert err.endswith("\n") and err.count("\n") == 1 and len(err) > 1, err
        assert len(err) < 2000, err[:200]


def test_hostile_replay_real_records_still_replay():
    for data in REAL:
        status, out, err = replay(data)
        assert (status, err) == (0, "")


# -- strategies -------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-3, max_value=14),
    st.integers(min_value=2**62, max_value=2**70), st.floats(allow_nan=False), st.text(max_size=12),
)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=10)

dice = st.lists(st.integers(min_value=-1, max_value=7), min_size=0, max_size=6)
event = st.one_of(
    st.fixed_dictionaries({"roll": st.one_of(dice, json_values)}),
    st.fixed_dictionaries({"move": st.one_of(st.lists(st.integers(min_value=0, max_value=13), max_size=3),
                                             json_values)}),
    st.fixed_dictionaries({"stop": st.one_of(st.booleans(), json_values)}),
    st.dictionaries(st.sampled_from(["roll", "move", "stop", "pick", "undo", ""]), json_values,
                    min_size=0, max_size=3),
    json_values,
)
players = st.one_of(
    st.lists(st.text(max_size=10), min_size=0, max_size=6),
    st.lists(st.sampled_from(["Red", "Blue", "Red", "", " ", "\n"]), max_size=5),
    json_values,
)
rules = st.one_of(
    st.fixed_dictionaries({}, optional={"columns_to_win": json_scalars, "speedy": json_scalars,
                                        "risky": json_scalars}),
    json_values,
)


@st.composite
def wrong_records(draw) -> bytes:
    obj: dict = {}
    if draw(st.booleans()):
        obj["players"] = draw(players)
    else:
        obj["players"] = ["Red", "Blue"]
    if draw(st.booleans()):
        obj["rules"] = draw(rules)
    obj["events"] = draw(st.one_of(st.lists(event, max_size=12), json_values))
    for key in draw(st.lists(st.text(max_size=6), max_size=2)):
        obj[key] = draw(json_values)
    top = draw(st.sampled_from(["object", "object", "object", "list", "value"]))
    if top == "list":
        return json.dumps([obj]).encode()
    if top == "value":
        return json.dumps(draw(json_values)).encode()
    return json.dumps(obj).encode()


@st.composite
def real_with_a_wrong_event(draw) -> bytes:
    """A real record with one event replaced, inserted or removed: wrong in the middle of a game."""
    obj = json.loads(json.dumps(draw(st.sampled_from(REAL_OBJECTS))))
    events = obj["events"]
    i = draw(st.integers(min_value=0, max_value=len(events)))
    how = draw(st.sampled_from(["replace", "insert", "remove", "truncate"]))
    if how == "replace" and i < len(events):
        events[i] = draw(event)
    elif how == "insert":
        events.insert(i, draw(event))
    elif how == "remove" and i < len(events):
        del events[i]
    else:
        del events[i:]
    return json.dumps(obj).encode()


@st.composite
def mangled_bytes(draw) -> bytes:
    """A real record with bytes flipped, cut or inserted."""
    data = bytearray(draw(st.sampled_from(REAL)))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        i = draw(st.integers(min_value=0, max_value=len(data) - 1))
        how = draw(st.sampled_from(["flip", "cut", "insert"]))
        if how == "flip":
            data[i] = draw(st.integers(min_value=0, max_value=255))
        elif how == "cut":
            del data[i:]
            if not data:
                break
        else:
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


nesting = st.integers(min_value=1, max_value=100_000).map(lambda d: b"[" * d + b"]" * d)
long_number = st.integers(min_value=4000, max_value=20_000).map(
    lambda n: b'{"players": ["a", "b"], "events": [{"roll": [' + b"9" * n + b', 1, 1, 1]}]}')
hostile = st.one_of(st.binary(max_size=400), mangled_bytes(), wrong_records(), real_with_a_wrong_event(),
                    nesting, long_number)

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

test_hostile_replay_fuzz = FAST(given(hostile)(check))
test_hostile_replay_fuzz_soak = pytest.mark.slow(BIG(given(hostile)(check)))
