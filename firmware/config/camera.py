"""The config's ``[camera]`` section: which camera, and what a check must know of the pieces.

Checked like every section (one line that names the key and says what it
accepts), and against ``[game]``: the camera tells the pieces by colour, so a
seat's colour may not be the runners' own.
"""

from __future__ import annotations

from typing import Any

from .models import CAMERA_SOURCES, CameraConfig, GameConfig

#: The runners' colours the camera knows.
RUNNER_COLOURS = ("white", "black")


def camera(checker, table: dict[str, Any], game: GameConfig) -> CameraConfig:
    """``[camera]`` as a :class:`CameraConfig`, ``checker`` a :class:`firmware.config.check.Checker`."""
    values: dict[str, Any] = {}
    if "source" in table:
        values["source"] = checker.choice("camera", "source", table["source"], CAMERA_SOURCES)
    for key in ("device", "folder"):
        if key in table:
            value = table[key]
            if not isinstance(value, str) or not value.strip() or len(value) > 255:
                raise checker.fail("camera", key, value, 'must be a path in quotes, like "/dev/video0"')
            values[key] = value.strip()
    if "runner" in table:
        values["runner"] = checker.choice("camera", "runner", table["runner"], RUNNER_COLOURS)
    if "piece_mm" in table:
        values["piece_mm"] = checker.integer("camera", "piece_mm", table["piece_mm"], 5, 60, " mm")
    cfg = CameraConfig(**values)
    if cfg.source == "folder" and not cfg.folder:
        raise checker.fail("camera", "source", cfg.source, 'needs folder = "..." (the photos to read in turn)')
    if cfg.on:
        same = [c for c in game.colours if c.casefold() == cfg.runner]
        if same:
            raise checker.fail("camera", "runner", cfg.runner,
                               f"is also a seat's colour in [game] colours ({same[0]}): the camera could not "
                               "tell its markers from the runners")
    return cfg
