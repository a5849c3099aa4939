"""The table under the board: a wooden, cloth or laminate top, and the board's soft shadow on it.

Drawn once a table (cached), two metres square at under a pixel a millimetre:
the camera sees it all around the board, where its grain, seams and colour
are there to be told apart from the board's own.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from .art import RGB, Texture, jitter, rounded_rect, value_noise, wood_grain

_SHIFT = 4


@dataclass(frozen=True)
class Surface:
    """The table under the board: "wood", "cloth" or "laminate", its colour, and a seed for its grain."""

    kind: str
    colour: RGB
    seed: int


def random_surface(rng: np.random.Generator) -> Surface:
    """A table top drawn at random: half of them wood, the rest a cloth or a laminate."""
    kind = str(rng.choice(["wood", "cloth", "laminate"], p=[0.5, 0.25, 0.25]))
    colour = {
        "wood": [(150, 102, 60), (96, 62, 38), (196, 160, 118), (62, 42, 30)],
        "cloth": [(40, 90, 60), (120, 40, 40), (200, 196, 184), (60, 60, 80)],
        "laminate": [(232, 230, 224), (170, 170, 166), (48, 48, 50), (210, 200, 178)],
    }[kind][int(rng.integers(4))]
    return Surface(kind, jitter(rng, colour, 8), int(rng.integers(2**31)))


@functools.lru_cache(maxsize=4)
def table_texture(surface: Surface, half: tuple[float, float], shadow: tuple[float, float], extent: float = 1000.0,
                  ppm: float = 0.8) -> Texture:
    """The table around the board (RGB), the board's own soft shadow on it offset by ``shadow`` (mm)."""
    n = int(extent * 2 * ppm)
    rng = np.random.default_rng(surface.seed)
    base = np.array(surface.colour, np.float32)
    mottle = value_noise(rng, (n, n), (7, 7))
    if surface.kind == "wood":
        plank = float(rng.uniform(90, 160)) * ppm  # boards of the table top, in pixels
        rows = np.arange(n, dtype=np.float32)[:, None]
        seams = np.exp(-((rows % plank) - 1) ** 2 / 1.5)
        tone = 1 + 0.06 * cv2.resize(rng.standard_normal((int(n / plank) + 2, 1)).astype(np.float32), (n, n),
                                     interpolation=cv2.INTER_NEAREST)  # each plank a little lighter or darker
        shade = tone * wood_grain(rng, (n, n), ppm, period_mm=float(rng.uniform(6, 14)), contrast=0.12) * (1 - 0.35 * seams)
        if rng.random() < 0.5:
            shade = np.ascontiguousarray(shade.T)
    elif surface.kind == "cloth":
        shade = 1 + 0.035 * mottle + 0.02 * rng.standard_normal((n, n)).astype(np.float32)
    else:
        shade = 1 + 0.015 * mottle + 0.006 * rng.standard_normal((n, n)).astype(np.float32)
    tex = Texture(np.full((n, n, 4), 255, np.uint8), -extent, extent, ppm)
    board = np.zeros((n, n), np.uint8)
    hx, hy = half
    corners = rounded_rect(shadow[0], shadow[1], 2 * hx + 3, 2 * hy + 3, 10)
    c, r = tex.to_pixels(corners[:, 0], corners[:, 1])
    cv2.fillPoly(board, [np.round(np.stack([c, r], axis=1) * (1 << _SHIFT)).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
    dark = cv2.GaussianBlur(board, (0, 0), 4 * ppm + 1).astype(np.float32) / 255
    shade = shade * (1 - 0.45 * dark)
    tex.image[..., :3] = np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)
    return tex
