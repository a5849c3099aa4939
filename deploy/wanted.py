#!/usr/bin/env python3
"""What a box's settings ask its install to add: the live web view, the camera over the board.

    python3 deploy/wanted.py web CONFIG      exit 0 when [web] enabled = true
    python3 deploy/wanted.py camera CONFIG   prints [camera] source: off, usb, pi, scene or folder

One reading for deploy/install.sh and the updater (deploy/update.py, which installs a bundle's
camera wheels only where the camera is on). Standard library only: it runs with the system's
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


def _section(config: Path, name: str) -> dict:
    try:
        with open(config, "rb") as f:
            table = tomllib.load(f).get(name, {})
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) else {}


def web_enabled(config: Path) -> bool:
    """``[web] enabled = true``."""
    return _section(config, "web").get("enabled") is True


def camera_source(config: Path) -> str:
    """``[camera] source``, "off" unless it is one the box knows.

    >>> camera_source(Path("/nonexistent"))
    'off'
    """
    source = _section(config, "camera").get("source", "off")
    return source if source in CAMERA_SOURCES else "off"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("web", "camera"):
        print("usage: wanted.py web|camera CONFIG", file=sys.stderr)
        return 2
    if argv[0] == "web":
        return 0 if web_enabled(Path(argv[1])) else 1
    print(camera_source(Path(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
