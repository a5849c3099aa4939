"""The config's shape: what each section holds, its defaults, and the file's limits."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine import Rules

DEFAULT_PATHS = ("/etc/cantstop-box/config.toml", "~/.config/cantstop-box/config.toml")

MAX_GPIO = 27
MIN_COLOURS, MAX_COLOURS = 4, 8
MAX_COLOUR_LENGTH = 8
#: The biggest config file read (the documented default is about 3 KB); checked while reading.
MAX_CONFIG_BYTES = 64 * 1024
#: The deepest nesting of tables and lists accepted (a section holding a list of names is 2).
MAX_NESTING = 8

#: What a GPIO's alternate function is, for the buses the display may use.
I2C_PINS = {2: "the I2C data pin (SDA)", 3: "the I2C clock pin (SCL)"}
SPI_PINS = {
    7: "the SPI chip-select pin (CE1)",
    8: "the SPI chip-select pin (CE0)",
    9: "the SPI MISO pin",
    10: "the SPI data pin (MOSI)",
    11: "the SPI clock pin (SCLK)",
}


class ConfigError(Exception):
    """The config file is missing, unreadable, not TOML, or has a bad value; one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


@dataclass(frozen=True)
class ButtonPins:
    """The six buttons' BCM GPIO numbers, each wired to ground, and their timing."""

    roll: int = 5
    stop: int = 6
    a: int = 13
    b: int = 19
    c: int = 26
    menu: int = 16
    debounce_ms: int = 30
    long_press_ms: int = 800

    def pins(self) -> dict[str, int]:
        """Button name (as the firmware calls it) -> BCM GPIO number.

        >>> ButtonPins().pins()
        {'ROLL': 5, 'STOP': 6, 'A': 13, 'B': 19, 'C': 26, 'MENU': 16}
        """
        return {key.upper(): getattr(self, key) for key in BUTTON_KEYS}


