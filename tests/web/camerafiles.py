"""A camera's files beside a store, as its process leaves them (firmware/camera/pictures.py), written by a test.

The web view never decodes a picture, so a few bytes stand for one; :func:`setup` writes the set-up's photo
and its spaces (``grid.json``) for a photo of ``size``, each column's spaces evenly up a straight line.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from firmware.camera.link import GRID, PICTURES, READ, SEEN_FACT, SETUP, VIEW
from firmware.store.shared import update_fact

from engine import HEIGHTS

JPEG = b"\xff\xd8\xff\xe0 a photo \xff\xd9"
PNG = b"\x89PNG\r\n\x1a\n a board "


def folder(state_dir) -> Path:
    where = Path(state_dir) / PICTURES
    where.mkdir(exist_ok=True)
    return where


def put(state_dir, name: str, data: bytes) -> Path:
    """``data`` as the camera's ``name``, replaced whole as the camera does, with a time after the last one."""
    path = folder(state_dir) / name
    before = path.stat().st_mtime_ns if path.exists() else 0
    tmp = path.with_name(f".{name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    if path.stat().st_mtime_ns <= before:  # a coarse clock: the next version is still a new time
        os.utime(path, ns=(before + 1000, before + 1000))
    return path


def pictures(state_dir, view: bytes = JPEG, read: bytes | None = PNG) -> None:
    put(state_dir, VIEW, view)
    if read is not None:
        put(state_dir, READ, read)


def columns(size=(1600, 1200), found: bool = True) -> dict:
    """Each column's spaces in a photo of ``size``, bottom first: column c at x = (c - 1) / 12 of the width."""
    w, h = size
    if not found:
        return {}
    out = {}
    for c in range(2, 13):
        n = HEIGHTS[c]
        out[str(c)] = [[round(w * (c - 1) / 12, 1), round(h * (0.9 - 0.8 * k / 12), 1)] for k in range(n)]
    return out


def setup(state_dir, size=(1600, 1200), found: bool = True, photo: bytes = JPEG) -> dict:
    grid = {"size": list(size), "columns": columns(size, found), "score": 0.9 if found else 0.0}
    put(state_dir, SETUP, photo)
    put(state_dir, GRID, json.dumps(grid).encode())
    return grid


def seen(state_dir, state: str, wrong=(), unsure=(), why: str = "", reason: str = "handover") -> None:
    """The box's fact of what the camera last found (as firmware/ui/camera.py keeps it)."""
    verdict = {"state": state, "wrong": [list(f) for f in wrong], "unsure": [list(s) for s in unsure], "why": why}
    update_fact(state_dir, SEEN_FACT, lambda old: {"reason": reason, "verdict": verdict, "expected": []})


def wait_for(condition, timeout: float = 10.0, step: float = 0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(step)
    return condition()
