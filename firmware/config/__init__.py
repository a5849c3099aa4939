"""The box's settings: a TOML file read once at start, checked, frozen.

``load(path)`` reads ``[buttons]``, ``[display]``, ``[game]``, ``[storage]``,
``[web]``, ``[camera]`` and the rest (see ``firmware/default_config.toml``, which documents every
key) and returns a frozen ``Config``. Anything wrong in the file is a
``ConfigError`` whose message is one line naming the file, the key and the
problem, e.g.::

    /etc/cantstop-box/config.toml: [buttons] roll = 2: GPIO2 is the I2C data pin (SDA); choose another pin

The defaults match the default wiring (``docs/wiring.png``), so a box built
as documented runs with no config file at all.
"""


from __future__ import annotations

import os
import tomllib
from typing import Any

from .check import Checker, one_line
from .models import (
    BUTTON_KEYS,
    DEFAULT_PATHS,
    I2C_PINS,
    MAX_COLOUR_LENGTH,
    MAX_COLOURS,
    MAX_CONFIG_BYTES,
    MAX_GPIO,
    MAX_NESTING,
    MIN_COLOURS,
    SECTIONS,
    SPI_PINS,
    ButtonPins,
    CameraConfig,
    Config,
    ConfigError,
    DisplayConfig,
    GameConfig,
    WebConfig,
)

__all__ = [
    "BUTTON_KEYS", "DEFAULT_PATHS", "I2C_PINS", "MAX_COLOUR_LENGTH", "MAX_COLOURS", "MAX_CONFIG_BYTES", "MAX_GPIO",
    "MAX_NESTING", "MIN_COLOURS", "SECTIONS", "SPI_PINS", "ButtonPins", "CameraConfig", "Config", "ConfigError", "DisplayConfig",
    "GameConfig", "WebConfig", "default_path", "load", "parse",
]


def default_path() -> str | None:
    """The first of ``DEFAULT_PATHS`` that exists (``~`` expanded), or None."""
    for candidate in DEFAULT_PATHS:
        expanded = os.path.expanduser(candidate)
        if os.path.exists(expanded):
            return expanded
    return None


def load(path: str | os.PathLike | None = None) -> Config:
    """The config from ``path``; with None, from the first existing default path, else the defaults.

    Raises ``ConfigError`` (one line: file, key, problem) for a missing
    explicit file, an unreadable file, bad TOML or a bad value.
    """
    if path is None:
        found = default_path()
        if found is None:
            return Config()
        path = found
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            raw = _read_limited(f, name)
    except FileNotFoundError:
        raise ConfigError(f"{name}: config file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{name}: is a directory, not a config file") from None
    except PermissionError:
        raise ConfigError(f"{name}: cannot read the config file: permission denied") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read the config file: {exc.strerror or exc}") from None
    return parse(raw, name)


def parse(data: bytes | str, name: str = "<config>") -> Config:
    """The config in TOML text ``data``; ``name`` is the file named in error messages."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise ConfigError(f"{name}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02X})") from None
    else:
        text = data
    if len(text) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{name}: {_too_big()}")
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: TOML syntax error: {exc}") from None
    except RecursionError:  # arrays or tables nested hundreds deep
        raise ConfigError(f"{name}: TOML nested too deep for a config file") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits (Python's int conversion limit)
        if "digits" in str(exc):
            raise ConfigError(f"{name}: a number has thousands of digits; settings are small whole numbers") from None
        raise ConfigError(f"{name}: TOML value error: {one_line(exc)[:80]}") from None
    if _too_deep(document):
        raise ConfigError(f"{name}: TOML nested too deep for a config file")
    return Checker(name).config(document)


def _too_deep(document: dict[str, Any]) -> bool:
    """Whether lists or tables nest deeper than ``MAX_NESTING`` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def _too_big() -> str:
    return f"bigger than {MAX_CONFIG_BYTES // 1024} KB: not a config file (the documented one is about 3 KB)"


def _read_limited(f, name: str) -> bytes:
    """The file's bytes, read in chunks: a ConfigError as soon as it passes ``MAX_CONFIG_BYTES``.

    Reading in chunks also lets Ctrl-C through (``--config /dev/zero`` would otherwise
    fill memory in one read).
    """
    chunks, size = [], 0
    while True:
        chunk = f.read(min(16 * 1024, MAX_CONFIG_BYTES + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{name}: {_too_big()}")