BUTTON_KEYS = ("roll", "stop", "a", "b", "c", "menu")


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED: driver chip, bus, and how it is mounted.

    ``port`` is the I2C bus number (``/dev/i2c-<port>``); over SPI the display
    is on SPI0, chip select ``spi_device``, with ``gpio_dc`` and ``gpio_reset``.
    """

    driver: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1
    address: int = 0x3C
    spi_device: int = 0
    gpio_dc: int = 24
    gpio_reset: int = 25
    rotation: int = 0
    contrast: int = 255
    dim_after_min: int = 10
    language: str = "en"  # the words on the screen until the table picks another on the new-game screen
    size: str = ""  # "128x32" for the 0.91-inch module; empty: the driver's usual size (hw.display.SIZES)

    @property
    def dimensions(self) -> tuple[int, int]:
        """The panel's (width, height) in pixels: ``size``, or the driver's usual size.

        >>> DisplayConfig(size="128x32").dimensions
        (128, 32)
        """
        if self.size:
            width, _, height = self.size.partition("x")
            return int(width), int(height)
        from hw.panels import SIZES

        return SIZES[self.driver][0]

    def oled_options(self) -> dict[str, Any]:
        """Keyword arguments for ``hw.display.open_oled(driver, **options)``.

        >>> DisplayConfig(interface="spi").oled_options()["spi_port"]
        0
        """
        return {
            "interface": self.interface,
            "port": self.port,
            "address": self.address,
            "spi_port": 0,
            "spi_device": self.spi_device,
            "gpio_dc": self.gpio_dc,
            "gpio_reset": self.gpio_reset,
            "rotation": self.rotation,
            "contrast": self.contrast,
            "width": self.dimensions[0],
            "height": self.dimensions[1],
        }


@dataclass(frozen=True)
class GameConfig:
    """What a new game starts with: the colours players pick from, and the rules."""

    colours: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow")
    players: int = 2
    columns_to_win: int = 3
    speedy: bool = False
    risky: bool = False
    roster: tuple[str, ...] = ()  # the players' names a seat can take; `cantstop-box players` edits them
    box_pace_ms: int = 1200  # how long each step of a box seat's turn stays on the screen
    handover_guard_ms: int = 600  # presses this soon after a turn ends do not roll the next dice
    # Not a [game] key: set from [sound] (None: no buzzer, so no mute in the menu; False: muted at first).
    sound: bool | None = None

    @property
    def rules(self) -> Rules:
        """The rules a new game starts with."""
        return Rules(columns_to_win=self.columns_to_win, speedy=self.speedy, risky=self.risky)


@dataclass(frozen=True)
class LightsConfig:
    """The lamps inside the buttons: a BCM pin per button that has one (None: no lamp)."""

    roll: int | None = None
    stop: int | None = None
    a: int | None = None
    b: int | None = None
    c: int | None = None
    menu: int | None = None
    active_high: bool = True  # the pin drives the lamp high (through a resistor or a transistor)

    def pins(self) -> dict[str, int]:
        """Button name -> the pin of its lamp, for the buttons that have one.

        >>> LightsConfig(roll=17).pins()
        {'ROLL': 17}
        """
        return {key.upper(): getattr(self, key) for key in BUTTON_KEYS if getattr(self, key) is not None}


#: Free pins for the optional lamps and buzzer (the wiring diagram and docs/building.md show them).
SUGGESTED_LIGHTS = LightsConfig(roll=17, stop=27, a=22, b=23, c=20, menu=21)
SUGGESTED_BUZZER = 18


@dataclass(frozen=True)
class SoundConfig:
    """The optional piezo buzzer: its pin (None: none), loudness and whether it starts muted."""

    pin: int | None = None
    volume: int = 50  # 1..100 (a passive piezo's PWM duty; an active buzzer has one loudness)
    mute: bool = False  # muted until the menu's Sound item turns it on (remembered across restarts)


@dataclass(frozen=True)
class WebConfig:
    """The live web view (``cantstop-box web``, its own service): off unless enabled."""

    enabled: bool = False  # deploy/install.sh installs and starts cantstop-box-web only when true
    host: str = "0.0.0.0"  # the address to listen on: every interface of the box's network; "127.0.0.1" for this machine only
    port: int = 8080


#: Where the camera's pictures come from (docs/camera.md): none, a USB webcam, the Raspberry Pi camera, a
#: board drawn from the game (the emulator's and the tests'), or a folder of photos.
CAMERA_SOURCES = ("off", "usb", "pi", "scene", "folder")


@dataclass(frozen=True)
class CameraConfig:
    """The camera over the board that checks the pieces against the game: off unless a source is named."""

    source: str = "off"
    device: str = "/dev/video0"  # a USB webcam's V4L2 device
    folder: str | None = None  # for source = "folder": photos read in turn
    runner: str = "white"  # the runners' colour (white in most editions; black in some)
    piece_mm: int = 16  # how tall a piece stands: its top leans away from the camera

    @property
    def on(self) -> bool:
        return self.source != "off"


@dataclass(frozen=True)
class Config:
    """Every setting of the box. ``state_dir`` None means the store's default."""

    buttons: ButtonPins = field(default_factory=ButtonPins)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    game: GameConfig = field(default_factory=GameConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    web: WebConfig = field(default_factory=WebConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    state_dir: str | None = None
    path: str | None = None

    def replace(self, **changes: Any) -> Config:
        """A copy with some fields changed (the models are frozen)."""
        return dataclasses.replace(self, **changes)


def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


#: The file's layout: section -> its keys, in documentation order.
SECTIONS: dict[str, tuple[str, ...]] = {
    "buttons": _names(ButtonPins),
    "display": _names(DisplayConfig),
    "game": tuple(n for n in _names(GameConfig) if n != "sound"),
    "lights": _names(LightsConfig),
    "sound": _names(SoundConfig),
    "storage": ("state_dir",),
    "web": _names(WebConfig),
    "camera": _names(CameraConfig),
}
