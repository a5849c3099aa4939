"""The camera's pictures for people: the last photo it read, and the board as it read it, with its findings.

Written beside the store (``camera/`` in the state directory) for the web
page and the emulator, each replaced whole (a new file renamed over the old):
a reader never sees half a picture. The board as read is the photo
straightened onto the board's plane: a green ring where a piece is where the
game says, red where one is wrong (and where it is instead), yellow where the
camera could not tell, grey dots on the fitted spaces.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from sight.calibrate import Calibration
from sight.markers import MarkersError, apply, find, plane_map

from .link import GREEN, GRID, PICTURES, READ, RED, SETUP, VIEW, YELLOW

#: The last photo is kept this wide (px) at most.
VIEW_WIDTH = 960

GREY = (150, 150, 150)


def folder(state_dir) -> Path:
    return Path(state_dir) / PICTURES


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write(state_dir, photo: np.ndarray, board: np.ndarray | None) -> None:
    """Keep ``photo`` (shrunk) and ``board`` (the straightened board with its marks) for readers; an OSError
    (a full card) is the caller's to log: the check itself goes on."""
    where = folder(state_dir)
    where.mkdir(mode=0o755, exist_ok=True)
    h, w = photo.shape[:2]
    if w > VIEW_WIDTH:
        photo = cv2.resize(photo, (VIEW_WIDTH, round(h * VIEW_WIDTH / w)), interpolation=cv2.INTER_AREA)
    _replace(where / VIEW, cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes())
    if board is not None:
        _replace(where / READ, cv2.imencode(".png", board)[1].tobytes())


def write_setup(state_dir, photo: np.ndarray, cal: Calibration | None) -> None:
    """The set-up's photo at its own size (a phone's taps point into its pixels) and, once set up, where every
    space lies in it (``grid.json``: column -> its spaces' pixels, bottom first), for the phone's page."""
    where = folder(state_dir)
    where.mkdir(mode=0o755, exist_ok=True)
    _replace(where / SETUP, cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    grid = {"size": [int(photo.shape[1]), int(photo.shape[0])], "columns": {}, "score": 0.0}
    if cal is not None:
        try:
            to_photo = np.linalg.inv(plane_map(find(photo, cal.anchors.corners), cal.anchors))
        except (MarkersError, np.linalg.LinAlgError):
            to_photo = None
        if to_photo is not None:
            for col in cal.layout.columns:
                pts = apply(to_photo, np.array([col.at(k) for k in range(1, col.height + 1)]))
                grid["columns"][str(col.total)] = np.round(pts, 1).tolist()
            grid["score"] = round(cal.score, 3)
    _replace(where / GRID, json.dumps(grid).encode("ascii"))


def board(photo: np.ndarray, cal: Calibration, expected=(), verdict=None, reading=None) -> np.ndarray | None:
    """The photo straightened onto the board with what was read drawn on it (None when the markers are hidden)."""
    try:
        to_plane = plane_map(find(photo, cal.anchors.corners), cal.anchors)
    except MarkersError:
        return None
    raster = cal.raster
    out = raster.straighten(photo, to_plane)
    scale = 3  # drawn at thrice the raster's size: rings a person can see
    out = cv2.resize(out, (out.shape[1] * scale, out.shape[0] * scale), interpolation=cv2.INTER_LINEAR)
    radius = max(4, int(min(cal.layout.space) * raster.scale * scale * 0.45))

    def at(column: int, step: int) -> tuple[int, int]:
        x, y = raster.px([cal.layout.column(column).at(step)])[0] * scale
        return int(round(x)), int(round(y))

    for c, k, _ in cal.layout.spaces():
        cv2.circle(out, at(c, k), 2, GREY, -1, cv2.LINE_AA)
    statuses = reading.pieces if reading is not None else {}
    for piece in expected:
        colour = {"yes": GREEN, "no": RED}.get(statuses.get(piece, "unsure"), YELLOW)
        cv2.circle(out, at(piece.column, piece.step), radius, colour, 2, cv2.LINE_AA)
    if verdict is not None:
        for c, k in verdict.unsure:
            cv2.circle(out, at(c, k), radius // 2, YELLOW, 2, cv2.LINE_AA)
        for f in verdict.wrong:
            if f.seen:
                cv2.circle(out, at(f.column, f.seen), radius + 3, RED, 3, cv2.LINE_AA)
            if f.should:
                cv2.drawMarker(out, at(f.column, f.should), RED, cv2.MARKER_TILTED_CROSS, radius, 3, cv2.LINE_AA)
    return out
