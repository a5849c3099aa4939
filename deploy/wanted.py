#!/usr/bin/env python3
"""What a box's settings ask its install to add: the live web view, the camera over the board.

    python3 deploy/wanted.py web CONFIG       exit 0 when [web] enabled = true
    python3 deploy/wanted.py camera CONFIG    prints [camera] source: off, usb, pi, scene or folder
    python3 deploy/wanted.py settings CONFIG  prints all install.sh asks, in one line: web (1 or 0), the
                                              camera's source, the display's bus module (i2c-dev, spidev, -)

One reading for deploy/install.sh and the updater (deploy/update.py: a bundle carries the camera's
wheels, and its install takes them only where the camera is on, :func:`update_requirements`). Standard library only: it runs with the system's
python3. A config that cannot be read, or says something the box would refuse, asks for nothing
(the web view off, the camera off): the box itself reports the mistake in one line when it starts.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

#: firmware/config/models.py's CAMERA_SOURCES (tests/systemd/test_deploy_camera.py keeps them the same).
CAMERA_SOURCES = ("off", "usb", "pi", "scene", "folder")
#: The sources that open a device, and so need the camera's drop-in of the box's unit (systemd/camera/).
CAMERA_DEVICES = ("usb", "pi")


def _read(config: Path) -> dict | None:
    """The settings as a table; None where they cannot be read."""
    try:
        with open(config, "rb") as f:
            return tomllib.load(f)
    except (OSError, ValueError):
        return None


def _section(settings: dict | None, name: str) -> dict:
    table = (settings or {}).get(name, {})
    return table if isinstance(table, dict) else {}


def web_enabled(config: Path) -> bool:
    """``[web] enabled = true``."""
    return _web(_read(config))


def _web(settings: dict | None) -> bool:
    return _section(settings, "web").get("enabled") is True


def camera_source(config: Path) -> str:
    """``[camera] source``, "off" unless it is one the box knows.

    >>> camera_source(Path("/nonexistent"))
    'off'
    """
    return _camera(_read(config))


def _camera(settings: dict | None) -> str:
    source = _section(settings, "camera").get("source", "off")
    return source if source in CAMERA_SOURCES else "off"


def bus_module(config: Path) -> str | None:
    """The kernel module the display's bus needs at boot: ``[display] interface`` "i2c" (the default)
    i2c-dev, "spi" spidev; None for anything else, or settings that cannot be read.

    >>> bus_module(Path("/nonexistent")) is None
    True
    """
    return _bus(_read(config))


def _bus(settings: dict | None) -> str | None:
    if settings is None:
        return None
    display = settings.get("display", {})
    interface = display.get("interface", "i2c") if isinstance(display, dict) else None
    return {"i2c": "i2c-dev", "spi": "spidev"}.get(interface) if isinstance(interface, str) else None


def settings_line(config: Path) -> str:
    """What install.sh asks of the settings, read once (a python3 start each was a fifth of a dry run's time):
    ``web camera bus``, e.g. ``1 usb i2c-dev``; ``-`` for no bus module."""
    settings = _read(config)
    return f"{1 if _web(settings) else 0} {_camera(settings)} {_bus(settings) or '-'}"


class CameraDroppedError(ValueError):
    """An update would leave a box whose camera is on without the OpenCV it runs now."""


def update_requirements(version: str, config: Path, wheels, system_numpy: str | None = None,
                        running_has_opencv: bool = False) -> tuple[list[str], str]:
    """What the updater asks pip for from a bundle's ``wheels`` (one machine's file names), and a line to say.

    The web view's extra always (pure Python, small); the camera's where the settings turn it on, and with
    the Pi camera NumPy held at the system's (``system_numpy``, python3-picamera2's), which picamera2's
    compiled parts are built against: pip then takes the bundle's OpenCV that runs on it (a bundle carries
    two, deploy/makebundle.py). Where the bundle has no OpenCV for this machine (a 32-bit Pi: PyPI has
    none, and install.sh left the camera out too) the camera stays without, said in the line; but a
    running version that has OpenCV (found elsewhere) is not traded for one without: CameraDroppedError.

    >>> update_requirements("0.2.0", Path("/nonexistent"), [])
    (['cantstop-box[pi,web]==0.2.0'], '')
    """
    extras, held = ["pi", "web"], []
    source = camera_source(config)
    if source == "off":
        pass
    elif any(str(name).startswith("opencv_python_headless-") for name in wheels):
        extras.append("camera")
        if source == "pi" and system_numpy:
            held.append(f"numpy=={system_numpy}")
    elif running_has_opencv:
        raise CameraDroppedError(f'it carries no OpenCV for this machine, and the camera is on ([camera] source = '
                                 f'"{source}" in {config}): the update would leave it without; turn the camera '
                                 "off to update without it")
    else:
        return [f"cantstop-box[{','.join(extras)}]=={version}"], \
            f'the camera ([camera] source = "{source}") stays without OpenCV: the bundle has none for this machine'
    return [f"cantstop-box[{','.join(extras)}]=={version}", *held], ""


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("web", "camera", "settings"):
        print("usage: wanted.py web|camera|settings CONFIG", file=sys.stderr)
        return 2
    if argv[0] == "web":
        return 0 if web_enabled(Path(argv[1])) else 1
    print(settings_line(Path(argv[1])) if argv[0] == "settings" else camera_source(Path(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
