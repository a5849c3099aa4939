"""Hostile config files: whatever the file holds, the box says one line and exits 78 (EX_CONFIG).

A config error must be final (systemd's RestartPreventExitStatus=78), never a
traceback and exit 1, which systemd would restart five times. Inputs are
read with a size limit checked while reading, so ``--config /dev/zero``
stops at once instead of filling memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import config
from firmware.config import MAX_CONFIG_BYTES, ConfigError

REPO = Path(__file__).resolve().parents[2]
DEEP = "[game]\ncolours = " + "[" * 340 + "]" * 340 + "\n"
LONG_INT = "[game]\nplayers = " + "9" * 5000 + "\n"


def box(command: str, *args: str) -> subprocess.CompletedProcess:
    """``cantstop-box COMMAND`` in a subprocess with 1 GB of address space (a runaway read dies, not the host)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    return subprocess.run([sys.executable, "-m", "boxcli.cli", command, *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=60, stdin=subprocess.DEVNULL, preexec_fn=limit)


def one_config_line(done: subprocess.CompletedProcess, name: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert done.returncode == 78, (done.returncode, done.stderr)
    assert lines[0].startswith(f"cantstop-box: {name}: ")
    return lines[0][len(f"cantstop-box: {name}: "):]


def parse_error(text: str | bytes) -> str:
    with pytest.raises(ConfigError) as err:
        config.parse(text, "c.toml")
    message = str(err.value)
    assert "\n" not in message and message.startswith("c.toml: ")
    return message[len("c.toml: "):]


def test_hostile_config_nested_340_deep_is_a_config_error():
    assert parse_error(DEEP) == "TOML nested too deep for a config file"


def test_hostile_config_integer_of_5000_digits_is_a_config_error():
    assert parse_error(LONG_INT) == "a number has thousands of digits; settings are small whole numbers"


@pytest.mark.parametrize("command", ["run", "emulate"])
@pytest.mark.parametrize("text, problem", [
    (DEEP, "TOML nested too deep for a config file"),
    (LONG_INT, "a number has thousands of digits; settings are small whole numbers"),
])
def test_hostile_config_deep_or_long_number_exits_78_in_one_line(tmp_path, command, text, problem):
    f = tmp_path / "config.toml"
    f.write_text(text)
    assert one_config_line(box(command, "--config", str(f), "--state-dir", str(tmp_path)), str(f)) == problem


def test_hostile_config_dev_zero_stops_at_the_size_limit():
    done = box("emulate", "--config", "/dev/zero")
    assert one_config_line(done, "/dev/zero") == \
        "bigger than 64 KB: not a config file (the documented one is about 3 KB)"


def test_hostile_config_size_limit_is_checked_while_reading(tmp_path, monkeypatch):
    """The reader stops one chunk past the limit: it never asks for the whole of an endless file."""
    f = tmp_path / "config.toml"
    f.write_bytes(b"#" * (10 * MAX_CONFIG_BYTES))
    asked = []
    real_open = open

    class Counting:
        def __init__(self, inner):
            self.inner = inner

        def read(self, n=-1):
            assert n is not None and 0 < n <= MAX_CONFIG_BYTES + 1, f"read({n}) is unbounded"
            data = self.inner.read(n)
            asked.append(len(data))
            return data

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.inner.close()

    monkeypatch.setattr("builtins.open", lambda *a, **k: Counting(real_open(*a, **k)))
    with pytest.raises(ConfigError, match="bigger than 64 KB"):
        config.load(f)
    assert sum(asked) == MAX_CONFIG_BYTES + 1


def test_hostile_config_exactly_at_the_limit_still_loads(tmp_path):
    f = tmp_path / "config.toml"
    body = b"[game]\nplayers = 3\n"
    f.write_bytes(body + b"#" * (MAX_CONFIG_BYTES - len(body) - 1) + b"\n")
    assert config.load(f).game.players == 3
    f.write_bytes(body + b"#" * (MAX_CONFIG_BYTES - len(body)) + b"\n")
    with pytest.raises(ConfigError, match="bigger than 64 KB"):
        config.load(f)


def test_hostile_config_limit_is_documented():
    building = (REPO / "docs" / "building.md").read_text()
    assert "64 KB" in building


# -- fuzzing ---------------------------------------------------------------------

KEYS = [k for keys in config.SECTIONS.values() for k in keys] + ["x", "Roll", "colors", "state-dir"]
SECTION_NAMES = [*config.SECTIONS, "Buttons", "gam", "x"]


def _toml_string(s: str) -> str:
    return '"' + "".join(ch if ch.isprintable() and ch not in '"\\' else f"\\u{ord(ch):04x}" for ch in s) + '"'


def toml_values(max_leaves: int = 12):
    scalars = st.one_of(
        st.integers(),
        st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
        st.integers(min_value=-2, max_value=300),
        st.sampled_from(["true", "false", "inf", "nan", "-0.0", "1e999", "0x3C", "0o17", "0b101",
                         "1979-05-27T07:32:00Z", "07:32:00"]).map(lambda t: ("raw", t)),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
        st.sampled_from(["Red", "Blue", "Green", "Yellow", "ssd1306", "spi", "/var/lib/x", "~/x", ""]),
    )
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=9),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    ), max_leaves=max_leaves)


def emit(value) -> str:
    if isinstance(value, tuple):
        return value[1]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(emit(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {emit(v)}" for k, v in value.items()) + "}"


@st.composite
def toml_documents(draw) -> str:
    lines = []
    for key, value in draw(st.lists(st.tuples(st.sampled_from(KEYS), toml_values()), max_size=2)):
        lines.append(f"{key} = {emit(value)}")
    for section in draw(st.lists(st.sampled_from(SECTION_NAMES), max_size=4)):
        lines.append(f"[{section}]")
        for key, value in draw(st.lists(st.tuples(st.sampled_from(KEYS), toml_values()), max_size=5)):
            lines.append(f"{key} = {emit(value)}")
    return "\n".join(lines) + "\n"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


hostile_text = st.one_of(
    toml_documents(),
    st.text(alphabet=st.sampled_from(list('[]{}=".,#\'\n 0123456789abxyz_-+:eT\\')), max_size=200),
    st.integers(min_value=1, max_value=2000).map(lambda d: f"[game]\ncolours = {nested(d)}\n"),
    st.integers(min_value=4000, max_value=6000).map(lambda n: f"[display]\nport = {'7' * n}\n"),
)


def check_one_line(load) -> None:
    """The loader returns a Config or raises a one-line ConfigError naming the file; nothing else."""
    try:
        result = load()
    except ConfigError as err:
        message = str(err)
        assert message.startswith("c.toml: ") and "\n" not in message and len(message) < 400, message
    else:
        assert isinstance(result, config.Config)


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _documents(text: str) -> None:
    check_one_line(lambda: config.parse(text, "c.toml"))
    check_one_line(lambda: config.parse(text.encode("utf-8", "surrogatepass"), "c.toml"))


def _bytes(data: bytes) -> None:
    check_one_line(lambda: config.parse(data, "c.toml"))


test_hostile_config_fuzz_documents = FAST(given(hostile_text)(_documents))
test_hostile_config_fuzz_bytes = FAST(given(st.binary(max_size=300))(_bytes))
test_hostile_config_fuzz_documents_soak = pytest.mark.slow(BIG(given(hostile_text)(_documents)))
test_hostile_config_fuzz_bytes_soak = pytest.mark.slow(BIG(given(st.binary(max_size=2000))(_bytes)))
