"""The light on the table: a lamp or a window, its colour, how it falls off across the board, glare.

All in linear light. The board's plane is lit ``ambient + direct * cos`` (1 at
the board's centre), falling off with the lamp's distance, or along a slope
for a window's light; the colour temperature becomes per-channel gains that
the camera's white balance only partly undoes; glare is the lamp seen in a
shiny board: a bright soft ellipse on the plane, clipped white at its heart.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera_model import Lens

#: A black body's colour in sRGB (the camera's white: 6500 K), kelvin -> (r, g, b).
_BLACK_BODY = (
    (2000, (255, 137, 14)), (2500, (255, 161, 72)), (3000, (255, 180, 107)), (3500, (255, 196, 137)),
    (4000, (255, 209, 163)), (4500, (255, 219, 186)), (5000, (255, 228, 206)), (5500, (255, 236, 224)),
    (6000, (255, 243, 239)), (6500, (255, 249, 253)), (7000, (245, 243, 255)), (8000, (227, 233, 255)),
)


@dataclass(frozen=True)
class Lamp:
    """What shades the pieces: the lamp's place, the light that is not the lamp's, and how soft shadows are."""

    position: tuple[float, float, float]  # mm; far away for a window's light
    ambient: float  # the board's light that comes from everywhere, 0..1 (the rest is the lamp's, at the centre)
    direct: float  # the lamp's strength, so that ambient + direct * cos = 1 at the board's centre
    softness: float  # the lamp's apparent size (radians): a shadow's blur per mm of height
    reference: float  # the lamp's distance to the board's centre (mm), where direct is measured


@dataclass(frozen=True)
class Light:
    """A table's light: colour (kelvin), the camera's exposure bias, the lamp (or window), the lens' vignetting."""

    kelvin: float
    exposure: float  # the camera's exposure bias: 1 = its auto-exposure's own choice, 2 = a stop brighter
    lamp: tuple[float, float, float]  # the lamp's place (mm); for a window, very far along its direction
    ambient: float  # share of the board's light from the room, not the lamp (0.2 .. 0.85)
    softness: float  # the lamp's apparent size (radians)
    window: bool  # a window: parallel rays, and a straight slope of brightness across the board
    slope: tuple[float, float]  # the window's brightness change per mm along x and y (relative)
    vignette: float  # how much darker the frame's corners are (0 .. 0.4)

    def lamp_for_pieces(self) -> Lamp:
        """The shading the solids use: ambient + direct * cos = 1 at the board's centre."""
        pos = np.asarray(self.lamp, dtype=np.float64)
        ref = float(np.linalg.norm(pos))
        cos = pos[2] / ref
        return Lamp(self.lamp, self.ambient, (1 - self.ambient) / cos, self.softness, ref)

    def drifted(self, kelvin: float, exposure: float, lamp: tuple[float, float, float]) -> Light:
        """The same light a few minutes later: warmer or cooler, brighter or dimmer, the lamp nudged."""
        from dataclasses import replace

        moved = tuple(a + b for a, b in zip(self.lamp, lamp))
        return replace(self, kelvin=self.kelvin + kelvin, exposure=self.exposure * exposure, lamp=moved)


def black_body(kelvin: float) -> np.ndarray:
    """The light's colour as linear RGB, green 1."""
    ks = [k for k, _ in _BLACK_BODY]
    kelvin = float(np.clip(kelvin, ks[0], ks[-1]))
    rgb = np.array([np.interp(kelvin, ks, [c[i] for _, c in _BLACK_BODY]) for i in range(3)]) / 255
    lin = rgb ** 2.2
    return lin / lin[1]


def gains(light: Light, balance: float, grey_world: float, seen) -> np.ndarray:
    """Per-channel gains (R, G, B) on a picture lit by white light whose mean colour is ``seen`` (linear).

    The light's colour, which the camera's white balance takes out by ``balance`` (0..1) and, as a
    grey-world balance does, pulls towards the scene's own mean colour by ``grey_world`` (a red table
    turns the board a little cyan); then the auto-exposure, which brings the frame's mean most of the
    way to a middle grey, and the light's bias.
    """
    g = black_body(light.kelvin) ** (1 - balance)
    tinted = np.maximum(np.asarray(seen, dtype=np.float64)[:3] * g, 1e-6)
    g = g * np.clip((tinted.mean() / tinted) ** grey_world, 0.6, 1.6)
    luma = float(np.dot(np.asarray(seen, dtype=np.float64)[:3] * g, (0.3, 0.59, 0.11)))
    auto = float(np.clip((AUTO_GREY / max(luma, 1e-4)) ** 0.8, 0.4, 4.0))
    return (g * auto * light.exposure).astype(np.float32)


#: The linear mean a webcam's auto-exposure aims the frame at (about 118 of 255 after the gamma).
AUTO_GREY = 0.19


def irradiance(light: Light, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """How brightly each plane point is lit (1 at the board's centre), for plane maps ``x``, ``y`` (mm)."""
    lamp = light.lamp_for_pieces()
    px, py, pz = light.lamp
    if light.window:
        return np.clip(1 + light.slope[0] * x + light.slope[1] * y, 0.2, 3).astype(np.float32)
    dx, dy = px - x, py - y
    d2 = dx * dx + dy * dy + pz * pz
    cos = pz / np.sqrt(d2)
    return (lamp.ambient + lamp.direct * cos * (lamp.reference ** 2 / d2)).astype(np.float32)


@functools.lru_cache(maxsize=8)
def vignetting(lens: Lens, strength: float, gamma: float) -> np.ndarray:
    """The lens' falloff towards the corners as an 8-bit factor on the developed picture (255 at the centre),
    H x W x 3 uint8: the linear falloff to the power 1 / ``gamma``."""
    ys, xs = np.mgrid[0:lens.height, 0:lens.width].astype(np.float32)
    r2 = ((xs - lens.width / 2) ** 2 + (ys - lens.height / 2) ** 2) / ((lens.width / 2) ** 2 + (lens.height / 2) ** 2)
    fall = np.clip(1 - strength * r2 * (0.6 + 0.4 * r2), 0.05, 1) ** (1 / gamma)
    return cv2.merge([np.round(fall * 255).astype(np.uint8)] * 3)


@dataclass(frozen=True)
class Glare:
    """A lamp's reflection on a shiny surface: centre, half axes (mm), turn, strength.

    The centre is on the board's plane as fractions of the markers' reach (-1..1 each way), so a shot
    can be drawn before the board is known.
    """

    x: float
    y: float
    a: float
    b: float
    angle: float  # degrees
    strength: float  # linear light added at its heart (above ~1: clipped white)


def glare(spots, x: np.ndarray, y: np.ndarray, reach: tuple[float, float]) -> np.ndarray:
    """The glare added at each pixel (float32, H x W), from the plane maps ``x``, ``y`` (mm); ``reach``:
    the markers' reach (mm) along x and y."""
    out = np.zeros(x.shape, np.float32)
    for s in spots:
        c, n = math.cos(math.radians(s.angle)), math.sin(math.radians(s.angle))
        dx, dy = x - s.x * reach[0], y - s.y * reach[1]
        u = (dx * c + dy * n) / s.a
        v = (-dx * n + dy * c) / s.b
        r2 = u * u + v * v
        # a bright core and a soft halo
        out += s.strength * (np.exp(-r2 * r2 * 1.5) + 0.25 * np.exp(-r2 * 0.35))
    return out


def shaded(img: np.ndarray, field: np.ndarray) -> None:
    """Multiply a linear picture by a per-pixel factor, in place."""
    cv2.multiply(img, cv2.merge([field, field, field]), dst=img)
