"""Checking a parsed config document, key by key: the first problem is a one-line ConfigError."""

from __future__ import annotations

from hw.errors import one_line as _one_line

import dataclasses
import os
from typing import Any

from hw.panels import DRIVERS, INTERFACES, SIZES, drivers_for, size_name, SPI_ONLY

from ..i18n import LANGUAGES
from ..table import names
from ..table.names import MAX_ROSTER

from .camera import camera as camera_section
from .models import (
    BUTTON_KEYS,
    I2C_PINS,
    MAX_COLOUR_LENGTH,
    MAX_COLOURS,
    MAX_GPIO,
    MIN_COLOURS,
    SECTIONS,
    SPI_PINS,
    ButtonPins,
    Config,
    ConfigError,
    DisplayConfig,
    GameConfig,
    LightsConfig,
    SoundConfig,
    WebConfig,
)


def name_problem(name: Any, taken: set[str] = frozenset()) -> str | None:
    """Why ``name`` cannot be a player's name (``taken``: folded names already used), or None.

    See :mod:`firmware.table.names` (normalised first, drawable by the box's fonts).
    """
    return names.name_problem(name, taken)


def one_line(exc: BaseException) -> str:
    """The config's errors as one line (hw.errors.one_line, the one owner), never a type's name alone."""
    return _one_line(str(exc))


class Checker:
    """Turns a parsed TOML document into a ``Config``, raising on the first problem."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, section: str, key: str, value: Any, problem: str) -> ConfigError:
        return ConfigError(f"{self.name}: [{section}] {key} = {_show(key, value)}: {problem}")

    def config(self, document: dict[str, Any]) -> Config:
        for key, value in document.items():
            if key not in SECTIONS:
                if isinstance(value, dict):
                    raise ConfigError(f"{self.name}: unknown section [{key}]{_suggest(key, SECTIONS, '[{}]')}")
                home = _section_of(key)
                hint = f"; put it under [{home}]" if home else "; keys go under [buttons], [display], [game], [lights], [sound], [storage], [web] or [camera]"
                raise ConfigError(f"{self.name}: {key} = {_show(key, value)}: unknown key outside any section{hint}")
            if not isinstance(value, dict):
                raise ConfigError(f"{self.name}: {key} = {_show(key, value)}: [{key}] must be a section, not a value")
        tables = {s: document.get(s, {}) for s in SECTIONS}
        for section, table in tables.items():
            self.unknown_keys(section, table)
        buttons = self.buttons(tables["buttons"])
        display = self.display(tables["display"])
        self.clashes(buttons, display, tables)
        lights = self.lights(tables["lights"])
        sound = self.sound(tables["sound"])
        self.part_clashes(buttons, display, lights, sound)
        game = self.game(tables["game"])
        game = dataclasses.replace(game, sound=None if sound.pin is None else not sound.mute)
        state_dir = self.state_dir(tables["storage"])
        web = self.web(tables["web"])
        camera = camera_section(self, tables["camera"], game)
        return Config(buttons=buttons, display=display, game=game, lights=lights, sound=sound, web=web,
                      camera=camera, state_dir=state_dir, path=self.name)

    def unknown_keys(self, section: str, table: dict[str, Any]) -> None:
        keys = SECTIONS[section]
        for key, value in table.items():
            if key in keys:
                continue
            home = _section_of(key)
            if home and home != section:
                hint = f"; it belongs in [{home}]"
            else:
                hint = _suggest(key, keys, "'{}'")
            raise self.fail(section, key, value, f"unknown key{hint}")

    # -- sections ---------------------------------------------------------

    def buttons(self, table: dict[str, Any]) -> ButtonPins:
        values = {}
        for key in BUTTON_KEYS:
            if key in table:
                values[key] = self.gpio("buttons", key, table[key])
        for key, low, high in (("debounce_ms", 0, 500), ("long_press_ms", 100, 10_000)):
            if key in table:
                values[key] = self.integer("buttons", key, table[key], low, high, " milliseconds")
        result = ButtonPins(**values)
        if result.long_press_ms <= result.debounce_ms:
            key = "long_press_ms" if "long_press_ms" in table else "debounce_ms"
            raise self.fail("buttons", key, getattr(result, key),
                            f"long_press_ms ({result.long_press_ms}) must be longer than debounce_ms ({result.debounce_ms})")
        owner: dict[int, str] = {}
        for key in BUTTON_KEYS:
            pin = getattr(result, key)
            if pin in owner:
                raise self.fail("buttons", key, pin,
                                f"GPIO{pin} is already the {owner[pin]} button; each button needs its own pin")
            owner[pin] = key
        return result

    def display(self, table: dict[str, Any]) -> DisplayConfig:
        values: dict[str, Any] = {}
        for key, choices in (("driver", DRIVERS), ("interface", INTERFACES), ("language", LANGUAGES)):
            if key in table:
                values[key] = self.choice("display", key, table[key], choices)
        ranges = {"port": (0, 255), "address": (0x03, 0x77), "spi_device": (0, 1),
                  "rotation": (0, 3), "contrast": (0, 255), "dim_after_min": (0, 1440)}
        for key, (low, high) in ranges.items():
            if key in table:
                values[key] = self.integer("display", key, table[key], low, high)
        for key in ("gpio_dc", "gpio_reset"):
            if key in table:
                values[key] = self.gpio("display", key, table[key])
        if "size" in table:
            values["size"] = self.size(table["size"], values.get("driver", DisplayConfig.driver))
        result = DisplayConfig(**values)
        if result.driver in SPI_ONLY and result.interface != "spi":
            raise self.fail("display", "interface", result.interface,
                            f'the {result.driver} talks SPI only: set interface = "spi"')
        if result.interface == "spi":
            if result.gpio_dc == result.gpio_reset:
                raise self.fail("display", "gpio_reset", result.gpio_reset,
                                f"GPIO{result.gpio_reset} is already the display's DC pin; DC and RESET need their own pins")
            for key in ("gpio_dc", "gpio_reset"):
                pin = getattr(result, key)
                if pin in SPI_PINS:
                    raise self.fail("display", key, pin, f"GPIO{pin} is {SPI_PINS[pin]}; choose another pin")
        return result

    def clashes(self, buttons: ButtonPins, display: DisplayConfig, tables: dict[str, dict]) -> None:
        """Buttons must not sit on the display's bus or control pins."""
        if display.interface == "i2c":
            taken = dict(I2C_PINS)
        else:
            taken = dict(SPI_PINS)
            taken[display.gpio_dc] = "the display's DC pin ([display] gpio_dc)"
            taken[display.gpio_reset] = "the display's RESET pin ([display] gpio_reset)"
        for key in BUTTON_KEYS:
            pin = getattr(buttons, key)
            if pin in taken:
                raise self.fail("buttons", key, pin, f"GPIO{pin} is {taken[pin]}; choose another pin")

    def lights(self, table: dict[str, Any]) -> LightsConfig:
        values: dict[str, Any] = {key: self.gpio("lights", key, table[key]) for key in BUTTON_KEYS if key in table}
        if "active_high" in table:
            values["active_high"] = self.boolean("lights", "active_high", table["active_high"])
        return LightsConfig(**values)

    def sound(self, table: dict[str, Any]) -> SoundConfig:
        values: dict[str, Any] = {}
        if "pin" in table:
            values["pin"] = self.gpio("sound", "pin", table["pin"])
        if "volume" in table:
            values["volume"] = self.integer("sound", "volume", table["volume"], 1, 100)
        if "mute" in table:
            values["mute"] = self.boolean("sound", "mute", table["mute"])
        return SoundConfig(**values)

    def part_clashes(self, buttons: ButtonPins, display: DisplayConfig, lights: LightsConfig, sound: SoundConfig) -> None:
        """Each lamp and the buzzer on a pin of its own: not the display's bus, a button, or another part."""
        if display.interface == "i2c":
            owner = {pin: what for pin, what in I2C_PINS.items()}
        else:
            owner = dict(SPI_PINS)
            owner[display.gpio_dc] = "the display's DC pin ([display] gpio_dc)"
            owner[display.gpio_reset] = "the display's RESET pin ([display] gpio_reset)"
        for key in BUTTON_KEYS:
            owner[getattr(buttons, key)] = f"the {key.upper()} button ([buttons] {key})"
        parts = [("lights", key, getattr(lights, key), f"the {key.upper()} lamp ([lights] {key})") for key in BUTTON_KEYS]
        parts.append(("sound", "pin", sound.pin, "the buzzer ([sound] pin)"))
        for section, key, pin, what in parts:
            if pin is None:
                continue
            if pin in owner:
                raise self.fail(section, key, pin, f"GPIO{pin} is {owner[pin]}; choose another pin")
            owner[pin] = what

    def game(self, table: dict[str, Any]) -> GameConfig:
        values: dict[str, Any] = {}
        if "colours" in table:
            values["colours"] = self.colours(table["colours"])
        if "players" in table:
            values["players"] = self.integer("game", "players", table["players"], 1, 4)
        if "columns_to_win" in table:
            values["columns_to_win"] = self.integer("game", "columns_to_win", table["columns_to_win"], 1, 11)
        for key in ("speedy", "risky"):
            if key in table:
                values[key] = self.boolean("game", key, table[key])
        if "roster" in table:
            values["roster"] = self.roster(table["roster"])
        for key, most in (("box_pace_ms", 10000), ("handover_guard_ms", 3000)):
            if key in table:
                values[key] = self.integer("game", key, table[key], 0, most)
        return GameConfig(**values)

    def roster(self, value: Any) -> tuple[str, ...]:
        """Players' names: any script, any length up to a sane limit, each once."""
        if not isinstance(value, list):
            raise self.fail("game", "roster", value, 'must be a list of names, like ["Ann", "Bob"]')
        if len(value) > MAX_ROSTER:
            raise self.fail("game", "roster", value, f"has {len(value)} names; at most {MAX_ROSTER}")
        seen: set[str] = set()
        for item in value:
            problem = name_problem(item, seen)
            if problem:
                raise self.fail("game", "roster", value, problem)
            seen.add(names.fold(item))
        return tuple(names.normalise(item) for item in value)

    def colours(self, value: Any) -> tuple[str, ...]:
        key = "colours"
        if not isinstance(value, list):
            raise self.fail("game", key, value, 'must be a list of names, like ["Red", "Blue", "Green", "Yellow"]')
        if not MIN_COLOURS <= len(value) <= MAX_COLOURS:
            raise self.fail("game", key, value,
                            f"needs {MIN_COLOURS} to {MAX_COLOURS} colours (at least 4 so four players can sit), not {len(value)}")
        seen: dict[str, str] = {}
        for item in value:
            if not isinstance(item, str):
                raise self.fail("game", key, value, f"{_show('', item)} is not a name; put each colour in quotes")
            if not item.strip():
                raise self.fail("game", key, value, "a colour name is empty")
            if item != item.strip():
                raise self.fail("game", key, value, f"{_show('', item)} has spaces at an end")
            bad = [ch for ch in item if not " " <= ch <= "~"]
            if bad:
                raise self.fail("game", key, value,
                                f"{_show('', item)}: the screen's font has no {bad[0]!r}; use plain letters A-Z and digits")
            if len(item) > MAX_COLOUR_LENGTH:
                raise self.fail("game", key, value,
                                f"{_show('', item)} is {len(item)} characters; at most {MAX_COLOUR_LENGTH} fit the screen")
            folded = item.casefold()
            if folded in seen:
                raise self.fail("game", key, value, f"{_show('', item)} is listed twice; each colour must differ")
            seen[folded] = item
        return tuple(value)

    def state_dir(self, table: dict[str, Any]) -> str | None:
        if "state_dir" not in table:
            return None
        value = table["state_dir"]
        if not isinstance(value, str) or not value.strip():
            raise self.fail("storage", "state_dir", value, 'must be a folder path in quotes, like "/var/lib/cantstop-box"')
        expanded = os.path.expanduser(value)
        if not os.path.isabs(expanded):
            raise self.fail("storage", "state_dir", value, "must be an absolute path (starting with / or ~)")
        return expanded

    def web(self, table: dict[str, Any]) -> WebConfig:
        values: dict[str, Any] = {}
        if "enabled" in table:
            values["enabled"] = self.boolean("web", "enabled", table["enabled"])
        if "host" in table:
            values["host"] = self.host(table["host"])
        if "port" in table:
            values["port"] = self.integer("web", "port", table["port"], 1, 65535)
        return WebConfig(**values)

    def host(self, value: Any) -> str:
        """``[web] host``: an IPv4 or IPv6 address to listen on, or a plain host name."""
        import ipaddress

        problem = 'must be an address to listen on in quotes, like "0.0.0.0" (every network) or "127.0.0.1"'
        if not isinstance(value, str) or not value.strip():
            raise self.fail("web", "host", value, problem)
        text = value.strip()
        try:
            ipaddress.ip_address(text)
            return text
        except ValueError:
            pass
        if len(text) <= 253 and all(part and len(part) <= 63 and part.replace("-", "").isalnum() and part.isascii()
                                    for part in text.split(".")):
            return text
        raise self.fail("web", "host", value, problem)

    # -- values -----------------------------------------------------------

    def integer(self, section: str, key: str, value: Any, low: int, high: int, unit: str = "") -> int:
        shown = (lambda n: f"0x{n:02X}") if key == "address" else str
        if high - low == 1:
            allowed = f"{low} or {high}"
        elif key == "rotation":
            allowed = "0, 1, 2 or 3 quarter turns clockwise"
        else:
            allowed = f"from {shown(low)} to {shown(high)}{unit}"
        if isinstance(value, bool) or not isinstance(value, int):
            number = "a whole number " if allowed.startswith("from") else ""
            raise self.fail(section, key, value, f"must be {number}{allowed}{_type_hint(value)}")
        if not low <= value <= high:
            hint = ""
            if key == "rotation" and value in (90, 180, 270):
                hint = f"; for {value} degrees write rotation = {value // 90}"
            raise self.fail(section, key, value, f"must be {allowed}{hint}")
        return value

    def gpio(self, section: str, key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(section, key, value, f"must be a BCM GPIO number from 0 to {MAX_GPIO}{_type_hint(value)}")
        if not 0 <= value <= MAX_GPIO:
            # Imported only for this hint: the header's table comes from gpiozero, which a reader of
            # the config (the web view, the commands) need not load.
            from hw.header import HEADER

            hint = ""
            if isinstance(HEADER.get(value), int):
                hint = f"; physical pin {value} is GPIO{HEADER[value]}, so write {key} = {HEADER[value]}"
            elif value in HEADER:
                hint = f"; physical pin {value} is {HEADER[value]}, not a GPIO"
            raise self.fail(section, key, value, f"GPIO numbers (BCM) go from 0 to {MAX_GPIO}{hint}")
        return value

    def size(self, value: Any, driver: str) -> str:
        """``[display] size``: one of the sizes the driver chip comes in, written "128x32"."""
        sizes = [size_name(s) for s in SIZES[driver]]
        allowed = " or ".join(f'"{s}"' for s in sizes)
        if not isinstance(value, str):
            raise self.fail("display", "size", value, f"must be {allowed}, as text{_type_hint(value)}")
        written = value.strip().lower().replace(" ", "").replace("×", "x")
        if written not in sizes:
            others = drivers_for(written)
            hint = f"; a {written} panel needs driver = \"{others[0]}\"" if others else ""
            raise self.fail("display", "size", value, f"the {driver} drives {allowed}{hint}")
        return written

    def choice(self, section: str, key: str, value: Any, choices: tuple[str, ...]) -> str:
        if not isinstance(value, str):
            raise self.fail(section, key, value, f"must be one of {_quoted(choices)}{_type_hint(value)}")
        if value not in choices:
            lowered = value.strip().lower()
            hint = f'; did you mean "{lowered}"?' if lowered in choices else ""
            if not hint:
                hint = _suggest(lowered, choices, '"{}"', known=False)
            raise self.fail(section, key, value, f"must be one of {_quoted(choices)}{hint}")
        return value

    def boolean(self, section: str, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            hint = " (without quotes)" if isinstance(value, str) and value.lower() in ("true", "false") else ""
            raise self.fail(section, key, value, f"must be true or false{hint}")
        return value


def _type_hint(value: Any) -> str:
    if isinstance(value, bool):
        return ", not true/false"
    if isinstance(value, str):
        try:
            int(value, 0)
        except ValueError:
            return ", not text"
        return " (without quotes)"
    if isinstance(value, float):
        return ", not a decimal"
    if isinstance(value, list):
        return ", not a list"
    if isinstance(value, dict):
        return ", not a table"
    return ""


def _show(key: str, value: Any) -> str:
    """A value as TOML would spell it, short enough for one line."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int) and key == "address":
        text = f"0x{value:02X}"
    elif isinstance(value, str):
        text = '"' + names.escaped(value.replace("\\", "\\\\").replace('"', '\\"'), keep="\n\t") + '"'
    elif isinstance(value, list):
        text = "[" + ", ".join(_show(key, v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {_show(k, v)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= 60 else text[:57] + "..."


def _quoted(choices: tuple[str, ...]) -> str:
    return ", ".join(f'"{c}"' for c in choices)


def _section_of(key: str) -> str | None:
    for section in SECTIONS:
        if key in SECTIONS[section]:
            return section
    return None


def _suggest(word: str, candidates, template: str, *, known: bool = True) -> str:
    lowered = {c.lower(): c for c in candidates}
    if word.lower() in lowered:
        match = lowered[word.lower()]
    else:
        import difflib  # only for a word it does not know: no process that reads a good file loads it

        close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        if not close:
            if not known:
                return ""
            return f"; known: {', '.join(template.format(c) for c in candidates)}"
        match = lowered[close[0]]
    return f"; did you mean {template.format(match)}?"
